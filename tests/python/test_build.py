"""Building and parsing modaliases: Device, parse, the legacy variables (env) and sysfs.

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import errno
import os
import unittest

import modalias
from modalias_testlib import DAMAGED, QEMU_SYSFS, diag, load_uevents, moddir_table


# ---- building and parsing --------------------------------------------------------------------


class TestBuild(unittest.TestCase):
    def test_usb_keywords(self):
        s = modalias.build("usb", idVendor="046d", idProduct="c52b", bcdDevice="1200",
                           bInterfaceClass=3, bInterfaceSubClass=1, bInterfaceProtocol=1,
                           bInterfaceNumber=0)
        self.assertEqual(s, "usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00")

    def test_today_by_default(self):
        """Unless told, a build writes what today's kernels write: USB's in00, HID's g0000
        (every alias of today's tables has them); None or "" leaves one out, as old kernels did."""
        usb = dict(idVendor="0bda", idProduct="8153", bcdDevice="3100", bInterfaceClass="ff",
                   bInterfaceSubClass="ff")
        self.assertEqual(modalias.build("usb", **usb), "usb:v0BDAp8153d3100dc00dsc00dp00icFFiscFFip00in00")
        for old in (None, ""):
            self.assertEqual(modalias.build("usb", **usb, bInterfaceNumber=old),
                             "usb:v0BDAp8153d3100dc00dsc00dp00icFFiscFFip00")
        self.assertEqual(modalias.build("hid", bus=3, vendor=0x46d, product=0xc52b),
                         "hid:b0003g0000v0000046Dp0000C52B")
        self.assertEqual(modalias.build("hid", bus=3, group=None, vendor=0x46d, product=0xc52b),
                         "hid:b0003v0000046Dp0000C52B")
        # a GUID given in either case is written in its bus's
        self.assertEqual(modalias.build("wmi", guid="05901221-d566-11d1-b2f0-00a0c9062910"),
                         "wmi:05901221-D566-11D1-B2F0-00A0C9062910")
        self.assertEqual(modalias.build("tee", uuid="AB7A617C-B8E7-4D8F-8301-D09B61036B64"),
                         "tee:ab7a617c-b8e7-4d8f-8301-d09b61036b64")

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
        # made from IDs: what today's kernels always write is there, 00 unless given
        self.assertEqual(d["bInterfaceNumber"], "00")
        d["bInterfaceNumber"] = None
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
        # a pre-3.x string (no interface number) is built back as today's kernels write
        # it, unless its absence is asked for
        self.assertEqual(modalias.build("usb", **d.fields), str(d) + "in00")
        self.assertEqual(modalias.build("usb", **d.fields, bInterfaceNumber=None), str(d))

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
            # the fields rebuild it, None for those it leaves out (a build
            # otherwise writes today's in00 where a pre-3.x kernel wrote none)
            if modalias.bus_fields(d.bus):
                fields = {f: d.fields.get(f) for f in modalias.bus_fields(d.bus)}
                # (2.6 kernels wrote the pci interface byte in lower case)
                self.assertEqual(modalias.build(d.bus, **fields).lower(), m.lower(), m)
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

    def test_word_bits_of_a_32_bit_event(self):
        """The PandaBoard's gpio-keys (a 32-bit kernel's KEY= of nine words)."""
        ev = [e for e in load_uevents() if e.get("KEY") == "100000 0 0 0 0 0 0 0 0"
              and e.get("DEVPATH") == "/devices/platform/gpio-keys/input/input1"][0]
        env = {k: v for k, v in ev.items() if k != "MODALIAS"}
        self.assertEqual(str(modalias.from_env(env, word_bits=32)), ev["MODALIAS"])
        self.assertEqual(str(modalias.Device.from_env(env, word_bits=32)), "input:b0019v0001p0001e0100-e0,1,k114,ramlsfw")
        self.assertIn(",k214,", str(modalias.from_env(env, word_bits=64)))
        with self.assertRaises(modalias.InputError):
            modalias.from_env(env, word_bits=16)

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


if __name__ == "__main__":
    unittest.main()


# ---- names: Debian's pci.ids and usb.ids (.ci/install-deps installs them) -------------------


@unittest.skipUnless(os.access("/usr/share/misc/pci.ids", os.R_OK) and os.access("/usr/share/misc/usb.ids", os.R_OK),
                     "Debian's pci.ids and usb.ids are not installed")
class TestNames(unittest.TestCase):
    def test_captured_devices(self):
        sata = modalias.from_sysfs("/devices/pci0000:00/0000:00:1f.2", sysfs_root=QEMU_SYSFS)
        self.assertEqual(sata.vendor_name, "Intel Corporation")
        self.assertEqual(sata.device_name, "82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode]")
        self.assertEqual(sata.class_name, "SATA controller")
        tablet = modalias.parse("usb:v0627p0001d0000dc00dsc00dp00ic03isc00ip00in00")
        self.assertEqual((tablet.vendor_name, tablet.device_name, tablet.class_name),
                         ("Adomax Technology Co., Ltd", "QEMU Tablet", "Human Interface Device"))

    def test_no_names(self):
        d = modalias.parse("acpi:PNP0C0A:")
        self.assertEqual((d.vendor_name, d.device_name, d.class_name), (None, None, None))
        d = modalias.Device("pci", vendor=0xFFFE, device=1)
        self.assertIsNone(d.device_name)
