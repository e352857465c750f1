#!/bin/sh
# Every input a fuzzer once crashed on (tests/fuzz/regressions/TARGET/),
# replayed through the target without libFuzzer.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${FUZZ_REPLAY_DIR:?}
n=0
fail=0
for dir in "$here"/fuzz/regressions/*/; do
	t=$(basename "$dir")
	for f in "$dir"*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		if "$bin/replay-$t" "$f" >/dev/null 2>&1; then
			echo "ok $n - $t: $(basename "$f")"
		else
			echo "not ok $n - $t: $(basename "$f")"
			fail=1
		fi
	done
done
echo "1..$n"
exit $fail
