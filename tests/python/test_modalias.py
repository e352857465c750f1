"""The Python bindings (module modalias) on the committed fixtures.

Run by make check through tests/python/tap-unittest.py, with PYTHONPATH set
to the built extension (bindings/python/.libs).  Fixtures: tests/data.
"""
import ast
import ctypes
import ctypes.util
import errno
import gc
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import tracemalloc
import unittest
import warnings

import modalias

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(SRCDIR, "tests", "data")
MODDIR = os.path.join(DATA, "linux-6.1.0-57-amd64")
MAPS = os.path.join(DATA, "maps")
LOAD_ROOT = os.path.join(DATA, "load")
LOAD_VERSION = "9.9.9-test"
LOAD_MODDIR = os.path.join(LOAD_ROOT, "lib", "modules", LOAD_VERSION)
LOAD_CONF = os.path.join(LOAD_ROOT, "modprobe.d")
QEMU_SYSFS = os.path.join(DATA, "sysfs", "qemu-q35")
UEVENTS = os.path.join(DATA, "uevents", "uevents.txt")
# a recording cut short (tests/test-parse.c knows it too)
DAMAGED = {"acpi:LNXCPU:q"}
STUBS = os.path.join(SRCDIR, "bindings", "python", "modalias.pyi")


def diag(msg):
    """A TAP diagnostic line (the figures of a test)."""
    sys.stdout.write("# %s\n" % msg)
    sys.stdout.flush()


def load_uevents():
    """The recorded events: a list of dicts (the '# source:' line dropped)."""
    events, cur = [], {}
    with open(UEVENTS, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if cur:
                    events.append(cur)
                cur = {}
            elif line.startswith("#"):
                continue
            elif "=" in line:
                k, v = line.split("=", 1)
                cur[k] = v
    if cur:
        events.append(cur)
    return events


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


def run_child(code, *args, timeout=600):
    """Runs code in a fresh interpreter with this one's modalias: a crash
    there (as the code before issue 13 did) fails one test, not the run.
    Returns (returncode, stdout, stderr); a negative code is a signal."""
    p = subprocess.run([sys.executable, "-c", code] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=timeout,
                       env=dict(os.environ, PYTHONFAULTHANDLER="1"))
    return p.returncode, p.stdout, p.stderr


def child_failure(rc, err):
    return "exit status %d%s\n%s" % (rc, " (signal %d)" % -rc if rc < 0 else "", err[-3000:])


_shared = {}


def moddir_table():
    """One table of the Debian 6.1 fixture, shared by the read-only tests."""
    if "table" not in _shared:
        t = modalias.Table(MODDIR)
        t.load_config([])
        _shared["table"] = t
    return _shared["table"]


# ---- building and parsing --------------------------------------------------------------------


class TestBuild(unittest.TestCase):
    def test_usb_keywords(self):
        s = modalias.build("usb", idVendor="046d", idProduct="c52b", bcdDevice="1200",
                           bInterfaceClass=3, bInterfaceSubClass=1, bInterfaceProtocol=1,
                           bInterfaceNumber=0)
        self.assertEqual(s, "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00")

    def test_ints_hex_and_0x(self):
        a = modalias.build("pci", vendor=0x8086, device="0x1E31", **{"class": "0c0330"})
        self.assertEqual(a, "pci:v00008086d00001E31sv00000000sd00000000bc0Csc03i30")

    def test_list_fields(self):
        s = modalias.build("of", name="timer", type="<NULL>",
                           compatible=["arm,cortex-a9-twd-timer", "arm,smp-twd"])
        self.assertEqual(s, "of:NtimerT<NULL>Carm,cortex-a9-twd-timerCarm,smp-twd")
        d = modalias.parse(s)
        self.assertEqual(d["compatible"], ["arm,cortex-a9-twd-timer", "arm,smp-twd"])

    def test_device_class(self):
        d = modalias.Device("usb", idVendor="046d")
        d["idProduct"] = 0xC52B
        d.set("bcdDevice", "1200")
        self.assertIn("idVendor", d)
        self.assertNotIn("bInterfaceNumber", d)
        self.assertEqual(d.bus, "usb")
        self.assertEqual(d["idVendor"], "046D")
        self.assertEqual(d.get_uint("idProduct"), 0xC52B)
        self.assertEqual(d.count("idVendor"), 1)
        self.assertEqual(d.count("bInterfaceNumber"), 0)
        self.assertEqual(str(d), d.modalias)
        self.assertTrue(str(d).startswith("usb:v046DpC52Bd1200"))
        del d["idProduct"]
        self.assertNotIn("idProduct", d)
        d.unset("bcdDevice")
        self.assertEqual(list(d.fields), ["idVendor"])
        c = d.copy()
        self.assertEqual(c, d)
        c["idVendor"] = "1234"
        self.assertNotEqual(c, d)
        self.assertIn("Device.parse(", repr(d))
        with self.assertRaises(TypeError):
            hash(d)

    def test_add(self):
        d = modalias.Device("of", name="n")
        d.add("compatible", "a,b")
        d.add("compatible", "c,d")
        self.assertEqual(d["compatible"], ["a,b", "c,d"])
        d = modalias.Device("input")
        d.add("ev", "0,1")
        d.add("key", 0x74)
        self.assertEqual(d["ev"], ["0", "1"])
        self.assertEqual(d["key"], ["74"])

    def test_wildcard(self):
        d = modalias.Device("usb", idVendor="*")
        self.assertEqual(d["idVendor"], "*")
        with self.assertRaises(modalias.InputError) as cm:
            d.get_uint("idVendor")
        self.assertEqual(cm.exception.errno, errno.EDOM)

    def test_buses_and_fields(self):
        buses = modalias.buses()
        for b in ("usb", "pci", "of", "acpi", "input", "hid", "cpu", "dmi"):
            self.assertIn(b, buses)
        self.assertEqual(modalias.bus_fields("pci")[:2], ["vendor", "device"])
        self.assertIn("idVendor", modalias.bus_fields("usb"))
        for b in buses:
            for f in modalias.bus_fields(b):
                self.assertTrue(modalias.field_help(b, f))
        with self.assertRaises(modalias.InputError):
            modalias.bus_fields("frob")
        with self.assertRaises(ValueError):
            modalias.field_help("usb", "colour")

    def test_build_errors(self):
        with self.assertRaises(modalias.InputError) as cm:
            modalias.build("usb", idVendor="xyz")
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        self.assertIn("idVendor", str(cm.exception))
        self.assertIsInstance(cm.exception, ValueError)
        self.assertIsInstance(cm.exception, OSError)
        with self.assertRaises(modalias.InputError) as cm:
            modalias.build("usb", idVendor="12345")
        self.assertEqual(cm.exception.errno, errno.ERANGE)
        with self.assertRaises(modalias.InputError) as cm:
            modalias.build("usb", colour="blue")
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn("colour", str(cm.exception))
        with self.assertRaises(modalias.InputError) as cm:
            modalias.build("frob")
        self.assertIn("unknown bus 'frob'", str(cm.exception))
        with self.assertRaises(TypeError):
            modalias.build("usb", idVendor=1.5)
        with self.assertRaises(TypeError):
            modalias.build("usb", idVendor=b"046d")
        with self.assertRaises(TypeError):
            modalias.build("of", compatible=["a", 1.0])
        with self.assertRaises(OverflowError):
            modalias.build("usb", idVendor=-1)
        with self.assertRaises(ValueError):
            modalias.build("usb", idVendor="04\x006d")
        with self.assertRaises(TypeError):
            modalias.build()
        d = modalias.Device("usb")
        with self.assertRaises(KeyError):
            d["idVendor"]
        with self.assertRaises(KeyError):
            del d["idVendor"]
        with self.assertRaises(TypeError):
            d[1]
        with self.assertRaises(modalias.InputError):
            d.unset("colour")
        with self.assertRaises(modalias.InputError):
            d.count("colour")
        with self.assertRaises(modalias.InputError):
            d.add("colour", "x")
        with self.assertRaises(TypeError):
            d.add("idVendor", 1.0)


    def test_unknown_field_is_named(self):
        """An unknown field says so, not 'No such file or directory' (issue 13, item 9)."""
        want = "unknown field 'nosuch' of bus usb"
        for call in (lambda: modalias.build("usb", nosuch=1), lambda: modalias.build("usb", nosuch="1"),
                     lambda: modalias.Device("usb", nosuch=[1]), lambda: modalias.Device("usb").set("nosuch", 1),
                     lambda: modalias.Device("usb").add("nosuch", 1),
                     lambda: modalias.Device("usb").unset("nosuch"), lambda: modalias.Device("usb").count("nosuch"),
                     lambda: modalias.Device("usb").get_uint("nosuch")):
            with self.assertRaises(modalias.InputError) as cm:
                call()
            self.assertEqual(cm.exception.errno, errno.ENOENT)
            self.assertEqual(cm.exception.strerror, want)
            self.assertNotIn("No such file", str(cm.exception))
        with self.assertRaises(modalias.InputError) as cm:
            modalias.field_help("usb", "nosuch")
        self.assertIn(want, str(cm.exception))
        # lookups in a parsed device and in its fields
        d = modalias.parse("usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01")
        for get in (lambda: d["nosuch"], lambda: d.fields["nosuch"]):
            with self.assertRaises(KeyError) as cm:
                get()
            self.assertEqual(cm.exception.args, (want,))
        with self.assertRaises(KeyError) as cm:
            del d["nosuch"]
        self.assertEqual(cm.exception.args, (want,))
        # a field that is merely unset is the plain KeyError of a mapping
        for get in (lambda: d["bInterfaceNumber"], lambda: d.fields["bInterfaceNumber"]):
            with self.assertRaises(KeyError) as cm:
                get()
            self.assertEqual(cm.exception.args, ("bInterfaceNumber",))
        self.assertNotIn("nosuch", d)
        self.assertIsNone(d.fields.get("nosuch"))
        with self.assertRaises(KeyError) as cm:
            modalias.parse("frob:xyz").fields["x"]
        self.assertEqual(cm.exception.args, ("unknown field 'x' of bus frob",))
        # still a dict: compared, copied and pickled as one
        import pickle
        self.assertEqual(d.fields, dict(d.fields))
        self.assertIs(type(pickle.loads(pickle.dumps(d.fields))), dict)
        self.assertEqual(modalias.build("usb", **d.fields), str(d))

    def test_one_value_where_one_number_is_meant(self):
        """A list (or any non-scalar) for a scalar field is refused, naming it (issue 13, item 9)."""
        for value in ([0x46D, 0xC52B], [0x46D], ("046d",), [], {"a": 1}, 1.5, b"046d", object()):
            for call in (lambda: modalias.Device("usb", idVendor=value),
                         lambda: modalias.build("usb", idVendor=value),
                         lambda: modalias.Device("usb").set("idVendor", value)):
                with self.assertRaises(TypeError, msg=repr(value)) as cm:
                    call()
                self.assertIn("idVendor", str(cm.exception))
            d = modalias.Device("usb", idVendor="046d")
            with self.assertRaises(TypeError):
                d["idVendor"] = value
            self.assertEqual(d["idVendor"], "046D")
        # list fields take lists
        self.assertEqual(modalias.build("of", name="n", type="t", compatible=["a", "b"]), "of:NnTtCaCb")
        self.assertEqual(modalias.Device("input", ev=[0, 1])["ev"], ["0", "1"])


class TestParse(unittest.TestCase):
    def test_round_trip_of_every_recorded_modalias(self):
        n = 0
        buses = set()
        for ev in load_uevents():
            m = ev.get("MODALIAS")
            if not m:
                continue
            if m in DAMAGED:
                with self.assertRaises(modalias.InputError):
                    modalias.parse(m)
                continue
            d = modalias.parse(m)
            self.assertEqual(str(d), m)
            self.assertEqual(d.bus, m.split(":", 1)[0])
            buses.add(d.bus)
            # the fields rebuild it
            if modalias.bus_fields(d.bus):
                # (2.6 kernels wrote the pci interface byte in lower case)
                self.assertEqual(modalias.build(d.bus, **d.fields).lower(), m.lower(), m)
            n += 1
        diag("%d recorded modaliases parsed and rebuilt, %d buses" % (n, len(buses)))
        self.assertGreater(n, 2000)

    def test_fields_mapping(self):
        d = modalias.parse("input:b0019v0000p0001e0000-e0,1,k74,ramlsfw")
        self.assertEqual(d.fields, {"bustype": "0019", "vendor": "0000", "product": "0001",
                                    "version": "0000", "ev": ["0", "1"], "key": ["74"]})
        self.assertEqual(modalias.Device.parse(str(d)), d)

    def test_unknown_bus_is_raw(self):
        d = modalias.parse("frobnicator:whatever-1")
        self.assertEqual(d.bus, "frobnicator")
        self.assertEqual(d.fields, {"raw": "whatever-1"})
        self.assertEqual(str(d), "frobnicator:whatever-1")

    def test_errors(self):
        for bad in ("no-prefix", "usb:broken", "pci:v0000", "usb:v046D\x01"):
            with self.assertRaises(modalias.InputError, msg=bad) as cm:
                modalias.parse(bad)
            self.assertEqual(cm.exception.errno, errno.EINVAL)
            self.assertTrue(cm.exception.strerror)
        with self.assertRaises(ValueError):
            modalias.parse("usb:\x00")
        with self.assertRaises(TypeError):
            modalias.parse(b"usb:")


class TestEnv(unittest.TestCase):
    def test_modalias_wins(self):
        d = modalias.from_env({"MODALIAS": "usb:v1111p2222d0001dc00dsc00dp00ic03isc01ip01in00",
                               "PRODUCT": "1/2/3"}, "usb")
        self.assertEqual(str(d), "usb:v1111p2222d0001dc00dsc00dp00ic03isc01ip01in00")

    def test_legacy_pci_and_usb(self):
        d = modalias.Device.from_env({"PCI_ID": "8086:1E31", "PCI_SUBSYS_ID": "17AA:21FB",
                                      "PCI_CLASS": "C0330"}, subsystem="pci")
        self.assertEqual(str(d), "pci:v00008086d00001E31sv000017AAsd000021FBbc0Csc03i30")
        self.assertIsInstance(d, modalias.Device)

    def test_recorded_usb_and_pci_events(self):
        """The legacy variables of real events give the MODALIAS they came with."""
        agree = total = 0
        for ev in load_uevents():
            sub = ev.get("SUBSYSTEM")
            want = ev.get("MODALIAS")
            if not want or (sub, want[:4]) not in (("pci", "pci:"), ("usb", "usb:")):
                continue
            if sub == "usb" and "INTERFACE" not in ev:
                continue
            if sub == "pci" and "PCI_ID" not in ev:
                continue
            env = {k: v for k, v in ev.items() if k != "MODALIAS"}
            got = modalias.from_env(env, sysfs_root="/nonexistent-sysfs")
            total += 1
            # old kernels spelled some things differently (see test-env.c)
            agree += str(got).lower() == want.lower() or str(got).startswith(want)
        diag("legacy variables: %d of %d recorded pci/usb events agree" % (agree, total))
        self.assertGreater(total, 1000)
        self.assertGreater(agree, total * 9 // 10)

    def test_errors(self):
        with self.assertRaises(modalias.InputError) as cm:
            modalias.from_env({"ACTION": "add"})
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIn("MODALIAS", str(cm.exception))
        with self.assertRaises(modalias.InputError) as cm:
            modalias.from_env({"MODALIAS": "usb:broken"}, "usb")
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        with self.assertRaises(modalias.InputError):
            modalias.from_env({"PCI_ID": "zz:1"}, "pci")
        with self.assertRaises(TypeError):
            modalias.from_env(["PCI_ID=1:2"], "pci")
        with self.assertRaises(TypeError):
            modalias.from_env({"PCI_ID": 1}, "pci")
        with self.assertRaises(modalias.InputError):
            modalias.from_env({"A=B": "x"}, "pci")
        with self.assertRaises(modalias.InputError):
            modalias.from_env({"MODALIAS": "usb:"}, sysfs_root="")


class TestSysfs(unittest.TestCase):
    def test_walk_matches_modalias_files(self):
        entries = modalias.walk_sysfs(QEMU_SYSFS)
        files = {}
        for dirpath, dirnames, filenames in os.walk(os.path.join(QEMU_SYSFS, "devices")):
            if "modalias" in filenames:
                with open(os.path.join(dirpath, "modalias")) as f:
                    files["/" + os.path.relpath(dirpath, QEMU_SYSFS)] = f.read().rstrip("\n")
        seen = {e.devpath: e for e in entries}
        self.assertEqual(len(seen), len(entries))
        for devpath, text in files.items():
            self.assertIn(devpath, seen)
            self.assertEqual(seen[devpath].errno, 0)
            self.assertEqual(str(seen[devpath].device), text)
        for e in entries:
            if e.device is not None:
                self.assertEqual(modalias.from_sysfs(e.devpath, sysfs_root=QEMU_SYSFS), e.device)
        # parents first
        paths = [e.devpath for e in entries]
        for i, p in enumerate(paths):
            parent = os.path.dirname(p)
            if parent in seen:
                self.assertLess(paths.index(parent), i)
        diag("qemu-q35: %d devices, %d with a modalias file" % (len(entries), len(files)))

    def test_devices_resolve(self):
        t = moddir_table()
        n = driven = 0
        for e in modalias.walk_sysfs(sysfs_root=QEMU_SYSFS):
            if e.device is None:
                continue
            n += 1
            driven += bool(t.resolve(str(e.device)))
        diag("qemu-q35: %d of %d devices have a module in the 6.1 table" % (driven, n))
        self.assertGreater(driven, n // 3)

    def test_errors(self):
        with self.assertRaises(modalias.NotFoundError) as cm:
            modalias.from_sysfs("/devices/nonexistent", sysfs_root=QEMU_SYSFS)
        self.assertIsInstance(cm.exception, FileNotFoundError)
        self.assertEqual(cm.exception.filename, "/devices/nonexistent")
        with self.assertRaises(modalias.Error) as cm:
            modalias.from_sysfs("/devices", sysfs_root=QEMU_SYSFS)
        self.assertEqual(cm.exception.errno, errno.ENODATA)
        with self.assertRaises(modalias.NotFoundError):
            modalias.walk_sysfs("/nonexistent-sysfs")
        with self.assertRaises(modalias.InputError):
            modalias.walk_sysfs("")


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


# ---- the module's surface --------------------------------------------------------------------


class TestSurface(unittest.TestCase):
    def public(self):
        return sorted(n for n in dir(modalias) if not n.startswith("_"))

    def test_docstrings(self):
        self.assertTrue(modalias.__doc__)
        missing = []
        for name in self.public():
            obj = getattr(modalias, name)
            if isinstance(obj, (str, int)):
                continue
            if not obj.__doc__:
                missing.append(name)
            if isinstance(obj, type):
                for attr, val in vars(obj).items():
                    if not attr.startswith("_") and not getattr(val, "__doc__", None):
                        missing.append("%s.%s" % (name, attr))
        self.assertEqual(missing, [])

    def test_stubs_cover_the_module(self):
        if not os.path.exists(STUBS):
            self.skipTest("no stubs")
        with open(STUBS) as f:
            tree = ast.parse(f.read())
        names = set()
        classes = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
                if isinstance(node, ast.ClassDef):
                    classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                        n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
            elif isinstance(node, ast.AnnAssign):
                names.add(node.target.id)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self.assertEqual(sorted(set(self.public()) - names), [])
        self.assertEqual(sorted(names - set(self.public()) - {"Field", "FieldValue", "PathLike", "StrPath", "__version__"}), [])
        for cls, members in classes.items():
            obj = getattr(modalias, cls, None)
            if not isinstance(obj, type):
                continue
            have = {a for a in dir(obj) if not a.startswith("_")}
            if issubclass(obj, tuple):
                have -= {"count", "index", "n_fields", "n_sequence_fields", "n_unnamed_fields"}
            if issubclass(obj, BaseException):
                continue
            self.assertEqual(sorted(have - members), [], cls)

    def test_version(self):
        self.assertTrue(modalias.__version__)
        self.assertTrue(modalias.__file__.endswith(".so"))


if __name__ == "__main__":
    unittest.main()
