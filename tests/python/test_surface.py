"""The module's surface: its names against the type stubs, its version.

Run by make check through tests/python/tap-unittest.py (see modalias_testlib.py)."""
import ast
import os
import re
import subprocess
import sys
import unittest

import modalias
from modalias_testlib import SRCDIR, STUBS


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


# ---- README's example ------------------------------------------------------------------------


class TestReadme(unittest.TestCase):
    def test_example_runs(self):
        """README's Python example runs as it stands, from the build tree too
        (no /lib/modules/RELEASE: BUNDLED_TABLE, the source tree's table before
        make install), and names a module or none for each device."""
        readme = os.path.join(SRCDIR, "README.md")
        if not os.path.exists(readme):
            self.skipTest("no README.md")
        with open(readme, encoding="utf-8") as f:
            text = f.read()
        section = text.split("\n## Python\n", 1)[1]
        code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        self.assertTrue(os.path.isdir(modalias.BUNDLED_TABLE), modalias.BUNDLED_TABLE)
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertTrue(lines, "no device printed")
        for line in lines:
            self.assertRegex(line, r"^/devices/\S* \S+:\S* \S")

