#!/bin/sh
# The installed library exports exactly the committed symbol list, each in
# its version node; the static archive leaks nothing but modalias_*.
set -u
here=$(dirname "$0")
expected="$here/libmodalias.symbols"
so=${LIBMODALIAS_SO:?}
nm=${NM:-nm}
echo "1..2"
actual=$(objdump -T "$so" | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^LIBMODALIAS_/ && $(i + 1) != $i) print $(i + 1) "@" $i }' | sort)
if [ "$actual" = "$(grep -v '^#' "$expected" | sort)" ]; then
	echo "ok 1 - exported symbols match $expected"
else
	echo "not ok 1 - exported symbols differ from $expected"
	echo "$actual" | diff -u "$expected" - | sed 's/^/# /'
fi
archive=${so%.so}.a
if [ -f "$archive" ]; then
	# the static archive: the API only (internals were made local)
	leaks=$($nm --extern-only --defined-only "$archive" | awk 'NF == 3 { print $3 }' | sort -u |
		grep -v -E '^(modalias_|__)' || true)
	if [ -z "$leaks" ]; then
		echo "ok 2 - the static archive defines the API and nothing else"
	else
		echo "not ok 2 - the static archive defines more than the API"
		echo "$leaks" | sed 's/^/# /'
	fi
else
	echo "ok 2 # SKIP no static archive built"
fi
