#!/bin/sh
# The man pages against what the programs say of themselves (--help): the
# modalias.conf they read by default.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cli-lib.sh"
# the pages made from man/*.in (Makefile.am), in the build tree
man="${G_TEST_BUILDDIR:-$here}/../man"
hotplug=${HOTPLUG_BIN:?}

# ---- the default modalias.conf: --help's (the configured sysconfdir) -------
# the FILE of "--settings=FILE ... instead of FILE" in HELP (a file)
help_default() {
	sed -n 's/.*--settings=FILE .* instead of \([^ ]*modalias\.conf\).*/\1/p' "$1" | head -n 1
}
"$cli" list --help >"$tmp/help-modalias"
"$hotplug" --help >"$tmp/help-hotplug"
for page in modalias.1:modalias modalias.conf.5:modalias hotplug.8:hotplug; do
	m=${page%%:*} prog=${page#*:}
	n=$((n + 1))
	want=$(help_default "$tmp/help-$prog")
	# every path to a modalias.conf the page names (a word ending in
	# /modalias.conf, font changes left out)
	sed -e 's/\\f[BIRP]//g' "$man/$m" | grep -o '[^ "]*/modalias\.conf\b' | sort -u >"$tmp/named"
	why=""
	if [ -z "$want" ]; then
		why="$prog --help names no default modalias.conf"
	elif ! grep -qxF "$want" "$tmp/named"; then
		why="it does not name $want, $prog --help's default"
	elif grep -vxF "$want" "$tmp/named" >/dev/null; then
		why="it names another: $(grep -vxF "$want" "$tmp/named" | tr '\n' ' ')"
	fi
	report "man/$m names $prog --help's default modalias.conf ($want)" "$why" "$tmp/named" named
done

echo "1..$n"
exit $fail
