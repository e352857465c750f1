# tests/bad-input/lib.sh - the bad-input catalogue's machinery: the scratch
# directory, path normalisation (@TMP@, @DATA@, @IDX@), row() and the small
# fixtures rows share.  Sourced by test-bad-input.sh; runs no row itself.

data=$(cd "$here/../data" && pwd)
cli=${MODALIAS_CLI:?}
agent=${HOTPLUG_AGENT:?}
vanish=${G_TEST_BUILDDIR:?}/bad-input/sysfs-vanish
D="$data/linux-6.1.0-57-amd64"
tmp=$(mktemp -d)
# rows run as nobody read below it
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
export MODALIAS_CACHE_DIR="$tmp/cache"
export LC_ALL=C
TAB=$(printf '\t')
LQ=$(printf '\342\200\234') # GLib's quotes
RQ=$(printf '\342\200\235')
r="$tmp/r" # the scratch directory of the current row
n=0
fail=0
: >"$tmp/catalogue"
: >"$tmp/fixes"

# The paths that differ from run to run, as @TMP@ and @DATA@ (literal
# replacement: no regular expressions).
norm() {
	awk -v t="$tmp" -v d="$data" -v x="${idx:-}" '
	function rep(s, from, to,   out, i) {
		if (from == "")
			return s
		out = ""
		while ((i = index(s, from)) > 0) {
			out = out substr(s, 1, i - 1) to
			s = substr(s, i + length(from))
		}
		return out s
	}
	{ print rep(rep(rep($0, t, "@TMP@"), d, "@DATA@"), x, "@IDX@") }' "$1"
}

snap() { # PATH: a fingerprint of a file or tree
	find "$1" -exec ls -ldn --time-style=full-iso {} + 2>&1 | sort
	find "$1" -type f -exec cksum {} + 2>&1 | sort
}

# A markdown table cell: | escaped, lines as <br>, code when asked.
cell() { # TEXT [code]
	printf '%s\n' "$1" | awk -v code="${2:-}" '
	BEGIN { for (i = 1; i < 32; i++) ctl[sprintf("%c", i)] = sprintf("\\x%02X", i) }
	{
		gsub(/\|/, "\\|")
		l = ""
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			l = l (c in ctl ? ctl[c] : c)
		}
		lines[NR] = l
	}
	END {
		s = ""
		for (i = 1; i <= NR; i++) {
			l = lines[i]
			if (code != "" && l != "")
				l = (index(l, "`") ? "`` " l " ``" : "`" l "`")
			s = s (i > 1 ? "<br>" : "") l
		}
		printf "%s", (s == "" && code != "" ? "(none)" : s)
	}'
}

row() {
	id=$1
	shift
	input="" want_err="" err_has="" has_mode="" want_status="" want_out="" out_mode="" out_file=""
	stdin=/dev/null also="" check="" unchanged="" fixed="" skip_unless="" skip_why=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		in:) input=$2 ;;
		err:) want_err=$2 ;;
		err-has:) err_has=$2 has_mode=1 ;;
		exit:) want_status=$2 ;;
		out:) want_out=$2 out_mode=text ;;
		out-file:) out_file=$2 out_mode=file ;;
		stdin:) stdin=$2 ;;
		also:) also=$2 ;;
		check:) check=$2 ;;
		unchanged:) unchanged=$2 ;;
		fixed:) fixed=$2 ;;
		skip-unless:) skip_unless=$2 ;;
		*) echo "Bail out! row $id: unknown key '$1'"; exit 99 ;;
		esac
		shift 2
	done
	shift
	n=$((n + 1))
	result=pass
	if [ -n "$skip_unless" ] && ! eval "$skip_unless" >/dev/null 2>&1; then
		echo "ok $n - $id # SKIP ${skip_why:-$skip_unless does not hold here}"
		result=skip
	else
		[ -n "$unchanged" ] && snap "$unchanged" >"$tmp/snap.before"
		case $(type "$1" 2>/dev/null) in
		*function*) ("$@") <"$stdin" >"$tmp/out" 2>"$tmp/err" ;;
		*) timeout -k 5 120 "$@" <"$stdin" >"$tmp/out" 2>"$tmp/err" ;;
		esac
		status=$?
		norm "$tmp/err" >"$tmp/err.norm"
		why=""
		if [ "$status" -ge 124 ] && [ "$want_status" != "$status" ]; then
			why="crashed or hung: exit status $status"
		elif [ "$status" != "$want_status" ]; then
			why="exit status $status, wanted $want_status"
		fi
		if grep -q -e 'Sanitizer' -e 'runtime error:' -e '^==[0-9]*==' "$tmp/err"; then
			why="${why:+$why; }a sanitizer report"
		fi
		if [ -n "$has_mode" ]; then
			printf '%s\n' "$err_has" | while IFS= read -r l; do
				grep -Fxq -e "$l" "$tmp/err.norm" || echo "$l"
			done >"$tmp/missing"
			[ -s "$tmp/missing" ] && why="${why:+$why; }standard error lacks lines"
		else
			if [ -n "$want_err" ]; then printf '%s\n' "$want_err"; fi >"$tmp/err.want"
			cmp -s "$tmp/err.want" "$tmp/err.norm" || why="${why:+$why; }standard error differs"
		fi
		case $out_mode in
		text)
			if [ -n "$want_out" ]; then printf '%s\n' "$want_out"; fi >"$tmp/out.want"
			norm "$tmp/out" >"$tmp/out.norm"
			cmp -s "$tmp/out.want" "$tmp/out.norm" || why="${why:+$why; }standard output differs"
			;;
		file)
			cmp -s "$out_file" "$tmp/out" || why="${why:+$why; }standard output differs from $(basename "$out_file")"
			;;
		*)
			echo "Bail out! row $id: no out: or out-file:"
			exit 99
			;;
		esac
		if [ -n "$unchanged" ]; then
			snap "$unchanged" >"$tmp/snap.after"
			cmp -s "$tmp/snap.before" "$tmp/snap.after" || why="${why:+$why; }$unchanged changed"
		fi
		if [ -n "$check" ] && ! (OUT="$tmp/out" ERR="$tmp/err" eval "$check") >"$tmp/check" 2>&1; then
			why="${why:+$why; }does not hold: $check"
		fi
		if [ -z "$why" ]; then
			echo "ok $n - $id"
		else
			echo "not ok $n - $id: $why"
			result=FAIL
			fail=1
			if [ -n "$has_mode" ]; then sed 's/^/# missing: /' "$tmp/missing"; fi
			head -c 3000 "$tmp/err.norm" | sed 's/^/# err: /'
			head -c 3000 "$tmp/out" | sed 's/^/# out: /'
			sed 's/^/# check: /' "$tmp/check" 2>/dev/null
		fi
	fi
	{
		printf '| %s | %s | %s | ' "$n" "$id" "$(cell "$input")"
		if [ -n "$has_mode" ]; then
			printf 'holds %s | ' "$(cell "$err_has" code)"
		else
			printf '%s | ' "$(cell "$want_err" code)"
		fi
		if [ -z "$also" ] && [ "$out_mode" = text ] && [ -z "$want_out" ]; then also="stdout: nothing"; fi
		printf '%s | %s | %s |\n' "$want_status" "$(cell "$also")" "$result"
	} >>"$tmp/catalogue"
	if [ -n "$fixed" ]; then printf -- '- **%s** (row %s): %s\n' "$id" "$n" "$fixed" >>"$tmp/fixes"; fi
}

fresh() { # a new, empty scratch directory for the next row
	rm -rf "$r"
	mkdir -p "$r"
	chmod 755 "$r"
}

moddir() { # TEXT: a module directory whose modules.alias is TEXT (printf format)
	fresh
	mkdir "$r/m"
	# shellcheck disable=SC2059
	printf "$1" >"$r/m/modules.alias"
}

# hotplug.d with one good handler in default/ that logs that it ran
hpdir() {
	fresh
	mkdir -p "$r/hp/default" "$r/hp/usb"
	printf '#!/bin/sh\necho "ran $1" >>%s/log\n' "$r" >"$r/hp/default/00-log.hotplug"
	chmod 755 "$r/hp/default/00-log.hotplug"
	: >"$r/log"
}
handler() { # PATH MODE
	printf '#!/bin/sh\necho "ran %s $1" >>%s/log\n' "$(basename "$1")" "$r" >"$1"
	chmod "$2" "$1"
}
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
have_setpriv() { command -v setpriv && id nobody && getent group nogroup; }
# nobody_reaches PATH…: setpriv, and nobody may run each PATH that is a
# program (this build's) and read each other one (tests/data), as rows that
# have nobody run a program of the build or read the fixtures need.  Where
# the checkout is below a directory nobody cannot enter (a clone in a 0700
# mktemp -d), those rows are skipped, not failed: skip_why says why.
# (setpriv itself execs with root's capabilities, so a row that only has
# setpriv start "$cli" runs even there; env, sh and cp as nobody do not.)
nobody_reaches() {
	if ! have_setpriv >/dev/null 2>&1; then
		skip_why="no setpriv, or no user nobody or group nogroup"
		return 1
	fi
	for p in "$@"; do
		if [ -f "$p" ] && [ -x "$p" ]; then
			as_nobody test -x "$p" && continue
			skip_why="nobody may not run $p"
		elif [ -d "$p" ]; then
			as_nobody test -r "$p" -a -x "$p" && continue
			skip_why="nobody may not read $p"
		else
			as_nobody test -r "$p" && continue
			skip_why="nobody may not read $p"
		fi
		skip_why="$skip_why (is the checkout below a directory closed to others, as a 0700 mktemp -d?)"
		return 1
	done
}

# conf TEXT: @TMP@/r/c.conf, and a table @TMP@/r/t.alias (mode 644)
conf() {
	fresh
	printf 'alias acme:* acme_drv\n' >"$r/t.alias"
	chmod 644 "$r/t.alias"
	# shellcheck disable=SC2059
	printf "$1" >"$r/c.conf"
}
confrow() { # ID INPUT ERR [fixed: …]
	id=$1 input=$2 e=$3
	shift 3
	row "$id" in: "$input" err: "modalias: $e" exit: 2 out: '' unchanged: "$r" also: 'stdout: nothing; the files unchanged' "$@" \
		-- "$cli" --settings "$r/c.conf" resolve -C /dev/null acme:x
}

tree() { # a fresh copy of the captured host-vm tree in @TMP@/r/sys
	fresh
	cp -a "$data/sysfs/host-vm" "$r/sys"
	chmod -R u+w "$r/sys" # a read-only source tree (distcheck)
}
