"""The oracle: resolve against libkmod (through ctypes) on generated lookups.

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import ctypes
import ctypes.util
import os
import random
import unittest

import modalias
from modalias_testlib import MODDIR, diag, load_uevents, moddir_table


# ---- the oracle: libkmod through ctypes --------------------------------------------------------


class Kmod:
    """kmod_module_new_from_lookup() through ctypes."""

    def __init__(self, moddir):
        name = ctypes.util.find_library("kmod") or "libkmod.so.2"
        self.lib = lib = ctypes.CDLL(name)
        lib.kmod_new.restype = ctypes.c_void_p
        lib.kmod_new.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
        lib.kmod_unref.argtypes = [ctypes.c_void_p]
        lib.kmod_set_log_priority.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.kmod_load_resources.argtypes = [ctypes.c_void_p]
        lib.kmod_module_new_from_lookup.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                                    ctypes.POINTER(ctypes.c_void_p)]
        lib.kmod_list_next.restype = ctypes.c_void_p
        lib.kmod_list_next.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.kmod_module_get_module.restype = ctypes.c_void_p
        lib.kmod_module_get_module.argtypes = [ctypes.c_void_p]
        lib.kmod_module_get_name.restype = ctypes.c_char_p
        lib.kmod_module_get_name.argtypes = [ctypes.c_void_p]
        lib.kmod_module_unref.argtypes = [ctypes.c_void_p]
        lib.kmod_module_unref_list.argtypes = [ctypes.c_void_p]
        no_config = (ctypes.c_char_p * 1)(None)
        self.ctx = lib.kmod_new(moddir.encode(), no_config)
        if not self.ctx:
            raise OSError("kmod_new failed")
        lib.kmod_set_log_priority(self.ctx, 0)
        lib.kmod_load_resources(self.ctx)

    def lookup(self, alias):
        lib = self.lib
        head = ctypes.c_void_p()
        r = lib.kmod_module_new_from_lookup(self.ctx, alias.encode("utf-8", "surrogateescape"),
                                            ctypes.byref(head))
        if r < 0:
            return "error %d" % r
        names, seen = [], set()
        node = head.value
        while node:
            mod = lib.kmod_module_get_module(node)
            name = lib.kmod_module_get_name(mod).decode()
            lib.kmod_module_unref(mod)
            if name not in seen:  # kmod's duplicates folded, order kept
                seen.add(name)
                names.append(name)
            node = lib.kmod_list_next(head.value, node)
        lib.kmod_module_unref_list(head.value)
        return names

    def close(self):
        self.lib.kmod_unref(self.ctx)


ALPHABET = "0123456789ABCDEFabcdef_-:,.*vpdisc"


def instantiate(rng, p):
    """A concrete string the pattern matches (as tests/corpus.h does)."""
    out, i = [], 0
    while i < len(p):
        c = p[i]
        if c == "*":
            out.append("".join(rng.choice(ALPHABET) for _ in range(rng.randrange(4))))
            i += 1
        elif c == "?":
            out.append(rng.choice(ALPHABET[:16]))
            i += 1
        elif c == "[":
            close = p.find("]", i + 1)
            if close < 0:
                out.append(c)
                i += 1
                continue
            body = p[i + 1:close]
            if body and body[0] not in "!^":
                ch = rng.choice(body)
                out.append(body[0] if ch == "-" else ch)
            else:
                out.append("Z")
            i = close + 1
        elif c == "\\" and i + 1 < len(p):
            out.append(p[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def oracle_corpus(n_patterns=1500, seed=7):
    rng = random.Random(seed)
    patterns = []
    with open(os.path.join(MODDIR, "modules.alias")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "alias":
                patterns.append(parts[1])
    sample = [instantiate(rng, p) for p in rng.sample(patterns, n_patterns)]
    real = sorted({ev["MODALIAS"] for ev in load_uevents() if "MODALIAS" in ev})
    real = rng.sample(real, min(len(real), 600))
    corpus, seen = [], set()
    for a in sample + real:
        if a not in seen:
            seen.add(a)
            corpus.append(a)
    return corpus, len(sample), len(real)


class TestOracle(unittest.TestCase):
    def test_same_answers_as_libkmod(self):
        try:
            kmod = Kmod(MODDIR)
        except OSError as e:
            self.skipTest("libkmod: %s" % e)
        corpus, n_sample, n_real = oracle_corpus()
        t = moddir_table()
        ours_all = t.resolve_many(corpus)
        bad, resolved = [], 0
        for alias, ours in zip(corpus, ours_all):
            want = kmod.lookup(alias)
            got = [m.name for m in ours]
            resolved += bool(got)
            if got != want:
                bad.append((alias, want, got))
        kmod.close()
        diag("oracle: %d aliases (%d instantiated patterns, %d real MODALIAS), %d resolved, "
             "%d disagreements with libkmod" % (len(corpus), n_sample, n_real, resolved, len(bad)))
        for b in bad[:10]:
            diag("DISAGREE on %r: kmod %r, libmodalias %r" % b)
        self.assertGreaterEqual(len(corpus), 2000)
        self.assertEqual(bad, [])
        self.assertGreater(resolved, n_sample * 3 // 4)


if __name__ == "__main__":
    unittest.main()
