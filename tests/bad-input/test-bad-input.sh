#!/bin/sh
# The bad-input catalogue: one hostile, broken or truncated input a row,
# each asserting the exact error (the whole of standard error) and the exit
# status, and that nothing else broke: the good inputs around the bad one
# keep their answers, files are left as they were, no crash, no sanitizer
# report.  TAP on stdout, one test point a row.
#
# Paths in messages differ from run to run: standard error and output are
# compared with the row's temporary directory written @TMP@, tests/data
# written @DATA@ and the index cache's name (a hash of the module
# directory's path) @IDX@.  tests/bad-input/README.md is this table as it ran;
# BAD_INPUT_README=1 rewrites it, and the last test point checks it is this
# run's catalogue.
#
# Row syntax: row ID KEY: VALUE … -- COMMAND…  (COMMAND may be a function)
#   in:        the input, for the README
#   err:       standard error, exactly ('' for none)
#   err-has:   lines standard error must hold, exactly (instead of err:)
#   exit:      the exit status
#   out:       standard output, exactly;  out-file: FILE, byte for byte
#   stdin:     a file for standard input (default /dev/null)
#   unchanged: a path (file or tree) that must be as it was
#   check:     a shell condition that must hold afterwards
#   also:      what out:/out-file:/unchanged:/check: assert, for the README
#   fixed:     the bug this row found, fixed (for the README)
#   skip-unless: a shell condition; the row is skipped when it fails
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
for rows in modaliases tables maps env sysfs agent config bounded trust snapshot surfaces; do
	. "$here/rows-$rows.sh"
done

# ---- the catalogue -----------------------------------------------------------------

readme() {
	cat <<'HEAD'
# The bad-input catalogue

`tests/bad-input/test-bad-input.sh` (run by `make check`; its rows are in `rows-*.sh` by input kind, its machinery in `lib.sh`) feeds the library, `modalias` and the
`hotplug` agent hostile, broken and truncated input, one case a row, and asserts for each the
**whole** of standard error, exactly, and the exit status, and that nothing else broke: the good
inputs around the bad one keep their answers (the "also checked" column), files are left as they
were, no crash (a status of 124 or more fails the row), no sanitizer report. `@TMP@` is the
row's temporary directory, `@DATA@` is `tests/data`, `@IDX@` the index cache's name (the SHA-256 of
the module directory's path); a control character is written here as `\xNN`.

This file is written by the test from its run (`BAD_INPUT_README=1 make check
TESTS=tests/bad-input/test-bad-input.sh`), and the test's last check is that it still is this
table. The sysfs rows that remove a device in the middle of a walk use
`tests/bad-input/sysfs-vanish`, which wraps the library's `stat()` and `open()` (`ld --wrap`) to
remove it at an exact moment. Rows run as `nobody` (setpriv) or in a network namespace of their
own (unshare) are skipped where those are not available, and so are those where nobody runs a
program of the build or reads `tests/data` where nobody may not (a checkout below a directory
closed to others, as a 0700 `mktemp -d`: `nobody_reaches` in `lib.sh`). The catalogue passes as it is in a
build with `./configure --enable-sanitizers` too, where a sanitizer report fails its row.

| # | case | input | expected standard error (exact) | exit | also checked | result |
|---|------|-------|---------------------------------|------|--------------|--------|
HEAD
	cat "$tmp/catalogue"
	printf '\n%s rows.\n\n## Bugs these rows found, fixed\n\n' "$n"
	cat "$tmp/fixes"
}
readme >"$tmp/README.md"
n=$((n + 1))
if [ "${BAD_INPUT_README:-}" = 1 ]; then
	cp "$tmp/README.md" "$here/README.md"
	echo "ok $n - README.md rewritten from this run"
else
	# the result column may say skip where a row could not run here
	blind() { sed -e 's/| pass |$/| - |/' -e 's/| skip |$/| - |/' -e 's/| FAIL |$/| - |/' "$1"; }
	blind "$tmp/README.md" >"$tmp/README.blind"
	if blind "$here/README.md" | cmp -s - "$tmp/README.blind"; then
		echo "ok $n - README.md is this run's catalogue"
	else
		echo "not ok $n - README.md is not this run's catalogue (BAD_INPUT_README=1 rewrites it)"
		blind "$here/README.md" | diff - "$tmp/README.blind" | head -40 | sed 's/^/# /'
		fail=1
	fi
fi
echo "1..$n"
exit $fail
