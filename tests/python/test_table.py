"""Tables (Table: resolve, resolve_many, explain, config) and legacy maps (Map).

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import errno
import os
import shutil
import tempfile
import unittest
import warnings

import modalias
from modalias_testlib import MAPS, MODDIR, SRCDIR, diag, load_uevents, moddir_table


# ---- tables ------------------------------------------------------------------------------------


class TestTable(unittest.TestCase):
    def test_resolve_explain(self):
        t = moddir_table()
        mods = t.resolve("hid:b0003g0001v0000046Dp0000C52B")
        self.assertEqual([m.name for m in mods], ["hid_generic", "hid_logitech_dj"])
        self.assertEqual(mods[0].patterns, ("hid:b*g*v*p*",))
        self.assertEqual(mods[0].origins, ((os.path.join(MODDIR, "modules.alias"), 20614),))
        self.assertEqual(mods[1].origins[0][1], 20919)
        self.assertEqual(mods[0].source, "alias")
        self.assertFalse(mods[0].builtin)
        self.assertEqual(mods[0], ("hid_generic", False, ("hid:b*g*v*p*",), "alias",
                                   ((os.path.join(MODDIR, "modules.alias"), 20614),)))
        self.assertEqual(t.resolve("no:such:device"), [])
        self.assertEqual(t.pattern_count, 26222)
        self.assertGreater(t.memory, 1000000)
        self.assertEqual(t.skipped, 0)

    def test_sources(self):
        t = moddir_table()
        e1000e = t.resolve("pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00")
        self.assertEqual([m.name for m in e1000e], ["e1000e"])
        self.assertEqual(t.resolve("e1000e")[0].source, "name")
        builtin = [m for m in t.resolve("unix") if m.builtin]
        self.assertTrue(builtin and builtin[0].source == "builtin", t.resolve("unix"))

    def test_resolve_many(self):
        t = moddir_table()
        aliases = [ev["MODALIAS"] for ev in load_uevents() if "MODALIAS" in ev][:300]
        self.assertEqual(t.resolve_many(aliases), [t.resolve(a) for a in aliases])
        self.assertEqual(t.resolve_many(iter(aliases[:3])), [t.resolve(a) for a in aliases[:3]])
        self.assertEqual(t.resolve_many([]), [])
        with self.assertRaises(TypeError):
            t.resolve_many(["usb:", 1])
        with self.assertRaises(TypeError):
            t.resolve_many(5)

    def test_from_string_add_blacklist(self):
        with modalias.Table.from_string("alias usb:v1234p* foo\nalias usb:v12* bar-baz\n",
                                        name="mine") as t:
            self.assertEqual([m.name for m in t.resolve("usb:v1234p0001")], ["foo", "bar_baz"])
            self.assertEqual(t.resolve("usb:v1234p0001")[0].origins, (("mine", 1),))
            t.add("acme:*", "acme-drv")
            self.assertEqual(t.resolve("acme:x")[0].name, "acme_drv")
            self.assertEqual(t.resolve("acme:x")[0].origins, (("(added)", 0),))
            self.assertFalse(t.is_blacklisted("foo"))
            t.add_blacklist("foo")
            self.assertTrue(t.is_blacklisted("foo"))
            self.assertEqual(t.load_string("alias x:* xmod\n"), 0)
            self.assertEqual(t.resolve("x:1")[0].name, "xmod")
            self.assertEqual(t.pattern_count, 4)
        self.assertTrue(t.closed)
        e = modalias.Table.empty()
        self.assertEqual(e.resolve("usb:v1"), [])
        e.close()

    def test_from_file_and_load_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "extra.alias")
            with open(path, "w") as f:
                f.write("# comment\n\nalias pnp:dPNP0303* atkbd\n")
            t = modalias.Table.from_file(path)
            self.assertEqual(t.resolve("pnp:dPNP0303")[0].origins, ((path, 3),))
            t2 = modalias.Table(MODDIR)
            self.assertEqual(t2.load_file(path), 0)
            self.assertIn(path, [o[0] for m in t2.resolve("pnp:dPNP0303") for o in m.origins])
            t.close()
            t2.close()

    def test_load_config(self):
        with tempfile.TemporaryDirectory() as tmp:
            conf = os.path.join(tmp, "local.conf")
            with open(conf, "w") as f:
                f.write("alias my-nic e1000e\nblacklist snd_pcsp\ninstall notamodule /bin/true\n")
            t = modalias.Table(MODDIR)
            t.load_config([tmp])
            mods = t.resolve("my-nic")
            self.assertEqual([(m.name, m.source) for m in mods], [("e1000e", "config")])
            self.assertTrue(t.is_blacklisted("snd-pcsp"))
            self.assertEqual(t.resolve("notamodule")[0].source, "command")
            t2 = modalias.Table(MODDIR)
            t2.load_config(conf)  # one file, as a str
            self.assertEqual(t2.resolve("my-nic")[0].name, "e1000e")
            t.close()
            t2.close()

    def test_cache(self):
        with tempfile.TemporaryDirectory() as tmp:
            cache = os.path.join(tmp, "cache")
            os.mkdir(cache)
            a = modalias.Table(MODDIR, cache_dir=cache)
            self.assertTrue(os.listdir(cache))
            b = modalias.Table(MODDIR, cache_dir=cache)
            alias = "hid:b0003g0001v0000046Dp0000C52B"
            self.assertEqual(a.resolve(alias), b.resolve(alias))
            path = os.path.join(tmp, "saved.idx")
            a.save(path)
            c = modalias.Table.from_cache(path, directory=MODDIR)
            self.assertEqual(c.resolve(alias), a.resolve(alias))
            for t in (a, b, c):
                t.close()

    def test_warnings_for_bad_lines(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = modalias.Table.from_string("alias ok:* okmod\nthis is not an alias line\nalias\n",
                                           name="bad.alias")
        self.assertEqual(t.skipped, 2)
        self.assertTrue(w and issubclass(w[0].category, modalias.ParseWarning))
        self.assertIn("bad.alias", str(w[0].message))
        self.assertEqual(t.resolve("ok:1")[0].name, "okmod")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with self.assertRaises(modalias.ParseWarning):
                modalias.Table.from_string("junk\n")

    def test_warning_escaped(self):
        # the library's message quotes the line: shown as the default log
        # shows it (shared/shown.h), the four characters "\x1b" otherwise
        # than an ESC, no control left in the warning's text
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            modalias.Table.from_string("alias a*\\x1b\x1b[2J* m\n", name="bsl.alias")
        self.assertIn("'a*\\\\x1b\\x1b[2J*'", str(w[0].message))
        self.assertNotIn("\x1b", str(w[0].message))

    def test_errors(self):
        with self.assertRaises(modalias.NotFoundError) as cm:
            modalias.Table("/nonexistent-moddir")
        self.assertIsInstance(cm.exception, FileNotFoundError)
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn("modules.alias", cm.exception.strerror)
        with self.assertRaises(modalias.NotFoundError):
            modalias.Table.from_file("/nonexistent.alias")
        with self.assertRaises(modalias.NotFoundError):
            modalias.Table.from_cache("/nonexistent.idx")
        with tempfile.TemporaryDirectory() as tmp:
            junk = os.path.join(tmp, "junk.idx")
            with open(junk, "wb") as f:
                f.write(b"\0" * 4096)
            with self.assertRaises(modalias.InputError) as cm:
                modalias.Table.from_cache(junk)
            self.assertEqual(cm.exception.errno, errno.EINVAL)
            # a cache of another directory is stale for this one
            other = os.path.join(tmp, "other")
            os.mkdir(other)
            shutil.copy(os.path.join(MODDIR, "modules.alias"), other)
            saved = os.path.join(tmp, "saved.idx")
            o = modalias.Table(other)
            o.save(saved)
            with open(os.path.join(other, "modules.alias"), "a") as f:
                f.write("alias new:* newmod\n")
            os.utime(os.path.join(other, "modules.alias"), (1, 1))
            with self.assertRaises(modalias.Error) as cm:
                modalias.Table.from_cache(saved, directory=other)
            self.assertEqual(cm.exception.errno, errno.ESTALE)
            with self.assertRaises(modalias.Error):
                o.save(os.path.join(tmp, "no", "such", "dir", "x.idx"))
            o.close()
        t = modalias.Table.empty()
        with self.assertRaises(modalias.InputError):
            t.add("usb:[abc", "m")
        with self.assertRaises(modalias.InputError):
            t.add("", "m")
        with self.assertRaises(modalias.InputError):
            t.add_blacklist("")
        with self.assertRaises(modalias.InputError):
            t.resolve("usb:[abc")
        with self.assertRaises(TypeError):
            t.resolve(None)
        with self.assertRaises(ValueError):
            t.resolve("a\x00b")
        with self.assertRaises(TypeError):
            t.load_config([1])
        with self.assertRaises(modalias.InputError):
            t.write_map("isapnp")
        with self.assertRaises(modalias.InputError):
            t.write_map("frob")
        t.close()
        t.close()  # twice is harmless
        for call in (lambda: t.resolve("x"), lambda: t.resolve_many(["x"]), lambda: t.add("a", "b"),
                     lambda: t.load_config([]), lambda: t.pattern_count, lambda: t.save("/tmp/x"),
                     lambda: t.is_blacklisted("x"), lambda: t.write_map("usb")):
            with self.assertRaises(ValueError):
                call()
        with self.assertRaises(ValueError):
            with t:
                pass


# ---- maps --------------------------------------------------------------------------------------


class TestMap(unittest.TestCase):
    def test_every_map_file(self):
        kinds = {}
        for name in sorted(os.listdir(MAPS)):
            if not (name.endswith("map")):
                continue
            with modalias.Map.from_file(os.path.join(MAPS, name)) as m:
                self.assertEqual(m.skipped, 0)
                self.assertTrue(len(m) > 0)
                self.assertIn(m.type, modalias.map_types())
                self.assertEqual(m.name, os.path.join(MAPS, name))
                for e in m:
                    self.assertLessEqual(set(e.fields), set(m.columns))
                    self.assertTrue(e.module)
                    self.assertGreater(e.line, 0)
                    self.assertEqual(m[e.index], e)
                kinds[m.type] = len(m)
        diag("maps: %s" % ", ".join("%s %d rows" % kv for kv in sorted(kinds.items())))
        self.assertEqual(set(kinds), set(modalias.map_types()))

    def test_fields(self):
        m = modalias.Map.from_file(os.path.join(MAPS, "modules.usbmap"))
        e = m[0]
        self.assertEqual(e.module, "usb_map-32")
        self.assertEqual(e.fields["idVendor"], 2)
        self.assertEqual(list(e.fields), m.columns)
        of = modalias.Map(os.path.join(MAPS, "modules.ofmap"))
        self.assertEqual(of.type, "of")
        spaced = [x for x in of.entries if x.module == "spaced"][0]
        self.assertEqual(spaced.fields["compatible"], "acme,chip with spaces")
        self.assertEqual(spaced.fields["name"], "")
        inp = modalias.Map.from_file(os.path.join(MAPS, "modules.inputmap"))
        self.assertTrue(all(isinstance(x.fields["evBits"], list) for x in inp))
        self.assertIn(inp.word_bits, (32, 64))
        inp.word_bits = 32
        self.assertEqual(inp.word_bits, 32)
        pnp = modalias.Map.from_file(os.path.join(MAPS, "modules.isapnpmap"), type="isapnp")
        self.assertTrue(all(isinstance(x.fields["vendor"], list) for x in pnp))

    def test_to_aliases_as_the_cli(self):
        golden = os.path.join(SRCDIR, "tests", "golden", "map-aliases.out")
        got = []
        for name in ("usb.usermap", "modules.ofmap", "modules.pcimap", "modules.seriomap"):
            m = modalias.Map.from_file(os.path.join(MAPS, name))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", modalias.ParseWarning)  # the pcimap's (test_rows_without_alias)
                got += ["alias %s %s" % pm for pm in m.to_aliases()]
        with open(golden) as f:
            self.assertEqual(got, f.read().splitlines())
        golden26 = os.path.join(SRCDIR, "tests", "golden", "map-aliases-2.6.out")
        got = []
        for name in ("usb.usermap", "modules.ofmap", "modules.isapnpmap"):
            m = modalias.Map.from_file(os.path.join(MAPS, name))
            got += ["alias %s %s" % pm for pm in m.to_aliases(dialect_2_6=True)]
        with open(golden26) as f:
            self.assertEqual(got, f.read().splitlines())
        m = modalias.Map.from_file(os.path.join(MAPS, "usb.usermap"))
        self.assertEqual(m.aliases(0), [p for p, mod in m.to_aliases() if mod == m[0].module][:len(m.aliases(0))])

    def test_word_bits(self):
        """word_bits= of Map.from_file() (and Map(), from_string()): the
        32-bit inputmap read as modalias map --word-bits=32 reads it."""
        path = os.path.join(MAPS, "modules.inputmap")
        golden = os.path.join(SRCDIR, "tests", "golden", "map-aliases-input-32.out")
        with open(golden) as f:
            want = f.read().splitlines()
        with open(path) as f:
            text = f.read()
        for m in (modalias.Map.from_file(path, word_bits=32), modalias.Map(path, word_bits=32),
                  modalias.Map.from_file(path, "input", word_bits=32),
                  modalias.Map.from_string(text, "modules.inputmap", word_bits=32)):
            self.assertEqual(m.word_bits, 32)
            self.assertEqual(["alias %s %s" % pm for pm in m.to_aliases()], want)
        m64 = modalias.Map.from_file(path, word_bits=64)
        self.assertEqual(m64.word_bits, 64)
        got = ["alias %s %s" % pm for pm in m64.to_aliases()]
        self.assertIn("alias input:b*v*p*e*-e*1,*k*D4,*r*a*m*l*s*f*w* a_very_long_input_module", got)
        self.assertNotEqual(got, want)
        # 0 (the default): the bitmaps tell, else this machine's
        self.assertIn(modalias.Map.from_file(path, word_bits=0).word_bits, (32, 64))
        for bad in (16, 48, 128):
            with self.assertRaises(modalias.InputError) as cm:
                modalias.Map.from_file(path, word_bits=bad)
            self.assertIn("word_bits is 32 or 64", str(cm.exception))
            with self.assertRaises(modalias.InputError):
                modalias.Map.from_string(text, word_bits=bad)
        with self.assertRaises(TypeError):
            modalias.Map.from_file(path, "input", 32)  # keyword only, as Device.from_env()'s

    def test_rows_without_alias(self):
        """A pcimap class_mask not of whole bytes: file2alias makes no alias,
        and says so; so does to_aliases(), and counts them in .skipped."""
        m = modalias.Map.from_file(os.path.join(MAPS, "modules.pcimap"))
        self.assertEqual(m.skipped, 0)
        for _ in range(2):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                pairs = m.to_aliases()
            self.assertEqual([mod for p, mod in pairs], ["e1000e", "ahci", "ehci-hcd"])
            self.assertEqual(m.skipped, 2)
            self.assertEqual(len(w), 1)
            self.assertTrue(issubclass(w[0].category, modalias.ParseWarning))
            self.assertIn("2 row(s) give no alias", str(w[0].message))
            self.assertIn("modules.pcimap:6: odd-mask: class_mask 0x00fff000", str(w[0].message))
        # --match still matches the row
        dev = modalias.Device("pci", vendor="8086", device="1e31", subvendor="17aa", subdevice="21fb",
                              baseclass="0c", subclass="03", interface="30")
        self.assertIn("odd-mask", [e.module for e in m.match(dev)])
        with modalias.Map.from_file(os.path.join(MAPS, "usb.usermap")) as usb:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                usb.to_aliases()
            self.assertEqual(usb.skipped, 0)

    def test_match_and_load_into_table(self):
        m = modalias.Map.from_file(os.path.join(MAPS, "usb.usermap"))
        dev = modalias.Device("usb", idVendor="1234", idProduct="5678", bcdDevice="0155", bInterfaceNumber=0)
        self.assertEqual([e.module for e in m.match(dev)], ["ranged"])
        self.assertEqual(m.match(modalias.Device("usb", idVendor="ffff")), [])
        t = modalias.Table.empty()
        self.assertEqual(t.load_map(m), 0)
        mods = t.resolve(str(dev))
        self.assertEqual([x.name for x in mods], ["ranged"])
        self.assertEqual(mods[0].origins[0][0], os.path.join(MAPS, "usb.usermap"))
        text = t.write_map("usb")
        self.assertTrue(text.startswith("# usb module"))
        self.assertIn("usbhid", text)
        pci = modalias.Table.empty()
        pci.load_map(modalias.Map.from_file(os.path.join(MAPS, "modules.pcimap")))
        self.assertIn("e1000e", pci.write_map(modalias.MAP_PCI))

    def test_from_string(self):
        text = open(os.path.join(MAPS, "modules.pcimap")).read()
        m = modalias.Map.from_string(text, name="modules.pcimap")
        self.assertEqual(m.type, "pci")
        self.assertEqual(len(m), len(modalias.Map.from_file(os.path.join(MAPS, "modules.pcimap"))))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            bad = modalias.Map.from_string(text + "broken 0xzz\n", type="pci")
        self.assertEqual(bad.skipped, 1)
        self.assertTrue(w and issubclass(w[0].category, modalias.ParseWarning))

    def test_errors(self):
        with self.assertRaises(modalias.NotFoundError):
            modalias.Map.from_file("/nonexistent/modules.usbmap")
        with self.assertRaises(modalias.InputError):
            modalias.Map.from_string("foo 0x1 0x2\n")  # no header, no name: no type
        with self.assertRaises(modalias.InputError):
            modalias.Map.from_string("", type="frob")
        with self.assertRaises(modalias.InputError):
            modalias.Map.from_string("", type=99)
        with self.assertRaises(TypeError):
            modalias.Map.from_string("", type=1.0)
        m = modalias.Map.from_file(os.path.join(MAPS, "modules.usbmap"))
        with self.assertRaises(IndexError):
            m[len(m)]
        with self.assertRaises(IndexError):
            m.aliases(len(m))
        with self.assertRaises(modalias.InputError):
            m.match(modalias.Device("pci"))
        with self.assertRaises(TypeError):
            m.match("usb:v1234")
        with self.assertRaises(modalias.InputError):
            m.word_bits = 48
        with self.assertRaises(AttributeError):
            del m.word_bits
        m.close()
        self.assertTrue(m.closed)
        for call in (lambda: len(m), lambda: m[0], lambda: m.to_aliases(), lambda: m.type,
                     lambda: modalias.Table.empty().load_map(m)):
            with self.assertRaises(ValueError):
                call()


if __name__ == "__main__":
    unittest.main()
