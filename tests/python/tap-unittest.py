#!/usr/bin/env python3
"""Runs one unittest file and reports in TAP for automake's tap-driver.sh.

Usage: tap-unittest.py TESTS.py -- every test method is one TAP line,
"ok N - Class.method" or "not ok N - Class.method" (with the traceback as
"# " comment lines); skipped tests are "ok N - name # SKIP reason".
"""
import importlib.util
import os
import sys
import traceback
import unittest

sys.dont_write_bytecode = True  # the source tree may be read-only (make distcheck)


class TapResult(unittest.TestResult):
    def __init__(self, stream):
        super().__init__()
        self.stream = stream
        self.n = 0
        self.reported = False

    def _name(self, test):
        return "%s.%s" % (type(test).__name__, getattr(test, "_testMethodName", str(test)))

    def startTest(self, test):
        super().startTest(test)
        self.reported = False

    def stopTest(self, test):
        # a test whose subtests failed gets no outcome of its own
        if not self.reported:
            self._line("not ok %%d - %s (subtests failed)" % self._name(test))
        super().stopTest(test)

    def _line(self, text, detail=None):
        self.reported = True
        self.n += 1
        self.stream.write(text % self.n + "\n")
        if detail:
            for line in detail.rstrip("\n").split("\n"):
                self.stream.write("# " + line + "\n")
        self.stream.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line("ok %%d - %s" % self._name(test))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line("not ok %%d - %s" % self._name(test), "".join(traceback.format_exception(*err)))

    def addError(self, test, err):
        super().addError(test, err)
        self._line("not ok %%d - %s (error)" % self._name(test), "".join(traceback.format_exception(*err)))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line("ok %%d - %s # SKIP %s" % (self._name(test), reason.replace("\n", " ")))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line("ok %%d - %s # TODO expected failure" % self._name(test))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line("not ok %%d - %s # TODO unexpected success" % self._name(test))

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.stream.write("# subtest failed: %s\n" % subtest)
            for line in "".join(traceback.format_exception(*err)).rstrip("\n").split("\n"):
                self.stream.write("# " + line + "\n")


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: tap-unittest.py TESTS.py\n")
        return 2
    path = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception:
        print("1..0 # SKIP cannot load %s" % path)
        traceback.print_exc()
        return 1
    suite = unittest.defaultTestLoader.loadTestsFromModule(mod)
    print("1..%d" % suite.countTestCases())
    sys.stdout.flush()
    result = TapResult(sys.stdout)
    suite.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
