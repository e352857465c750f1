"""Snapshots (Snapshot: taken from sysfs, written, read back, asked) and the same
questions of a live sysfs (sysfs_driver, sysfs_module_loaded).

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import errno
import json
import os
import pathlib
import shutil
import sys
import tempfile
import unittest

import modalias
from modalias_testlib import QEMU_SYSFS, diag

XHCI = "/devices/pci0000:00/0000:00:03.0"


def entries(walk):
    """What a walk says, comparable: (devpath, modalias or None, errno)."""
    return [(e.devpath, None if e.device is None else str(e.device), e.errno) for e in walk]


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="modalias-snapshot-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, rel, data):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    def device(self, devpath, modalias):
        """A device in the made tree: its modalias and an empty uevent (walks want one)."""
        self.write("sys%s/uevent" % devpath, "")
        self.write("sys%s/modalias" % devpath, modalias)

    def round_trip(self, snap):
        """snap written to a file and read back."""
        path = self.write("snapshot-%d.json" % len(os.listdir(self.tmp)), snap.format())
        return modalias.Snapshot.from_file(path)


# ---- a captured tree ----------------------------------------------------------------------------


class TestQemuTree(TempDirTest):
    def test_walk_is_walk_sysfs(self):
        snap = modalias.Snapshot.from_sysfs(QEMU_SYSFS)
        walked = modalias.walk_sysfs(QEMU_SYSFS)
        got = snap.walk()
        self.assertEqual(entries(got), entries(walked))
        self.assertEqual(len(snap), len(walked))
        self.assertGreater(len(snap), 50)
        for e in got:
            self.assertIsInstance(e, modalias.SysfsEntry)
            self.assertIsInstance(e.device, modalias.Device)
        self.assertEqual(snap.walk(), got)
        diag("qemu-q35: %d devices in the snapshot" % len(snap))

    def test_captured_kernel_unknown(self):
        # a captured tree is not this machine: its kernel is not uname -r
        snap = modalias.Snapshot.from_sysfs(sysfs_root=pathlib.Path(QEMU_SYSFS))
        self.assertIsNone(snap.kernel)
        self.assertIsNone(snap.arch)

    def test_format_from_file_format(self):
        snap = modalias.Snapshot.from_sysfs(QEMU_SYSFS)
        doc = snap.format()
        self.assertIsInstance(doc, str)
        self.assertTrue(doc.endswith("}\n"), doc[-20:])
        parsed = json.loads(doc)
        self.assertEqual(parsed["version"], 1)
        self.assertEqual(len(parsed["devices"]), len(snap))
        self.assertEqual([d["devpath"] for d in parsed["devices"]], [e.devpath for e in snap.walk()])
        path = self.write("qemu.json", doc)
        back = modalias.Snapshot.from_file(pathlib.Path(path))
        self.assertEqual(back.format(), doc)
        self.assertEqual(entries(back.walk()), entries(snap.walk()))
        self.assertEqual((back.kernel, back.arch, len(back)), (snap.kernel, snap.arch, len(snap)))
        self.assertEqual(modalias.Snapshot.from_file(path.encode()).format(), doc)

    def test_device_driver(self):
        snap = modalias.Snapshot.from_sysfs(QEMU_SYSFS)
        back = self.round_trip(snap)
        self.assertEqual(modalias.sysfs_driver(XHCI, QEMU_SYSFS), ("xhci_hcd", None, None))
        self.assertEqual(modalias.sysfs_driver(devpath=XHCI, sysfs_root=QEMU_SYSFS), ("xhci_hcd", None, None))
        for s in (snap, back):
            self.assertEqual(s.driver(XHCI), ("xhci_hcd", None, None))
            dev = s.device(XHCI)
            self.assertIsInstance(dev, modalias.Device)
            self.assertEqual(dev, modalias.from_sysfs(XHCI, sysfs_root=QEMU_SYSFS))
            self.assertEqual(dev.bus, "pci")
        bound = 0
        for e in snap.walk():
            d = modalias.sysfs_driver(e.devpath, sysfs_root=QEMU_SYSFS)
            self.assertEqual(snap.driver(e.devpath), d, e.devpath)
            self.assertEqual(back.driver(e.devpath), d, e.devpath)
            self.assertEqual(snap.device(e.devpath), e.device)
            bound += d[0] is not None
        self.assertTrue(0 < bound < len(snap), bound)
        diag("qemu-q35: %d of %d devices have a driver" % (bound, len(snap)))

    def test_unknown_devpath(self):
        snap = modalias.Snapshot.from_sysfs(QEMU_SYSFS)
        for call in (snap.device, snap.driver):
            with self.assertRaises(KeyError) as cm:
                call("/devices/nonexistent")
            self.assertEqual(cm.exception.args, ("/devices/nonexistent",))
            with self.assertRaises(KeyError):
                call(XHCI + "/")
        # a live tree says nothing of a device that is not there
        self.assertEqual(modalias.sysfs_driver("/devices/nonexistent", QEMU_SYSFS), (None, None, None))
        with self.assertRaises(modalias.InputError):
            modalias.sysfs_driver("/devices/../../etc", QEMU_SYSFS)

    def test_no_modules_in_a_capture(self):
        # a captured tree without /sys/module records no module state: not
        # "not loaded" (its xhci_hcd driver is xhci_pci's, loaded)
        snap = modalias.Snapshot.from_sysfs(QEMU_SYSFS)
        self.assertIsNone(snap.is_module_loaded("xhci_pci"))
        self.assertFalse(modalias.sysfs_module_loaded("xhci_hcd", QEMU_SYSFS))
        self.assertNotIn("modules", json.loads(snap.format()))


# ---- a tree made here: driver links, modules, a device that cannot be read ----------------------


class TestMadeTree(TempDirTest):
    def setUp(self):
        super().setUp()
        self.root = os.path.join(self.tmp, "sys")
        self.device("/devices/platform/foo0", "platform:foo\n")
        self.write("sys/devices/platform/foo0/driver_override", "vfio-platform\n")
        self.device("/devices/platform/bar0", "platform:bar\n")
        self.write("sys/devices/platform/bar0/driver_override", "(null)\n")
        self.device("/devices/platform/bad0", b"platform:x\0y\n")
        self.write("sys/bus/platform/drivers/foo_drv/uevent", "")
        os.symlink("../../../bus/platform/drivers/foo_drv", os.path.join(self.root, "devices/platform/foo0/driver"))
        os.symlink("../../../../module/foo", os.path.join(self.root, "bus/platform/drivers/foo_drv/module"))
        self.write("sys/module/foo/initstate", "live\n")
        self.write("sys/module/going/initstate", "going\n")
        self.write("sys/module/builtin_one/parameters/debug", "N\n")

    def test_driver_links(self):
        want = {
            "/devices/platform/foo0": ("foo_drv", "foo", "vfio-platform"),
            "/devices/platform/bar0": (None, None, None),
        }
        snap = modalias.Snapshot.from_sysfs(self.root)
        back = self.round_trip(snap)
        for devpath, d in want.items():
            self.assertEqual(modalias.sysfs_driver(devpath, self.root), d)
            self.assertEqual(snap.driver(devpath), d)
            self.assertEqual(back.driver(devpath), d)

    def test_modules_loaded(self):
        snap = modalias.Snapshot.from_sysfs(self.root)
        back = self.round_trip(snap)
        for name, loaded in (("foo", True), ("going", False), ("builtin_one", False), ("nosuch", False)):
            self.assertIs(modalias.sysfs_module_loaded(name, sysfs_root=self.root), loaded, name)
            self.assertIs(snap.is_module_loaded(name), loaded, name)
            self.assertIs(back.is_module_loaded(name), loaded, name)
        self.assertEqual(json.loads(snap.format())["modules"], ["foo"])
        with self.assertRaises(modalias.InputError):
            modalias.sysfs_module_loaded("a/b", self.root)
        with self.assertRaises(TypeError):
            snap.is_module_loaded(None)

    def test_modules_builtin(self):
        # the machine's word: a module entry without initstate, a driver
        # without a module link (foo_drv has one); kept through the file
        self.write("sys/bus/pci/drivers/virtio-pci/uevent", "")
        snap = modalias.Snapshot.from_sysfs(self.root)
        back = self.round_trip(snap)
        for name, builtin in (("builtin_one", True), ("virtio_pci", True), ("foo", False), ("going", False),
                              ("foo_drv", False), ("nosuch", False)):
            self.assertIs(snap.is_module_builtin(name), builtin, name)
            self.assertIs(back.is_module_builtin(name), builtin, name)
        doc = json.loads(snap.format())
        self.assertEqual((doc["builtin"], doc["builtin_drivers"]), (["builtin_one"], ["virtio-pci"]))

    def test_recorded_error(self):
        bad = "/devices/platform/bad0"
        walked = {e.devpath: e for e in modalias.walk_sysfs(self.root)}
        self.assertIsNone(walked[bad].device)
        self.assertEqual(walked[bad].errno, errno.EBADMSG)
        snap = modalias.Snapshot.from_sysfs(self.root)
        back = self.round_trip(snap)
        self.assertEqual(back.format(), snap.format())
        for s in (snap, back):
            self.assertEqual(entries(s.walk()), entries(walked.values()))
            with self.assertRaises(modalias.Error) as cm:
                s.device(bad)
            self.assertIsInstance(cm.exception, OSError)
            self.assertNotIsInstance(cm.exception, KeyError)
            self.assertEqual(cm.exception.errno, errno.EBADMSG)
            self.assertEqual(cm.exception.filename, bad)
            self.assertEqual(s.driver(bad), (None, None, None))
            self.assertEqual(str(s.device("/devices/platform/foo0")), "platform:foo")
        self.assertEqual(len(snap), 3)

    def test_devpath(self):
        # the links sysfs has, and ones out of the root (back into it too), a loop
        self.write("outside/devices/x/uevent", "")
        links = (("bus/platform/devices/foo0", "../../../devices/platform/foo0"),
                 ("class/misc/foo", "../../devices/platform/foo0"),
                 ("class/misc/out", "../../../outside/devices/x"),
                 ("class/misc/back", "../../../sys/devices/platform/foo0"),
                 ("class/misc/loop", "loop"))
        for link, target in links:
            os.makedirs(os.path.dirname(os.path.join(self.root, link)), exist_ok=True)
            os.symlink(target, os.path.join(self.root, link))
        for path in ("bus/platform/devices/foo0", "/class/misc/foo", "devices/platform/foo0",
                     pathlib.Path("class/misc/foo")):
            self.assertEqual(modalias.sysfs_devpath(path, self.root), "/devices/platform/foo0", path)
        self.assertEqual(modalias.sysfs_devpath(path=b"class/misc/foo", sysfs_root=self.root),
                         "/devices/platform/foo0")
        for path, err in (("class/misc/out", errno.EXDEV), ("class/misc/back", errno.EXDEV),
                          ("../sys/devices/platform/foo0", errno.EXDEV), ("class/misc/loop", errno.ELOOP),
                          ("bus/platform", errno.ENODEV), ("devices/platform/foo0/uevent", errno.ENOTDIR)):
            with self.assertRaises(modalias.Error) as cm:
                modalias.sysfs_devpath(path, self.root)
            self.assertEqual((cm.exception.errno, cm.exception.filename), (err, path))
        with self.assertRaises(modalias.NotFoundError):
            modalias.sysfs_devpath("class/misc/nosuch", self.root)
        # a capture keeps no links: its devpaths lead to themselves
        self.assertEqual(modalias.sysfs_devpath(XHCI, QEMU_SYSFS), XHCI)

    @unittest.skipUnless(sys.getfilesystemencoding() == "utf-8", "file names are not UTF-8 here")
    def test_bytes_not_utf8(self):
        self.device("/devices/platform/odd\udcff", "platform:odd\n")
        self.write("sys/devices/platform/bar0/.driver", b"drv\xfe\n")
        odd = "/devices/platform/odd\udcff"
        self.assertEqual(modalias.sysfs_driver("/devices/platform/bar0", self.root)[0], "drv\udcfe")
        snap = modalias.Snapshot.from_sysfs(self.root)
        doc = snap.format()
        self.assertIn("odd\\u00ff", doc)
        back = self.round_trip(snap)
        self.assertEqual(back.format(), doc)
        for s in (snap, back):
            self.assertIn(odd, [e.devpath for e in s.walk()])
            self.assertEqual(str(s.device(odd)), "platform:odd")
            self.assertEqual(str(s.device(odd.encode("utf-8", "surrogateescape"))), "platform:odd")
            self.assertEqual(s.driver("/devices/platform/bar0"), ("drv\udcfe", None, None))


# ---- files that are not snapshots, and the handle ------------------------------------------------


class TestFiles(TempDirTest):
    def test_malformed(self):
        for text, err in (('{"version": 2, "devices": []}', errno.EPROTONOSUPPORT),
                          ("not json", errno.EBADMSG),
                          ('{"version": 1}', errno.EBADMSG),
                          ('{"version": 1, "devices": [{"devpath": "/etc", "modalias": "usb:"}]}', errno.EBADMSG),
                          ("", errno.EBADMSG)):
            path = self.write("bad.json", text)
            with self.assertRaises(modalias.InputError, msg=text) as cm:
                modalias.Snapshot.from_file(path)
            e = cm.exception
            self.assertIsInstance(e, ValueError)
            self.assertIsInstance(e, OSError)
            self.assertEqual(e.errno, err, text)
            self.assertEqual(e.filename, path)
            self.assertIn(path, e.strerror)  # the library's message: file, line, column
            self.assertNotEqual(e.strerror, os.strerror(err))

    def test_cannot_read(self):
        missing = os.path.join(self.tmp, "missing.json")
        with self.assertRaises(modalias.NotFoundError) as cm:
            modalias.Snapshot.from_file(missing)
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertEqual(cm.exception.filename, missing)
        with self.assertRaises(modalias.Error):
            modalias.Snapshot.from_file(self.tmp)
        with self.assertRaises(modalias.NotFoundError):
            modalias.Snapshot.from_sysfs(os.path.join(self.tmp, "no-sysfs"))
        with self.assertRaises(modalias.InputError):
            modalias.Snapshot.from_sysfs("")
        with self.assertRaises(TypeError):
            modalias.Snapshot.from_file(None)

    def test_written_by_hand(self):
        path = self.write("hand.json", json.dumps({
            "version": 1, "future": {"ignored": True},
            "devices": [
                {"devpath": "/devices/usb1/1-1/1-1:1.0", "subsystem": "usb",
                 "modalias": "usb:v046DpC52Bd1201dc00dsc00dp00ic03isc01ip01in00",
                 "driver": "usbhid", "driver_module": "usbhid"},
                {"devpath": "/devices/platform/x", "modalias": None, "errno": errno.ENODATA, "error": "none"},
            ],
            "modules": ["usbhid"],
        }))
        snap = modalias.Snapshot.from_file(path)
        self.assertIsNone(snap.kernel)
        self.assertIsNone(snap.arch)
        self.assertEqual(len(snap), 2)
        self.assertEqual(snap.device("/devices/usb1/1-1/1-1:1.0")["idVendor"], "046D")
        self.assertEqual(snap.driver("/devices/usb1/1-1/1-1:1.0"), ("usbhid", "usbhid", None))
        self.assertTrue(snap.is_module_loaded("usbhid"))
        self.assertFalse(snap.is_module_loaded("usb_storage"))
        # written without "builtin": it does not say
        self.assertIsNone(snap.is_module_builtin("usbhid"))
        self.assertEqual([(e.devpath, e.errno) for e in snap.walk()],
                         [("/devices/platform/x", errno.ENODATA), ("/devices/usb1/1-1/1-1:1.0", 0)])
        with self.assertRaises(modalias.Error) as cm:
            snap.device("/devices/platform/x")
        self.assertEqual(cm.exception.errno, errno.ENODATA)

    def test_close_and_with(self):
        with self.assertRaises(TypeError):
            modalias.Snapshot()
        with modalias.Snapshot.from_sysfs(QEMU_SYSFS) as snap:
            self.assertFalse(snap.closed)
            self.assertEqual(snap.driver(XHCI)[0], "xhci_hcd")
        self.assertTrue(snap.closed)
        for call in (snap.format, snap.walk, lambda: snap.device(XHCI), lambda: snap.driver(XHCI),
                     lambda: snap.is_module_loaded("x"), lambda: len(snap), lambda: snap.kernel,
                     lambda: snap.arch):
            with self.assertRaises(ValueError) as cm:
                call()
            self.assertIn("closed Snapshot", str(cm.exception))
        snap.close()
        with self.assertRaises(ValueError):
            with snap:
                pass


if __name__ == "__main__":
    unittest.main()
