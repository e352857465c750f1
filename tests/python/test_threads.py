"""Memory (no growth over repeated calls), threads (the GIL released safely) and close()/with.

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import gc
import os
import random
import resource
import sys
import threading
import tracemalloc
import unittest

import modalias
from modalias_testlib import (
    LOAD_MODDIR,
    MAPS,
    MODDIR,
    child_failure,
    diag,
    load_uevents,
    moddir_table,
    rss_kib,
    run_child)


# ---- memory and threads -----------------------------------------------------------------------


class TestMemory(unittest.TestCase):
    def test_1e5_resolves_do_not_grow(self):
        t = moddir_table()
        aliases = ["hid:b0003g0001v0000046Dp0000C52B",
                   "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00",
                   "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00",
                   "no:such:device", "e1000e", "unix"]
        for i in range(20000):  # warm-up: caches, free lists, arenas
            t.resolve(aliases[i % len(aliases)])
        gc.collect()
        rss0 = rss_kib()
        max0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        tracemalloc.start()
        snap0 = tracemalloc.take_snapshot()
        n = 0
        for i in range(100000):
            mods = t.resolve(aliases[i % len(aliases)])
            n += len(mods)
        for i in range(1000):
            t.resolve_many(aliases)
        gc.collect()
        snap1 = tracemalloc.take_snapshot()
        tracemalloc.stop()
        traced = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
        rss1 = rss_kib()
        max1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        diag("memory: 100000 resolves (%d modules) + 1000 batches: RSS %d -> %d KiB (%+d), "
             "maxrss %d -> %d KiB, Python heap %+d bytes" % (n, rss0, rss1, rss1 - rss0, max0, max1, traced))
        self.assertLess(rss1 - rss0, 1024)  # one leaked object per resolve would be > 3 MiB
        self.assertLess(max1 - max0, 2048)
        self.assertLess(traced, 64 * 1024)

    def test_objects_released(self):
        # tables, maps, loaders: closing or dropping them gives their memory back
        rss0 = None
        for i in range(30):
            with modalias.Table.from_file(os.path.join(MODDIR, "modules.alias")) as t:
                t.resolve("usb:v1")
            m = modalias.Map.from_file(os.path.join(MAPS, "modules.pcimap"))
            m.entries
            del m
            d = modalias.parse("usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00")
            del d
            if i == 5:
                gc.collect()
                rss0 = rss_kib()
        gc.collect()
        growth = rss_kib() - rss0
        diag("memory: 24 more tables of 26222 patterns opened and closed: RSS %+d KiB" % growth)
        self.assertLess(growth, 4096)


class TestThreads(unittest.TestCase):
    def test_one_table_four_threads(self):
        t = moddir_table()
        aliases = [ev["MODALIAS"] for ev in load_uevents() if "MODALIAS" in ev][:1500]
        want = t.resolve_many(aliases)
        errors, counts = [], [0] * 4
        start = threading.Barrier(4)

        def work(k):
            try:
                start.wait()
                for rnd in range(3):
                    order = list(range(len(aliases)))
                    random.Random(k * 10 + rnd).shuffle(order)
                    for i in order:
                        if t.resolve(aliases[i]) != want[i]:
                            errors.append((k, aliases[i]))
                        counts[k] += 1
                    if t.resolve_many(aliases[:200]) != want[:200]:
                        errors.append((k, "batch"))
            except Exception as e:  # pragma: no cover
                errors.append((k, repr(e)))

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        diag("threads: 4 threads, %d lookups in one table, %d wrong" % (sum(counts), len(errors)))
        self.assertEqual(errors, [])

    def test_resolve_many_while_the_list_changes(self):
        """resolve_many() copies its aliases before it releases the GIL: another thread
        emptying, shrinking or refilling the list (freeing its strings) during the call
        crashes nothing, and the answer is that of the list as it was when the call
        began (issue 13, item 4).  Before, this crashed (SIGSEGV) in the first rounds."""
        code = """if 1:
            import sys, threading, time, modalias
            moddir, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            t = modalias.Table(moddir)
            t.load_config([])

            def fresh(k):
                # new str objects each time, owned by the list alone
                return ["usb:v%04Xp%04Xd0000dc00dsc00dp00ic03isc01ip01in00" % (0x046D + i % 7, i)
                        for i in range(k)]

            lst = fresh(n)
            full = t.resolve_many(list(lst))
            assert sum(map(bool, full)) > n // 2, "too few aliases resolve"
            answers = {0: [], n // 2: full[:n // 2], n: full}
            in_call, stop = threading.Event(), threading.Event()
            mutations = [0]

            def mutate():
                k = 0
                while not stop.is_set():
                    if not in_call.wait(0.01):
                        continue
                    k += 1
                    if k % 3 == 0:
                        lst.clear()
                    elif k % 3 == 1:
                        del lst[n // 2:]
                    else:
                        lst[:] = fresh(n)
                    mutations[0] += 1
                    time.sleep(0)
                    lst[:] = fresh(n)
                    time.sleep(0)

            th = threading.Thread(target=mutate)
            th.start()
            sys.setswitchinterval(1e-5)
            wrong = changed = 0
            try:
                for rnd in range(rounds):
                    before = mutations[0]
                    in_call.set()
                    out = t.resolve_many(lst)
                    in_call.clear()
                    changed += mutations[0] != before
                    wrong += out != answers.get(len(out))
            finally:
                stop.set()
                th.join()
            print(rounds, changed, mutations[0], wrong)
        """
        rc, out, err = run_child(code, MODDIR, 20000, 30)
        self.assertEqual(rc, 0, child_failure(rc, err))
        rounds, changed, mutations, wrong = map(int, out.split())
        diag("threads: %d resolve_many() calls of 20000 aliases, %d of them with the list changed "
             "under them (%d changes), %d answers not of the list as it was" % (rounds, changed, mutations, wrong))
        self.assertGreater(changed, 0)
        self.assertEqual(wrong, 0)

    def test_load_map_while_the_map_closes(self):
        """Table.load_map() holds its own reference to the C map while the GIL is
        released: another thread closing the Map meanwhile frees nothing in use."""
        code = """if 1:
            import sys, threading, modalias
            # a big map: loading it takes a while, and its rows are freed with it
            text = "".join("m%d 0x0003 0x%04x 0x%04x 0x0000 0x0000 0x00 0x00 0x00 0x00 0x00 0x00 "
                           "0x0\\n" % (i, i % 65536, i // 7) for i in range(int(sys.argv[1])))
            want = modalias.Table.empty()
            want.load_map(modalias.Map.from_string(text, type="usb"))
            loaded = during = wrong = 0
            for rnd in range(int(sys.argv[2])):
                m = modalias.Map.from_string(text, type="usb")
                t = modalias.Table.empty()
                go = threading.Event()
                th = threading.Thread(target=lambda: (go.wait(), m.close()))
                th.start()
                try:
                    go.set()
                    t.load_map(m)
                    loaded += 1
                    during += m.closed  # closed before load_map() returned
                    wrong += t.pattern_count != want.pattern_count
                except ValueError:
                    pass  # closed before the call
                th.join()
            print(loaded, during, wrong)
        """
        rc, out, err = run_child(code, 20000, 20)
        self.assertEqual(rc, 0, child_failure(rc, err))
        loaded, during, wrong = map(int, out.split())
        diag("threads: %d load_map() calls of a 20000-row map, %d of them with the map closed under "
             "them, %d wrong" % (loaded, during, wrong))
        self.assertGreater(during, 0)
        self.assertEqual(wrong, 0)

    def test_changes_and_close_while_looking_up(self):
        t = modalias.Table(MODDIR)
        stop = threading.Event()
        errors, done = [], [0]

        def reader():
            while not stop.is_set():
                try:
                    r = t.resolve("hid:b0003g0001v0000046Dp0000C52B")
                    if [m.name for m in r][:2] != ["hid_generic", "hid_logitech_dj"]:
                        errors.append(r)
                    done[0] += 1
                except ValueError:  # closed
                    return
                except Exception as e:  # pragma: no cover
                    errors.append(repr(e))
                    return

        threads = [threading.Thread(target=reader) for _ in range(3)]
        for th in threads:
            th.start()
        for i in range(50):
            t.add("acme:%d:*" % i, "acme%d" % i)
        self.assertEqual(t.resolve("acme:7:x")[0].name, "acme7")
        t.close()
        stop.set()
        for th in threads:
            th.join()
        self.assertEqual(errors, [])
        self.assertGreater(done[0], 0)


# ---- close(), "with" and closed: one behaviour for Table, Map and Loader ---------------------


class TestClose(unittest.TestCase):
    """What the three types holding a C object share (bindings/python/handle.c),
    one row a type: how to make one, and every call that needs it open."""

    ROWS = [
        ("Table", lambda: modalias.Table.from_string("alias usb:v1234* mod\n"),
         [lambda t: t.resolve("usb:v1234"), lambda t: t.resolve_many(["x"]), lambda t: t.add("a:*", "m"),
          lambda t: t.add_blacklist("m"), lambda t: t.is_blacklisted("m"), lambda t: t.load_string("x"),
          lambda t: t.load_file(os.devnull), lambda t: t.load_config([]), lambda t: t.save(os.devnull),
          lambda t: t.load_map(modalias.Map.from_string("", type="usb")), lambda t: t.write_map("usb"),
          lambda t: t.pattern_count, lambda t: t.memory]),
        ("Map", lambda: modalias.Map.from_string("", type="usb"),
         [len, lambda m: m[0], lambda m: m.entries, lambda m: m.type, lambda m: m.name, lambda m: m.columns,
          lambda m: m.word_bits, lambda m: setattr(m, "word_bits", 32), lambda m: m.aliases(0),
          lambda m: m.to_aliases(), lambda m: m.match(modalias.Device("usb"))]),
        ("Loader", lambda: modalias.Loader(LOAD_MODDIR, []),
         [lambda l: l.load(modalias.Table.empty(), "x"), lambda l: l.load_module("mod_a"),
          lambda l: l.add_blacklist("m"), lambda l: l.revalidate()]),
    ]

    def test_close_with_closed(self):
        for name, make, calls in self.ROWS:
            with self.subTest(name):
                obj = make()
                self.assertFalse(obj.closed)
                with obj as entered:
                    self.assertIs(entered, obj)
                    self.assertFalse(obj.closed)
                self.assertTrue(obj.closed)
                self.assertIsNone(obj.close())  # closing twice is harmless
                self.assertTrue(obj.closed)
                with self.assertRaisesRegex(ValueError, "^operation on a closed %s$" % name):
                    with obj:
                        pass
                for i, call in enumerate(calls):
                    with self.assertRaisesRegex(ValueError, "^operation on a closed %s$" % name, msg=i):
                        call(obj)
                obj = make()
                self.assertIsNone(obj.__exit__(None, None, None))
                self.assertTrue(obj.closed)

    def test_an_exception_in_with_closes_and_propagates(self):
        for name, make, _ in self.ROWS:
            with self.subTest(name):
                with self.assertRaises(KeyError):
                    with make() as obj:
                        raise KeyError(name)
                self.assertTrue(obj.closed)

    def test_closed_loader_is_named_before_closed_table(self):
        loader, table = modalias.Loader(LOAD_MODDIR, []), modalias.Table.empty()
        loader.close()
        table.close()
        with self.assertRaisesRegex(ValueError, "closed Loader"):
            loader.load(table, "x")
        with modalias.Loader(LOAD_MODDIR, []) as loader:
            with self.assertRaisesRegex(ValueError, "closed Table"):
                loader.load(table, "x")


if __name__ == "__main__":
    unittest.main()
