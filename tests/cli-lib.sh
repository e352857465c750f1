# tests/cli-lib.sh - the TAP machinery of the CLI's shell tests (test-cli.sh,
# test-cli-person.sh, test-snapshot.sh, test-hostile-output.sh): report(),
# check() against golden files (tests/golden/NAME.out; UPDATE_GOLDEN=1
# rewrites them) and pointed() (a usage error's last line).  Sourced after the caller set here (its directory); sets
# golden, data, cli ($MODALIAS_CLI) and tmp (removed at exit); runs no test
# itself.

golden="$here/golden"
data="$here/data"
cli=${MODALIAS_CLI:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
fail=0
# The goldens draw trees and ellipses in UTF-8: a UTF-8 locale (make check
# sets LC_ALL=C; the C locale draws them in ASCII)
export LC_ALL=C.UTF-8
# The goldens hold no device names (the machine's pci.ids and usb.ids
# change with its packages): no databases unless a test names them
export MODALIAS_IDS_DIR=/nonexistent
# A private index cache ($tmp, made by the test before it sources this):
# the checkout's tests/cache is refused, with a warning on standard error,
# where the checkout's directories are group-writable (git archive | tar -x)
export MODALIAS_CACHE_DIR="${tmp:?}/cache"

# report NAME WHY [FILE LABEL]...: the TAP line of test $n ("" for WHY: it
# passed); on failure the start of each FILE, its lines marked LABEL
report() {
	name=$1 why=$2
	shift 2
	if [ -z "$why" ]; then
		echo "ok $n - $name"
		return
	fi
	echo "not ok $n - $name: $why"
	while [ $# -gt 1 ]; do
		head -c 3000 "$1" | sed -e "s/^/# $2: /" -e '$a\' | head -20
		shift 2
	done
	fail=1
}

# check NAME STATUS GOLDEN|- [STDERR-PATTERN] -- COMMAND...
check() {
	name=$1 want_status=$2 gold=$3 pattern=$4
	shift 5
	n=$((n + 1))
	"$@" >"$tmp/raw" 2>"$tmp/err"
	status=$?
	# fixture paths differ from tree to tree (distcheck builds elsewhere), the
	# temporary directory from run to run
	sed -e "s|$data|@DATA@|g" -e "s|$tmp|@TMP@|g" "$tmp/raw" >"$tmp/out"
	why=""
	[ "$status" = "$want_status" ] || why="exit status $status, wanted $want_status"
	if [ -z "$why" ] && [ "$gold" != "-" ]; then
		if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
			cp "$tmp/out" "$golden/$gold.out"
		elif ! cmp -s "$tmp/out" "$golden/$gold.out"; then
			why="output differs from golden/$gold.out"
		fi
	fi
	if [ -z "$why" ] && [ -n "$pattern" ] && ! grep -q -e "$pattern" "$tmp/err"; then
		why="stderr does not say '$pattern'"
	fi
	report "$name" "$why" "$tmp/out" out "$tmp/err" err
}


# pointed NAME CMD: the last check's standard error ends with the pointer to
# 'modalias CMD --help', as every usage error's does
pointed() {
	n=$((n + 1))
	why=""
	[ "$(tail -n 1 "$tmp/err")" = "Try 'modalias $2 --help'." ] || why="no pointer to 'modalias $2 --help' last"
	report "$1: the pointer to --help" "$why" "$tmp/err" err
}
