#!/bin/sh
# Hostile strings in human output: a snapshot document (of the qemu-q35
# capture) whose e1000e NIC has a devpath holding newlines that spell the
# agent's dry-run lines ("load totally_evil", "run …/evil.hotplug pci") and
# a bound driver that is terminal escape sequences (a title, clear screen),
# and whose cpu device's devpath hides the rest of a line and forges a
# device line.  list (columns, --tree), explain, diff, firmware and
# hotplug --dry-run --coldplug --snapshot print one line per device, no
# forged line and no control character (C-style escapes instead:
# cli_shown()); the JSON outputs keep the exact bytes.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
agent=${HOTPLUG_AGENT:?}
. "$here/cli-lib.sh"

D61="$data/linux-6.1.0-57-amd64" D612="$data/linux-6.12.118+deb12-amd64"
DM="$data/linux-6.1.0-57-amd64+modinfo"
NIC='/devices/pci0000:00/0000:00:02.0'
EVIL_NIC="$NIC
load totally_evil
run /etc/hotplug.d/default/evil.hotplug pci"
SHOWN_NIC="$NIC\\nload totally_evil\\nrun /etc/hotplug.d/default/evil.hotplug pci"
SHOWN_DRIVER='\x1b]0;pwned\a\x1b[2Jevil'
SHOWN_CPU='/devices/system/cpu\x1b[8m\n/devices/forged\tcpu'
H="$tmp/hostile.json"
TAB=$(printf '\t')

"$cli" snapshot --sysfs "$data/sysfs/qemu-q35" -o "$tmp/q35.json" 2>/dev/null
python3 - "$tmp/q35.json" "$H" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["devices"]:
    if x["devpath"] == "/devices/pci0000:00/0000:00:02.0":
        x["devpath"] += "\nload totally_evil\nrun /etc/hotplug.d/default/evil.hotplug pci"
        x["driver"] = "\x1b]0;pwned\x07\x1b[2Jevil"
    elif x["devpath"] == "/devices/system/cpu":
        x["devpath"] += "\x1b[8m\n/devices/forged\tcpu"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY

# clean NAME STATUS FIRST -- COMMAND...: COMMAND exits with STATUS, and each
# line of its standard output and error starts as the extended regular
# expression FIRST allows (standard error: the program's name, or a
# summary), none is a forged one and none holds a control character but
# the tab
clean() {
	name=$1 want=$2 first=$3
	shift 4
	n=$((n + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	why=""
	if [ "$status" != "$want" ]; then
		why="exit status $status, wanted $want"
	elif grep -Evq -e "^($first)" "$tmp/out"; then
		why="a line that is no device's"
		grep -Ev -e "^($first)" "$tmp/out" >"$tmp/bad"
	elif grep -Evq -e '^(modalias|hotplug|[0-9]+ devices)' "$tmp/err"; then
		why="a forged line on standard error"
		cp "$tmp/err" "$tmp/bad"
	elif grep -Eq -e '^(load totally_evil|run /etc/hotplug\.d|/devices/forged)' "$tmp/out" "$tmp/err"; then
		why="a forged line"
		grep -E -e '^(load totally_evil|run /etc/hotplug\.d|/devices/forged)' "$tmp/out" "$tmp/err" >"$tmp/bad"
	elif cat "$tmp/out" "$tmp/err" | tr -d '\t\n' | LC_ALL=C grep -q '[[:cntrl:]]'; then
		why="a control character"
		LC_ALL=C grep -n '[[:cntrl:]]' "$tmp/out" "$tmp/err" | cat -A >"$tmp/bad"
	fi
	: >>"$tmp/bad"
	report "$name" "$why" "$tmp/bad" bad
	rm -f "$tmp/bad"
}

# has NAME TEXT: the last output holds the line TEXT (given as it is shown)
has() {
	n=$((n + 1))
	if grep -Fqx -e "$2" "$tmp/out"; then
		report "$1" ""
	else
		report "$1" "no line '$2'" "$tmp/out" out
	fi
}

clean "list: one line a device" 0 "/devices/[^$TAB]*$TAB" -- "$cli" list --snapshot "$H" -m "$D61" -C /dev/null
n=$((n + 1))
[ "$(wc -l <"$tmp/out")" = 94 ] && report "list: 94 lines for 94 devices" "" || report "list: 94 lines" "$(wc -l <"$tmp/out") lines"
has "list: the NIC's devpath escaped" \
	"$SHOWN_NIC	pci:v00008086d000010D3sv00008086sd00000000bc02sc00i00	$SHOWN_DRIVER	e1000e:unknown"
clean "list --width=100: one line a device" 0 '(/|…)' -- \
	"$cli" list --width=100 --snapshot "$H" -m "$D61" -C /dev/null
clean "list --tree: no forged line" 0 '[^[:cntrl:]]' -- "$cli" list --tree --snapshot "$H" -m "$D61" -C /dev/null
clean "explain: no forged line" 0 '(device|modalias|  from|match|  e1000e|    pci|bound|.*is bound)' -- \
	"$cli" explain --snapshot "$H" -m "$D61" -C /dev/null "$EVIL_NIC"
has "explain: the devpath escaped" "device:   $SHOWN_NIC"
has "explain: the driver's escape sequences escaped" "bound:    $SHOWN_DRIVER"
clean "diff --all: one line a device" 5 "(same|gained|lost|builtin|changed|unmatched)$TAB/devices/" -- \
	"$cli" diff --all --snapshot "$H" -C /dev/null "$D61" "$D612"
clean "diff --all --width=100: one line a device" 5 "(same|gained|lost|builtin|changed|unmatched) +(/|…)" -- \
	"$cli" diff --all --width=100 --snapshot "$H" -C /dev/null "$D61" "$D612"
clean "firmware: no forged line" 0 '(search path|kernel log: |/devices/|  /|  [a-z]|    [a-z])' -- \
	"$cli" firmware --snapshot "$H" -m "$DM" -C /dev/null -f "$data/firmware/lib/firmware"
has "firmware: the cpu's devpath escaped" "$SHOWN_CPU"
clean "hotplug --dry-run --coldplug --snapshot: no forged line" 0 '(coldplug /devices/|(load|loaded|builtin|blacklisted) [a-z])' -- \
	"$agent" --dry-run --coldplug --snapshot "$H" -m "$D61" -C /dev/null --log-level=crit --hotplug-dir "$tmp/none"
n=$((n + 1))
[ "$(grep -c '^coldplug ' "$tmp/out")" = 94 ] && report "hotplug --dry-run: 94 devices, 94 coldplug lines" "" ||
	report "hotplug --dry-run: 94 coldplug lines" "$(grep -c '^coldplug ' "$tmp/out")" "$tmp/out" out
has "hotplug --dry-run: the NIC's line" \
	"coldplug $SHOWN_NIC pci:v00008086d000010D3sv00008086sd00000000bc02sc00i00"

# JSON: the exact bytes
n=$((n + 1))
"$cli" list --json --snapshot "$H" -m "$D61" -C /dev/null >"$tmp/list.json" 2>/dev/null
"$cli" explain --json --snapshot "$H" -m "$D61" -C /dev/null "$EVIL_NIC" >"$tmp/explain.json" 2>/dev/null
if python3 - "$tmp/list.json" "$tmp/explain.json" 2>"$tmp/err" <<'PY'
import json, sys
nic = "/devices/pci0000:00/0000:00:02.0\nload totally_evil\nrun /etc/hotplug.d/default/evil.hotplug pci"
devs = {x["devpath"] for x in json.load(open(sys.argv[1]))}
assert nic in devs and "/devices/system/cpu\x1b[8m\n/devices/forged\tcpu" in devs, devs
e = json.load(open(sys.argv[2]))
assert e["devpath"] == nic and e["driver"] == "\x1b]0;pwned\x07\x1b[2Jevil", e
PY
then
	report "--json: the devpaths and the driver byte for byte" ""
else
	report "--json: the exact bytes" "python says" "$tmp/err" err
fi

# Hostile strings in the module tables and modprobe.d: a pattern holding an
# escape sequence (the library's message quotes it), a module name of a C1
# CSI, a bidirectional override and a byte that is not UTF-8 (accepted: only
# C0 controls and '/' are refused in a name), options and an install
# command of escape sequences.  resolve (--explain too), load --dry-run and
# the agent's dry run show them escaped; nothing raw on either stream.
HM="$tmp/hostile-mod" HC="$tmp/hostile-conf"
mkdir -p "$HM" "$HC"
printf 'alias pci:v00008086d000010D3sv*\033[2J* ev1\nalias pci:v00008086d000010D3sv* e1000e\302\2332J\342\200\256\377\n' >"$HM/modules.alias"
printf 'options e1000e x=\033[31m y=\342\200\256\ninstall e1000e /bin/true \033]0;pwned\007\n' >"$HC/evil.conf"
SHOWN_MOD='e1000e\xc2\x9b2J\u202e\xff'
# unescaped NAME: neither stream of the last command holds a control
# character (C0 but tab and newline, DEL, C1), a bidirectional override or
# separator, or a byte that is not UTF-8
unescaped() {
	n=$((n + 1))
	if cat "$tmp/out" "$tmp/err" | LC_ALL=C grep -aqP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]|[\xf8-\xff]'; then
		cat "$tmp/out" "$tmp/err" | cat -A >"$tmp/bad"
		report "$1" "a raw byte" "$tmp/bad" bad
	else
		report "$1" ""
	fi
}
E1000E=pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
"$cli" resolve -m "$HM" -C "$HC" "$E1000E" >"$tmp/out" 2>"$tmp/err"
unescaped "resolve: the module name and the library's message escaped"
has "resolve: the module name escaped" "$SHOWN_MOD"
"$cli" resolve --explain -m "$HM" -C "$HC" "$E1000E" >"$tmp/out" 2>"$tmp/err"
unescaped "resolve --explain: escaped"
"$cli" load --dry-run -m "$HM" -C "$HC" "$E1000E" >"$tmp/out" 2>"$tmp/err"
unescaped "load --dry-run: the options and the install command escaped"
"$cli" explain -m "$HM" -C "$HC" "$E1000E" >"$tmp/out" 2>"$tmp/err"
unescaped "explain: escaped"
"$cli" list --snapshot "$H" -m "$HM" -C "$HC" >"$tmp/out" 2>"$tmp/err"
unescaped "list: escaped"
"$agent" --stderr --dry-run --coldplug --snapshot "$H" -m "$HM" -C "$HC" --hotplug-dir "$tmp/none" >"$tmp/out" 2>"$tmp/err"
unescaped "hotplug --dry-run: the library's message escaped"
# modalias.conf and standard input: a key, a group and a kernel version of
# escape sequences (GKeyFile's message and the front ends' quote them),
# lines read by resolve -
printf '[agent]\n\033[2Jkey = 1\n' >"$tmp/key.conf"
printf '[modules]\nversion = \033]0;pwned\007\n' >"$tmp/version.conf"
"$cli" --config="$tmp/key.conf" resolve x >"$tmp/out" 2>"$tmp/err"
unescaped "modalias.conf: a key of escape sequences, modalias's message"
"$agent" --config="$tmp/key.conf" --settle=1 >"$tmp/out" 2>"$tmp/err"
unescaped "modalias.conf: a key of escape sequences, hotplug's message"
"$cli" --config="$tmp/version.conf" resolve x >"$tmp/out" 2>"$tmp/err"
unescaped "modalias.conf: a kernel version of escape sequences"
printf 'pci:\033[2J\nx\033]0;a\007\000y\n' | "$cli" resolve -m "$D61" -C /dev/null - >"$tmp/out" 2>"$tmp/err"
unescaped "resolve -: the lines echoed and quoted escaped"

# legacy map files: a module name and an OF name of escape sequences, C1
# and a bidirectional override: the entries, their aliases, a match
printf '# pci module         vendor     device     subvendor  subdevice  class      class_mask driver_data\ne1000e\302\233\342\200\256x 0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0\n' >"$tmp/modules.pcimap"
printf '# of module name type compatible\nofm\033x foo\033[2J bar baz\n' >"$tmp/modules.ofmap"
"$cli" map "$tmp/modules.pcimap" "$tmp/modules.ofmap" >"$tmp/out" 2>"$tmp/err"
unescaped "map: the entries escaped"
"$cli" map --to-aliases "$tmp/modules.pcimap" "$tmp/modules.ofmap" >"$tmp/out" 2>"$tmp/err"
unescaped "map --to-aliases: escaped"
"$cli" map --match pci vendor=0x8086 device=0x10d3 "$tmp/modules.pcimap" >"$tmp/out" 2>"$tmp/err"
unescaped "map --match: the module escaped"

# parse: a modalias as sysfs may hold it (the library refuses C0 controls,
# not C1 or a bidirectional override), fields shown escaped
"$cli" parse "$(printf 'of:Nfoo\302\233Tbar\342\200\256C')" "$(printf 'usb:v1234p\342\200\256X')" >"$tmp/out" 2>"$tmp/err"
unescaped "parse: the modalias and its fields escaped"

# snapshot: a C1 control (CSI, U+009B) in a built-in module's name is
# written as its two bytes' escapes, never raw, and read back the same
C1T="$tmp/c1-tree"
mkdir -p "$C1T/devices" "$C1T/module/$(printf 'm\302\2332J')"
"$cli" snapshot --sysfs "$C1T" -o "$tmp/c1.json" 2>/dev/null
"$cli" snapshot --snapshot "$tmp/c1.json" -o "$tmp/c1-again.json" 2>/dev/null
n=$((n + 1))
if LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$tmp/c1.json" "$tmp/c1-again.json"; then
	report "snapshot: a C1 control in a name escaped" "raw C1 bytes" "$tmp/c1.json" out
elif ! grep -Fq '"m\u00c2\u009b2J"' "$tmp/c1.json" || ! cmp -s "$tmp/c1.json" "$tmp/c1-again.json"; then
	report "snapshot: a C1 control in a name escaped" "not its bytes' escapes, or not read back the same" "$tmp/c1.json" out
else
	report "snapshot: a C1 control in a name escaped as its bytes, read back the same" ""
fi

# names a person gives (a file, a directory, an option's value, an
# argument), which may come from a file or a script: each message that
# quotes one shows it escaped, on both lines of a usage error too
ESC=$(printf '\033')
"$cli" list --snapshot "$tmp/bad${ESC}[31m.json" >"$tmp/out" 2>"$tmp/err"
cp "$tmp/err" "$tmp/out"
unescaped "list --snapshot FILE: the file's name escaped"
has "list --snapshot FILE: the second line escaped too" \
	"modalias list: cannot use the snapshot $tmp/bad\x1b[31m.json: No such file or directory"
"$cli" snapshot --sysfs "$data/sysfs/qemu-q35" --kernel="a${ESC}[2Jb" -o "$tmp/k.json" >"$tmp/out" 2>"$tmp/err"
unescaped "snapshot --kernel: refused, escaped"
n=$((n + 1))
[ ! -e "$tmp/k.json" ] && report "snapshot --kernel of an escape sequence: not a kernel release, nothing written" "" ||
	report "snapshot --kernel of an escape sequence: refused" "written" "$tmp/err" err
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["kernel"]="6.1\x1b[2J"; json.dump(d,open(sys.argv[2],"w"))' \
	"$tmp/q35.json" "$tmp/kernel-esc.json"
"$cli" list --snapshot "$tmp/kernel-esc.json" -C /dev/null >"$tmp/out" 2>"$tmp/err"
unescaped "a snapshot's kernel of an escape sequence: escaped"
"$cli" firmware -f "/x${ESC}[2J" >"$tmp/out" 2>"$tmp/err"
unescaped "firmware -f DIR: escaped"
"$cli" list --width="${ESC}[2J" >"$tmp/out" 2>"$tmp/err"
unescaped "list --width=VALUE: GOption's message escaped"
"$cli" list --sysfs="$tmp/no${ESC}[2J" >"$tmp/out" 2>"$tmp/err"
unescaped "list --sysfs=DIR: escaped"
"$cli" map "$tmp/no${ESC}[2J.map" >"$tmp/out" 2>"$tmp/err"
unescaped "map FILE: escaped"
"$cli" build "pc${ESC}[2Ji" vendor=1 >"$tmp/out" 2>"$tmp/err"
unescaped "build BUS: escaped"
"$agent" --settle=1 --control-socket="$tmp/s${ESC}[2J" >"$tmp/out" 2>"$tmp/err"
unescaped "hotplug --control-socket=PATH: escaped"
"$agent" --stderr net "x${ESC}[2J" >"$tmp/out" 2>"$tmp/err"
unescaped "hotplug: an unexpected argument escaped"

# the environment, a names database, a modprobe.d word: what the attacker
# of this session found raw (X: ESC, BEL, C1 CSI, U+202E, a newline, DEL,
# a byte that is no UTF-8, a backslash)
X=$(printf 'x\033]0;T\007\302\233\342\200\256\nF\177\377\\z')
Y=$(printf 'x\302\233\342\200\256q')
env -i SUBSYSTEM=of OF_NAME="$X" OF_TYPE="$X" OF_COMPATIBLE_N=1 OF_COMPATIBLE_0="$X" "$cli" build --env \
	>"$tmp/out" 2>"$tmp/err"
status=$?
n=$((n + 1))
[ "$status" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "variable OF_NAME=.* has a control character" "$tmp/err" &&
	report "build --env: OF_NAME with a newline refused, named" "" ||
	report "build --env: OF_NAME with a newline refused, named" "not refused" "$tmp/out" out "$tmp/err" err
unescaped "build --env: OF_* refused, escaped"
env -i SUBSYSTEM=of OF_NAME="$Y" "$cli" build --env >"$tmp/out" 2>"$tmp/err"
unescaped "build --env: a C1 and U+202E in OF_NAME shown escaped"
mkdir -p "$tmp/sy/devices"
env -i DEVPATH="/devices/$X" "$cli" build --env --sysfs "$tmp/sy" >"$tmp/out" 2>"$tmp/err"
unescaped "build --env: DEVPATH escaped"
mkdir -p "$tmp/ids"
printf '8086  Intel\033]0;T\007\302\233\342\200\256\377\\z\n\t10d3  Dev\033[2J\n' >"$tmp/ids/pci.ids"
MODALIAS_IDS_DIR="$tmp/ids" "$cli" list --width 300 --sysfs "$data/sysfs/qemu-q35" -m "$D61" -C /dev/null \
	>"$tmp/out" 2>"$tmp/err"
unescaped "list --width: a pci.ids name escaped"
MODALIAS_IDS_DIR="$tmp/ids" "$cli" list --tree --width 300 --sysfs "$data/sysfs/qemu-q35" -m "$D61" -C /dev/null \
	>"$tmp/out" 2>"$tmp/err"
unescaped "list --tree: a pci.ids name escaped"
for o in max-parallel settle unknown; do
	case $o in
	max-parallel) "$agent" --max-parallel="a${ESC}b" usb ;;
	settle) "$agent" --settle="9${ESC}b" usb ;;
	unknown) "$agent" "--a${ESC}b" usb ;;
	esac >"$tmp/out" 2>"$tmp/err"
	unescaped "hotplug, $o with an escape sequence: GOption's message escaped"
done
MODALIAS_LOG="$Y" "$cli" resolve -m "$D61" -C /dev/null pci:v1 >"$tmp/out" 2>"$tmp/err"
unescaped "MODALIAS_LOG: the library's default log escapes U+202E and C1"
printf 'fo\342\200\256o bar\n' >"$tmp/bidi.conf"
"$cli" resolve -m "$D61" -C "$tmp/bidi.conf" pci:v1 >"$tmp/out" 2>"$tmp/err"
unescaped "modprobe.d: a first word with U+202E refused before libkmod prints it"
# a trusted directory whose name holds an escape sequence and U+202E:
# libkmod prints the path of a line it cannot parse as it is, so the
# configuration is copied (libkmod sees /proc/self/fd/N) however trusted
hd="$tmp/d${ESC}[31mir$(printf '\342\200\256')"
mkdir -p "$hd"
echo 'frobnicate x' >"$hd/a.conf"
"$cli" load --dry-run -m "$D61" -C "$hd" "$E1000E" >"$tmp/out" 2>"$tmp/err"
unescaped "modprobe.d: a trusted directory named with ESC and U+202E: libkmod's message does not print it raw"
printf '# caf\351, a Latin-1 comment\nalias foo bar\n' >"$tmp/latin1.conf"
n=$((n + 1))
[ "$("$cli" resolve -m "$D61" -C "$tmp/latin1.conf" foo 2>/dev/null)" = bar ] &&
	report "modprobe.d: a comment's byte that is no UTF-8 is no first word: read" "" ||
	report "modprobe.d: a comment's byte that is no UTF-8 is no first word: read" "not read"

# -S of a byte that is no UTF-8: read as the bytes it is (GOption would not
# convert it, and its message named no option), the directory shown escaped
"$cli" list -S "$(printf 'x\377')" -C /dev/null >"$tmp/out" 2>"$tmp/err"
status=$?
unescaped "list -S of a byte that is no UTF-8: escaped"
n=$((n + 1))
[ "$status" = 2 ] && grep -q 'lib/modules/x\\xff' "$tmp/err" &&
	report "list -S of a byte that is no UTF-8: exit 2, the directory named" "" ||
	report "list -S of a byte that is no UTF-8: exit 2, the directory named" "exit $status" "$tmp/err" err

# a backslash: the four characters "\x1b" a file or the environment wrote,
# beside a real ESC (or a C1 CSI, where a name may not hold an ESC), read
# otherwise in every log: "\\x1b" and "\x1b" (cli_shown()'s rule, shared/
# shown.h), in the library's default log, modalias's log of the library's
# messages and the agent's log (syslog gets the agent's line as standard
# error does)
BSL="$tmp/backslash-mod"
mkdir -p "$BSL"
printf 'alias pci:v00008086d000010D3sv*\\x1b\033[2J* ev1\nalias pci:v00008086d000010D3sv* e1000e\\x1b\302\233\n' \
	>"$BSL/modules.alias"
SHOWN_PATTERN='pci:v00008086d000010D3sv*\\x1b\x1b[2J*'
SHOWN_BSL_MOD='e1000e\\x1b\xc2\x9b' # as resolve printed it already
MODALIAS_LOG="$(printf '\\x1b\033')" "$cli" resolve -m "$D61" -C /dev/null pci:v1 >/dev/null 2>"$tmp/out"
has "MODALIAS_LOG of \"\\x1b\" and an ESC: the default log shows \\\\x1b, then \\x1b" \
	'libmodalias: MODALIAS_LOG=\\x1b\x1b is not a log priority, ignored'
MODALIAS_CACHE_DIR="$tmp/cache-bsl1" "$cli" resolve -m "$BSL" -C /dev/null "$E1000E" >/dev/null 2>"$tmp/out"
has "modules.alias of \"\\x1b\" and an ESC: modalias's log of the library shows \\\\x1b, then \\x1b" \
	"modalias: $BSL/modules.alias:1: unbalanced brackets in pattern '$SHOWN_PATTERN'"
MODALIAS_CACHE_DIR="$tmp/cache-bsl2" "$agent" --stderr --dry-run --coldplug --snapshot "$H" -m "$BSL" -C /dev/null \
	--hotplug-dir "$tmp/none" >/dev/null 2>"$tmp/out"
has "modules.alias of \"\\x1b\" and an ESC: the agent's log of the library shows \\\\x1b, then \\x1b" \
	"hotplug: $BSL/modules.alias:1: unbalanced brackets in pattern '$SHOWN_PATTERN'"
has "a module name of \"\\x1b\" and a C1 CSI: the agent's own log shows \\\\x1b, then \\xc2\\x9b" \
	"hotplug: $SHOWN_BSL_MOD: not found (No such file or directory)"

echo "1..$n"
exit $fail
