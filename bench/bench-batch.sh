#!/bin/sh
# bench/bench-batch.sh: the batch benchmark of `make bench`: every PCI and USB
# id of hwdata (bench/hwdata-modaliases.sh) resolved by one whole
# `modalias resolve -` process against one whole libkmod process
# (bench/kmod-batch) over the same module directory, run in turn A B A B …,
# medians of the wall times and their ratio. It writes only to stdout and to
# the scratch file it is given.
#
# usage: bench-batch.sh MODALIAS KMOD_BATCH MODDIR PCI_IDS USB_IDS INPUT_OUT [RUNS]
set -eu
[ $# -ge 6 ] || { echo "usage: $0 MODALIAS KMOD_BATCH MODDIR PCI_IDS USB_IDS INPUT_OUT [RUNS]" >&2; exit 2; }
cli=$1 kb=$2 moddir=$3 pci=$4 usb=$5 input=$6 runs=${7:-21}
here=$(dirname "$0")
sh "$here/hwdata-modaliases.sh" "$pci" "$usb" > "$input"
n=$(wc -l < "$input")
# warm the cache and the page cache once, not counted
"$cli" resolve -m "$moddir" -C /dev/null - < "$input" > /dev/null
"$kb" "$moddir" < "$input" > /dev/null
ns() { date +%s%N; }
a= b= i=0
while [ $i -lt "$runs" ]; do
	t0=$(ns); "$cli" resolve -m "$moddir" -C /dev/null - < "$input" > /dev/null; t1=$(ns)
	"$kb" "$moddir" < "$input" > /dev/null; t2=$(ns)
	a="$a $((t1 - t0))" b="$b $((t2 - t1))"
	i=$((i + 1))
done
median() { printf '%s\n' $1 | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ma=$(median "$a") mb=$(median "$b")
echo "batch: $n hwdata ids (PCI vendor:device, USB vendor:product), whole processes, median of $runs paired runs"
echo
printf '%-28s %10s\n' "" "wall ms"
printf '%-28s %10.2f\n' "modalias resolve -" "$(echo "$ma / 1000000" | bc -l)"
printf '%-28s %10.2f\n' "libkmod (kmod-batch)" "$(echo "$mb / 1000000" | bc -l)"
printf '%-28s %9.1fx\n' "libkmod / modalias" "$(echo "$mb / $ma" | bc -l)"
