#!/bin/sh
# The man pages against what the programs say of themselves (--help): the
# modalias.conf they read by default; each modalias command's options in
# modalias(1)'s synopsis and in the bash completion, as its --help lists
# them (short and long forms, the word for the value).  TAP on stdout.
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

# ---- each command's options: --help, the man page's synopsis, completion ----
# options FILE: the options a --help (FILE) lists, one a line: "-x --long",
# "- --long" (no short form), with "=VALUE" when it takes one
options() {
	sed -n '/^Application Options:/,/^$/s/^  \(-\(.\), \)\{0,1\}--\([a-z-]*\)\(=[^ ]*\)\{0,1\} .*/-\2 --\3\4/p' "$1" | sort
}
# synopsis CMD: the same of the man page's ".SY "modalias CMD"" block (a
# bracket each: [-x|--long=VALUE], [--long]), font changes left out
synopsis() {
	sed -n "/^\.SY \"modalias $1\"\$/,/^\.YS\$/p" "$man/modalias.1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/^\.[A-Z]* //' -e 's/ //g' |
		grep -o '\[-[^]]*\]' | sed -n 's/^\[\(-\(.\)|\)\{0,1\}--\([a-z-]*\)\(=[A-Z]*\)\{0,1\}\]$/-\2 --\3\4/p' | sort
}
# completion CMD: the option words the bash completion offers after CMD
# ($table_opts expanded; the --settings every command is offered, and
# --help, left out as --help lists them apart), one a line
completion() {
	c="$here/../shell-completion/bash/modalias"
	table=$(sed -n 's/^[[:space:]]*local table_opts="\(.*\)"$/\1/p' "$c")
	sed -n "s/^[[:space:]]*$1) opts+=\"\(.*\)\" ;;\$/\1/p" "$c" | sed "s/\\\$table_opts/$table/" |
		tr ' ' '\n' | grep -v '^--help$' | grep . | sort
}
"$cli" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' >"$tmp/commands"
[ -s "$tmp/commands" ] || { echo "Bail out! modalias --help lists no command"; exit 1; }
while read -r c; do
	"$cli" "$c" --help >"$tmp/help" 2>&1
	options "$tmp/help" >"$tmp/want"
	synopsis "$c" >"$tmp/got"
	n=$((n + 1))
	why=""
	[ -s "$tmp/want" ] || why="its --help lists no option"
	diff -u "$tmp/want" "$tmp/got" >"$tmp/diff" || why="${why:+$why; }--help (-) and the synopsis (+) differ"
	report "man/modalias.1: the synopsis of $c lists the options of modalias $c --help" "$why" "$tmp/diff" diff
	# the completion offers each form: -x and --long, '--settings' too
	sed -e 's/=.*//' -e 's/ /\n/' "$tmp/want" | grep -vx -- - | sort >"$tmp/want-words"
	completion "$c" | { cat; echo --settings; } | sort -u >"$tmp/got-words"
	n=$((n + 1))
	why=""
	diff -u "$tmp/want-words" "$tmp/got-words" >"$tmp/diff" || why="--help (-) and the completion (+) differ"
	report "bash completion offers the options of modalias $c --help" "$why" "$tmp/diff" diff
done <"$tmp/commands"

# ---- the values the completion offers after an option ----------------------
# offered CMD-LINE: what the completion offers for the last word of
# CMD-LINE (bash-completion's _init_completion and _filedir stood in for:
# a directory or file name is offered as the word FILEDIR or FILEDIR-d)
offered() {
	MODALIAS_CLI="$cli" bash -c '
		_init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${words[cword]}; prev=${words[cword-1]}; }
		_filedir() { COMPREPLY=("FILEDIR$*"); }
		compopt() { :; }
		modalias() { "$MODALIAS_CLI" "$@"; }
		complete() { :; }
		. "$1"
		shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_modalias
		printf "%s\n" "${COMPREPLY[@]}" | sort' sh "$here/../shell-completion/bash/modalias" "$@"
}
types=$("$cli" map --help | sed -n 's/.*--type=TYPE .*(\([a-z0-9, ]*\)).*/\1/p' | tr -d ' ' | tr ',' '\n' | sort)
buses=$("$cli" build --buses | sort)
for row in "build -f: the buses|build -f|$buses" \
	"build --fields: the buses|build --fields|$buses" \
	"map -t: the map types map --help lists|map -t|$types" \
	"map --type: likewise|map --type|$types" \
	"map --dialect: current, 2.6|map --dialect|2.6
current" \
	"firmware -f: a directory|firmware -f|FILEDIR-d" \
	"list -t (--tree, no value): no file offered|list -t|"; do
	name=${row%%|*} rest=${row#*|}
	words=${rest%%|*} want=${rest#*|}
	# shellcheck disable=SC2086 # the words of the command line
	got=$(offered modalias $words "")
	n=$((n + 1))
	why=""
	[ -n "$types" ] || why="map --help names no type"
	[ "$got" = "$want" ] || why="${why:+$why; }offered: $(echo $got)"
	report "bash completion of modalias $name" "$why"
done

echo "1..$n"
exit $fail
