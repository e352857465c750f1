"""What the Python binding tests share: the fixtures' paths, TAP diagnostics,
the recorded uevents, running code in a child interpreter, and one shared
table of the Debian 6.1 fixture.  Imported by every tests/python/test_*.py."""
import os
import subprocess
import sys

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
