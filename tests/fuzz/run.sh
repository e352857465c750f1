#!/bin/bash
# Builds every fuzz target with clang's libFuzzer (ASan + UBSan), seeds its
# corpus from the real fixtures, runs each for FUZZ_SECONDS (default 60),
# and prints, per target, the time, executions and coverage.
#   tests/fuzz/run.sh [TARGET…]     (make fuzz FUZZ_SECONDS=N)
# A crash stops the target and leaves crash-* in tests/fuzz/out/TARGET/;
# copy it to tests/fuzz/regressions/TARGET/ to keep it as a test.
# FUZZ_ENGINE=afl builds the same targets with AFL++'s afl-clang-fast
# (its libFuzzer-compatible driver) and runs afl-fuzz instead; cov is then
# the bitmap coverage, crashes land in tests/fuzz/out/afl-TARGET/default/crashes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${FUZZ_BUILD:-$top}
out=${FUZZ_OUT:-$build/tests/fuzz/out}
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
engine=${FUZZ_ENGINE:-libfuzzer}
case $engine in
libfuzzer) cc=${FUZZ_CC:-clang} ;;
afl) cc=${FUZZ_CC:-afl-clang-fast} ;;
*) echo "FUZZ_ENGINE=$engine: libfuzzer or afl" >&2; exit 2 ;;
esac
targets=${*:-parse env table map glob config netlink cache snapshot control}
data=$top/tests/data
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -include $build/config.h
	-I$top/libmodalias -I$top/shared -I$top/cli $(pkg-config --cflags glib-2.0)"
lib_sources=$(ls "$top"/libmodalias/*.c "$top"/shared/*.c)

mkdir -p "$out"
seed() { # TARGET DIR
	local t=$1 d=$2 i=0
	mkdir -p "$d"
	case $t in
	parse)
		grep -h '^MODALIAS=' "$data/uevents/uevents.txt" | sed 's/^MODALIAS=//' | sort -u | head -400 |
			while IFS= read -r m; do i=$((i + 1)); printf '%s' "$m" > "$d/seed-$i"; done ;;
	env)
		awk '/^# source/ { if (b) print b > sprintf("'"$d"'/seed-%d", ++n); b = "" ; next }
		     /^SUBSYSTEM=/ { s = substr($0, 11) } /=/ { b = b $0 "\n" }
		     END { print b > sprintf("'"$d"'/seed-%d", ++n) }' "$data/uevents/uevents.txt"
		for f in "$d"/seed-*; do sub=$(sed -n 's/^SUBSYSTEM=//p' "$f" | head -1); { echo "${sub:-usb}"; cat "$f"; } > "$f.s"; mv "$f.s" "$f"; done
		ls "$d" | tail -n +500 | sed "s|^|$d/|" | xargs -r rm -f ;;
	table)
		split -l 40 "$data/linux-6.1.0-57-amd64/modules.alias" "$d/seed-"
		ls "$d" | tail -n +300 | sed "s|^|$d/|" | xargs -r rm -f ;;
	map)
		k=0
		for f in "$data"/maps/* "$data"/linux-2.6.35.7-samsung/modules.*map; do
			k=$((k + 1)); { printf '\377'; head -c 20000 "$f"; } > "$d/seed-$k"
		done ;;
	glob)
		cut -d' ' -f2 "$data/linux-6.1.0-57-amd64/modules.alias" | head -300 | while IFS= read -r p; do
			i=$((i + 1)); printf '%s\0%s' "$p" "${p//\*/x}" > "$d/seed-$i"; done ;;
	config)
		printf '[modules]\nroot=/\nblacklist=a;b\n[log]\nlevel=info\n[agent]\nmax-parallel=4\ncoldplug=resolve\n' > "$d/seed-1"
		printf '[modules]\nrot=/\n[lgo]\n' > "$d/seed-2" ;;
	netlink)
		printf 'add@/devices/pci0000:00/0000:00:02.0\0ACTION=add\0DEVPATH=/devices/pci0000:00/0000:00:02.0\0SUBSYSTEM=pci\0SEQNUM=12\0MODALIAS=pci:v00008086d000010D3sv00008086sd00000000bc02sc00i00\0' > "$d/seed-1"
		printf 'libudev\0\376\355\312\376\0\0\0' > "$d/seed-2" ;;
	control)
		printf 'settle 0' > "$d/seed-1"
		printf 'settle 18446744073709551615' > "$d/seed-2"
		printf 'settled' > "$d/seed-3" ;;
	snapshot)
		# snapshots of the captured trees, and their devices one by one
		if [ -x "$build/cli/modalias" ]; then
			for tree in "$data"/sysfs/*/; do
				"$build/cli/modalias" snapshot --sysfs "$tree" -o "$d/seed-$(basename "$tree")" 2>/dev/null
			done
			grep -h '"devpath"' "$d"/seed-* | head -200 | while IFS= read -r l; do
				i=$((i + 1)); printf '{"version": 1, "devices": [%s]}' "${l%,}" > "$d/one-$i"; done
		fi ;;
	cache)
		# index caches of small module directories (slices of the fixture),
		# written by the built modalias; the whole fixture's is 3 MiB
		if [ -x "$build/cli/modalias" ]; then
			m=$data/linux-6.1.0-57-amd64
			for k in 0 1 2 3 4 5 6 7; do
				rm -rf "$d/m" "$d/c" && mkdir -p "$d/m" "$d/c"
				sed -n "$((k * 3000 + 1)),+$((20 + k * 10))p" "$m/modules.alias" >"$d/m/modules.alias"
				sed -n "$((k * 500 + 1)),+20p" "$m/modules.dep" >"$d/m/modules.dep"
				sed -n "$((k * 500 + 1)),+20p" "$m/modules.order" >"$d/m/modules.order"
				sed -n "$((k * 1000 + 1)),+20p" "$m/modules.symbols" >"$d/m/modules.symbols"
				head -c $((k * 300)) "$m/modules.builtin.modinfo" >"$d/m/modules.builtin.modinfo"
				MODALIAS_CACHE_DIR="$d/c" "$build/cli/modalias" resolve -m "$d/m" -C /dev/null x >/dev/null 2>&1
				mv "$d"/c/*.idx "$d/seed-$k" 2>/dev/null
			done
			rm -rf "$d/m" "$d/c"
		fi ;;
	esac
	if [ -d "$here/regressions/$t" ]; then cp "$here/regressions/$t"/* "$d/" 2>/dev/null || :; fi
}

if [ "$engine" = afl ]; then
	printf '%-8s %8s %12s %8s %8s %s\n' target seconds executions bitmap corpus result
else
	printf '%-8s %8s %12s %8s %8s %s\n' target seconds executions cov ft result
fi
status=0
for t in $targets; do
	bin=$out/fuzz-$t
	[ "$engine" = afl ] && bin=$out/afl-fuzz-$t
	extra=""
	case $t in
	config) extra="$top/cli/cli-config.c $(pkg-config --libs glib-2.0)" ;;
	netlink) extra="$top/cli/uevent.c $(pkg-config --libs glib-2.0)" ;;
	control) extra="$top/cli/control-socket.c" ;;
	esac
	# shellcheck disable=SC2086
	if ! $cc $flags -o "$bin" "$here/fuzz-$t.c" $lib_sources -DSYSCONFDIR='"/etc"' $extra -ldl -pthread 2>"$out/$t.build.log"; then
		echo "$t: build failed:"; cat "$out/$t.build.log"; status=1; continue
	fi
	corpus=$out/corpus-$t
	[ -d "$corpus" ] || seed "$t" "$corpus"
	if [ "$engine" = afl ]; then
		rm -rf "$out/afl-$t"
		AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
			timeout $((seconds + 60)) afl-fuzz -V "$seconds" -t 10000 -m none -i "$corpus" -o "$out/afl-$t" \
			-- "$bin" > "$out/$t.log" 2>&1
		r=$?
		stats=$out/afl-$t/default/fuzzer_stats
		execs=$(sed -n 's/^execs_done *: *//p' "$stats" 2>/dev/null)
		cov=$(sed -n 's/^bitmap_cvg *: *//p' "$stats" 2>/dev/null)
		ft=$(sed -n 's/^corpus_count *: *//p' "$stats" 2>/dev/null)
		res=ok
		if [ $r -ne 0 ] || [ -n "$(ls "$out/afl-$t/default/crashes" 2>/dev/null | grep -v README)" ]; then
			res="CRASH or failure (see $out/afl-$t, $out/$t.log)"; status=1
		fi
		printf '%-8s %8s %12s %8s %8s %s\n' "$t" "$seconds" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$res"
		continue
	fi
	mkdir -p "$out/$t"
	# the cache seeds are some 30 KiB
	maxlen=""
	[ "$t" = cache ] && maxlen=-max_len=65536
	# shellcheck disable=SC2086
	(cd "$out/$t" && "$bin" -max_total_time="$seconds" -print_final_stats=1 -jobs="$jobs" -workers="$jobs" \
		-timeout=10 -rss_limit_mb=2048 $maxlen "$corpus" > "$out/$t.log" 2>&1)
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | awk '{ s += $1 } END { print s + 0 }')
	last=$(grep -E '^#[0-9]+' "$out/$t.log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	res=ok
	if [ $r -ne 0 ] || ls "$out/$t"/crash-* >/dev/null 2>&1; then res="CRASH (see $out/$t)"; status=1; fi
	printf '%-8s %8s %12s %8s %8s %s\n' "$t" "$seconds" "$execs" "${cov:-?}" "${ft:-?}" "$res"
done
exit $status
