#!/bin/bash
# make lint: cppcheck, clang-tidy and scan-build over the library, the
# front ends and the Python bindings.  Zero findings, or each one suppressed
# where it is, with its reason:
#   cppcheck    inline "cppcheck-suppress ID ; reason"
#   clang-tidy  .clang-tidy (checks left out, with the reason) and inline
#               NOLINT(check) under a comment giving the reason
#   scan-build  has no inline suppression: a report whose file, function and
#               bug type are listed in tests/lint/scan-build.known (each with
#               its reason) is counted as known; any other fails.
#
# The source tree's files (git's when it is a checkout) are copied to
# LINT_BUILDDIR (default ./lint) and built there twice: once with gcc under
# bear for the compilation database, once under scan-build.
#
# Env: LINT_SRCDIR (the source tree, required), LINT_BUILDDIR.
# Needs: cppcheck clang-tidy clang-tools (scan-build) bear clang.
# Exit: 0 clean, 1 findings, 2 a tool is missing or the build failed.
set -uo pipefail

srcdir=$(cd "${LINT_SRCDIR:?LINT_SRCDIR is not set}" && pwd)
work=${LINT_BUILDDIR:-$PWD/lint}
jobs=${LINT_JOBS:-2}

for tool in cppcheck clang-tidy scan-build bear clang; do
	command -v "$tool" >/dev/null || { echo "lint: $tool not found (apt-get install cppcheck clang-tidy clang-tools bear clang)" >&2; exit 2; }
done

rm -rf "$work" && mkdir -p "$work/src" || exit 2
if git -C "$srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$srcdir" && git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf -) |
		tar -C "$work/src" -xf - || exit 2
else
	(cd "$srcdir" && tar -cf - --exclude=./lint .) | tar -C "$work/src" -xf - || exit 2
fi
cd "$work/src" || exit 2
echo "lint: building in $work/src"
if ! { ./autogen.sh --disable-static-glib >"$work/configure.log" 2>&1 &&
	bear --output "$work/compile_commands.json" -- make -j"$jobs" >"$work/build.log" 2>&1; }; then
	echo "lint: the build failed (see $work/configure.log, $work/build.log)" >&2
	tail -20 "$work/build.log" >&2
	exit 2
fi

status=0

# ---- cppcheck: the library and the front ends.  The bindings are left to
# clang-tidy: without Python's headers cppcheck misreads its macros, and with
# them it stops at pyport.h's #error about limits.h.
cppcheck_flags=(--enable=warning,style,performance,portability --inline-suppr --error-exitcode=1 -q
	--std=c11 --suppress=missingIncludeSystem --suppress=missingInclude -I. -Ilibmodalias -Icli -Ishared
	-DHAVE_CONFIG_H -DBUNDLED_MODDIR='""' -DSOURCE_MODDIR='""')
if cppcheck "${cppcheck_flags[@]}" libmodalias cli shared >"$work/cppcheck.log" 2>&1; then
	cppcheck_n=0
else
	cppcheck_n=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: ' "$work/cppcheck.log")
	status=1
fi
echo "lint: cppcheck: $cppcheck_n findings"
[ "$cppcheck_n" = 0 ] || grep -E '^[^ ]+:[0-9]+:[0-9]+: ' "$work/cppcheck.log"

# ---- clang-tidy: every source file of the compilation database, once
mapfile -t files < <(python3 -c '
import json, sys
seen = []
for e in json.load(open(sys.argv[1])):
    f = e["file"]
    if not f.startswith("/"):
        f = e["directory"] + "/" + f
    if f not in seen and "/tests/" not in f:
        seen.append(f)
print("\n".join(seen))' "$work/compile_commands.json")
tidy_n=0
: >"$work/clang-tidy.log"
for f in "${files[@]}"; do
	clang-tidy --quiet -p "$work" "$f" >>"$work/clang-tidy.log" 2>/dev/null
done
tidy_n=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$work/clang-tidy.log")
echo "lint: clang-tidy: $tidy_n findings in ${#files[@]} files"
if [ "$tidy_n" != 0 ]; then
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$work/clang-tidy.log"
	status=1
fi

# ---- scan-build: the same build again, through the analyzer
make clean >/dev/null 2>&1
scan-build -o "$work/scan" sh -c "make -j$jobs CC=\"\$CC\"" >"$work/scan-build.log" 2>&1
known_n=0 new_n=0
for report in "$work"/scan/*/report-*.html; do
	[ -e "$report" ] || continue
	meta() { sed -n "s/^<!-- $1 \(.*\) -->$/\1/p" "$report"; }
	key="$(meta FILENAME) $(meta FUNCTIONNAME) $(meta BUGTYPE)"
	if grep -qxF "$key" <(grep -v '^#' "$srcdir/tests/lint/scan-build.known" | sed 's/ *#.*//'); then
		known_n=$((known_n + 1))
	else
		new_n=$((new_n + 1))
		echo "scan-build: $(meta BUGFILE):$(meta BUGLINE): $(meta BUGDESC) in $(meta FUNCTIONNAME) [$key]"
	fi
done
echo "lint: scan-build: $new_n findings ($known_n known, tests/lint/scan-build.known)"
[ "$new_n" = 0 ] || status=1

[ $status = 0 ] && echo "lint: clean" || echo "lint: findings above"
exit $status
