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
	stdin=/dev/null also="" check="" unchanged="" fixed="" skip_unless=""
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
		echo "ok $n - $id # SKIP $skip_unless does not hold here"
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

# ---- modaliases --------------------------------------------------------------

cpu_head="cpu:type:x86,ven0000fam0006mod003F:feature:"
cpu4k=$(python3 -c "import sys; sys.stdout.write('$cpu_head' + ''.join(',%04X' % i for i in range(810)))")
cpu64k=$(python3 -c "import sys; sys.stdout.write('$cpu_head' + ''.join(',%04X' % i for i in range(13100)))")
# parse's answer, built independently: one feature= line per word
python3 - "$tmp/cpu4k.parse" "$tmp/cpu64k.parse" <<PY
import sys
for path, words in ((sys.argv[1], [i for i in range(810)]), (sys.argv[2], [i for i in range(13100)])):
    s = "$cpu_head" + "".join(",%04X" % i for i in words)
    with open(path, "w") as f:
        f.write(s + "\n\tbus=cpu\n\tarch=x86\n\tvendor=0000\n\tfamily=0006\n\tmodel=003F\n")
        f.writelines("\tfeature=%04X\n" % i for i in words)
PY

row cpu-4k-resolve in: "resolve a 4,093-byte \`cpu:\` modalias (810 feature words)" \
	err: "modalias: '${cpu4k:0:60}…' (4093 bytes) is too long for kmod: with the module name 'intel_uncore' it exceeds kmod's 4096-byte key, and kmod answers nothing
modalias resolve: cannot look '${cpu4k:0:200}' up: File name too long" exit: 2 out: '' \
	also: "kmod's answer: its lookup fails with -ENAMETOOLONG (the module name, '\\', the alias and a NUL must fit 4,096 bytes), so modprobe and udev load none of its 23 modules" \
	fixed: 'libmodalias/index.c `modalias_table_lookup`: it answered the 23 modules that kmod refuses' \
	-- "$cli" resolve -m "$D" -C /dev/null "$cpu4k"
row cpu-4k-parse in: 'parse the same 4 KiB `cpu:` modalias' \
	err: '' exit: 0 out-file: "$tmp/cpu4k.parse" also: 'stdout: every one of the 810 feature words, in order' \
	-- "$cli" parse "$cpu4k"
row cpu-64k-resolve in: "resolve a 65,543-byte \`cpu:\` modalias (13,100 feature words)" \
	err: "modalias: '${cpu64k:0:60}…' (65543 bytes) is too long for kmod: with the module name 'intel_uncore' it exceeds kmod's 4096-byte key, and kmod answers nothing
modalias resolve: cannot look '${cpu64k:0:200}' up: File name too long" exit: 2 out: '' \
	also: "kmod cuts it at 4,095 bytes, matches, and fails as above: no answer" \
	fixed: 'libmodalias/index.c `modalias_table_lookup`: it answered the 23 modules that kmod refuses' \
	-- "$cli" resolve -m "$D" -C /dev/null "$cpu64k"
row cpu-64k-parse in: 'parse the same 64 KiB `cpu:` modalias' \
	err: '' exit: 0 out-file: "$tmp/cpu64k.parse" also: 'stdout: all 13,100 feature words (no fixed buffer)' \
	-- "$cli" parse "$cpu64k"

printf 'acpi:PNP0C0A:\npci:v0000\0008086\nnosuch:x\nacpi:PNP0C0A:\n' >"$tmp/nul.in"
printf 'acpi:PNP0C0A:\tbattery\npci:v0000\0008086\t\nnosuch:x\t\nacpi:PNP0C0A:\tbattery\n' >"$tmp/nul.want"
row stdin-nul in: '`resolve -`: line 2 of 4 holds a NUL byte' \
	err: 'modalias resolve: stdin:2: NUL byte in the line, not looked up' exit: 2 \
	stdin: "$tmp/nul.in" out-file: "$tmp/nul.want" \
	also: 'stdout: one line per input line; the NUL line echoed whole with no module (it was looked up as `pci:v0000`, the text before the NUL, and answered as if that were the line)' \
	fixed: 'cli/modalias.c `cmd_resolve`: a line with a NUL byte was looked up as its text before the NUL, and echoed so, exit 0' \
	-- "$cli" resolve -m "$D" -C /dev/null -
python3 - "$tmp" <<'PY'
import sys
t = sys.argv[1]
big = "usb:v" + "A" * (1 << 20)
bad = "usb:v[" + "A" * (1 << 20)
open(t + "/big.in", "w").write("acpi:PNP0C0A:\n" + big + "\nacpi:PNP0C0A:\n")
open(t + "/big.want", "w").write("acpi:PNP0C0A:\tbattery\n" + big + "\t\nacpi:PNP0C0A:\tbattery\n")
open(t + "/bigbad.in", "w").write("acpi:PNP0C0A:\n" + bad + "\nacpi:PNP0C0A:\n")
open(t + "/bigbad.want", "w").write("acpi:PNP0C0A:\tbattery\n" + bad + "\t\nacpi:PNP0C0A:\tbattery\n")
PY
row stdin-1mib in: '`resolve -`: a 1 MiB line (`usb:vAAAA…`) between two good ones' \
	err: '' exit: 0 stdin: "$tmp/big.in" out-file: "$tmp/big.want" \
	also: 'stdout: the good lines answered, the 1 MiB line echoed whole with no module' \
	-- "$cli" resolve -m "$D" -C /dev/null -
A195=$(printf '%0195d' 0 | tr 0 A)
A194=$(printf '%0194d' 0 | tr 0 A)
row stdin-1mib-bracket in: '`resolve -`: a 1 MiB line with an unbalanced `[` between two good ones' \
	err: "modalias: 'usb:v[$A194' has unbalanced brackets
modalias resolve: stdin:2: cannot look 'usb:v[$A194' up: Invalid argument" exit: 2 \
	stdin: "$tmp/bigbad.in" out-file: "$tmp/bigbad.want" \
	also: 'each message quotes 200 bytes of the line, not all of it; stdout: the good lines answered, the bad one echoed' \
	fixed: 'cli/modalias.c `cmd_resolve` (and `cmd_parse`, `cmd_load`): the message quoted the whole alias, 1 MiB on standard error for a 1 MiB line' \
	-- "$cli" resolve -m "$D" -C /dev/null -
row bracket-open in: "\`resolve 'pci:v[00' acpi:PNP0C0A:\`" \
	err: "modalias: 'pci:v[00' has unbalanced brackets
modalias resolve: cannot look 'pci:v[00' up: Invalid argument" exit: 2 out: battery \
	also: 'stdout: the good alias after it still answered' \
	-- "$cli" resolve -m "$D" -C /dev/null 'pci:v[00' acpi:PNP0C0A:
row bracket-close in: "\`resolve acpi:PNP0C0A: 'pci:v]00'\`" \
	err: "modalias: 'pci:v]00' has unbalanced brackets
modalias resolve: cannot look 'pci:v]00' up: Invalid argument" exit: 2 out: battery \
	also: 'stdout: the good alias before it answered' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: 'pci:v]00'
row resolve-empty in: "\`resolve ''\`" err: '' exit: 1 out: '' \
	also: 'nothing found, as `modprobe -R` finds nothing' \
	-- "$cli" resolve -m "$D" -C /dev/null ''
row parse-empty in: "\`parse '' platform:pcspkr\`" \
	err: "modalias: '' is not a modalias: no \"bus:\" prefix
modalias parse: '' is not a valid modalias" exit: 2 out: "platform:pcspkr
${TAB}bus=platform
${TAB}name=pcspkr" also: 'stdout: the good modalias after it parsed' \
	-- "$cli" parse '' platform:pcspkr
row parse-unknown-bus in: '`parse nosuchbus:abc`' err: '' exit: 0 out: "nosuchbus:abc
${TAB}bus=nosuchbus
${TAB}raw=abc" also: 'an unknown bus is its prefix and the raw rest' \
	-- "$cli" parse nosuchbus:abc
row resolve-unknown-bus in: '`resolve nosuchbus:abc`' err: '' exit: 1 out: '' also: 'nothing found' \
	-- "$cli" resolve -m "$D" -C /dev/null nosuchbus:abc
row parse-short-field in: '`parse usb:v046DpC5 platform:pcspkr` (idProduct cut short)' \
	err: "modalias: malformed usb modalias: field idProduct at offset 6: hexadecimal digits missing
modalias parse: 'usb:v046DpC5' is not a valid modalias" exit: 2 out: "platform:pcspkr
${TAB}bus=platform
${TAB}name=pcspkr" also: 'stdout: the good modalias after it parsed' \
	-- "$cli" parse usb:v046DpC5 platform:pcspkr
row parse-bad-hex in: '`parse pci:vZZZZ0000d…` (a known bus, its first field not hex)' \
	err: "modalias: malformed pci modalias: field vendor at offset 1: hexadecimal digits missing
modalias parse: 'pci:vZZZZ0000d00001E31sv000017AAsd000021FBbc0Csc03i30' is not a valid modalias" exit: 2 out: '' \
	also: 'stdout: nothing' \
	-- "$cli" parse pci:vZZZZ0000d00001E31sv000017AAsd000021FBbc0Csc03i30
row parse-control-char in: '`parse` a modalias with a 0x01 byte' \
	err: "modalias: modalias has a control character (0x01) at offset 5
modalias parse: 'usb:v$(printf '\001')046D' is not a valid modalias" exit: 2 out: '' also: 'stdout: nothing' \
	-- "$cli" parse "usb:v$(printf '\001')046D"

# ---- modules.alias and the index cache ---------------------------------------

good2='alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:* fan\n'
moddir "alias acpi:PNP0C0A:* battery\nbogus line here\n$good2"
row alias-bad-line in: 'modules.alias line 2: `bogus line here`' \
	err: "modalias: @TMP@/r/m/modules.alias:2: expected 'alias PATTERN MODULE', got 'bogus'
modalias resolve: @TMP@/r/m: 1 malformed lines skipped" exit: 0 out: "battery
fan" unchanged: "$r/m" also: 'stdout: the patterns before and after it answer; the file unchanged' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias acpi:PNP0C0A:* battery\nalias usb:v*\n$good2"
row alias-no-module in: 'modules.alias line 2: `alias usb:v*` (no module name)' \
	err: "modalias: @TMP@/r/m/modules.alias:2: missing module name
modalias resolve: @TMP@/r/m: 1 malformed lines skipped" exit: 0 out: "battery
fan" also: 'stdout: the other patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias\n$good2"
row alias-keyword-only in: 'modules.alias line 1: `alias` alone' \
	err: "modalias: @TMP@/r/m/modules.alias:1: missing pattern and module
modalias resolve: @TMP@/r/m: 1 malformed lines skipped" exit: 0 out: "battery
fan" also: 'stdout: the other patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias pci:v[00* foo\n$good2"
row alias-bracket in: 'modules.alias line 1: `alias pci:v[00* foo`' \
	err: "modalias: @TMP@/r/m/modules.alias:1: unbalanced brackets in pattern 'pci:v[00*'
modalias resolve: @TMP@/r/m: 1 malformed lines skipped" exit: 0 out: "battery
fan" also: 'stdout: the other patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir ''
cp "$D/modules.alias.bin" "$r/m/modules.alias"
row alias-binary in: "\`modules.alias.bin\` (kmod's binary index) copied over modules.alias" \
	err: "modalias: @TMP@/r/m/modules.alias:1: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:2: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:3: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:4: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:5: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:6: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:7: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:8: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:9: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:10: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias: 3050 more malformed lines skipped
modalias resolve: @TMP@/r/m: 3060 malformed lines skipped" exit: 1 out: '' \
	also: 'ten bad lines named, then their count; nothing matched' \
	fixed: 'libmodalias/table.c `load_alias_text`: every bad line was logged, 3,060 lines for one binary file (per event, in the agent)' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
moddir "alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:"
row alias-truncated-pattern in: 'modules.alias cut in its last line: `…\nalias acpi:PNP0C0B:` (no newline)' \
	err: "modalias: @TMP@/r/m/modules.alias:2: missing module name
modalias resolve: @TMP@/r/m: 1 malformed lines skipped" exit: 0 out: battery \
	also: 'stdout: the complete line before it answers' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:* fa"
row alias-truncated-module in: 'modules.alias cut inside its last module name: `alias acpi:PNP0C0B:* fa` (no newline)' \
	err: '' exit: 0 out: "battery
fa" also: "not detectable: an unterminated last line is a line (as in kmod's text files); the module name is what is there" \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir ''
row alias-empty in: 'an empty modules.alias' err: '' exit: 1 out: '' also: 'nothing found, no error' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir -p "$r/m/modules.alias"
row alias-directory in: 'modules.alias is a directory' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: Is a directory
modalias resolve: cannot load the module tables of @TMP@/r/m: Is a directory" exit: 2 out: '' \
	fixed: 'libmodalias/table.c `slurp` (new `open_regular_file` in util.c): a directory was read, failing late as "Input/output error"' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
mkfifo "$r/m/modules.alias"
row alias-fifo in: 'modules.alias is a FIFO nobody writes' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: not a regular file
modalias resolve: cannot load the module tables of @TMP@/r/m: Invalid argument" exit: 2 out: '' \
	also: 'returns at once' \
	fixed: 'libmodalias/table.c `slurp`, libmodalias/maps.c `modalias_map_new_from_file`: a FIFO blocked the command (the agent) for ever' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
ln -s /dev/zero "$r/m/modules.alias"
row alias-dev-zero in: 'modules.alias is a symlink to /dev/zero' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: not a regular file
modalias resolve: cannot load the module tables of @TMP@/r/m: Invalid argument" exit: 2 out: '' \
	also: 'returns at once' \
	fixed: 'libmodalias/table.c `slurp`: /dev/zero was read until memory ran out' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
ln -s modules.alias "$r/m/modules.alias"
row alias-symlink-loop in: 'modules.alias is a symlink to itself' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: Too many levels of symbolic links
modalias resolve: cannot load the module tables of @TMP@/r/m: Too many levels of symbolic links" exit: 2 out: '' \
	fixed: 'libmodalias/table.c `modalias_table_new_from_directory`: a file that could not even be stat()ed was not named' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
moddir "$good2"
chmod 000 "$r/m/modules.alias"
row alias-unreadable in: 'modules.alias mode 000, run as nobody' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: Permission denied
modalias resolve: cannot load the module tables of @TMP@/r/m: Permission denied" exit: 2 out: '' \
	skip-unless: have_setpriv -- as_nobody "$cli" --config /dev/null resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
row alias-missing in: 'a module directory without modules.alias' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: No such file or directory
modalias resolve: cannot load the module tables of @TMP@/r/m: No such file or directory" exit: 2 out: '' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
moddir "$good2"
head -c 10 "$D/modules.alias.bin" >"$r/m/modules.alias.bin"
row bin-truncated in: 'modules.alias.bin truncated to 10 bytes beside a good modules.alias' \
	err: '' exit: 0 out: "battery
fan" also: 'the library reads the text files only: the answer is unchanged' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:

# the index cache of the bundled table: built once, then damaged row by row
"$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: >/dev/null
cache=$(ls "$tmp"/cache/modalias-*.idx)
idx=$(basename "$cache")
cp "$cache" "$tmp/good.idx"
cache_ok='cmp -s "$cache" "$tmp/good.idx"'
truncate -s 1000 "$cache"
row cache-truncated in: 'the index cache truncated to 1,000 bytes' err: '' exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers from the text tables; the cache rebuilt, equal to a fresh one' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
: >"$cache"
row cache-empty in: 'the index cache an empty file' err: '' exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers right; the cache rebuilt' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
printf 'XXXX' | dd of="$cache" bs=1 seek=0 conv=notrunc 2>/dev/null
row cache-bad-magic in: 'the index cache with its magic overwritten' err: '' exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers right; the cache rebuilt' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
# the string pool's offset (bytes 112-119 of the header) past the end of the file
python3 - "$cache" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", b, 112, len(b))
open(sys.argv[1], "wb").write(b)
PY
row cache-damaged in: 'the index cache with an array offset past its end (its checksum left as it was)' \
	err: "modalias: @TMP@/cache/@IDX@: damaged index cache (checksum mismatch)" exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers right; the cache rebuilt' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
echo "victim" >"$tmp/victim"
rm -f "$cache"
ln -s "$tmp/victim" "$cache"
row cache-symlink in: 'the index cache a symlink to another file' \
	err: "modalias: index cache not used: @TMP@/cache/@IDX@: a symlink" exit: 0 out: "battery
e1000e" unchanged: "$tmp/victim" check: "test ! -L \"\$cache\" && $cache_ok" \
	also: 'the link is replaced by a new cache (rename), the file it pointed to is unchanged' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
fresh
: >"$r/not-a-dir"
row cache-dir-a-file in: '`MODALIAS_CACHE_DIR` names a regular file' \
	err: "modalias: index cache directory @TMP@/r/not-a-dir not used: @TMP@/r/not-a-dir: Not a directory" exit: 0 out: "battery" \
	also: 'answers from the text tables' \
	-- env MODALIAS_CACHE_DIR="$r/not-a-dir" "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A:

# ---- legacy modules.*map files -------------------------------------------------

# mapfile NAME HEADER BADROW GOODROW: a map whose row 2 is bad and row 3 good
mapfile() {
	fresh
	printf '%s\n%s\n%s\n' "$2" "$3" "$4" >"$r/$1"
}
maprow() { # ID TYPE WHAT ERR GOODLINE FILE
	row "$1" in: "$2 map, row 2: $3" err: "modalias: @TMP@/r/$6:$4, row skipped
modalias map: @TMP@/r/$6: 1 bad rows skipped" exit: 2 out: "@TMP@/r/$6:3$TAB$5" unchanged: "$r/$6" \
		also: 'stdout: the good row after it; the file unchanged' -- "$cli" map "$r/$6"
}
H_USB='# usb module         match_flags idVendor idProduct bcdDevice_lo bcdDevice_hi bDeviceClass bDeviceSubClass bDeviceProtocol bInterfaceClass bInterfaceSubClass bInterfaceProtocol driver_info'
G_USB='good 0x0003 0x046d 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0'
O_USB='good match_flags=0x3 idVendor=0x46d idProduct=0xc52b bcdDevice_lo=0x0 bcdDevice_hi=0x0 bDeviceClass=0x0 bDeviceSubClass=0x0 bDeviceProtocol=0x0 bInterfaceClass=0x0 bInterfaceSubClass=0x0 bInterfaceProtocol=0x0 driver_info=0x0'
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x046d 0xc52b 0x0 0x0' "$G_USB"
maprow map-usb-columns usb '6 of 13 columns' "2:33: 6 columns, expected 13 (module and 12 numbers)" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x04zz 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-hex usb 'idVendor `0x04zz`' "2:12: idVendor: '0x04zz' is not a hexadecimal number" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x10000 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-overflow usb 'idVendor `0x10000` (17 bits)' "2:12: idVendor: '0x10000' is out of range (16 bits at most)" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x1ffffffffffffffff 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-overflow64 usb 'idVendor `0x1ffffffffffffffff` (past 64 bits)' "2:12: idVendor: '0x1ffffffffffffffff' is out of range (16 bits at most)" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 1234 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-no-0x usb 'idVendor `1234` (no 0x)' "2:12: idVendor: '1234' is not a 0x-prefixed hexadecimal number" "$O_USB" bad.usbmap

H_PCI='# pci module         vendor     device     subvendor  subdevice  class      class_mask driver_data'
G_PCI='good 0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0'
O_PCI='good vendor=0x8086 device=0x10d3 subvendor=0xffffffff subdevice=0xffffffff class=0x0 class_mask=0x0 driver_data=0x0'
mapfile bad.pcimap "$H_PCI" 'bad 0x00008086 0x000010d3 0xffffffff' "$G_PCI"
maprow map-pci-columns pci '4 of 8 columns' "2:37: 4 columns, expected 8 (module and 7 numbers)" "$O_PCI" bad.pcimap
mapfile bad.pcimap "$H_PCI" 'bad 0x00008086 0x0000g0d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0' "$G_PCI"
maprow map-pci-hex pci 'device `0x0000g0d3`' "2:16: device: '0x0000g0d3' is not a hexadecimal number" "$O_PCI" bad.pcimap
mapfile bad.pcimap "$H_PCI" 'bad 0x00008086 0x000010d3 0x100000000 0xffffffff 0x00000000 0x00000000 0x0' "$G_PCI"
maprow map-pci-overflow pci 'subvendor `0x100000000` (33 bits)' "2:27: subvendor: '0x100000000' is out of range (32 bits at most)" "$O_PCI" bad.pcimap

H_1394='# ieee1394 module    match_flags vendor_id model_id specifier_id version'
G_1394='good 0x00000003 0x001287 0x000001 0x000000 0x000000'
O_1394='good match_flags=0x3 vendor_id=0x1287 model_id=0x1 specifier_id=0x0 version=0x0'
mapfile bad.ieee1394map "$H_1394" 'bad 0x00000003 0x001287' "$G_1394"
maprow map-ieee1394-columns ieee1394 '3 of 6 columns' "2:24: 3 columns, expected 6 (module and 5 numbers)" "$O_1394" bad.ieee1394map
mapfile bad.ieee1394map "$H_1394" 'bad 0x00000003 0x00128x 0x000001 0x000000 0x000000' "$G_1394"
maprow map-ieee1394-hex ieee1394 'vendor_id `0x00128x`' "2:16: vendor_id: '0x00128x' is not a hexadecimal number" "$O_1394" bad.ieee1394map
mapfile bad.ieee1394map "$H_1394" 'bad 0x00000003 0x001287 0x000001 0x000000 0x1000000000' "$G_1394"
maprow map-ieee1394-overflow ieee1394 'version `0x1000000000` (37 bits)' "2:43: version: '0x1000000000' is out of range (32 bits at most)" "$O_1394" bad.ieee1394map

H_CCW='# ccw module         match_flags cu_type cu_model dev_type dev_model'
G_CCW='good 0x0003 0x3990 0xe9 0x0000 0x00'
O_CCW='good match_flags=0x3 cu_type=0x3990 cu_model=0xe9 dev_type=0x0 dev_model=0x0'
mapfile bad.ccwmap "$H_CCW" 'bad 0x0003' "$G_CCW"
maprow map-ccw-columns ccw '2 of 6 columns' "2:11: 2 columns, expected 6 (module and 5 numbers)" "$O_CCW" bad.ccwmap
mapfile bad.ccwmap "$H_CCW" 'bad 0x0003 0x3990 0xeg 0x0000 0x00' "$G_CCW"
maprow map-ccw-hex ccw 'cu_model `0xeg`' "2:19: cu_model: '0xeg' is not a hexadecimal number" "$O_CCW" bad.ccwmap
mapfile bad.ccwmap "$H_CCW" 'bad 0x0003 0x3990 0x100 0x0000 0x00' "$G_CCW"
maprow map-ccw-overflow ccw 'cu_model `0x100` (9 bits)' "2:19: cu_model: '0x100' is out of range (8 bits at most)" "$O_CCW" bad.ccwmap

H_PNP='# isapnp module      cardvendor carddevice driver_data vendor     function   ...'
G_PNP='good 0xffff 0xffff 0x00000000 0x630e 0x0001'
O_PNP='good cardvendor=0xffff carddevice=0xffff driver_data=0x0 vendor=0x630e function=0x1'
mapfile bad.isapnpmap "$H_PNP" 'bad 0xffff 0xffff 0x00000000 0x630e' "$G_PNP"
maprow map-isapnp-columns isapnp '5 columns: half a (vendor, function) pair' "2:36: 5 columns, expected module, cardvendor, carddevice, driver_data and (vendor, function) pairs" "$O_PNP" bad.isapnpmap
mapfile bad.isapnpmap "$H_PNP" 'bad 0xffff 0xffff 0x00000000 0x630e 0x000k' "$G_PNP"
maprow map-isapnp-hex isapnp 'function `0x000k`' "2:37: function: '0x000k' is not a hexadecimal number" "$O_PNP" bad.isapnpmap
mapfile bad.isapnpmap "$H_PNP" 'bad 0xffff 0x10000 0x00000000 0x630e 0x0001' "$G_PNP"
maprow map-isapnp-overflow isapnp 'carddevice `0x10000` (17 bits)' "2:12: carddevice: '0x10000' is out of range (16 bits at most)" "$O_PNP" bad.isapnpmap

H_INPUT='# module         matchBits bustype vendor product version evBits keyBits relBits absBits mscBits ledBits sndBits ffBits [swBits] driver_info'
G_INPUT='good 0x10 0x0 0x0 0x0 0x0 2 0 0 0 0 0 0 0 0x0'
O_INPUT='good matchBits=0x10 bustype=0x0 vendor=0x0 product=0x0 version=0x0 evBits=0x2 keyBits=0x0 relBits=0x0 absBits=0x0 mscBits=0x0 ledBits=0x0 sndBits=0x0 ffBits=0x0 swBits=0x0 driver_info=0x0'
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x0 0x0 0x0 0x0 2 0 0 0 0' "$G_INPUT"
maprow map-input-columns input '11 columns' "2:35: 11 columns, expected 15 or 16 (module, matchBits … driver_info, swBits optional)" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x0 0x0 0x0 0x0 2 1:zz 0 0 0 0 0 0 0x0' "$G_INPUT"
maprow map-input-bitmap input 'keyBits `1:zz`' "2:30: keyBits: '1:zz' is not a bitmap (hexadecimal words separated by ':')" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x10000 0x0 0x0 0x0 2 0 0 0 0 0 0 0 0x0' "$G_INPUT"
maprow map-input-overflow input 'bustype `0x10000` (17 bits)' "2:10: bustype: '0x10000' is out of range (16 bits at most)" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x0 0x0 0x0 0x0 2 1ffffffffffffffff 0 0 0 0 0 0 0x0' "$G_INPUT"
maprow map-input-bitmap-word input 'keyBits word `1ffffffffffffffff` (65 bits)' "2:28: keyBits: bitmap word '1ffffffffffffffff' is wider than 64 bits" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" "bad 0x10 0x0 0x0 0x0 0x0 2 $(printf '%01000000d' 0 | tr 0 f) 0 0 0 0 0 0 0x0" "$G_INPUT"
maprow map-input-bitmap-word-huge input 'keyBits one 1 MiB word `fff…`' "2:28: keyBits: bitmap word '$(printf '%040d' 0 | tr 0 f)' is wider than 64 bits" "$O_INPUT" bad.inputmap

H_SERIO='# serio module       type extra id   proto'
G_SERIO='good 0x01 0xff 0xff 0xff'
O_SERIO='good type=0x1 extra=0xff id=0xff proto=0xff'
mapfile bad.seriomap "$H_SERIO" 'bad 0x01 0xff' "$G_SERIO"
maprow map-serio-columns serio '3 of 5 columns' "2:14: 3 columns, expected 5 (module and 4 numbers)" "$O_SERIO" bad.seriomap
mapfile bad.seriomap "$H_SERIO" 'bad 0x01 0xfg 0xff 0xff' "$G_SERIO"
maprow map-serio-hex serio 'extra `0xfg`' "2:10: extra: '0xfg' is not a hexadecimal number" "$O_SERIO" bad.seriomap
mapfile bad.seriomap "$H_SERIO" 'bad 0x01 0xff 0xff 0x100' "$G_SERIO"
maprow map-serio-overflow serio 'proto `0x100` (9 bits)' "2:20: proto: '0x100' is out of range (8 bits at most)" "$O_SERIO" bad.seriomap

H_OF='# of module          name                 type                 compatible'
mapfile bad.ofmap "$H_OF" 'bad timer' 'good timer * arm,smp-twd'
maprow map-of-columns of '2 of 4 columns (its fields are strings: no numbers to break)' "2:10: 2 columns, expected 4 (module, name, type, compatible)" 'good name=timer type=* compatible=arm,smp-twd' bad.ofmap

fresh
printf '%s\nbad 0x0003 0x04\0006d 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n%s\n' "$H_USB" "$G_USB" >"$r/bad.usbmap"
maprow map-nul usb 'a NUL byte inside idVendor' "2:16: NUL byte in the row" "$O_USB" bad.usbmap
fresh
row map-dev-zero in: '`map /dev/zero`' err: "modalias: cannot open /dev/zero: not a regular file
modalias map: cannot read /dev/zero: Invalid argument" exit: 2 out: '' also: 'returns at once' \
	-- "$cli" map /dev/zero
row map-directory in: '`map` of a directory' err: "modalias: cannot open @TMP@/r: Is a directory
modalias map: cannot read @TMP@/r: Is a directory" exit: 2 out: '' \
	-- "$cli" map "$r"

# ---- legacy hotplug variables: modalias build --env ----------------------------

envrow() { # ID INPUT ERR-LINE ERRNO-TEXT VARS…
	id=$1 input=$2 e1=$3 e2=$4
	shift 4
	row "$id" in: "\`build --env\` with $input" err: "modalias: $e1
modalias build: no modalias from the environment: $e2" exit: 2 out: '' also: 'stdout: nothing' \
		fixed: "${fixed_next:-}" -- env -i "$@" "$cli" build --env --sysfs /nonexistent
	fixed_next=
}
envrow env-product-overflow '`PRODUCT=12345/c52b/1200` (idVendor of 17 bits)' \
	"variable PRODUCT='12345/c52b/1200' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb PRODUCT=12345/c52b/1200 TYPE=0/0/0 INTERFACE=3/1/1
envrow env-product-overflow64 '`PRODUCT=46d/c52b/ffffffffffffffffffff` (past 64 bits)' \
	"variable PRODUCT='46d/c52b/ffffffffffffffffffff' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/ffffffffffffffffffff TYPE=0/0/0
envrow env-product-few '`PRODUCT=46d/c52b` (no bcdDevice)' \
	"variable PRODUCT='46d/c52b' has too few fields" 'Invalid argument' SUBSYSTEM=usb PRODUCT=46d/c52b TYPE=0/0/0
envrow env-product-many '`PRODUCT=46d/c52b/1/2`' \
	"variable PRODUCT='46d/c52b/1/2' has too many fields" 'Invalid argument' SUBSYSTEM=usb PRODUCT=46d/c52b/1/2 TYPE=0/0/0
envrow env-product-empty '`PRODUCT=` (empty)' \
	"variable PRODUCT='' has too few fields" 'Invalid argument' SUBSYSTEM=usb PRODUCT= TYPE=0/0/0
envrow env-product-negative '`PRODUCT=-1/c52b/1200`' \
	"variable PRODUCT='-1/c52b/1200' is not of the form HEX" 'Invalid argument' SUBSYSTEM=usb PRODUCT=-1/c52b/1200 TYPE=0/0/0
F191=$(printf '%0191d' 0 | tr 0 f)
hpdir
envrow env-product-huge '`PRODUCT=46d/c52b/fff…` (a 5,000-digit bcdDevice)' \
	"variable PRODUCT='46d/c52b/$F191' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb "PRODUCT=46d/c52b/$(printf '%05000d' 0 | tr 0 f)" TYPE=0/0/0
row env-product-huge-agent in: 'the agent (`hotplug usb`, ACTION=add) with the same 5,000-digit `PRODUCT`' \
	err: "hotplug: variable PRODUCT='46d/c52b/$F191' has a number that overflows its field
hotplug: usb event: no modalias from its variables: Numerical result out of range" exit: 0 \
	out: "event - add usb -
run @TMP@/r/hp/default/00-log.hotplug usb" \
	also: 'the value quoted to 200 bytes (syslog); stdout (dry run): the handlers still run' \
	fixed: 'libmodalias/env.c `env_bad`: a bad variable was quoted whole (up to the 128 KiB an environment string may have) on standard error and in syslog' \
	-- env -i ACTION=add "PRODUCT=46d/c52b/$(printf '%05000d' 0 | tr 0 f)" TYPE=0/0/0 \
	"$agent" --stderr --dry-run --moddir "$D" -C /dev/null --hotplug-dir "$r/hp" --sysfs /nonexistent usb
fixed_next='libmodalias/env.c `env_split`: a `PCI_ID` without its colon was "a number that overflows its field"; the fields are now counted first'
envrow env-pci-id-no-colon '`PCI_ID=80861E31` (no colon)' \
	"variable PCI_ID='80861E31' has too few fields" 'Invalid argument' \
	SUBSYSTEM=pci PCI_ID=80861E31 PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=C0330
envrow env-pci-id-empty '`PCI_ID=:`' \
	"variable PCI_ID=':' is not of the form HEX" 'Invalid argument' \
	SUBSYSTEM=pci PCI_ID=: PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=C0330
envrow env-pci-class-overflow '`PCI_CLASS=1000000` (25 bits)' \
	"variable PCI_CLASS='1000000' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=pci PCI_ID=8086:1E31 PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=1000000
envrow env-pci-class-missing 'no `PCI_CLASS`' \
	"pci event: variable PCI_CLASS is not set" 'No such file or directory' \
	SUBSYSTEM=pci PCI_ID=8086:1E31 PCI_SUBSYS_ID=17AA:21FB
envrow env-type-junk "\`TYPE='0/0/x;rm -rf /'\`" \
	"variable TYPE='0/0/x;rm -rf /' has too many fields" 'Invalid argument' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200 'TYPE=0/0/x;rm -rf /'
envrow env-type-overflow '`TYPE=256/0/0` (a class of 9 bits)' \
	"variable TYPE='256/0/0' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200 TYPE=256/0/0
envrow env-type-missing 'no `TYPE`' "usb event: variable TYPE is not set" 'No such file or directory' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200
envrow env-interface-hole '`INTERFACE=3//1`' "variable INTERFACE='3//1' is not of the form DEC" 'Invalid argument' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200 TYPE=0/0/0 INTERFACE=3//1
envrow env-ev-junk '`EV=zz` (input)' "variable EV='zz' is not a bitmap of hexadecimal words" 'Invalid argument' \
	SUBSYSTEM=input PRODUCT=3/46d/c52b/111 EV=zz
envrow env-ev-wide '`EV=1ffffffffffffffff` (a 65-bit word)' "variable EV='1ffffffffffffffff' has a word wider than a long" \
	'Numerical result out of range' SUBSYSTEM=input PRODUCT=3/46d/c52b/111 EV=1ffffffffffffffff
envrow env-of-count '`OF_COMPATIBLE_N=99999`' "variable OF_COMPATIBLE_N='99999' is not a small decimal number" \
	'Numerical result out of range' SUBSYSTEM=platform OF_NAME=timer OF_COMPATIBLE_N=99999
envrow env-of-missing '`OF_COMPATIBLE_N=2` and only `OF_COMPATIBLE_0`' "of event: variable OF_COMPATIBLE_1 is not set" \
	'No such file or directory' SUBSYSTEM=platform OF_NAME=timer OF_COMPATIBLE_N=2 OF_COMPATIBLE_0=arm,smp-twd
envrow env-no-subsystem 'neither `MODALIAS` nor `SUBSYSTEM`' "event has neither MODALIAS nor SUBSYSTEM" \
	'No such file or directory' PRODUCT=46d/c52b/1200 TYPE=0/0/0
envrow env-unknown-subsystem '`SUBSYSTEM=frob` and no `MODALIAS`' \
	"frob event: no MODALIAS, and no legacy variables known for this subsystem" 'No such file or directory' SUBSYSTEM=frob
envrow env-scsi-host '`SUBSYSTEM=scsi DEVTYPE=scsi_host` (a host: only a scsi_device has a type)' \
	"scsi event: DEVTYPE=scsi_host is not a scsi_device: no modalias" 'No such file or directory' \
	SUBSYSTEM=scsi DEVTYPE=scsi_host DEVPATH=/devices/pci0000:00/0000:00:01.1/ata1/host0
fixed_agent_noise='libmodalias/env.c: an event of no device with a modalias (a SCSI host or target, an input event node, a partition) was logged as an error, some 150 lines a boot; it is logged at info now, and a `scsi_host`/`scsi_target` event no longer reads a `type` file'
hpdir
for s in 'scsi-host:scsi:DEVTYPE=scsi_host:DEVPATH=/devices/pci0000:00/0000:00:01.1/ata1/host0' \
	'input-node:input:DEVNAME=input/event3:DEVPATH=/devices/platform/i8042/serio0/input/input3/event3' \
	'block:block:DEVTYPE=partition:DEVPATH=/devices/virtual/block/loop0/loop0p1'; do
	name=${s%%:*} s=${s#*:} sub=${s%%:*} s=${s#*:} v1=${s%%:*} v2=${s#*:}
	row "agent-no-device-$name" in: "the agent (\`hotplug $sub\`, ACTION=add): \`$v1\`, no \`MODALIAS\` (no device with a modalias)" \
		err: '' exit: 0 out: "event - add $sub ${v2#DEVPATH=}
run @TMP@/r/hp/default/00-log.hotplug $sub" \
		also: 'nothing logged at the default level (notice); stdout (dry run): the handlers still run' \
		fixed: "${fixed_agent_noise:-}" \
		-- env -i ACTION=add "$v1" "$v2" "$agent" --stderr --dry-run --moddir "$D" -C /dev/null \
		--hotplug-dir "$r/hp" --sysfs /nonexistent "$sub"
	fixed_agent_noise=
done
envrow env-bad-modalias '`MODALIAS=usb:vZZ` (it wins over the legacy variables)' \
	"malformed usb modalias: field idVendor at offset 1: hexadecimal digits missing" 'Invalid argument' \
	SUBSYSTEM=usb MODALIAS=usb:vZZ PRODUCT=46d/c52b/1200 TYPE=0/0/0
keyhuge=$(python3 -c 'print(" ".join(["ffffffffffffffff"] * 4000))')
python3 -c 'import sys; sys.stdout.write("input:b0003v046DpC52Be0111-ek" + "".join("%X," % k for k in range(0x71, 4000 * 64)) + "ramlsfw\n")' >"$tmp/key.want"
row env-key-huge in: '`build --env input` with a `KEY` bitmap of 4,000 full 64-bit words (256,000 keys)' \
	err: '' exit: 0 out-file: "$tmp/key.want" also: 'stdout: every key from 0x71 to 0x3E7FF, 1,465,810 bytes (built independently)' \
	fixed: 'libmodalias/dev.c `dev_add_bitmap`, `dev_put_num`: each bit went to the front of a sorted list (words come highest first): quadratic, 9.5 s for this input (over 120 s under ASan), 0.05 s now' \
	-- env -i SUBSYSTEM=input PRODUCT=3/46d/c52b/111 "KEY=$keyhuge" "$cli" build --env
fresh
mkdir "$r/sys"
echo 07 >"$r/bInterfaceNumber"
echo 5 >"$r/type"
row env-devpath-dotdot-usb in: '`build --env usb --sysfs @TMP@/r/sys` with `DEVPATH=/..` and `@TMP@/r/bInterfaceNumber` = 07' \
	err: '' exit: 0 out: 'usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in*' \
	also: 'stdout: the interface number unknown (`in*`): nothing read outside the sysfs root' \
	fixed: 'libmodalias/env.c `devpath_attr`: `DEVPATH=/..` (or any path ending in `/..`) read ROOT/../bInterfaceNumber and ROOT/../type, outside the sysfs root' \
	-- env -i PRODUCT=46d/c52b/1200 TYPE=0/0/0 INTERFACE=3/1/1 DEVPATH=/.. "$cli" build --env usb --sysfs "$r/sys"
row env-devpath-dotdot-scsi in: '`build --env scsi --sysfs @TMP@/r/sys` with `DEVPATH=/..` and `@TMP@/r/type` = 5' \
	err: "modalias: variable DEVPATH='/..' is not a device path below the sysfs root
modalias build: no modalias from the environment: Invalid argument" exit: 2 out: '' \
	also: 'stdout: nothing (it was `scsi:t-0x05`, from the file outside the root)' \
	-- env -i DEVPATH=/.. "$cli" build --env scsi --sysfs "$r/sys"
row env-devpath-traversal in: '`build --env scsi` with `DEVPATH=/devices/../../etc`' \
	err: "modalias: variable DEVPATH='/devices/../../etc' is not a device path below the sysfs root
modalias build: no modalias from the environment: Invalid argument" exit: 2 out: '' \
	-- env -i DEVPATH=/devices/../../etc "$cli" build --env scsi --sysfs "$r/sys"
D199=$(printf '%0199d' 0 | tr 0 d)
row env-devpath-long in: '`build --env scsi` with a 5,000-byte `DEVPATH` (longer than PATH_MAX)' \
	err: "modalias: variable DEVPATH='/$D199' is not a device path below the sysfs root
modalias build: no modalias from the environment: Invalid argument" exit: 2 out: '' \
	also: 'the value quoted to 200 bytes' \
	fixed: 'libmodalias/env.c `env_scsi`, libmodalias/sysfs.c `devpath_ok`: a DEVPATH, a SUBSYSTEM, a field name or value, a bus name was quoted whole in messages; the library quotes 200 bytes of anything it did not write (`LOG_ECHO`), the CLI too' \
	-- env -i "DEVPATH=/$(printf '%05000d' 0 | tr 0 d)" "$cli" build --env scsi --sysfs "$r/sys"
S200=$(printf '%0200d' 0 | tr 0 s)
row env-subsystem-huge in: '`build --env` with a 100,000-byte `SUBSYSTEM` and no `MODALIAS`' \
	err: "modalias: $S200 event: no MODALIAS, and no legacy variables known for this subsystem
modalias build: no modalias from the environment: No such file or directory" exit: 2 out: '' \
	also: 'the value quoted to 200 bytes' \
	-- env -i "SUBSYSTEM=$(printf '%0100000d' 0 | tr 0 s)" "$cli" build --env
Q200=$(printf '%0200d' 0 | tr 0 q)
row build-field-huge in: '`build usb` with a 5,000-byte field name `qqq…=1`' \
	err: "modalias: unknown field '$Q200' of bus usb
modalias build: bad field '$Q200'" exit: 2 out: '' also: 'each message quotes 200 bytes' \
	-- "$cli" build usb "$(printf '%05000d' 0 | tr 0 q)=1"
row build-bus-huge in: '`build` a 5,000-byte bus name' \
	err: "modalias: unknown bus '$Q200'
modalias build: unknown bus '$Q200' (see 'modalias build --buses')" exit: 2 out: '' also: 'each message quotes 200 bytes' \
	-- "$cli" build "$(printf '%05000d' 0 | tr 0 q)"

# ---- sysfs: files that vanish or cannot be read ----------------------------------

golden="$here/../golden/list-host-vm-no-modules.out"
tree() { # a fresh copy of the captured host-vm tree in @TMP@/r/sys
	fresh
	cp -a "$data/sysfs/host-vm" "$r/sys"
	chmod -R u+w "$r/sys" # a read-only source tree (distcheck)
}
grep -v '^/devices/platform/pcspkr' "$golden" >"$tmp/list-no-pcspkr"
grep -v '^/devices/pci0000:00/0000:00:01.0' "$golden" >"$tmp/list-no-01"
pcspkr="$r/sys/devices/platform/pcspkr"
tree
rm "$pcspkr/modalias"
ln -s /nonexistent/modalias "$pcspkr/modalias"
row sysfs-dangling in: '`list --no-modules` of a captured tree where one `modalias` is a dangling symlink' \
	err: '29 devices' exit: 0 out-file: "$golden" \
	also: "stdout: the tree's golden list, that device's modalias from its uevent file" \
	-- "$cli" list --no-modules --sysfs "$r/sys"
tree
chmod 000 "$pcspkr/modalias"
row sysfs-unreadable in: 'the same, one `modalias` mode 000, run as nobody' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: Permission denied
modalias list: /devices/platform/pcspkr: cannot read its modalias: Permission denied
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device, as in the golden list' \
	skip-unless: have_setpriv -- as_nobody "$cli" --config /dev/null list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
mkdir "$pcspkr/modalias"
row sysfs-modalias-dir in: 'the same, one `modalias` a directory' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: Is a directory
modalias list: /devices/platform/pcspkr: cannot read its modalias: Is a directory
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
ln -s modalias "$pcspkr/modalias"
row sysfs-modalias-loop in: 'the same, one `modalias` a symlink to itself' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: Too many levels of symbolic links
modalias list: /devices/platform/pcspkr: cannot read its modalias: Too many levels of symbolic links
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- "$cli" list --no-modules --sysfs "$r/sys"
tree
row sysfs-gone-listed in: 'the walk (`modalias_sysfs_foreach`, tests/bad-input/sysfs-vanish): a PCI device and its child removed after the walk listed them, before it looked at the first' \
	err: '' exit: 0 out-file: "$tmp/list-no-01" check: 'test ! -e "$r/sys/devices/pci0000:00/0000:00:01.0"' \
	also: 'stdout: every other device; no error for the ones that went away' \
	-- "$vanish" "$r/sys" listed /devices/pci0000:00/0000:00:01.0
tree
row sysfs-gone-checked in: 'the same, removed after the walk saw its `uevent` file, before it read the device' \
	err: '' exit: 0 out-file: "$tmp/list-no-01" check: 'test ! -e "$r/sys/devices/pci0000:00/0000:00:01.0"' \
	also: 'stdout: every other device; no error for the ones that went away' \
	fixed: 'libmodalias/sysfs.c `walk_dir`/`dev_from_sysfs`: a device gone between the check and the read was an error ("no such device directory"), `modalias list` exited 2' \
	-- "$vanish" "$r/sys" checked /devices/pci0000:00/0000:00:01.0
tree
row sysfs-gone-enodev in: "the same, its \`modalias\` read failing with ENODEV (a deleted kernfs node's answer) as it is removed" \
	err: '' exit: 0 out-file: "$tmp/list-no-01" check: 'test ! -e "$r/sys/devices/pci0000:00/0000:00:01.0"' \
	also: 'stdout: every other device; no error' \
	fixed: 'libmodalias/sysfs.c `sys_read`/`walk_dir`: ENODEV of a device that went away was logged and reported as an error' \
	-- "$vanish" "$r/sys" enodev /devices/pci0000:00/0000:00:01.0

# ---- the hotplug agent: SUBSYSTEM, hotplug.d ------------------------------------

for s in 'parent:../x' 'slash:a/b' 'dotdot:..' 'dot:.' 'through-default:net/../default' 'empty:'; do
	name=${s%%:*} s=${s#*:}
	hpdir
	row "subsystem-$name" in: "\`hotplug '$s'\` (ACTION=add)" \
		err: "hotplug: refusing SUBSYSTEM '$s'" exit: 2 out: '' check: 'test ! -s "$r/log"' \
		also: 'no handler run, no module loaded' \
		-- env -i ACTION=add MODALIAS=platform:pcspkr "$agent" --stderr --dry-run --moddir "$D" -C /dev/null \
		--hotplug-dir "$r/hp" "$s"
done
hpdir
row subsystem-newline in: '`hotplug` with a SUBSYSTEM holding a newline (`usb\nhotplug: inserted x`, a forged log line)' \
	err: "hotplug: refusing SUBSYSTEM 'usb\\nhotplug: inserted x'" exit: 2 out: '' check: 'test ! -s "$r/log"' \
	also: 'the newline escaped in the message: one log line; no handler run, no module loaded' \
	fixed: 'cli/hotplug.c `subsystem_ok`: a SUBSYSTEM with a control character was accepted, and quoted raw in syslog (a newline forges a log line); it is refused, and quoted escaped' \
	-- env -i ACTION=add MODALIAS=platform:pcspkr "$agent" --stderr --dry-run --moddir "$D" -C /dev/null \
	--hotplug-dir "$r/hp" "$(printf 'usb\nhotplug: inserted x')"
hprow() { # ID INPUT ERR [KEY: VALUE…]
	id=$1 input=$2 e=$3
	shift 3
	row "$id" in: "$input" err: "$e" exit: 0 out: '' check: 'test "$(cat "$r/log")" = "ran usb"' \
		also: 'the good handler in default/ still runs' "$@" \
		-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
}
hpdir
handler "$r/hp/usb/10-gw.hotplug" 775
hprow handler-group-writable 'a handler mode 775' "hotplug: @TMP@/r/hp/usb/10-gw.hotplug: refused: writable by group or others"
hpdir
handler "$r/hp/usb/10-ww.hotplug" 757
hprow handler-world-writable 'a handler mode 757' "hotplug: @TMP@/r/hp/usb/10-ww.hotplug: refused: writable by group or others"
hpdir
handler "$r/hp/usb/10-nobody.hotplug" 755
chown nobody "$r/hp/usb/10-nobody.hotplug" 2>/dev/null || chown 65534 "$r/hp/usb/10-nobody.hotplug"
hprow handler-not-root 'a handler owned by nobody' "hotplug: @TMP@/r/hp/usb/10-nobody.hotplug: refused: not owned by root"
hpdir
handler "$r/elsewhere.sh" 755
chown nobody "$r/elsewhere.sh" 2>/dev/null || chown 65534 "$r/elsewhere.sh"
ln -s "$r/elsewhere.sh" "$r/hp/usb/10-link.hotplug"
hprow handler-link-not-root "a root-owned symlink to a handler owned by nobody" \
	"hotplug: @TMP@/r/hp/usb/10-link.hotplug: refused: @TMP@/r/elsewhere.sh: not owned by root"
hpdir
ln -s 10-loop2.hotplug "$r/hp/usb/10-loop1.hotplug"
ln -s 10-loop1.hotplug "$r/hp/usb/10-loop2.hotplug"
hprow handler-symlink-loop 'two handlers, symlinks to each other' \
	"hotplug: @TMP@/r/hp/usb/10-loop1.hotplug: refused: Too many levels of symbolic links
hotplug: @TMP@/r/hp/usb/10-loop2.hotplug: refused: Too many levels of symbolic links"
hpdir
ln -s . "$r/hp/usb/10-self.hotplug"
hprow handler-dir-link 'a handler that is a symlink to its own directory' \
	"hotplug: @TMP@/r/hp/usb/10-self.hotplug: refused: @TMP@/r/hp/usb/.: a directory"
hpdir
ln -s /nonexistent "$r/hp/usb/10-dangling.hotplug"
hprow handler-dangling 'a dangling handler symlink' \
	"hotplug: @TMP@/r/hp/usb/10-dangling.hotplug: refused: /nonexistent: No such file or directory"
hpdir
hprow hotplug-d-empty 'hotplug.d/usb an empty directory' '' \
	also: 'the good handler in default/ still runs; no UBSan report (under --enable-sanitizers)' \
	fixed: 'cli/hotplug.c `run_dir`: an empty handler directory called qsort(NULL, 0, …), undefined behaviour (UBSan: "null pointer passed as argument 1")'
hpdir
rmdir "$r/hp/usb"
ln -s usb "$r/hp/usb"
hprow hotplug-d-loop 'hotplug.d/usb a symlink to itself' \
	"hotplug: @TMP@/r/hp/usb: refused: Too many levels of symbolic links"
hpdir
handler "$r/hp/usb/10-ok.hotplug" 755
chmod 777 "$r/hp/usb"
row hotplug-d-writable in: 'hotplug.d/usb mode 777 (anyone may add a link to any root-owned program), a safe handler in it' \
	err: "hotplug: @TMP@/r/hp/usb: refused: writable by group or others" exit: 0 out: '' \
	check: 'test "$(cat "$r/log")" = "ran usb"' also: "none of its handlers run; default/'s still does" \
	fixed: 'cli/hotplug.c `run_dir`: a handler directory writable by others was trusted: any user could link a root-owned program into it and have it run as root on every event' \
	-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
hpdir
handler "$r/hp/usb/10-ok.hotplug" 755
chown nobody "$r/hp/usb" 2>/dev/null || chown 65534 "$r/hp/usb"
row hotplug-d-not-root in: 'hotplug.d/usb owned by nobody' \
	err: "hotplug: @TMP@/r/hp/usb: refused: not owned by root" exit: 0 out: '' \
	check: 'test "$(cat "$r/log")" = "ran usb"' also: "none of its handlers run; default/'s still does" \
	-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
hpdir
chmod 777 "$r"
row hotplug-d-parent-writable in: 'the directory above hotplug.d mode 777 (anyone may rename hotplug.d away and put their own in its place)' \
	err: "hotplug: @TMP@/r/hp: refused: @TMP@/r: writable by group or others" exit: 0 out: '' \
	check: 'test ! -s "$r/log"' also: 'no handler runs, not even default/'"'"'s' \
	fixed: 'cli/hotplug.c `hotplug_dir_safe`: only the subsystem directories were checked, not hotplug.d and the directories above it' \
	-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
hpdir
chmod 1777 "$r"
row hotplug-d-parent-sticky in: 'the directory above hotplug.d mode 1777 (sticky, as /tmp: nobody else may rename what is in it)' \
	err: '' exit: 0 out: '' check: 'test "$(cat "$r/log")" = "ran usb"' also: 'the handlers run' \
	-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
hpdir
chmod 1777 "$r/hp"
row hotplug-d-top-sticky in: 'hotplug.d itself mode 1777 (sticky does not help there: anyone may create a missing subsystem directory)' \
	err: "hotplug: @TMP@/r/hp: refused: writable by group or others" exit: 0 out: '' \
	check: 'test ! -s "$r/log"' also: 'no handler runs' \
	-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
hpdir
chown nobody "$r/hp" 2>/dev/null || chown 65534 "$r/hp"
row hotplug-d-top-not-root in: 'hotplug.d itself owned by nobody' \
	err: "hotplug: @TMP@/r/hp: refused: not owned by root" exit: 0 out: '' \
	check: 'test ! -s "$r/log"' also: 'no handler runs' \
	-- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb

# ---- the daemon: netlink messages not from the kernel ------------------------------

# In a network namespace of its own: the daemon on the kernel's group (1),
# in dry run; a root process sends it three well-formed add events.
cat >"$tmp/forged.sh" <<'SH'
agent=$1 D=$2 r=$3
"$agent" --daemon --dry-run --stderr --log-level=debug --moddir "$D" -C /dev/null \
	--hotplug-dir /nonexistent --sysfs /nonexistent >"$r/dout" 2>"$r/derr" &
pid=$!
i=0
while ! grep -qx ready "$r/dout" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
port=$(python3 - <<'PY'
import socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)  # NETLINK_KOBJECT_UEVENT
s.bind((0, 0))
for seq in (1, 2, 3):
    m = ("add@/devices/virtual/bad-input/forged\0ACTION=add\0DEVPATH=/devices/virtual/bad-input/forged\0"
         "SUBSYSTEM=bad-input\0SEQNUM=%d\0MODALIAS=platform:pcspkr\0" % seq)
    s.sendto(m.encode(), (0, 1))
print(s.getsockname()[0])
PY
)
# until the three are seen (or 30 s)
i=0
while [ "$(grep -c 'not the kernel' "$r/derr")" -lt 3 ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -TERM "$pid"
wait "$pid"
status=$?
# the sender's port id (its pid) as @PID@
sed "s/pid $port /pid @PID@ /" "$r/derr" >&2
echo "events for the forged device: $(grep -c forged "$r/dout")"
exit $status
SH
fresh
row netlink-forged in: 'the daemon (`hotplug --daemon`, netlink group 1, own network namespace) gets 3 add events from a root process, not the kernel' \
	err-has: 'hotplug: message from pid @PID@ ignored: not the kernel
hotplug: message from pid @PID@ ignored: not the kernel
hotplug: message from pid @PID@ ignored: not the kernel' exit: 0 out: 'events for the forged device: 0' \
	also: 'stdout: no event for the forged device; the daemon stops cleanly on SIGTERM. The same with a test uevent group: tests/test-agent.c /agent/untrusted' \
	check: 'test "$(grep -c "not the kernel" "$ERR")" -eq 3' \
	skip-unless: 'unshare -n true' -- unshare -n sh "$tmp/forged.sh" "$agent" "$D" "$r"

# ---- modalias.conf (--config FILE) -------------------------------------------------

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
		-- "$cli" --config "$r/c.conf" resolve -C /dev/null acme:x
}
conf "[modules]\ndirectory=$D\n# the vendor's table\ntables=$r/t.alias\n"
row conf-table-safe in: '`--config`: `[modules] tables=` a table mode 644, owned by root (the control row)' \
	err: '' exit: 0 out: acme_drv also: 'stdout: the table answers' \
	-- "$cli" --config "$r/c.conf" resolve -C /dev/null acme:x
conf "[modules]\ndirectory=$D\n# the vendor's table\ntables=$r/t.alias\n"
chmod 666 "$r/t.alias"
confrow conf-table-world-writable '`--config`: `tables=` a table mode 666' \
	"@TMP@/r/c.conf:4: [modules] tables: a table file writable by group or others (@TMP@/r/t.alias)" \
	fixed: 'cli/cli-config.c `cli_config_load`: the messages about a table did not say which table (the key takes a list)'
conf "[modules]\ndirectory=$D\ntables=$r/t.alias\n"
chmod 666 "$r/t.alias"
row conf-table-world-writable-agent in: 'the agent (`hotplug --config … usb`, ACTION=add) with the same config' \
	err: "hotplug: @TMP@/r/c.conf:3: [modules] tables: a table file writable by group or others (@TMP@/r/t.alias)" \
	exit: 2 out: '' also: 'refused before any module or handler' \
	-- env -i ACTION=add MODALIAS=acme:x "$agent" --stderr --config "$r/c.conf" --dry-run -C /dev/null \
	--hotplug-dir /nonexistent usb
conf "[modules]\ntables=$r/t.alias\n"
chmod 620 "$r/t.alias"
confrow conf-table-group-writable '`--config`: `tables=` a table mode 620' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file writable by group or others (@TMP@/r/t.alias)"
conf "[modules]\ntables=$r/t.alias\n"
chown nobody "$r/t.alias" 2>/dev/null || chown 65534 "$r/t.alias"
confrow conf-table-not-owner '`--config`: `tables=` a table mode 644 owned by nobody (who may rewrite it)' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file owned by another user (@TMP@/r/t.alias)" \
	fixed: 'cli/cli-config.c `cli_config_load`: a table owned by another user (who can write it whatever its mode) was accepted, and the agent runs as root'
conf "[modules]\ntables=$r/t.alias;$r/missing.alias\n"
confrow conf-table-missing '`--config`: `tables=` a good table and a missing one' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file that cannot be read (@TMP@/r/missing.alias: No such file or directory)"
conf "[modules]\ntables=$r\n"
confrow conf-table-directory '`--config`: `tables=` a directory' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file that cannot be read (@TMP@/r: not a regular file)"
conf "[modules]\ntables=t.alias\n"
confrow conf-table-relative '`--config`: `tables=t.alias` (relative)' "@TMP@/r/c.conf:2: [modules] tables: not an absolute path"
conf "[modules]\ndirectory=tests/data/linux-6.1.0-57-amd64\n"
confrow conf-directory-relative '`--config`: `directory=` a relative path' \
	"@TMP@/r/c.conf:2: [modules] directory: not an absolute path"
conf "[modules]\nversion=../../../etc\n"
confrow conf-version-traversal '`--config`: `version=../../../etc`' "@TMP@/r/c.conf:2: [modules] version: not a kernel version"
conf "[log]\n\nlevel=loud\n"
confrow conf-bad-level '`--config`: `[log] level=loud`' \
	"@TMP@/r/c.conf:3: [log] level: not err, warning, notice, info, debug or 0-7"
conf "[agent]\nmax-parallel=99999999999999999999\n"
confrow conf-max-parallel-overflow '`--config`: `[agent] max-parallel=99999999999999999999`' \
	"@TMP@/r/c.conf:2: [agent] max-parallel: not a number from 1 to 1024"
conf "[agent]\ncoldplug=sometimes\n"
confrow conf-coldplug-bad '`--config`: `[agent] coldplug=sometimes`' \
	"@TMP@/r/c.conf:2: [agent] coldplug: neither 'trigger' nor 'resolve'"
conf "[modules]\ndirectory=$D\ntabels=$r/t.alias\n"
row conf-typo in: '`--config`: `tabels=` (a typo of `tables=`)' \
	err: "@TMP@/r/c.conf:3: unknown key 'tabels' in [modules], ignored" exit: 0 out: battery \
	also: 'a warning, as modalias.conf(5) says; stdout: the rest of the file applies' \
	-- "$cli" --config "$r/c.conf" resolve -C /dev/null acpi:PNP0C0A:
conf "# modalias.conf\n[log]\nlevel=notice\n[modules\ndirectory=$D\n"
confrow conf-syntax '`--config`: line 4 `[modules` (no closing bracket)' \
	"@TMP@/r/c.conf:4: Key file contains line ${LQ}[modules${RQ} which is not a key-value pair, group, or comment" \
	fixed: 'cli/cli-config.c `cli_config_load`: a syntax error named no line (GLib quotes the line, without its number); it is found by loading ever shorter prefixes' 
fresh
row conf-missing in: '`--config` a file that does not exist' \
	err: "modalias: @TMP@/r/nonexistent.conf: No such file or directory" \
	exit: 2 out: '' -- "$cli" --config "$r/nonexistent.conf" resolve -C /dev/null acme:x
row conf-directory in: '`--config` a directory' \
	err: "modalias: @TMP@/r: Is a directory" \
	exit: 2 out: '' -- "$cli" --config "$r" resolve -C /dev/null acme:x

# ---- module names, missing modules, unknown fields (load, build) --------------------

LM="$data/load/lib/modules/9.9.9-test"
fresh
printf 'alias test:dev:missing nosuchmod\n' >"$r/missing.conf"
printf 'alias test:dev:slash /tmp/evil\n' >"$r/slash.conf"
row load-dry-missing-module in: '`load --dry-run` of a modprobe.d `alias test:dev:missing nosuchmod` (no such module)' \
	err: "modalias load: module 'nosuchmod' not found" exit: 1 out: '' \
	also: 'stdout: nothing, as `modprobe -n -v` prints for it; exit 1, as the real run fails' \
	fixed: 'libmodalias/load.c `modalias_loader_load_module`: a module libkmod has no file for was "would insert", and the dry run printed `insmod  ` (an empty path) and exited 0' \
	-- "$cli" load --dry-run -m "$LM" -C "$r/missing.conf" test:dev:missing
row load-json-missing-module in: '`load --dry-run --json` of the same alias' \
	err: '' exit: 1 out: '[
  {"alias": "test:dev:missing", "modules": [{"name": "nosuchmod", "state": "not found", "detail": "", "options": "", "errno": 2}]}
]' also: 'stdout: the module, "not found", errno ENOENT' \
	-- "$cli" load --dry-run --json -m "$LM" -C "$r/missing.conf" test:dev:missing
row load-dry-slash-name in: '`load --dry-run` of a modprobe.d `alias test:dev:slash /tmp/evil` (a path for a module name)' \
	err: "modalias: modprobe.d: bad module name '/tmp/evil': it has a '/'" exit: 1 out: '' \
	also: 'the line is refused when the configuration is read (one rule of what a module name is, module_name_check(), for tables, configs and the loader); libkmod is never asked about it' \
	fixed: 'libmodalias/load.c `modalias_loader_load`, libmodalias/table.c `module_id`: any name from the table went to libkmod; `/tmp/evil` "would insert" (`insmod  `), exit 0' \
	-- "$cli" load --dry-run -m "$LM" -C "$r/slash.conf" test:dev:slash
long_mod=$(printf 'm%.0s' $(seq 300))
printf 'alias acme:long %s\nalias acme:good snd_ens1370\n' "$long_mod" >"$r/long.conf"
row conf-long-module in: 'a modprobe.d `alias acme:long mmm…` whose module name is 300 bytes, before a good alias' \
	err: "modalias: modprobe.d: bad module name '${long_mod:0:200}': longer than 255 bytes" exit: 0 out: 'snd_ens1370' \
	also: 'stdout: the good alias of the same file answers; the long one is skipped, as libkmod cannot take it' \
	fixed: 'libmodalias/table.c `modalias_table_load_config`: the name stopped the whole configuration with ENAMETOOLONG, then a NULL iterator went to kmod_config_iter_free_iter() and every command reading that file crashed (SIGSEGV)' \
	-- "$cli" resolve --no-cache -m "$D" -C "$r/long.conf" acme:good acme:long
row build-unknown-field in: '`build usb nosuch=1`' \
	err: "modalias: unknown field 'nosuch' of bus usb
modalias build: bad field 'nosuch=1'" exit: 2 out: '' \
	fixed: 'libmodalias/dev.c `field_of`: an unknown field was "usb has no field" from set and add, and was not logged by set_uint, unset, get_count, get and get_uint (the front ends said ENOENT'"'"'s "No such file or directory")' \
	-- "$cli" build usb nosuch=1

# ---- kmod parity: what kmod answers (issue 14) --------------------------------------

moddir "alias mt8188 mt6359 soc card mt8188_mt6359\nalias platform: mt8365_mt6357 mt8365_mt6357\n$good2"
row alias-spaces in: 'modules.alias lines `alias mt8188 mt6359 soc card mt8188_mt6359` and `alias platform: mt8365_mt6357 mt8365_mt6357` (arm64 6.12, as depmod writes them)' \
	err: '' exit: 0 out: "mt8188_mt6359
mt8365_mt6357
battery" \
	also: 'stdout: each alias with spaces answers, as kmod answers it from modules.alias.bin; the other lines too' \
	fixed: 'libmodalias/table.c `load_alias_text`: a line whose alias has spaces was skipped as "unexpected text after the module name", so the sound cards kmod loads got nothing' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null 'mt8188 mt6359 soc card' 'platform: mt8365_mt6357' acpi:PNP0C0A:
a4087=$(python3 -c "import sys; sys.stdout.write('acpi:PNP0C0A:' + 'X' * (4087 - 13))")
a4088=$(python3 -c "import sys; sys.stdout.write('acpi:PNP0C0A:' + 'X' * (4088 - 13))")
row alias-4088 in: "resolve \`acpi:PNP0C0A:XXX…\` of 4,087 then 4,088 bytes (the module: battery)" \
	err: "modalias: '${a4088:0:60}…' (4088 bytes) is too long for kmod: with the module name 'battery' it exceeds kmod's 4096-byte key, and kmod answers nothing
modalias resolve: cannot look '${a4088:0:200}' up: File name too long" exit: 2 out: battery \
	also: "stdout: the 4,087-byte alias answers (\`battery\\\`, the alias and a NUL fill kmod's 4,096-byte key exactly); the limit depends on the module's name, as in kmod" \
	fixed: 'libmodalias/index.c `modalias_table_lookup`: it answered what kmod refuses' \
	-- "$cli" resolve -m "$D" -C /dev/null "$a4087" "$a4088"

# ---- whole files, bounded; FIFOs and endless files (issue 13 item 7) -----------------
# Every file read whole goes through shared/read-file.c: a regular file (the
# configuration: or a device) within its bound, opened O_NONBLOCK and checked
# on the opened descriptor.  Each command runs under a 10 s timeout: before,
# these read for ever (500 MiB+ of /proc/self/pagemap) or hung on a FIFO.
t10() { timeout -k 2 10 "$@"; }
pymod="${G_TEST_BUILDDIR:?}/../bindings/python/.libs"
have_pymod() { PYTHONPATH="$pymod" python3 -c 'import modalias'; }
fresh
mkdir "$r/m"
ln -s /proc/self/pagemap "$r/m/modules.alias"
row read-alias-pagemap in: 'modules.alias a symlink to `/proc/self/pagemap` (size 0, never ends)' \
	err: "modalias: cannot read @TMP@/r/m/modules.alias: larger than 64 MiB
modalias resolve: cannot load the module tables of @TMP@/r/m: File too large" exit: 2 out: '' \
	also: 'stops at the 64 MiB bound, at once' \
	fixed: 'libmodalias/table.c `slurp`, libmodalias/maps.c, cli/cli-config.c, libmodalias/sysfs.c: a file that reports size 0 and never ends was read until memory ran out; one bounded reader now (shared/read-file.c `read_file`)' \
	-- t10 "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
conf "[modules]\ndirectory=$D\ntables=/proc/self/pagemap\n"
row read-conf-table-pagemap in: '`--config`: `[modules] tables=/proc/self/pagemap`' \
	err: "modalias: cannot read /proc/self/pagemap: larger than 64 MiB
modalias resolve: /proc/self/pagemap (from @TMP@/r/c.conf): File too large" exit: 2 out: '' \
	-- t10 "$cli" --config "$r/c.conf" resolve -C /dev/null acpi:PNP0C0A:
row read-map-pagemap in: '`map /proc/self/pagemap`' \
	err: "modalias: cannot read /proc/self/pagemap: larger than 64 MiB
modalias map: cannot read /proc/self/pagemap: File too large" exit: 2 out: '' \
	-- t10 "$cli" map /proc/self/pagemap
row read-conf-pagemap in: '`--config /proc/self/pagemap`' \
	err: "modalias: /proc/self/pagemap: larger than 1 MiB" exit: 2 out: '' \
	-- t10 "$cli" --config /proc/self/pagemap parse platform:pcspkr
row read-conf-dev-zero in: '`--config /dev/zero`' \
	err: "modalias: /dev/zero: larger than 1 MiB" exit: 2 out: '' \
	-- t10 "$cli" --config /dev/zero parse platform:pcspkr
fresh
mkfifo "$r/c.conf"
row read-conf-fifo in: '`--config` a FIFO nobody writes' \
	err: "modalias: @TMP@/r/c.conf: not a regular file" exit: 2 out: '' \
	fixed: 'cli/cli-config.c `cli_config_load`: a FIFO as the configuration blocked the command (and the agent) for ever' \
	-- t10 "$cli" --config "$r/c.conf" parse platform:pcspkr
row read-conf-dev-null in: '`--config /dev/null` (the control row: a device reads as empty)' \
	err: '' exit: 0 out: "platform:pcspkr
${TAB}bus=platform
${TAB}name=pcspkr" -- t10 "$cli" --config /dev/null parse platform:pcspkr
fresh
mkfifo "$r/c.conf"
row read-conf-fifo-agent in: '`hotplug --config` a FIFO (ACTION=add)' \
	err: "hotplug: @TMP@/r/c.conf: not a regular file" exit: 2 out: '' \
	-- env -i ACTION=add MODALIAS=platform:pcspkr timeout -k 2 10 "$agent" --stderr --config "$r/c.conf" --dry-run \
	--moddir "$D" -C /dev/null --hotplug-dir /nonexistent platform
row read-python-load-file-pagemap in: "Python \`Table.empty().load_file('/proc/self/pagemap')\`" \
	err: '' exit: 0 out: "Error 27 cannot read /proc/self/pagemap: larger than 64 MiB" skip-unless: have_pymod \
	also: 'stdout: the exception, errno EFBIG and the message naming the file' \
	-- env PYTHONPATH="$pymod" timeout -k 2 10 python3 -c '
import modalias
try:
    modalias.Table.empty().load_file("/proc/self/pagemap")
except modalias.Error as e:
    print(type(e).__name__, e.errno, e.strerror)'

# sysfs: a FIFO, /proc/self/pagemap or /dev/zero as an attribute
tree
rm "$pcspkr/modalias"
mkfifo "$pcspkr/modalias"
row read-sysfs-modalias-fifo in: '`list --no-modules` of the captured tree, one `modalias` a FIFO' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: not a regular file
modalias list: /devices/platform/pcspkr: cannot read its modalias: Invalid argument
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	fixed: 'libmodalias/sysfs.c `sys_read`: a FIFO as a sysfs attribute (modalias, uevent) hung `list`, coldplug and `walk_sysfs()` for ever; attributes are opened O_NONBLOCK and only regular files read' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias" "$pcspkr/uevent"
mkfifo "$pcspkr/uevent"
row read-sysfs-uevent-fifo in: 'the same, the device without `modalias` and its `uevent` a FIFO' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/uevent: not a regular file
modalias list: /devices/platform/pcspkr: cannot read its modalias: Invalid argument
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
ln -s /proc/self/pagemap "$pcspkr/modalias"
row read-sysfs-modalias-pagemap in: 'the same, one `modalias` a symlink to `/proc/self/pagemap`' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: larger than 64 KiB
modalias list: /devices/platform/pcspkr: cannot read its modalias: File too large
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
ln -s /dev/zero "$pcspkr/modalias"
row read-sysfs-modalias-dev-zero in: 'the same, one `modalias` a symlink to `/dev/zero`' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: not a regular file
modalias list: /devices/platform/pcspkr: cannot read its modalias: Invalid argument
28 devices" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device; nothing read from the device' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
# a small tree: two platform devices, the second's uevent a FIFO
minisys() {
	fresh
	mkdir -p "$r/sys/devices/platform/pcspkr" "$r/sys/devices/platform/serial8250" "$r/sys/module/pcspkr"
	printf 'MODALIAS=platform:pcspkr\n' >"$r/sys/devices/platform/pcspkr/uevent"
	mkfifo "$r/sys/devices/platform/serial8250/uevent"
}
minisys
row read-coldplug-uevent-fifo in: '`hotplug --coldplug --dry-run` of a tree where one `uevent` is a FIFO' \
	err: "hotplug: cannot read @TMP@/r/sys/devices/platform/serial8250/uevent: not a regular file" exit: 0 \
	out: "coldplug /devices/platform/pcspkr platform:pcspkr
load pcspkr" also: 'the other device handled; the walk goes on' \
	-- t10 "$agent" --coldplug --dry-run --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
minisys
row read-python-walk-sysfs-fifo in: 'Python `walk_sysfs()` of the same tree' \
	err: '' exit: 0 out: "/devices/platform/pcspkr platform:pcspkr 0
/devices/platform/serial8250 None 22" skip-unless: have_pymod also: 'stdout: the good device, and the FIFO one with EINVAL' \
	-- env PYTHONPATH="$pymod" timeout -k 2 10 python3 -c '
import sys, modalias
for e in modalias.walk_sysfs(sys.argv[1]):
    print(e.devpath, e.device, e.errno)' "$r/sys"
minisys
rm "$r/sys/devices/platform/serial8250/uevent"
mkfifo "$r/sys/module/pcspkr/initstate"
row read-list-initstate-fifo in: "\`list\` where a module's \`/sys/module/M/initstate\` is a FIFO" \
	err: '1 devices, 0 without a driver' exit: 0 out: "/devices/platform/pcspkr${TAB}platform:pcspkr${TAB}pcspkr:available" \
	also: 'the state read without blocking: not loaded' \
	fixed: 'cli/modalias.c `module_state`: a FIFO as a module'"'"'s initstate hung `modalias list`' \
	-- t10 "$cli" list --sysfs "$r/sys" --moddir "$D" -C /dev/null
minisys
rm "$r/sys/devices/platform/serial8250/uevent"
echo live >"$r/sys/module/pcspkr/initstate"
row read-list-initstate-live in: "the same, \`initstate\` a regular file saying \`live\` (the control row)" \
	err: '1 devices, 0 without a driver' exit: 0 out: "/devices/platform/pcspkr${TAB}platform:pcspkr${TAB}pcspkr:loaded" \
	-- t10 "$cli" list --sysfs "$r/sys" --moddir "$D" -C /dev/null

# ---- the hotplug agent: whose handlers run, hung handlers, coldplug trigger ---------

# Attacks on hotplug.d handlers: nobody changes what a handler's real path
# leads to, putting there a root-owned program that is no handler
# (@TMP@/r/tools/other, which logs "ran other").  The old agent checked the
# target file alone and ran the path: "ran other" ran as root.
hptrust() {
	hpdir
	mkdir "$r/tools"
	handler "$r/tools/other" 755
}
# as nobody: a symlink to TARGET renamed over PATH (its directory is nobody's to write)
swap_as_nobody() { # TARGET PATH
	as_nobody sh -c 'ln -s "$1" "$2.new" && mv -f "$2.new" "$2"' - "$1" "$2"
}
hptrust
mkdir -m 777 "$r/shared"
handler "$r/shared/h" 755
ln -s "$r/shared/h" "$r/hp/usb/10-h.hotplug"
attack_shared() {
	swap_as_nobody "$r/tools/other" "$r/shared/h" || exit 99
	env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
}
row handler-link-to-writable-dir in: 'a handler symlink to a root-owned handler in a directory mode 777 (outside hotplug.d), where nobody renames a symlink to another root-owned program over it' \
	err: "hotplug: @TMP@/r/hp/usb/10-h.hotplug: refused: @TMP@/r/shared: writable by group or others" exit: 0 out: '' \
	check: 'test "$(cat "$r/log")" = "ran usb"' also: "neither the handler nor nobody's substitute runs; default/'s does" \
	fixed: 'cli/hotplug.c `run_dir`: a handler reached through a symlink was judged by the file at the end alone (owner, mode), not by the directories on its way: whoever could write one of them could point it at any root-owned program and have it run as root on every event (the whole real path is checked now, by shared/path-trust)' \
	skip-unless: have_setpriv -- attack_shared
hptrust
mkdir -p "$r/opt/vendor/bin"
chown nobody "$r/opt/vendor" 2>/dev/null || chown 65534 "$r/opt/vendor"
handler "$r/opt/vendor/bin/h" 755
ln -s "$r/opt/vendor/bin/h" "$r/hp/usb/10-h.hotplug"
attack_vendor() {
	as_nobody sh -c 'mv "$1/bin" "$1/bin.old" && mkdir "$1/bin"' - "$r/opt/vendor" || exit 99
	swap_as_nobody "$r/tools/other" "$r/opt/vendor/bin/h" || exit 99
	env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/hp" usb
}
row handler-path-via-nobody-dir in: "a handler symlink to @TMP@/r/opt/vendor/bin/h, root's in a root-owned bin/, but vendor/ above it nobody's: nobody moves bin/ away and makes a new one with a symlink to another root-owned program" \
	err: "hotplug: @TMP@/r/hp/usb/10-h.hotplug: refused: @TMP@/r/opt/vendor: not owned by root" exit: 0 out: '' \
	check: 'test "$(cat "$r/log")" = "ran usb"' also: "neither the handler nor nobody's substitute runs; default/'s does" \
	fixed: 'cli/hotplug.c `run_dir`: the directories on a handler'"'"'s real path outside hotplug.d were not checked at all' \
	skip-unless: have_setpriv -- attack_vendor
swapshim=$G_TEST_BUILDDIR/shim/.libs/swap-on-spawn.so
hptrust
handler "$r/hp/usb/10-h.hotplug" 755
row handler-swapped-after-check in: 'a good handler, replaced by another root-owned program (renamed over its path) after the agent checked it, before it runs (tests/shim/swap-on-spawn: at the fork)' \
	err: '' exit: 0 out: '' check: 'test "$(cat "$r/log")" = "ran 10-h.hotplug usb
ran usb" && grep -q "ran other" "$r/hp/usb/10-h.hotplug"' \
	also: 'the handler that was checked runs, not what is at its path when it starts (which is the other program: the swap did happen)' \
	fixed: 'cli/hotplug.c `run_dir`: a handler was checked by its path (stat) and run by its path (posix_spawn): whatever was at the path between the two ran; the descriptor that was opened and checked is run now (fexecve, a script through /dev/fd/3)' \
	skip-unless: "test -e '$swapshim'" \
	-- env -i ACTION=change LD_PRELOAD="$swapshim" SWAP_ON_SPAWN="$r/tools/other:$r/hp/usb/10-h.hotplug" \
	ASAN_OPTIONS="${ASAN_OPTIONS:-}" "$agent" --stderr --hotplug-dir "$r/hp" usb
hpdir
printf '#!/bin/sh\nsleep 1000\n' >"$r/hp/usb/10-hang.hotplug"
chmod 755 "$r/hp/usb/10-hang.hotplug"
row handler-hung in: 'a handler that never ends (`sleep 1000`), `hotplug --handler-timeout=1 usb`' \
	err: 'hotplug: @TMP@/r/hp/usb/10-hang.hotplug: still running after 1 s: killed' exit: 0 out: '' \
	check: 'test "$(cat "$r/log")" = "ran usb"' also: 'killed after 1 s (with its process group); the handler in default/ runs after it' \
	fixed: 'cli/hotplug.c `run_dir`: a handler that never ended held the agent for ever (helper and daemon: waitpid() without a timeout); it is killed after [agent] handler-timeout= (default 30 s)' \
	-- env -i ACTION=change "$agent" --stderr --handler-timeout=1 --hotplug-dir "$r/hp" usb
conf "[agent]\nhandler-timeout=0\n"
confrow conf-handler-timeout-zero '`--config`: `[agent] handler-timeout=0`' \
	"@TMP@/r/c.conf:2: [agent] handler-timeout: not a number of seconds from 1 to 86400"

# --coldplug=trigger writes "add" only to regular uevent files reached
# without a symlink below the sysfs root; the old agent followed both
trigtree() { # a sysfs tree with one good device, and a file that is no uevent
	fresh
	mkdir -p "$r/sys/devices/platform/good"
	echo platform:good >"$r/sys/devices/platform/good/modalias"
	: >"$r/sys/devices/platform/good/uevent"
	echo precious >"$r/victim"
}
trigtree
mkdir "$r/sys/devices/platform/evil"
echo platform:evil >"$r/sys/devices/platform/evil/modalias"
ln -s "$r/victim" "$r/sys/devices/platform/evil/uevent"
row trigger-uevent-symlink in: '`hotplug --coldplug=trigger --sysfs @TMP@/r/sys`: one device'"'"'s `uevent` a symlink to another file (@TMP@/r/victim)' \
	err: 'hotplug: @TMP@/r/sys/devices/platform/evil/uevent: cannot trigger: a symlink (not followed)' exit: 0 out: '' \
	check: 'test "$(cat "$r/victim")" = precious && test "$(cat "$r/sys/devices/platform/good/uevent")" = add' \
	also: 'the other file unchanged; the good device'"'"'s `uevent` gets `add`' \
	fixed: 'cli/hotplug.c `coldplug_trigger_one`: `add` was written through a `uevent` symlink to whatever file it named' \
	-- "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
trigtree
mkdir "$r/sys/devices/platform/fifo"
echo platform:fifo >"$r/sys/devices/platform/fifo/modalias"
mkfifo "$r/sys/devices/platform/fifo/uevent"
row trigger-uevent-fifo in: '`hotplug --coldplug=trigger --sysfs @TMP@/r/sys`: one device'"'"'s `uevent` a FIFO nobody reads' \
	err: 'hotplug: @TMP@/r/sys/devices/platform/fifo/uevent: cannot trigger: not a regular file' exit: 0 out: '' \
	check: 'test "$(cat "$r/sys/devices/platform/good/uevent")" = add' also: 'no hang; the good device'"'"'s `uevent` gets `add`' \
	fixed: 'cli/hotplug.c `coldplug_trigger_one`: opening a FIFO `uevent` for writing waited for a reader for ever' \
	-- "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
trigtree
mkdir -p "$r/elsewhere/devices/platform/x"
echo platform:x >"$r/elsewhere/devices/platform/x/modalias"
echo precious >"$r/elsewhere/devices/platform/x/uevent"
rm -r "$r/sys/devices"
ln -s "$r/elsewhere/devices" "$r/sys/devices"
row trigger-devices-symlink in: '`hotplug --coldplug=trigger --sysfs @TMP@/r/sys` where `devices` is a symlink out of the tree, to a device whose `uevent` is a regular file' \
	err: 'hotplug: @TMP@/r/sys/devices/platform/x/uevent: cannot trigger: a symlink on the way (not followed)' exit: 0 out: '' \
	check: 'test "$(cat "$r/elsewhere/devices/platform/x/uevent")" = precious' also: 'the file out of the tree unchanged' \
	fixed: 'cli/hotplug.c `coldplug_trigger_one`: `add` was written through any symlink on the way to `uevent`, out of the sysfs tree' \
	-- "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent

# ---- the index cache: whose it is, and damage ---------------------------------------
forge=${G_TEST_BUILDDIR:?}/bad-input/cache-forge
E1000E=pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
# DIR (nobody's): nobody's own cache of the bundled table, e1000e renamed
# evil_x in it and the checksum made good again
forged_by_nobody() {
	mkdir -p "$1" && chown nobody:nogroup "$1" &&
		as_nobody env MODALIAS_CACHE_DIR="$1" "$cli" --config /dev/null resolve -m "$D" -C /dev/null "$E1000E" >/dev/null &&
		as_nobody "$forge" "$1/$idx" e1000e evil_x >/dev/null
}
fresh
have_setpriv >/dev/null 2>&1 && forged_by_nobody "$r/evil"
row cache-dir-untrusted in: "\`MODALIAS_CACHE_DIR\` a directory of nobody's, holding nobody's forged cache (e1000e renamed evil_x, checksum good)" \
	err: "modalias: index cache directory @TMP@/r/evil not used: @TMP@/r/evil: not owned by root" exit: 0 out: e1000e \
	unchanged: "$r/evil" check: "as_nobody env MODALIAS_CACHE_DIR=$r/evil $cli --config /dev/null resolve -m $D -C /dev/null $E1000E | grep -qx evil_x" \
	also: 'root answers from the text tables and writes nothing there; nobody, who trusts his own directory, is answered evil_x: the forged cache works wherever it is believed' \
	fixed: 'libmodalias/cache.c `modalias_table_open`: any cache directory (`cache=`, `$MODALIAS_CACHE_DIR`, the default) was read, so whoever could write it chose what root resolved and loaded; caches are now used only where shared/path-trust allows' \
	skip-unless: have_setpriv -- env MODALIAS_CACHE_DIR="$r/evil" "$cli" resolve -m "$D" -C /dev/null "$E1000E"
fresh
mkdir "$r/c"
have_setpriv >/dev/null 2>&1 && forged_by_nobody "$r/evil" && cp -p "$r/evil/$idx" "$r/c/$idx"
row cache-file-forged in: "root's cache directory holding a cache file of nobody's (forged: e1000e renamed evil_x, checksum good)" \
	err: "modalias: index cache not used: @TMP@/r/c/@IDX@: not owned by root" exit: 0 out: e1000e \
	check: "test \"\$(stat -c %u $r/c/$idx)\" = 0 && cmp -s $r/c/$idx $tmp/good.idx" \
	also: "answers from the text tables; the forged file is not read, and is replaced (renamed over, not written through) by root's own cache, equal to a fresh one" \
	fixed: 'libmodalias/cache.c: a cache file was read whoever owned it; now trust_openat() refuses a file not root'"'"'s alone (or the user'"'"'s own)' \
	skip-unless: have_setpriv -- env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$D" -C /dev/null "$E1000E"
fresh
mkdir "$r/c" "$r/f"
env MODALIAS_CACHE_DIR="$r/f" "$cli" resolve -m "$D" -C /dev/null "$E1000E" >/dev/null
"$forge" "$r/f/$idx" e1000e evil_x >/dev/null
cp "$r/f/$idx" "$r/forged.idx"
ln -s "$r/forged.idx" "$r/c/$idx"
row cache-file-symlink in: "the cache file a symlink to a forged cache (root's own file, e1000e renamed evil_x, checksum good)" \
	err: "modalias: index cache not used: @TMP@/r/c/@IDX@: a symlink" exit: 0 out: e1000e unchanged: "$r/forged.idx" \
	check: "test ! -L $r/c/$idx && cmp -s $r/c/$idx $tmp/good.idx && env MODALIAS_CACHE_DIR=$r/f $cli resolve -m $D -C /dev/null $E1000E | grep -qx evil_x" \
	also: 'the link is not followed: answers from the text tables, the link replaced by a new cache, its target unchanged; the same file as a plain file is believed (evil_x), so the link is what was refused' \
	fixed: 'libmodalias/cache.c: the cache file was opened following symlinks; now O_NOFOLLOW through trust_openat()' \
	-- env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$D" -C /dev/null "$E1000E"
fresh
mkdir "$r/c"
# one bit of the module name e1000e in the string pool: e1000g
python3 - "$tmp/good.idx" "$r/c/$idx" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.index(b"\0e1000e\0") + 6
b[at] ^= 0x02
open(sys.argv[2], "wb").write(b)
PY
row cache-bit-flipped in: 'the index cache with one bit flipped in a module name (e1000e to e1000g)' \
	err: "modalias: @TMP@/r/c/@IDX@: damaged index cache (checksum mismatch)" exit: 0 out: e1000e \
	check: "cmp -s $r/c/$idx $tmp/good.idx" also: 'answers from the text tables; the cache rebuilt, equal to a fresh one' \
	fixed: 'libmodalias/cache.c: only a truncated cache was noticed: a flipped bit in a string answered a module that does not exist (here e1000g), one in an offset or a count crashed (SIGSEGV) or looped; now a CRC-32C over the file and a check of every offset, count and index before use (tests/test-cache.c sweeps flips and truncations)' \
	-- env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$D" -C /dev/null "$E1000E"
moddir 'alias acpi*:PNP0C0A:* battery\nnot an alias line\n'
env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$r/m" -C /dev/null acpi:PNP0C0A: >/dev/null 2>&1
row cache-malformed-count in: '`modules.alias` with one malformed line, its index cache written by an earlier run' \
	err: "modalias resolve: @TMP@/r/m: 1 malformed lines skipped" exit: 0 out: battery \
	also: 'the run from the cache reports the count as the run from the text did (that one named the line too)' \
	fixed: 'libmodalias/cache.c: a run from the cache said nothing of the malformed lines; the count is kept in the cache' \
	-- env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$r/m" -C /dev/null acpi:PNP0C0A:

# ---- the catalogue -----------------------------------------------------------------

readme() {
	cat <<'HEAD'
# The bad-input catalogue

`tests/bad-input/test-bad-input.sh` (run by `make check`) feeds the library, `modalias` and the
`hotplug` agent hostile, broken and truncated input, one case a row, and asserts for each the
**whole** of standard error, exactly, and the exit status, and that nothing else broke: the good
inputs around the bad one keep their answers (the "also checked" column), files are left as they
were, no crash (a status of 124 or more fails the row), no sanitizer report. `@TMP@` is the
row's temporary directory, `@DATA@` is `tests/data`, `@IDX@` the index cache's name (a hash of
the module directory's path); a control character is written here as `\xNN`.

This file is written by the test from its run (`BAD_INPUT_README=1 make check
TESTS=tests/bad-input/test-bad-input.sh`), and the test's last check is that it still is this
table. The sysfs rows that remove a device in the middle of a walk use
`tests/bad-input/sysfs-vanish`, which wraps the library's `stat()` and `open()` (`ld --wrap`) to
remove it at an exact moment. Rows run as `nobody` (setpriv) or in a network namespace of their
own (unshare) are skipped where those are not available. The catalogue passes as it is in a
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
