"""Loading (Loader): dry runs on the synthetic tree tests/data/load.

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import errno
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import modalias
from modalias_testlib import (
    LOAD_CONF,
    LOAD_MODDIR,
    LOAD_ROOT,
    LOAD_VERSION,
    child_failure,
    run_child)


# ---- loading (dry runs on the synthetic tree) ------------------------------------------------


class TestLoader(unittest.TestCase):
    def setUp(self):
        self.table = modalias.Table(LOAD_MODDIR)
        self.table.load_config([LOAD_CONF])
        self.loader = modalias.Loader(LOAD_MODDIR, [LOAD_CONF])

    def tearDown(self):
        self.loader.close()
        self.table.close()

    def path(self, name):
        return os.path.join(LOAD_MODDIR, "kernel", "test", name)

    def test_dependencies_dry_run(self):
        recs = self.loader.load(self.table, "test:dev:abc")
        self.assertEqual([(r.module, r.state) for r in recs],
                         [("mod_c", "would insert"), ("mod_b", "would insert"), ("mod_a", "would insert")])
        self.assertEqual(recs[0].detail, self.path("mod_c.ko"))
        self.assertEqual(recs[0].errno, 0)

    def test_states(self):
        load = lambda a: [(r.module, r.state, r.detail, r.options) for r in self.loader.load(self.table, a)]
        self.assertEqual(load("test:dev:black"), [("mod_black", "blacklisted", "", "")])
        self.assertEqual(load("test:dev:builtin"), [("mod_builtin", "builtin", "", "")])
        self.assertEqual(load("test:dev:cmd"), [("mod_cmd", "install command", "/bin/true", "")])
        self.assertEqual(load("test:dev:opt"), [("mod_opt", "would insert", self.path("mod_opt.ko"),
                                                 "debug=1 level=2 ")])  # as libkmod passes them
        self.assertEqual([m for m, *_ in load("test:dev:soft")], ["mod_pre", "mod_soft", "mod_post"])
        self.assertEqual(load("test:dev:nothing"), [])
        self.loader.add_blacklist("mod-x")
        multi = load("test:dev:multi")
        self.assertEqual(multi[-1][:2], ("mod_x", "blacklisted"))
        mods = self.loader.load_module("mod_b")
        self.assertEqual([(r.module, r.state) for r in mods], [("mod_c", "would insert"), ("mod_b", "would insert")])

    def test_like_modprobe(self):
        modprobe = shutil.which("modprobe") or next((p for p in ("/sbin/modprobe", "/usr/sbin/modprobe")
                                                      if os.path.exists(p)), None)
        if not modprobe:
            self.skipTest("no modprobe")
        for alias in ("test:dev:abc", "test:dev:soft", "test:dev:opt", "test:dev:multi", "test:dev:cmd",
                      "test:dev:dash", "test:dev:needsfail", "test:dev:black", "test:dev:nothing"):
            out = subprocess.run([modprobe, "-n", "-v", "-d", LOAD_ROOT, "-S", LOAD_VERSION, "-C", LOAD_CONF,
                                  alias], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 universal_newlines=True).stdout
            ours = ""
            for r in self.loader.load(self.table, alias, dry_run=True):
                if r.state == "would insert":
                    ours += "insmod %s %s\n" % (r.detail, r.options)
                elif r.state == "install command":
                    ours += "install %s %s\n" % (r.detail, r.options)
            self.assertEqual(ours, out, alias)

    def test_module_names(self):
        """Only module names reach libkmod: 'x'*5000 smashed its stack, and
        '/etc/passwd', '', 'a/b' and an unknown module 'would insert' (issue 13, item 4)."""
        # in a child: on the code before, the overlong names abort the interpreter
        code = """if 1:
            import errno, sys, modalias
            l = modalias.Loader(sys.argv[1], [sys.argv[2]])
            for n in (5000, 4093, 256):
                try:
                    r = l.load_module("x" * n)
                except modalias.InputError as e:
                    assert e.errno == errno.ENAMETOOLONG, e
                    assert "is not a module name" in e.strerror, e
                else:
                    sys.exit("%d bytes: %r" % (n, r))
            print("ok")
        """
        rc, out, err = run_child(code, LOAD_MODDIR, LOAD_CONF)
        self.assertEqual((rc, out), (0, "ok\n"), child_failure(rc, err))
        for name in ("/etc/passwd", "a/b", "../mod_a", "", ".", ".ko", "mod_a\nforged", "x" * 256):
            for dry in (True, False):
                with self.assertRaises(modalias.InputError, msg=repr(name)) as cm:
                    self.loader.load_module(name, dry_run=dry)
                self.assertIsInstance(cm.exception, ValueError)
                self.assertIn(cm.exception.errno, (errno.EINVAL, errno.ENAMETOOLONG))
                self.assertIn("is not a module name", cm.exception.strerror)
                self.assertNotIn("\n", cm.exception.strerror)
            with self.assertRaises(modalias.InputError):
                self.loader.add_blacklist(name)
        # a name, of no module: not found, as modprobe says
        for name in ("nosuchmod", "x" * 255):
            recs = self.loader.load_module(name)
            self.assertEqual([(r.module, r.state, r.detail, r.errno) for r in recs],
                             [(name, "not found", "", errno.ENOENT)])
        # what libkmod takes as a name still works
        self.assertEqual([r.module for r in self.loader.load_module(module="mod-b")], ["mod_c", "mod_b"])
        self.assertEqual([r.module for r in self.loader.load_module("mod_a.ko")], ["mod_c", "mod_b", "mod_a"])

    def test_alias_to_a_missing_module(self):
        """A modprobe.d alias to a missing module is 'not found', where modprobe -n -v
        prints nothing (the old dry run said 'insmod  ') (issue 13, item 9)."""
        with tempfile.TemporaryDirectory() as tmp:
            extra = os.path.join(tmp, "missing.conf")
            with open(extra, "w") as f:
                f.write("alias test:dev:missing nosuchmod\nalias test:dev:slash a/b\n")
            with modalias.Table(LOAD_MODDIR) as table, modalias.Loader(LOAD_MODDIR, [LOAD_CONF, extra]) as loader:
                table.load_config([LOAD_CONF, extra])
                recs = loader.load(table, "test:dev:missing")
                self.assertEqual([(r.module, r.state, r.detail, r.errno) for r in recs],
                                 [("nosuchmod", "not found", "", errno.ENOENT)])
                # a path is no module name: the table refuses the line when it reads the
                # configuration, so the alias answers nothing at all
                recs = loader.load(table, "test:dev:slash")
                self.assertEqual(recs, [])
                modprobe = shutil.which("modprobe") or next(
                    (p for p in ("/sbin/modprobe", "/usr/sbin/modprobe") if os.path.exists(p)), None)
                if modprobe:
                    for alias in ("test:dev:missing", "test:dev:slash"):
                        out = subprocess.run([modprobe, "-n", "-v", "-d", LOAD_ROOT, "-S", LOAD_VERSION, "-C",
                                              LOAD_CONF, "-C", extra, alias], stdout=subprocess.PIPE,
                                             stderr=subprocess.DEVNULL, universal_newlines=True).stdout
                        self.assertEqual(out, "", alias)

    def test_revalidate(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "m")
            shutil.copytree(LOAD_MODDIR, copy)
            with modalias.Loader(copy, []) as loader:
                self.assertFalse(loader.revalidate())
                later = os.stat(os.path.join(copy, "modules.dep.bin")).st_mtime + 100
                os.utime(os.path.join(copy, "modules.dep.bin"), (later, later))
                self.assertTrue(loader.revalidate())
                self.assertFalse(loader.revalidate())
            self.assertTrue(loader.closed)

    def test_errors(self):
        with self.assertRaises(TypeError):
            self.loader.load("not a table", "test:dev:abc")
        with self.assertRaises(TypeError):
            self.loader.load(self.table, 1)
        with self.assertRaises(modalias.InputError):
            self.loader.load(self.table, "test:[dev")
        with self.assertRaises(modalias.InputError):
            self.loader.add_blacklist("")
        closed = modalias.Table.empty()
        closed.close()
        with self.assertRaises(ValueError):
            self.loader.load(closed, "x")
        with self.assertRaises(TypeError):
            modalias.Loader(LOAD_MODDIR, [None])
        l = modalias.Loader(LOAD_MODDIR, [])
        l.close()
        for call in (lambda: l.load(self.table, "test:dev:abc"), lambda: l.load_module("mod_a"),
                     lambda: l.add_blacklist("x"), lambda: l.revalidate()):
            with self.assertRaises(ValueError):
                call()
        self.assertTrue(issubclass(modalias.UnsupportedError, modalias.Error))
        self.assertTrue(issubclass(modalias.AccessError, PermissionError))


if __name__ == "__main__":
    unittest.main()
