#!/bin/sh
# The modalias CLI against golden files (tests/golden/NAME.out), with its
# exit statuses and the messages of bad input.  TAP on stdout.
# Set UPDATE_GOLDEN=1 to rewrite the golden files from the current output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cli-lib.sh"

check "help" 0 help "" -- "$cli" --help
check "version" 0 - "" -- "$cli" --version
check "no command" 2 - "Usage" -- "$cli"
check "unknown command" 2 - "unknown command 'frob'" -- "$cli" frob
check "build usb (a real Logitech receiver interface)" 0 build-usb "" -- \
	"$cli" build usb idVendor=046d idProduct=c52b bcdDevice=1200 bDeviceClass=0 \
	bDeviceSubClass=0 bDeviceProtocol=0 bInterfaceClass=3 bInterfaceSubClass=1 \
	bInterfaceProtocol=1 bInterfaceNumber=0
check "build of with two compatibles" 0 build-of "" -- \
	"$cli" build of name=timer type='<NULL>' compatible=arm,cortex-a9-twd-timer compatible=arm,smp-twd
check "build --fields pci" 0 fields-pci "" -- "$cli" build --fields pci
check "build --buses" 0 buses "" -- "$cli" build --buses
check "build: bad hex names the field" 2 - "idVendor: value 'xyz'" -- "$cli" build usb idVendor=xyz
check "build: overlong value" 2 - "out of range" -- "$cli" build usb idVendor=12345
check "build: unknown field" 2 - "unknown field 'colour' of bus usb" -- "$cli" build usb colour=blue
check "build: not FIELD=VALUE" 2 - "is not FIELD=VALUE" -- "$cli" build usb idVendor
check "build: unknown bus" 2 - "unknown bus 'nosuch'" -- "$cli" build nosuch a=b
check "build: no bus" 2 - "a BUS is needed" -- "$cli" build
# a bus and no field: every ID 0, no device; a usage error naming what to give
check "build pci: no field at all" 2 - "^modalias build: pci: no FIELD=VALUE: give the device's IDs, e.g. vendor=…; its fields: vendor, device, " -- "$cli" build pci
pointed "build pci: no field at all" build
n=$((n + 1))
why=""
for b in $("$cli" build --buses); do
	"$cli" build "$b" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "^modalias build: $b: no FIELD=VALUE" "$tmp/err" ||
		why="${why:+$why, }$b (exit $st, $(head -c 60 "$tmp/out"))"
done
report "build BUS with no field: a usage error on every bus" "$why"
check "build: bad option" 2 - "unknown option --frobnicate" -- "$cli" build --frobnicate
# a real recorded event (LENOVO_T430S, tests/data/uevents), legacy variables only
check "build --env usb" 0 build-env-usb "" -- env -i SUBSYSTEM=usb PRODUCT=bdb/1926/0 TYPE=0/0/0 \
	INTERFACE=2/2/1 DEVPATH=/devices/pci0000:00/0000:00:14.0/usb3/3-4/3-4:1.3 \
	"$cli" build --env --sysfs /nonexistent
check "build --env pci" 0 build-env-pci "" -- env -i PCI_ID=8086:1E31 PCI_SUBSYS_ID=17AA:21FB \
	PCI_CLASS=C0330 "$cli" build --env pci
check "build --env: missing variable" 2 - "PCI_CLASS is not set" -- env -i PCI_ID=8086:1E31 \
	PCI_SUBSYS_ID=17AA:21FB "$cli" build --env pci
check "build --env: MODALIAS wins" 0 build-env-modalias "" -- env -i SUBSYSTEM=usb \
	MODALIAS=platform:serial8250 PRODUCT=1/2/3 "$cli" build --env
check "parse usb, of, dmi, unknown" 0 parse "" -- "$cli" parse \
	usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00 \
	'of:Ni2c-busT<NULL>Cibm,power8-i2c-portCibm,opal-i2c' \
	'dmi:bvnDellInc.:bvr0.4.7:bd11/14/2017:svnDellInc.:pnLatitude3590:pvr:' \
	'somebus:some:thing'
check "parse: malformed" 2 - "field idProduct" -- "$cli" parse usb:v046DpC5
# parse's lines after the modalias are build's arguments, as modalias(1)
# says: each alias back byte for byte (hid's field "bus" beside its bus; a
# blank and a '*' in a value, with a file of that name here)
: >"$tmp/name=xAy"
for a in 'usb:v0BDAp8153d3000dc00dsc00dp00icFFiscFFip00in00' 'hid:b0003g0001v0000046Dp0000C52B' \
	'pci:v00008086d00001E31sv00001028sd0000052Dbc0Csc03i30' 'of:Ni2c-busT<NULL>Cibm,power8-i2c-portCibm,opal-i2c' \
	'platform:Fixed MDIO bus' 'platform:x*y'; do
	# shellcheck disable=SC2016 # expanded by that shell
	check "parse | build: $a back" 0 - "" -- sh -c \
		'cd "$2" && got=$("$0" parse "$1" | sed "1d; s/^\t//" | xargs -d "\n" "$0" build) && [ "$got" = "$1" ] ||
		{ echo "got $got" >&2; exit 1; }' "$cli" "$a" "$tmp"
done
check "parse: one good, one bad" 2 parse-partial "not a valid modalias" -- "$cli" parse \
	platform:pcspkr usb:v046DpC5
check "list a captured tree (this CI machine's kind), with modules" 0 list-host-vm "" -- \
	"$cli" list --sysfs "$data/sysfs/host-vm" --moddir "$data/linux-6.1.0-57-amd64" -C /dev/null
check "list --no-modules" 0 list-host-vm-no-modules "" -- \
	"$cli" list --sysfs "$data/sysfs/host-vm" --no-modules
mkdir -p "$tmp/empty/devices/x" "$tmp/root/lib/modules"
ln -s "$data/linux-6.1.0-57-amd64" "$tmp/root/lib/modules/6.1.0-57-amd64"
: >"$tmp/empty/devices/x/uevent"
check "list: nothing found" 1 - "" -- "$cli" list --no-modules --sysfs "$tmp/empty"
check "list: no sysfs" 2 - "the sysfs root /nonexistent: No such file or directory: give" -- "$cli" list --no-modules --sysfs /nonexistent
check "list: no module directory" 2 - "cannot load the module tables of /nonexistent" -- \
	"$cli" list --sysfs "$data/sysfs/host-vm" --moddir /nonexistent
# ---- list: the human output (a terminal's width, --width, --tree) ----------------------
# Piped without --width, list prints what it always printed (the goldens
# above), whatever $COLUMNS says.  --width=N aligns the columns and cuts
# them with '…' as on a terminal of N columns; --tree draws the devices
# below /devices, cut only to a width.
LM="$data/linux-6.1.0-57-amd64"
# fits WIDTH NAME: every line the last check printed is within WIDTH
# columns (a wide character two, a byte that is no UTF-8 one)
fits() {
	n=$((n + 1))
	why=""
	python3 -c 'import sys, unicodedata
w = int(sys.argv[1])
for line in open(sys.argv[2], encoding="utf-8", errors="surrogateescape").read().splitlines():
    cols = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
    assert cols <= w, "%d columns: %s" % (cols, line)' "$1" "$tmp/raw" 2>"$tmp/perr" ||
		why="a line is wider than $1 columns"
	report "$2: every line within $1 columns" "$why" "$tmp/perr" python
}
check "list piped, \$COLUMNS set: the plain output" 0 list-host-vm "" -- \
	env COLUMNS=40 "$cli" list --sysfs "$data/sysfs/host-vm" --moddir "$LM" -C /dev/null
check "list --no-modules piped, \$COLUMNS set: the plain output" 0 list-host-vm-no-modules "" -- \
	env COLUMNS=40 "$cli" list --sysfs "$data/sysfs/host-vm" --no-modules
check "list --tree (qemu-q35): the whole tree, nothing cut when piped" 0 list-tree-qemu-q35 "" -- \
	env COLUMNS=40 "$cli" list --tree --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null
check "list --tree (host-vm)" 0 list-tree-host-vm "" -- \
	"$cli" list --tree --sysfs "$data/sysfs/host-vm" --moddir "$LM" -C /dev/null
check "list -t -n (host-vm)" 0 list-tree-host-vm-no-modules "" -- "$cli" list -t -n --sysfs "$data/sysfs/host-vm"
check "list --width=100 (host-vm): aligned, the cpu's modalias cut" 0 list-host-vm-width100 "" -- \
	"$cli" list --width=100 --sysfs "$data/sysfs/host-vm" --moddir "$LM" -C /dev/null
fits 100 "list --width=100 (host-vm)"
check "list --width=60 (qemu-q35): long devpaths lose their start" 0 list-qemu-q35-width60 "" -- \
	"$cli" list --width=60 --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null
fits 60 "list --width=60 (qemu-q35)"
check "list --tree --width=60 (qemu-q35)" 0 list-tree-qemu-q35-width60 "" -- \
	"$cli" list --tree --width=60 --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null
fits 60 "list --tree --width=60 (qemu-q35)"
check "list -t -w 100 (host-vm)" 0 list-tree-host-vm-width100 "" -- \
	"$cli" list -t -w 100 --sysfs "$data/sysfs/host-vm" --moddir "$LM" -C /dev/null
fits 100 "list -t -w 100 (host-vm)"
# wide enough, nothing is cut: the plain output's fields, aligned
check "list --width=5000 (host-vm)" 0 - "" -- \
	"$cli" list --width=5000 --sysfs "$data/sysfs/host-vm" --moddir "$LM" -C /dev/null
n=$((n + 1))
sed -E 's/ {2,}/\t/g' "$tmp/out" >"$tmp/fields"
why=""
cmp -s "$tmp/fields" "$golden/list-host-vm.out" || why="not the fields of golden/list-host-vm.out"
! grep -q '…' "$tmp/out" || why="${why:+$why; }something was cut"
[ "$(cut -f1 "$golden/list-host-vm.out" | awk '{ print length + 2 }' | sort -n | tail -1)" = \
	"$(grep -o '^[^ ]*  *' "$tmp/out" | awk '{ print length }' | sort -u)" ] || why="${why:+$why; }modaliases not aligned"
report "list --width=5000: the plain fields, aligned, nothing cut" "$why" "$tmp/fields" fields
# names and modaliases that are no UTF-8, or wide characters, are cut
# between characters and measured as a terminal shows them
mkdir -p "$tmp/wide/devices/platform/bad$(printf '\377')dev/漢字漢字漢字漢字"
printf 'platform:%s\n' 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字 >"$tmp/wide/devices/platform/bad$(printf '\377')dev/modalias"
printf 'platform:caf\303\251%s\377\n' 0123456789012345678901234567890123 \
	>"$tmp/wide/devices/platform/bad$(printf '\377')dev/漢字漢字漢字漢字/modalias"
: >"$tmp/wide/devices/platform/bad$(printf '\377')dev/uevent"
: >"$tmp/wide/devices/platform/bad$(printf '\377')dev/漢字漢字漢字漢字/uevent"
for w in 30 31; do
	check "list --width=$w: wide characters, bytes that are no UTF-8" 0 - "" -- \
		"$cli" list --no-modules --width=$w --sysfs "$tmp/wide"
	fits $w "list --width=$w: wide characters"
	check "list --tree --width=$w: wide characters, bytes that are no UTF-8" 0 - "" -- \
		"$cli" list --no-modules --tree --width=$w --sysfs "$tmp/wide"
	fits $w "list --tree --width=$w: wide characters"
done
check "list: an argument" 2 - "^modalias list: unexpected argument 'x'\$" -- "$cli" list --no-modules x
pointed "list: an argument" list
check "list --tree --json: a usage error" 2 - "^modalias list: --tree and --json cannot be used together\$" -- \
	"$cli" list --tree --json --sysfs "$data/sysfs/host-vm" --no-modules
check "list --json --width=80: a usage error" 2 - "^modalias list: --width and --json cannot be used together\$" -- \
	"$cli" list --json --width=80 --sysfs "$data/sysfs/host-vm" --no-modules
check "list --width=0: a usage error" 2 - "^modalias list: --width takes a number of columns, 30 or more (not '0')\$" -- \
	"$cli" list --width=0 --sysfs "$data/sysfs/host-vm" --no-modules
# below 30 columns the four columns and their gaps no longer fit: refused,
# the minimum named, the pointer to --help given
check "list --width=29: a usage error naming the minimum" 2 - "^Try 'modalias list --help'\.\$" -- \
	"$cli" list --width=29 --sysfs "$data/sysfs/host-vm" --no-modules
n=$((n + 1))
why=""
grep -qx "modalias list: --width takes a number of columns, 30 or more (not '29')" "$tmp/err" || why="the minimum not named"
report "list --width=29: the minimum named" "$why" "$tmp/err" err
check "list -w 30 (qemu-q35), the narrowest: every column kept" 0 - "" -- \
	"$cli" list -w 30 --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null
fits 30 "list -w 30 (qemu-q35)"
n=$((n + 1))
"$cli" list --tree --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null >/dev/full 2>"$tmp/err"
status=$?
why=""
[ "$status" = 3 ] || why="exit status $status, wanted 3"
grep -qx 'modalias: write error: No space left on device' "$tmp/err" || why="${why:+$why; }no write error with its reason"
report "list --tree to /dev/full" "$why" "$tmp/err" err
# On a real terminal: its width from TIOCGWINSZ, else $COLUMNS (a terminal
# whose size is not known), the same as --width.  on-tty.py COLS COMMAND...
# runs COMMAND with its standard output a terminal of COLS columns (0: not
# known), standard error discarded, and prints what it wrote ("\r\n" back
# to "\n").
cat >"$tmp/on-tty.py" <<'PY'
import fcntl, os, pty, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, int(sys.argv[1]), 0, 0))
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.execv(sys.argv[2], sys.argv[2:])
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the terminal's other end is closed
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
sys.exit(os.waitstatus_to_exitcode(status))
PY
if python3 -c 'import os, pty; os.close(os.openpty()[0])' 2>/dev/null; then
	check "list on a terminal of 100 columns: as --width=100" 0 list-host-vm-width100 "" -- \
		env -u COLUMNS python3 "$tmp/on-tty.py" 100 "$cli" list --sysfs "$data/sysfs/host-vm" --moddir "$LM" -C /dev/null
	check "list on a terminal of no known size, COLUMNS=60: as --width=60" 0 list-qemu-q35-width60 "" -- \
		env COLUMNS=60 python3 "$tmp/on-tty.py" 0 "$cli" list --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null
	check "list --tree on a terminal of no known size, no COLUMNS: 80 columns" 0 - "" -- \
		env -u COLUMNS python3 "$tmp/on-tty.py" 0 "$cli" list --tree --sysfs "$data/sysfs/qemu-q35" --moddir "$LM" -C /dev/null
	fits 80 "list --tree on a terminal of no known size"
	n=$((n + 1))
	why=""
	grep -q '…' "$tmp/out" || why="nothing cut"
	grep -q '^├─0000:00:03.0  ' "$tmp/out" || why="${why:+$why; }no aligned tree"
	report "list --tree on a terminal: drawn and cut" "$why" "$tmp/out" out
else
	n=$((n + 1))
	echo "ok $n - list on a terminal # SKIP no pseudo-terminal"
fi
D="$data/linux-6.1.0-57-amd64"
check "resolve a pci alias (e1000e)" 0 resolve-pci "" -- "$cli" resolve -m "$D" -C /dev/null \
	pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
check "resolve several, each module once" 0 resolve-several "" -- "$cli" resolve -m "$D" -C /dev/null \
	hid:b0003g0001v0000046Dp0000C52B hid:b0003g0001v0000046Dp0000C52C snd-hda-intel
check "resolve '': an empty argument is an input error (2), not an alias without a module" 2 - \
	"argument 1 is empty: no ALIAS to look up" -- "$cli" resolve -m "$D" -C /dev/null ''
check "resolve --explain (nosuch:thing has no module: exit 1)" 1 resolve-explain "^modalias resolve: nosuch:thing: no module$" -- "$cli" resolve -m "$D" -C /dev/null --explain \
	hid:b0003g0001v0000046Dp0000C52B crypto-md5 nosuch:thing
# --explain names the modprobe.d file and line of a configuration pattern (an alias, its name
# with '-' as kmod keeps it; an install command), as of a blacklist; a line said again, in
# another file (mynic) or the same (pci:…, foo_bar as foo-bar), is kmod's twice: each by its own line;
# an install line without its command (a.conf:3) kmod ignores, and is no entry's
mkdir -p "$tmp/mpd"
printf '# a nic by another name\nalias mynic e1000e\ninstall foo-bar \n' >"$tmp/mpd/a.conf"
printf 'options e1000e x=1\n\talias  my-card   e1000e\nalias pci:v0000ABCDd* e1000e\ninstall foo-bar /bin/true\n' \
	>"$tmp/mpd/b.conf"
printf 'alias mynic e1000e\nalias pci:v0000ABCDd* e1000e\ninstall foo_bar /bin/true\n' >>"$tmp/mpd/b.conf"
check "resolve --explain: a modprobe.d alias and command by their file and line" 0 resolve-explain-modprobe-d "" -- \
	"$cli" resolve -m "$D" -C "$tmp/mpd" --explain mynic my_card pci:v0000ABCDd00001234 foo_bar
check "resolve --json (dmi:… has no module: exit 1)" 1 resolve-json "no module$" -- "$cli" resolve -m "$D" -C /dev/null --json \
	hid:b0003g0001v0000046Dp0000C52B 'dmi:bvn"quoted"\back:' acpi:PNP0C0A:
n=$((n + 1))
if "$cli" resolve -m "$D" -C /dev/null --json hid:b0003g0001v0000046Dp0000C52B 'x"y\z' nosuch: |
	python3 -c 'import json, sys; d = json.load(sys.stdin); assert len(d) == 3 and d[0]["modules"][1]["name"] == "hid_logitech_dj"'; then
	echo "ok $n - resolve --json parses as JSON"
else
	echo "not ok $n - resolve --json does not parse as JSON"
	fail=1
fi
printf 'pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00\nnosuch:thing\n\nacpi:PNP0C0A:\n' >"$tmp/aliases"
check "resolve - (one output line per input line)" 0 resolve-stdin "" -- sh -c \
	"'$cli' resolve -m '$D' -C /dev/null - < '$tmp/aliases'"
check "resolve: nothing found" 1 - "" -- "$cli" resolve -m "$D" -C /dev/null nosuch:thing
check "resolve: unbalanced bracket" 2 - "unbalanced brackets" -- "$cli" resolve -m "$D" -C /dev/null 'pci:v[00'
check "resolve: no module directory" 2 - "cannot load the module tables" -- "$cli" resolve -m /nonexistent x
check "resolve: -d ROOT -S VERSION as modprobe" 0 resolve-pci "" -- "$cli" resolve -d "$tmp/root" \
	-S 6.1.0-57-amd64 -C /dev/null pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
# load, against the synthetic tree of tests/data/load, dry runs only (the
# real insertions are test-load's, under the stand-in kernel)
L="$data/load"
check "load --dry-run: what modprobe -n -v prints" 0 load-dry "" -- "$cli" load --no-cache --dry-run \
	-d "$L" -S 9.9.9-test -C "$L/modprobe.d" test:dev:abc test:dev:soft test:dev:opt test:dev:cmd
check "load --dry-run: nothing for the alias" 1 - "no module" -- "$cli" load --no-cache \
	-d "$L" -S 9.9.9-test -C "$L/modprobe.d" test:dev:nothing
# same_as_modprobe WHAT MODPROBE ALIAS: load --dry-run prints what MODPROBE -n -v does
same_as_modprobe() {
	n=$((n + 1))
	if "$2" -n -v -d "$L" -S 9.9.9-test -C "$L/modprobe.d" "$3" >"$tmp/modprobe" 2>&1 &&
		"$cli" load --no-cache --dry-run -d "$L" -S 9.9.9-test -C "$L/modprobe.d" "$3" >"$tmp/ours" &&
		cmp -s "$tmp/modprobe" "$tmp/ours"; then
		echo "ok $n - load --dry-run equals $1 -n -v"
	else
		echo "not ok $n - load --dry-run differs from $1 -n -v"
		diff "$tmp/modprobe" "$tmp/ours" | sed 's/^/# /'
		fail=1
	fi
}
same_as_modprobe modprobe modprobe test:dev:abc
# --json everywhere, checked by a real JSON parser
for args in "parse usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in00 of:NtimerT<NULL>Carm,aCarm,b" \
	"build --json usb idVendor=046d" \
	"list --json --sysfs $data/sysfs/host-vm --moddir $data/linux-6.1.0-57-amd64 -C /dev/null" \
	"load --json --no-cache --dry-run -d $L -S 9.9.9-test -C $L/modprobe.d test:dev:abc test:dev:black" \
	"map --json $data/maps/modules.ofmap $data/maps/modules.isapnpmap $data/maps/modules.inputmap $data/maps/usb.usermap" \
	"resolve --json -m $data/linux-6.1.0-57-amd64 -C /dev/null acpi:PNP0C0A: nosuch:x"; do
	n=$((n + 1))
	case $args in parse*) a="parse --json ${args#parse }" ;; *) a=$args ;; esac
	# shellcheck disable=SC2086
	if "$cli" $a 2>/dev/null | python3 -c 'import json, sys; json.load(sys.stdin)'; then
		echo "ok $n - ${a%% *} --json parses as JSON"
	else
		echo "not ok $n - ${a%% *} --json does not parse as JSON"
		fail=1
	fi
done
check "parse --json" 0 parse-json "" -- "$cli" parse --json 'of:NtimerT<NULL>Carm,cortex-a9-twd-timerCarm,smp-twd' \
	input:b0019v0000p0001e0000-e0,1,k74,ramlsfw
check "list --json" 0 list-json "" -- "$cli" list --json --sysfs "$data/sysfs/qemu-q35" \
	--moddir "$data/linux-6.1.0-57-amd64" -C /dev/null
# modalias.conf: --settings before the command
printf '[modules]\ndirectory=%s\nblacklist=bochs\n[log]\nlevel=err\n' "$data/linux-6.1.0-57-amd64" >"$tmp/good.conf"
printf '[modules]\nblaklist=e1000e\n' >"$tmp/typo.conf"
printf '[log]\nlevel=loud\n' >"$tmp/bad.conf"
check "--settings: the module directory from modalias.conf" 0 resolve-pci "" -- "$cli" --settings="$tmp/good.conf" \
	resolve -C /dev/null pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
check "--settings: a typo is warned about with file:line" 0 - "^modalias: .*typo.conf:2: unknown key 'blaklist' in \[modules\]" -- \
	"$cli" --settings "$tmp/typo.conf" parse platform:pcspkr
check "--settings: a bad value is an error with file:line" 2 - "bad.conf:2: \[log\] level" -- \
	"$cli" --settings="$tmp/bad.conf" parse platform:pcspkr
check "--settings: a missing file is an error" 2 - "nonexistent.conf" -- "$cli" --settings=/nonexistent.conf parse platform:pcspkr
check "list: modalias.conf's blacklist shows" 0 list-blacklisted "" -- "$cli" --settings="$tmp/good.conf" list \
	--sysfs "$data/sysfs/qemu-q35" -C /dev/null
# explain: the captured q35 guest on Debian 6.1's tables
Q="$data/sysfs/qemu-q35"
check "explain: bound, the aliases agree (ftdi_sio)" 0 explain-agree "" -- "$cli" explain --sysfs "$Q" -m "$D" \
	-C /dev/null devices/pci0000:00/0000:00:03.0/usb1/1-6/1-6.2/1-6.2:1.0
check "explain: bound to a driver named otherwise than the module (xhci_hcd, xhci_pci)" 0 explain-disagree "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null /devices/pci0000:00/0000:00:03.0
check "explain: a match, nothing bound (bochs not loaded): exit 4" 4 explain-unbound "" -- "$cli" explain --sysfs "$Q" \
	-m "$D" -C /dev/null "$Q/devices/pci0000:00/0000:00:01.0"
check "explain: a match blacklisted by modprobe.d: exit 4" 4 explain-blacklisted "" -- "$cli" explain --sysfs "$Q" \
	-m "$D" -C "$data/explain/modprobe.conf" /devices/pci0000:00/0000:00:01.0
check "explain: a bare modalias whose module is blacklisted: the verdict says so" 0 - "" -- "$cli" explain \
	-m "$D" -C "$data/explain/modprobe.conf" pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00
n=$((n + 1))
[ "$(tail -1 "$tmp/out")" = "bochs matches this modalias, but is blacklisted by @DATA@/explain/modprobe.conf:3 (not loaded \
for it by its alias)." ] && report "explain: the blacklisted verdict of a bare modalias" "" ||
	report "explain: the blacklisted verdict of a bare modalias" "not that verdict" "$tmp/out" out
check "explain --json: a match blacklisted by modprobe.d, and where" 4 explain-blacklisted-json "" -- "$cli" explain \
	--sysfs "$Q" -m "$D" -C "$data/explain/modprobe.conf" --json /devices/pci0000:00/0000:00:01.0
# a blacklist of modalias.conf's own ([modules] blacklist=): its file and line, said to be
# modalias.conf's, never modprobe.d's, in text and JSON
printf '[modules]\n# not this one\nblacklist=e1000e\n' >"$tmp/bl-settings.conf"
check "explain: a match blacklisted by modalias.conf, its file and line" 4 explain-blacklisted-settings "" -- \
	"$cli" --settings="$tmp/bl-settings.conf" explain --sysfs "$data/sysfs/kernel-upgrade" -m "$D" -C /dev/null \
	0000:00:03.0
check "explain --json: a match blacklisted by modalias.conf" 4 - "" -- "$cli" --settings="$tmp/bl-settings.conf" \
	explain --json --sysfs "$data/sysfs/kernel-upgrade" -m "$D" -C /dev/null 0000:00:03.0
n=$((n + 1))
why=""
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["modules"][0]["blacklisted_by"] == {"file": sys.argv[2], "line": 3}, d["modules"][0]
assert "modprobe.d" not in d["verdict"] and sys.argv[2] + ":3" in d["verdict"], d["verdict"]' \
	"$tmp/raw" "$tmp/bl-settings.conf" 2>"$tmp/perr" || why="not modalias.conf's file and line"
report "explain --json: modalias.conf's blacklist by its file and line" "$why" "$tmp/perr" python
# a module blacklisted but loaded: its state is loaded, and --json alone
# tells where it is blacklisted
printf '# ftdi_sio is bound all the same\nblacklist ftdi_sio\n' >"$tmp/blacklist-ftdi.conf"
check "explain: a bound module that is blacklisted shows loaded" 0 explain-agree "" -- "$cli" explain --sysfs "$Q" \
	-m "$D" -C "$tmp/blacklist-ftdi.conf" devices/pci0000:00/0000:00:03.0/usb1/1-6/1-6.2/1-6.2:1.0
check "explain --json: a bound module that is blacklisted, loaded, and where" 0 explain-loaded-blacklisted-json "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C "$tmp/blacklist-ftdi.conf" --json \
	devices/pci0000:00/0000:00:03.0/usb1/1-6/1-6.2/1-6.2:1.0
check "explain: no match, the nearest patterns (Intel host bridge)" 1 explain-nearest "" -- "$cli" explain \
	--sysfs "$Q" -m "$D" -C /dev/null --json /devices/pci0000:00/0000:00:00.0
check "explain: no match for a bare modalias, the nearest by idVendor" 1 explain-nearest-usb "" -- "$cli" explain \
	-m "$D" -C /dev/null usb:v0BDAp8157d3000dcFFdsc00dp00icFFiscFFip00in00
check "explain: no nearest for a bus of its own form" 1 explain-nearest-acpi "" -- "$cli" explain \
	-m "$D" -C /dev/null acpi:NOSUCH0:
check "explain --json on a bound device" 0 explain-json "" -- "$cli" explain --sysfs "$Q" -m "$D" -C /dev/null \
	--json /devices/pci0000:00/0000:00:03.0
check "explain: nothing to explain" 2 - "a DEVPATH, a DEVICE or a MODALIAS is needed" -- "$cli" explain -m "$D"
check "explain: no such device" 2 - "nosuch" -- "$cli" explain --sysfs "$Q" -m "$D" -C /dev/null /devices/nosuch
# a typo is an input error (2), not a device without a driver (1): a name of
# no device that is no modalias, a known bus's fields malformed; a bus the
# library does not know is still a modalias, kmod's to answer
check "explain: a usb modalias with its fields malformed (exit 2)" 2 - "malformed usb modalias" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null usb:foo
check "explain: an empty argument (exit 2)" 2 - "no such device: ''" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null ''
check "explain: a bus the library does not know, no match (exit 1)" 1 - "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null xyz:abc
# the nearest patterns agree with the device on its class first: a bridge's (bc06) for the
# host bridge, never a network driver's (e1000e, i40e: its vendor, any class); 6.12 too
for k in "$D" "$data/linux-6.12.118+deb12-amd64"; do
	n=$((n + 1))
	why=""
	"$cli" explain --sysfs "$Q" -m "$k" -C /dev/null --json /devices/pci0000:00/0000:00:00.0 >"$tmp/near.json" 2>/dev/null
	python3 -c 'import json, re, sys; d = json.load(open(sys.argv[1]))
assert d["modules"] == [] and d["nearest"], "no nearest"
for x in d["nearest"]:
    assert re.search(r"bc06", x["pattern"]) and x["claims"] == "baseclass", x' "$tmp/near.json" 2>"$tmp/perr" ||
		why="a nearest pattern of the host bridge is not a bridge's"
	report "explain --json on ${k##*/}: the nearest patterns of the Intel host bridge are of its class (06)" "$why" \
		"$tmp/perr" python
done
# a USB interface of the vendor's own class (FF): by its vendor, never a driver of another class
# (cdc_ether's ic02 patterns for the same vendor)
n=$((n + 1))
why=""
"$cli" explain -m "$D" -C /dev/null --json usb:v0BDAp8157d3000dcFFdsc00dp00icFFiscFFip00in00 >"$tmp/near.json" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["nearest"] and all(x["claims"] == "idVendor" and "ic*" in x["pattern"] for x in d["nearest"]), d["nearest"]' \
	"$tmp/near.json" 2>"$tmp/perr" || why="a nearest pattern names another interface class"
report "explain --json: a vendor-specific USB interface is offered its vendor's drivers of any class" "$why" "$tmp/perr" python
# a device by its name (the last component of its devpath, as list --tree shows it)
check "explain 0000:00:03.0: the device so named, as its devpath" 0 explain-disagree "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null 0000:00:03.0
check "explain 1-6.2:1.0: a USB interface by its name" 0 explain-agree "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null 1-6.2:1.0
check "explain virtio0: bound, as the aliases say" 0 explain-name-virtio "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null virtio0
mkdir -p "$tmp/two/devices/a/virtio0" "$tmp/two/devices/b/virtio0"
for d in a b; do
	: >"$tmp/two/devices/$d/uevent"
	: >"$tmp/two/devices/$d/virtio0/uevent"
	echo virtio:d00000004v00001AF4 >"$tmp/two/devices/$d/virtio0/modalias"
done
check "explain: a name of several devices is an error that lists them" 2 - \
	"'virtio0' names 2 devices in .*: /devices/a/virtio0, /devices/b/virtio0" -- \
	"$cli" explain --sysfs "$tmp/two" -m "$D" -C /dev/null virtio0
# a string that names no device and that no pattern matches, when it is no
# modalias or is shaped as a device's name (a digit or a capital before its
# first ':', or only numbers after it): an input error, said on stderr, no
# report; with -q the same; a bus the library does not know is a modalias
for a in nosuch virtio9 0000:00:99.0 00:1f.7 1-9:1.0 1-9.3 PNP0A03:07 target9:0:0 0003:046D:C52B.0009 device:07; do
	check "explain $a: no such device (exit 2), no report" 2 - \
		"^modalias explain: no such device: '$a' (no device that has a modalias is so named in .*/qemu-q35/devices), and no modalias: give a device's devpath, sysfs path or name" -- \
		"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null "$a"
	n=$((n + 1))
	why=""
	[ -s "$tmp/raw" ] && why="a report on stdout"
	[ "$(wc -l <"$tmp/err")" = 1 ] || why="${why:+$why; }not one line on stderr"
	"$cli" explain -q --json --sysfs "$Q" -m "$D" -C /dev/null "$a" >"$tmp/raw" 2>"$tmp/err"
	st=$?
	[ "$st" = 2 ] || why="${why:+$why; }-q --json: exit $st"
	[ -s "$tmp/raw" ] && why="${why:+$why; }-q --json: output"
	grep -q "no such device: '$a'" "$tmp/err" || why="${why:+$why; }-q --json: not said"
	report "explain $a: the error alone, with -q and --json too" "$why" "$tmp/raw" out "$tmp/err" err
done
check "explain usb:foo: a known bus's alias malformed, no report (exit 2)" 2 - \
	"^modalias explain: 'usb:foo' is no modalias a kernel writes: give a device's devpath" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null usb:foo
n=$((n + 1))
[ -s "$tmp/raw" ] && report "explain usb:foo: no report" "a report on stdout" "$tmp/raw" out ||
	report "explain usb:foo: no report" ""
for a in xyz:abc acme:v01 mmc0:abcd; do
	check "explain $a: a modalias of a bus the library does not know, no match (exit 1)" 1 - \
		"no device that has a modalias is named '$a' in .*: it is taken as a modalias" -- \
		"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null "$a"
done
# exit status, as the verdict: a driver bound 0, none though a module that matches is not in the
# kernel 4 (load it, or lift its blacklist), neither 1; a bare modalias: a module matches 0, none 1
# (-q: the status alone, so that 'explain -q DEVICE || alert' alerts of every device a module
# not in the kernel would drive)
for row in "4|-C $data/explain/modprobe.conf|0000:00:01.0|blacklisted bochs, nothing bound" \
	"4|-C /dev/null|0000:00:01.0|bochs not loaded, nothing bound" \
	"0|-C /dev/null|1-6.2:1.0|ftdi_sio bound" "0|-C $tmp/blacklist-ftdi.conf|1-6.2:1.0|ftdi_sio blacklisted, bound" \
	"0|-C /dev/null|/devices/platform/i8042|i8042 bound, no module matches" \
	"1|-C /dev/null|0000:00:00.0|nothing bound, no module matches" \
	"0|-C $data/explain/modprobe.conf|pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00|a bare modalias, its module blacklisted" \
	"1|-C /dev/null|pci:v00008086d000029C0sv00001AF4sd00001100bc06sc00i00|a bare modalias, no module"; do
	IFS='|' read -r want conf dev what <<EOF_ROW
$row
EOF_ROW
	# shellcheck disable=SC2086 # -C and its file
	check "explain -q $dev ($what): exit $want, nothing printed" "$want" - "" -- \
		"$cli" explain -q --sysfs "$Q" -m "$D" $conf "$dev"
	n=$((n + 1))
	[ -s "$tmp/raw" ] || [ -s "$tmp/err" ] && report "explain -q $dev: nothing printed" "something printed" "$tmp/raw" out \
		"$tmp/err" err || report "explain -q $dev: nothing printed" ""
done
# nothing bound, and every module that matches in the kernel (a snapshot of the q35 guest that saw
# them loaded): 0, nothing to load (evdev, joydev: input handlers; the cpu's feature modules; an
# ACPI node's driver, bound to its physical device), the verdict says why none is bound; 4 while one
# that matches is not in the kernel, the verdict naming that one (joydev beside evdev loaded; bochs)
"$cli" snapshot --sysfs "$Q" -o "$tmp/q35-handlers.json" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
d["modules"] = ["evdev", "qemu_fw_cfg", "aesni_intel", "sha1_ssse3", "sha256_ssse3", "sha512_ssse3", "ghash_clmulni_intel",
                "crc32c_intel", "crc32_pclmul", "crct10dif_pclmul", "kvm_amd", "amd64_edac", "acpi_cpufreq", "powernow_k8"]
json.dump(d, open(sys.argv[1], "w"))' "$tmp/q35-handlers.json"
in_kernel="although evdev matches and is loaded: a module may serve a device without binding it (an input handler, a \
cpu feature module, the driver of an ACPI node's physical device), or it did not bind (it may have refused the device)."
for row in "0|input6|No driver is bound $in_kernel|evdev loaded, an input handler" \
	"0|/devices/system/cpu|No driver is bound although aesni_intel and the other modules that match are in the kernel \
(loaded or built in): a module may serve a device${in_kernel#*a device}|the cpu, its feature modules loaded" \
	"0|/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0A08:00/QEMU0002:00|No driver is bound \
${in_kernel%%evdev*}qemu_fw_cfg${in_kernel#*evdev}|an ACPI node, its driver loaded (bound to its platform twin)" \
	"4|input2|No driver is bound: joydev matches but is not loaded.|joydev not loaded, evdev loaded" \
	"4|0000:00:01.0|No driver is bound: bochs matches but is not loaded.|bochs not loaded"; do
	IFS='|' read -r want dev verdict what <<EOF_ROW
$row
EOF_ROW
	check "explain $dev ($what): exit $want" "$want" - "" -- \
		"$cli" explain --snapshot "$tmp/q35-handlers.json" -m "$D" -C /dev/null "$dev"
	n=$((n + 1))
	[ "$(tail -1 "$tmp/raw")" = "$verdict" ] && report "explain $dev ($what): the verdict" "" ||
		report "explain $dev ($what): the verdict" "not '$verdict'" "$tmp/raw" out
	check "explain -q $dev ($what): exit $want" "$want" - "" -- \
		"$cli" explain -q --snapshot "$tmp/q35-handlers.json" -m "$D" -C /dev/null "$dev"
done
check "explain: bound though no module matches (i8042): exit 0" 0 explain-bound-unmatched "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null /devices/platform/i8042
check "explain: a device without a modalias, bound (usb1): exit 0" 0 - "has no modalias; bound: usb" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null /devices/pci0000:00/0000:00:03.0/usb1
# --json of a device without a modalias: one object all the same (modalias null, its driver, the
# device above it that has one), the message on stderr and the exit status as the text form's
check "explain --json: a device without a modalias, bound (usb1): one object, exit 0" 0 explain-unaliased-json \
	"^modalias explain: .*/usb1: the device has no modalias; bound: usb; the device above it that has one: \
/devices/pci0000:00/0000:00:03.0\$" -- \
	"$cli" explain --json --sysfs "$Q" -m "$D" -C /dev/null /devices/pci0000:00/0000:00:03.0/usb1
check "explain --json: a device without a modalias, nothing bound, none above (lo): exit 1" 1 - \
	"^modalias explain: .*/lo: the device has no modalias; bound: none\$" -- \
	"$cli" explain --json --sysfs "$Q" -m "$D" -C /dev/null /devices/virtual/net/lo
n=$((n + 1))
why=""
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["devpath"] == "/devices/virtual/net/lo" and d["modalias"] is None and d["driver"] is None, d
assert d["above"] is None and d["modules"] == [] and d["verdict"], d' "$tmp/raw" 2>"$tmp/perr" ||
	why="not the object of lo"
report "explain --json of lo: devpath, modalias null, no driver, nothing above" "$why" "$tmp/perr" python
# bound, no pattern names a module for it, and the driver (or its module, '-' and '_' alike) is
# built into the tables' kernel (6.12's modules.builtin: virtio_console, virtio_pci): said so,
# not blamed on driver_override or new_id; of a snapshot of another kernel, these tables' kernel;
# a driver built in nowhere keeps the old sentence
D612="$data/linux-6.12.118+deb12-amd64"
builtin_why="and these tables record no alias of it (modules.alias lists loadable modules' only; a built-in driver \
matches by its own id table, or by name)."
"$cli" snapshot --sysfs "$Q" -o "$tmp/q35-drivers.json" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["kernel"] = "6.1.0-57-amd64"
json.dump(d, open(sys.argv[1], "w"))
for x in d["devices"]:
    if x["devpath"] == "/devices/pci0000:00/0000:00:08.0/virtio2":
        x["driver"] = "acme_serial"
json.dump(d, open(sys.argv[2], "w"))' "$tmp/q35-drivers.json" "$tmp/q35-acme.json"
for row in "virtio2|--sysfs $Q|virtio_console is bound: it is built into the kernel, $builtin_why|virtio_console" \
	"0000:00:06.0|--sysfs $Q|virtio-pci is bound: it is built into the kernel, $builtin_why|virtio-pci, its module virtio_pci" \
	"virtio2|--snapshot $tmp/q35-drivers.json|virtio_console is bound: it is built into these tables' kernel, \
$builtin_why|virtio_console, tables of another kernel" \
	"virtio2|--snapshot $tmp/q35-acme.json|acme_serial is bound although no alias pattern names a module for this device \
(driver_override, new_id, or a driver that matches by other means).|a driver built in nowhere"; do
	IFS='|' read -r dev devices verdict what <<EOF_ROW
$row
EOF_ROW
	# shellcheck disable=SC2086 # the option and its argument
	check "explain $dev on 6.12 ($what): bound, exit 0" 0 - "" -- \
		"$cli" explain $devices -m "$D612" -C /dev/null "$dev"
	n=$((n + 1))
	[ "$(tail -1 "$tmp/raw")" = "$verdict" ] && report "explain $dev on 6.12 ($what): the verdict" "" ||
		report "explain $dev on 6.12 ($what): the verdict" "not '$verdict'" "$tmp/raw" out
done
check "explain: neither bound nor matched (the host bridge): exit 1, a verdict" 1 explain-nothing "" -- \
	"$cli" explain --sysfs "$Q" -m "$D" -C /dev/null 0000:00:00.0
check "explain: a bare modalias that matches: a verdict" 0 explain-bare "" -- \
	"$cli" explain -m "$D" -C /dev/null pci:v00008086d000015FFsv00001028sd0000085Abc02sc00i00
# tables of another kernel than the machine's: said once, and the module states are the
# machine's own (a snapshot of the q35 guest, a 6.1.0-57-amd64 machine on which e1000e was loaded)
ln -s "$data/linux-6.12.118+deb12-amd64" "$tmp/root/lib/modules/6.12.118+deb12-amd64"
"$cli" snapshot --sysfs "$Q" -o "$tmp/q35.json" 2>/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["kernel"] = "6.1.0-57-amd64"; d["modules"] = ["e1000e"]
json.dump(d, open(sys.argv[1], "w"))' "$tmp/q35.json"
check "list --snapshot -S its own kernel: states as its tables say, nothing said" 0 list-own-kernel "" -- \
	"$cli" list --snapshot "$tmp/q35.json" -d "$tmp/root" -S 6.1.0-57-amd64 -C /dev/null
n=$((n + 1))
why=""
grep -q "not the machine's" "$tmp/err" && why="it says the tables are not the machine's"
report "list --snapshot -S its own kernel: no word on other tables" "$why" "$tmp/err" err
check "list --snapshot -S another kernel: states the machine's own, none 'available'" 0 list-foreign-kernel \
	"tables are kernel 6.12.118+deb12-amd64's .*, not the machine's (6.1.0-57-amd64)" -- \
	"$cli" list --snapshot "$tmp/q35.json" -d "$tmp/root" -S 6.12.118+deb12-amd64 -C /dev/null
n=$((n + 1))
why=""
[ "$(grep -c "not the machine's" "$tmp/err")" = 1 ] || why="not said exactly once"
grep -q ':available\|:builtin' "$tmp/raw" && why="${why:+$why; }a state the tables of another kernel cannot know"
grep -q 'e1000e:loaded' "$tmp/raw" || why="${why:+$why; }e1000e is not loaded"
report "list --snapshot -S another kernel: said once; loaded from the snapshot, else not-loaded" "$why" "$tmp/raw" out \
	"$tmp/err" err
check "explain --snapshot -S another kernel: said once (exit 4: nothing bound)" 4 - "not the machine's" -- \
	"$cli" explain --snapshot "$tmp/q35.json" -d "$tmp/root" -S 6.12.118+deb12-amd64 -C /dev/null 0000:00:01.0
n=$((n + 1))
why=""
grep -q '^  bochs: not-loaded$' "$tmp/raw" || why="bochs is not not-loaded"
[ "$(tail -1 "$tmp/raw")" = "No driver is bound: bochs matches in these tables and is not loaded; whether the machine's \
kernel has it, tables of another kernel cannot tell." ] || why="${why:+$why; }not the verdict of tables of another kernel"
report "explain --snapshot -S another kernel: the verdict claims nothing of the machine's kernel" "$why" "$tmp/raw" out
# -m DIR: tables named as a directory are the machine's only when known to
# be: DIR named as its release (RELEASE or linux-RELEASE), or the machine's
# /lib/modules/RELEASE by another path; else as tables of another kernel
check "list --snapshot -m another kernel's directory: said once, the machine's states" 0 - \
	"the module tables of .*linux-6.12.118+deb12-amd64 are not known to be the machine's kernel's (6.1.0-57-amd64)" -- \
	"$cli" list --snapshot "$tmp/q35.json" -m "$data/linux-6.12.118+deb12-amd64" -C /dev/null
n=$((n + 1))
why=""
[ "$(grep -c "not known to be the machine's" "$tmp/err")" = 1 ] || why="not said exactly once"
grep -q ':available\|:builtin' "$tmp/raw" && why="${why:+$why; }a state the tables of another kernel cannot know"
grep -q 'e1000e:loaded' "$tmp/raw" || why="${why:+$why; }e1000e is not loaded"
report "list --snapshot -m another kernel's directory: loaded from the snapshot, else not-loaded" "$why" "$tmp/raw" out
check "list --snapshot -m the snapshot kernel's directory (linux-RELEASE): nothing said" 0 list-own-kernel "" -- \
	"$cli" list --snapshot "$tmp/q35.json" -m "$data/linux-6.1.0-57-amd64" -C /dev/null
n=$((n + 1))
why=""
grep -q "tables" "$tmp/err" && why="it says something of the tables"
report "list --snapshot -m linux-RELEASE: no word on the tables" "$why" "$tmp/err" err
mkdir -p "$tmp/named"
ln -s "$data/linux-6.1.0-57-amd64" "$tmp/named/6.1.0-57-amd64"
check "list --snapshot -m a directory named as the release: as -S that release" 0 list-own-kernel "" -- \
	"$cli" list --snapshot "$tmp/q35.json" -m "$tmp/named/6.1.0-57-amd64" -C /dev/null
# a snapshot that saw bochs built in (its "builtin" member): the machine's word, whatever the tables
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["builtin"] = ["bochs"]
json.dump(d, open(sys.argv[2], "w"))' "$tmp/q35.json" "$tmp/q35-builtin.json"
check "list --snapshot -S another kernel: a module the snapshot saw built in" 0 - "not the machine's" -- \
	"$cli" list --snapshot "$tmp/q35-builtin.json" -d "$tmp/root" -S 6.12.118+deb12-amd64 -C /dev/null
n=$((n + 1))
why=""
grep -q '	bochs:builtin$' "$tmp/raw" || why="bochs is not builtin"
grep -q 'e1000e:loaded' "$tmp/raw" || why="${why:+$why; }e1000e is not loaded"
report "list --snapshot: builtin as the snapshot saw it, loaded as before" "$why" "$tmp/raw" out
check "explain --snapshot: a module the snapshot saw built in (exit 0: nothing bound, nothing to load)" 0 - \
	"not the machine's" -- \
	"$cli" explain --snapshot "$tmp/q35-builtin.json" -d "$tmp/root" -S 6.12.118+deb12-amd64 -C /dev/null 0000:00:01.0
n=$((n + 1))
why=""
grep -q '^  bochs: builtin$' "$tmp/raw" || why="bochs is not builtin"
[ "$(tail -1 "$tmp/raw")" = "No driver is bound although bochs matches and is builtin: a module may serve a device \
without binding it (an input handler, a cpu feature module, the driver of an ACPI node's physical device), or it did not \
bind (it may have refused the device)." ] || why="${why:+$why; }not the verdict of a built-in driver"
report "explain --snapshot: the verdict of a built-in driver that did not bind" "$why" "$tmp/raw" out
# explain a path that leads to a device through the links of its sysfs root: a copy of the q35
# capture given a real sysfs's bus/ and class/ links (relative), and one out of the root (to a
# device of $tmp/two): the device is its devpath, as list prints it, in text and JSON
cp -R "$Q" "$tmp/q35l"
mkdir -p "$tmp/q35l/bus/pci/devices" "$tmp/q35l/class/net" "$tmp/q35l/class/input"
ln -s ../../../devices/pci0000:00/0000:00:03.0 "$tmp/q35l/bus/pci/devices/0000:00:03.0"
ln -s ../../devices/pci0000:00/0000:00:02.0/net/eth0 "$tmp/q35l/class/net/eth0"
ln -s ../../devices/platform/i8042/serio0/input/input0 "$tmp/q35l/class/input/input0"
ln -s ../../../../two/devices/a/virtio0 "$tmp/q35l/bus/pci/devices/0000:00:09.0"
check "explain ROOT/bus/pci/devices/0000:00:03.0: the device its link leads to, by its devpath" 0 explain-link-bus "" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null "$tmp/q35l/bus/pci/devices/0000:00:03.0"
check "explain bus/pci/devices/0000:00:03.0 (below the root): the same" 0 explain-link-bus "" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null bus/pci/devices/0000:00:03.0
check "explain --json class/input/input0: the devpath of the class's device" 4 explain-link-class-json "" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null --json class/input/input0
check "explain ROOT/class/net/eth0: the interface's devpath, which has no modalias, and its card's" 1 - \
	"q35l/devices/pci0000:00/0000:00:02.0/net/eth0: the device has no modalias; bound: none; the device above it that has one: /devices/pci0000:00/0000:00:02.0$" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null "$tmp/q35l/class/net/eth0"
check "explain: a link out of the sysfs root leads to no device (exit 2)" 2 - \
	"q35l/bus/pci/devices/0000:00:09.0 leads to no device below .*q35l/devices" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null /bus/pci/devices/0000:00:09.0
# a link that leaves the root and comes back into it (realpath() would land inside) is refused
ln -s ../../../../two/../q35l/devices/pci0000:00/0000:00:03.0 "$tmp/q35l/bus/pci/devices/0000:00:0a.0"
check "explain: a link out of the sysfs root and back into it is refused (exit 2)" 2 - \
	"q35l/bus/pci/devices/0000:00:0a.0 leads to no device below .*q35l/devices (it leads out of the sysfs root)" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null bus/pci/devices/0000:00:0a.0
check "explain: a path below the root that is no device (exit 2)" 2 - "q35l/bus/pci leads to no device below" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null bus/pci
check "explain: a link that is not there (exit 2)" 2 - "q35l/class/net/eth9: No such file or directory" -- \
	"$cli" explain --sysfs "$tmp/q35l" -m "$D" -C /dev/null class/net/eth9
check "explain --snapshot /sys/bus/…: no links to follow, what to give instead (exit 2)" 2 - \
	"/sys/bus/pci/devices/0000:00:03.0: a snapshot records no bus/ or class/ links to follow: give the device's devpath" -- \
	"$cli" explain --snapshot "$tmp/q35.json" -d "$tmp/root" -S 6.1.0-57-amd64 -C /dev/null /sys/bus/pci/devices/0000:00:03.0
check "explain --snapshot /sys/devices/…: its devpath, as list --snapshot prints it" 0 explain-snapshot-devpath "" -- \
	"$cli" explain --snapshot "$tmp/q35.json" -d "$tmp/root" -S 6.1.0-57-amd64 -C /dev/null \
	/sys/devices/pci0000:00/0000:00:03.0
# a --sysfs that is not there, or no directory: said as plainly as a directory that is no sysfs root
for c in "list" "diff 6.1.0-57-amd64 6.1.0-57-amd64" "explain 0000:00:03.0" "firmware" "snapshot"; do
	# shellcheck disable=SC2086 # the command and its arguments
	check "${c%% *} --sysfs /nonexistent: what to give (exit 2)" 2 - \
		"^modalias ${c%% *}: the sysfs root /nonexistent: No such file or directory: give the sysfs root (/sys" -- \
		"$cli" $c --sysfs /nonexistent
done
check "list --sysfs FILE: not a directory (exit 2)" 2 - "the sysfs root .*q35.json: Not a directory: give the sysfs root" -- \
	"$cli" list --sysfs "$tmp/q35.json" -C /dev/null
# load with no module directory: no bundled table (it has no module)
if [ ! -d "/lib/modules/$(uname -r)" ]; then
	check "load here, no module directory: nothing to insert, the bundled table has no module (exit 2)" 2 - \
		"no /lib/modules/$(uname -r) here: no module to insert (the bundled table has none): give -m DIR" -- \
		"$cli" load -n -C /dev/null pci:v00008086d0000100Esv00000000sd00000000bc02sc00i00
fi
# this machine without /lib/modules/$(uname -r): the bundled table, and /sys/module's word
if [ ! -d "/lib/modules/$(uname -r)" ] && [ -d /sys/module ]; then
	check "list here, no module directory: the bundled table, said once" 0 - "bundled Debian 6.1 table .*, not this kernel's" -- \
		"$cli" list --json -C /dev/null
	n=$((n + 1))
	why=""
	[ "$(grep -c "bundled" "$tmp/err")" = 1 ] || why="not said exactly once"
	python3 -c 'import glob, json, os, sys
def builtin_driver(n):  # a driver of its name without a module link
    return any(not os.path.lexists(d + "/module") for v in {n, n.replace("_", "-")}
               for d in glob.glob("/sys/bus/*/drivers/" + v))
for dev in json.load(open(sys.argv[1])):
    for m in dev["modules"]:
        d = "/sys/module/" + m["name"]
        want = ("loaded" if os.path.exists(d + "/initstate") else "builtin" if os.path.isdir(d) or builtin_driver(m["name"])
                else "not-loaded")
        assert m["state"] == want, (dev["devpath"], m, want)' "$tmp/raw" 2>"$tmp/perr" || why="${why:+$why; }a state is not /sys/module's"
	report "list here, no module directory: each state as /sys/module and /sys/bus/*/drivers say (loaded, builtin), else not-loaded" "$why" \
		"$tmp/perr" python
	# this machine's own snapshot reads back here as its /sys does (it was
	# "give -d ROOT …": the tables of its kernel are not here)
	cp "$tmp/raw" "$tmp/list-here.json"
	"$cli" snapshot -o "$tmp/here.json" 2>/dev/null
	check "list --snapshot of this machine, no module directory: the bundled table, as list here" 0 - \
		"bundled Debian 6.1 table .*, not this kernel's" -- "$cli" list --json --snapshot "$tmp/here.json" -C /dev/null
	n=$((n + 1))
	cmp -s "$tmp/raw" "$tmp/list-here.json" && report "list --snapshot of this machine: the same bytes as list here" "" ||
		report "list --snapshot of this machine: the same bytes as list here" "differs" "$tmp/raw" out
else
	n=$((n + 1))
	echo "ok $n # SKIP this machine has /lib/modules/$(uname -r) (or no /sys/module)"
fi
# firmware: the q35 guest's modules (real .modinfo sections, Debian 6.1) and a fixture search path
F="$data/firmware"
DM="$data/linux-6.1.0-57-amd64+modinfo"
mkdir -p "$tmp/fw-none"
check "firmware: plain, .zst and .xz found in the path's order; a dependency's files apart" 0 firmware-present \
	"their dependencies (not counted): 2 present here, 0 missing here" -- "$cli" firmware \
	--sysfs "$Q" -m "$DM" -C /dev/null --firmware-path "$F/updates" --firmware-path "$F/lib/firmware"
check "firmware -v: every file a module declares, the absent ones too" 0 firmware-verbose "" -- "$cli" firmware \
	--sysfs "$Q" -m "$DM" -C /dev/null -f "$F/lib/firmware" -v
check "firmware --json" 0 firmware-json "" -- "$cli" firmware --sysfs "$Q" -m "$DM" -C /dev/null \
	-f "$F/lib/firmware" --json
check "firmware: a dependency's firmware (ccp's, for kvm_amd) all absent: told, exit 0" 0 - \
	"their dependencies (not counted): 0 present here, 2 missing here" -- "$cli" firmware --sysfs "$Q" -m "$DM" -C /dev/null \
	-f "$tmp/fw-none"
# an Intel AX201 (tests/data/firmware/ax201.json): iwlwifi declares 57 files,
# one per hardware family; the card asks for its own, which the module does
# not say: one of them here is not known to be the card's (exit 4), whether
# it is the card's (iwlwifi-QuZ-a0-hr-b0-72.ucode) or another chip's
mkdir -p "$tmp/fw-ax201" "$tmp/fw-other/brcm"
: >"$tmp/fw-ax201/iwlwifi-QuZ-a0-hr-b0-72.ucode.zst"
check "firmware: AX201 with its family's file: iwlwifi not known here (the module does not say which file), exit 4" 4 \
	firmware-ax201 "0 modules present here, 0 missing here, 1 not known here" -- "$cli" firmware --snapshot "$F/ax201.json" \
	-m "$DM" -C /dev/null -f "$tmp/fw-ax201"
: >"$tmp/fw-other/iwlwifi-100-5.ucode"
: >"$tmp/fw-other/brcm/brcmfmac4330-sdio.bin"
check "firmware: AX201 with another chip's file only: not known here, never present here, exit 4" 4 \
	firmware-ax201-other-chip "0 modules present here, 0 missing here, 1 not known here" -- "$cli" firmware \
	--snapshot "$F/ax201.json" -m "$DM" -C /dev/null -f "$tmp/fw-other"
check "firmware: BCM43430 with another chip's file only (brcmfmac4330-sdio.bin): not known here, exit 4" 4 - \
	"0 modules present here, 0 missing here, 1 not known here" -- "$cli" firmware --snapshot "$F/bcm43430-sdio.json" \
	-m "$DM" -C /dev/null -f "$tmp/fw-other"
n=$((n + 1))
why=""
grep -qx '  brcmfmac: not known here (1 of its 60 files here; which one this device loads cannot be told from the module)' \
	"$tmp/raw" || why="brcmfmac not said not known here"
grep -q 'present here' "$tmp/raw" && why="${why:+$why; }present here said"
report "firmware: BCM43430 with another chip's file only: what is not known said" "$why" "$tmp/raw" out
check "firmware --missing: AX201 with none of iwlwifi's 57 files: missing, the files listed, exit 1" 1 \
	firmware-missing "0 modules present here, 1 missing here" -- "$cli" firmware --snapshot "$F/ax201.json" -m "$DM" \
	-C /dev/null -f "$tmp/fw-none" --missing
# the search path's KVER is the kernel of the snapshot's machine, not the
# name of the -m directory (nor of the bundled table)
mkdir -p "$tmp/fw-kver/lib/firmware/6.1.0-57-amd64"
: >"$tmp/fw-kver/lib/firmware/6.1.0-57-amd64/iwlwifi-QuZ-a0-hr-b0-72.ucode"
check "firmware: the search path's KVER is the snapshot's kernel, not -m's directory name" 4 firmware-kver \
	"0 modules present here, 0 missing here, 1 not known here" -- "$cli" firmware --snapshot "$F/ax201.json" -d "$tmp/fw-kver" -m "$DM" -C /dev/null
# a release not known is never made up (the -m directory's name, this
# machine's uname -r): its directories are left out, and said so
mkdir -p "$tmp/fw-kver/lib/firmware/${DM##*/}" "$tmp/fw-root/lib/modules"
: >"$tmp/fw-kver/lib/firmware/${DM##*/}/iwlwifi-QuZ-a0-hr-b0-72.ucode"
sed 's/"kernel": "6.1.0-57-amd64"/"kernel": null/' "$F/ax201.json" >"$tmp/ax201-nokernel.json"
check "firmware --snapshot without its kernel, -m DIR: no release, ROOT/lib/firmware/RELEASE left out, exit 1" 1 \
	firmware-no-release "0 modules present here, 1 missing here" -- "$cli" firmware --snapshot "$tmp/ax201-nokernel.json" \
	-d "$tmp/fw-kver" -m "$DM" -C /dev/null
check "firmware --sysfs DIR -m DIR: no release, left out" 0 - "" -- "$cli" firmware --sysfs "$Q" -m "$DM" \
	-d "$tmp/fw-root" -C /dev/null
n=$((n + 1))
why=""
grep -q "${DM##*/}" "$tmp/raw" && why="the -m directory's name taken for the release"
[ "$(grep -c '/RELEASE	left out: the kernel release is not known (-S VERSION or -d ROOT -S VERSION gives it)$' \
	"$tmp/raw")" = 2 ] || why="${why:+$why; }not two lines left out"
report "firmware --sysfs DIR -m DIR: both RELEASE directories left out, said on their lines" "$why" "$tmp/raw" out
ln -s "$DM" "$tmp/fw-root/lib/modules/$(uname -r)"
check "firmware --sysfs DIR, tables of this kernel's uname -r: not the captured machine's release, left out" 0 - "" -- \
	"$cli" firmware --sysfs "$Q" -d "$tmp/fw-root" -C /dev/null
n=$((n + 1))
why=""
grep -qF "/lib/firmware/$(uname -r)" "$tmp/raw" && why="this machine's uname -r taken for the release"
grep -q '/lib/firmware/RELEASE	left out' "$tmp/raw" || why="${why:+$why; }not said left out"
report "firmware --sysfs DIR: this machine's release not taken for the tree's" "$why" "$tmp/raw" out
ln -s "$DM" "$tmp/fw-root/lib/modules/6.1.0-57-amd64"
for how in "-S 6.1.0-57-amd64" "-m $tmp/fw-root/lib/modules/6.1.0-57-amd64" "-m $DM -S 6.1.0-57-amd64"; do
	# shellcheck disable=SC2086 # $how is two words
	check "firmware --sysfs DIR -d ROOT $how: the release known" 0 - "" -- "$cli" firmware --sysfs "$Q" -d "$tmp/fw-root" \
		$how -C /dev/null
	n=$((n + 1))
	why=""
	grep -qxF "  $tmp/fw-root/lib/firmware/6.1.0-57-amd64" "$tmp/raw" || why="ROOT/lib/firmware/6.1.0-57-amd64 not searched"
	grep -q 'left out' "$tmp/raw" && why="${why:+$why; }a directory left out"
	report "firmware --sysfs DIR -d ROOT $how: ROOT/lib/firmware/6.1.0-57-amd64 searched" "$why" "$tmp/raw" out
done
# what could not be read is said as what it is: two devices' modaliases
# (directories in a copy of the q35 capture), every module's modinfo read
cp -R "$Q" "$tmp/q35-bad"
for d in pcspkr serial8250; do
	rm -f "$tmp/q35-bad/devices/platform/$d/modalias" && mkdir "$tmp/q35-bad/devices/platform/$d/modalias"
done
check "firmware: two devices' modaliases unreadable: said so in the summary, exit 2" 2 - \
	"(not read, see above: 2 devices' modaliases)$" -- "$cli" firmware --sysfs "$tmp/q35-bad" -m "$DM" -C /dev/null \
	-f "$F/lib/firmware"
n=$((n + 1))
why=""
grep -qE "modinfo|modules not read" "$tmp/err" && why="modules blamed"
[ "$(grep -c 'cannot read its modalias' "$tmp/err")" = 2 ] || why="${why:+$why; }not two devices told"
report "firmware: two devices' modaliases unreadable: no module blamed" "$why" "$tmp/err" err
# the bundled table (a snapshot of its kernel, whose module directory is
# not here) has no module files: their firmware is not looked for, said
# once, and no error for each module
if [ ! -d /lib/modules/6.1.0-57-amd64 ]; then
	check "firmware with the bundled table: the modules' files not looked for, said once, exit 0" 0 - \
		"bundled table holds no modules" -- "$cli" firmware --snapshot "$F/ax201.json" -C /dev/null -f "$tmp/fw-none"
	n=$((n + 1))
	why=""
	grep -q 'cannot read the modinfo' "$tmp/err" && why="a module's modinfo said unreadable"
	report "firmware with the bundled table: no error for each module" "$why" "$tmp/err" err
fi
# a BCM43430 on SDIO (tests/data/firmware/bcm43430-sdio.json): brcmfmac
# declares "brcm/brcmfmac*-sdio.*.txt", the board's file
mkdir -p "$tmp/fw-brcm/brcm"
: >"$tmp/fw-brcm/brcm/brcmfmac43430-sdio.Chuwi-Hi8.txt.xz"
check "firmware: a wildcard entry matches a present file by glob, .xz included" 4 firmware-wildcard \
	"0 modules present here, 0 missing here, 1 not known here" -- "$cli" firmware --snapshot "$F/bcm43430-sdio.json" -m "$DM" -C /dev/null \
	-f "$tmp/fw-brcm"
check "firmware: the wildcard matches no file: missing, exit 1" 1 - "0 modules present here, 1 missing here" -- \
	"$cli" firmware --snapshot "$F/bcm43430-sdio.json" -m "$DM" -C /dev/null -f "$tmp/fw-none"
check "firmware: a --firmware-path that is not a directory" 2 - "firmware-path $tmp/nonexistent: not a directory" -- \
	"$cli" firmware --sysfs "$Q" -m "$DM" -C /dev/null -f "$tmp/nonexistent"
check "firmware: a module whose modinfo cannot be read is an error" 2 - "cannot read the modinfo of" -- \
	"$cli" firmware --sysfs "$data/sysfs/qemu-q35" -m "$data/linux-6.12.118+deb12-amd64" -C /dev/null -f "$F/lib/firmware"
check "firmware: ... and libkmod's own lines only with -v" 0 - "" -- sh -c \
	"'$cli' firmware --sysfs '$Q' -m '$data/linux-6.12.118+deb12-amd64' -C /dev/null -f '$F/lib/firmware' 2>&1 >/dev/null |
	grep -c 'libkmod:' | grep -qx 0"
check "firmware: an argument" 2 - "unexpected argument 'x'" -- "$cli" firmware -m "$DM" x
# the kernel log: a file of /dev/kmsg records stands for it ($MODALIAS_KMSG,
# the tests' kernel log), read for a copy of the q35 capture given a bus
# link; one failure twice, one of a file present now, one of a device not
# there, one line of Debian's form that names its device by its prefix only
cp -R "$Q" "$tmp/q35k"
mkdir -p "$tmp/q35k/bus/pci/devices" "$tmp/fw-log/hda"
ln -s ../../../devices/pci0000:00/0000:00:05.0 "$tmp/q35k/bus/pci/devices/0000:00:05.0"
: >"$tmp/fw-log/hda/patch.fw"
printf '%s\n' \
	'6,1001,2000000,-;snd_hda_intel 0000:00:05.0: Direct firmware load for hda-jack-retask.fw failed with error -2' \
	' SUBSYSTEM=pci' ' DEVICE=+pci:0000:00:05.0' \
	'6,1002,2000100,-;snd_hda_intel 0000:00:05.0: firmware: failed to load hda/patch.fw (-2)' \
	'4,1003,2100000,-;platform regulatory.0: Direct firmware load for regulatory.db failed with error -2' \
	' SUBSYSTEM=platform' ' DEVICE=+platform:regulatory.0' \
	'6,1004,2000200,-;snd_hda_intel 0000:00:05.0: Direct firmware load for hda-jack-retask.fw failed with error -2' \
	' SUBSYSTEM=pci' ' DEVICE=+pci:0000:00:05.0' \
	'6,1005,2200000,-;e1000e 0000:00:02.0: The NVM Checksum Is Not Valid' >"$tmp/kmsg"
check "firmware: the kernel log's failed loads under their device, still missing or present now" 1 firmware-kmsg \
	"the kernel log: 3 failed loads, 2 still missing" -- env MODALIAS_KMSG="$tmp/kmsg" "$cli" firmware \
	--sysfs "$tmp/q35k" -m "$DM" -C /dev/null -f "$tmp/fw-log"
check "snapshot: the kernel log's failed loads recorded" 0 - "" -- env MODALIAS_KMSG="$tmp/kmsg" "$cli" snapshot \
	--sysfs "$tmp/q35k" -o "$tmp/q35k.json"
# a snapshot's machine is not here: its files are looked for on this one,
# said "here" (never "served" nor "present now")
check "firmware --snapshot: the recorded failures, this machine's files said here, exit 1" 1 firmware-snapshot-here \
	"the kernel log: 3 failed loads, 2 still missing here, 0 fallbacks to another version here (files looked for on this machine, not the snapshot's)" -- \
	"$cli" firmware --snapshot "$tmp/q35k.json" -m "$DM" -C /dev/null -f "$tmp/fw-log"
env MODALIAS_KMSG="$tmp/kmsg" "$cli" firmware --json --sysfs "$tmp/q35k" -m "$DM" -C /dev/null -f "$tmp/fw-log" \
	>"$tmp/fw-log.json" 2>/dev/null
"$cli" firmware --json --snapshot "$tmp/q35k.json" -m "$DM" -C /dev/null -f "$tmp/fw-log" >"$tmp/fw-snap.json" 2>/dev/null
n=$((n + 1))
why=""
python3 -c 'import json, sys
live, snap = (json.load(open(f)) for f in sys.argv[1:3])
words = {"present here": "served", "missing here": "missing", "not known here": "not known", "fallback here": "fallback"}
assert all(e["state"] in words for e in snap), [e["state"] for e in snap]
for e in snap:
    e["state"] = words[e["state"]]
assert live == snap, (live, snap)' "$tmp/fw-log.json" "$tmp/fw-snap.json" 2>"$tmp/perr" || why="not the same answers"
report "firmware --snapshot --json: the kernel log's answers, each state said here" "$why" "$tmp/perr" python
# the stranger's case: an AX201's snapshot whose log says its file failed
# to load, that file in DIR here
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["firmware_failures"] = [{"devpath": d["devices"][0]["devpath"], "file": "iwlwifi-QuZ-a0-hr-b0-72.ucode", "errno": 2}]
json.dump(d, open(sys.argv[2], "w"))' "$F/ax201.json" "$tmp/ax201-failed.json"
check "firmware --snapshot: a failed load whose file is in DIR here: present here, exit 0" 0 - \
	"the kernel log: 1 failed load, 0 still missing here, 0 fallbacks to another version here (files looked for on this machine, not the snapshot's)" -- \
	"$cli" firmware --snapshot "$tmp/ax201-failed.json" -m "$DM" -C /dev/null -f "$tmp/fw-ax201"
n=$((n + 1))
why=""
grep -qxF "  kernel log: iwlwifi-QuZ-a0-hr-b0-72.ucode failed to load (error -2)	present here: $tmp/fw-ax201/iwlwifi-QuZ-a0-hr-b0-72.ucode.zst" \
	"$tmp/raw" || why="the failed load not said present here"
grep -qx '  iwlwifi: present here (the kernel log names this device'"'"'s file; 1 of its 57 files here)' "$tmp/raw" ||
	why="${why:+$why; }iwlwifi not said present here"
grep -qE 'served|present now' "$tmp/raw" && why="${why:+$why; }served or present now said of the snapshot's machine"
report "firmware --snapshot: nothing said of the snapshot's machine's files" "$why" "$tmp/raw" out
# a driver's fallback: iwlwifi asks for the newest version first and loads
# the newest it finds; the kernel log has a failed load of each newer one.
# Those are no missing file when an older version of the same name (declared
# once by the device's modules) is here and the failures are every version
# from the newest down to the one above it (the driver seen walking down to
# it: a driver has a lowest version it takes, which the module does not
# tell); a failure with no version here, only a newer one than the driver
# asked for, or one below a version not seen failing, stays missing
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
dev = d["devices"][0]["devpath"]
for name, top, low in (("newer", 77, 73), ("older", 72, 60), ("gap", 77, 74), ("one", 72, 72)):
    d["firmware_failures"] = [{"devpath": dev, "file": "iwlwifi-QuZ-a0-hr-b0-%d.ucode" % v, "errno": 2}
                              for v in range(top, low - 1, -1)]
    json.dump(d, open(sys.argv[2] + "-" + name + ".json", "w"))' "$F/ax201.json" "$tmp/ax201-fallback"
mkdir -p "$tmp/fw-72" "$tmp/fw-80" "$tmp/fw-59" "$tmp/fw-66" "$tmp/fw-0"
: >"$tmp/fw-0/iwlwifi-QuZ-a0-hr-b0-0.ucode"
: >"$tmp/fw-72/iwlwifi-QuZ-a0-hr-b0-72.ucode"
: >"$tmp/fw-80/iwlwifi-QuZ-a0-hr-b0-80.ucode"
: >"$tmp/fw-59/iwlwifi-QuZ-a0-hr-b0-59.ucode.xz"
: >"$tmp/fw-66/iwlwifi-QuZ-a0-hr-b0-66.ucode"
for row in \
	"newer|fw-72|0|firmware-fallback|1 module present here, 0 missing here, 0 not known here;.* the kernel log: 5 failed loads, 0 still missing here, 5 fallbacks to another version here|-77…-73 failed, -72 here: a fallback, iwlwifi present here" \
	"newer|fw-none|1|-|0 modules present here, 1 missing here, .* the kernel log: 5 failed loads, 5 still missing here, 0 fallbacks|-77…-73 failed, no version here: still missing" \
	"newer|fw-80|1|-|0 modules present here, 1 missing here, .* the kernel log: 5 failed loads, 5 still missing here, 0 fallbacks|-77…-73 failed, only -80 here (newer than asked for): still missing" \
	"older|fw-59|0|firmware-fallback-older|1 module present here, .* the kernel log: 13 failed loads, 0 still missing here, 13 fallbacks|-72…-60 failed, -59.xz here (the declared -72 absent): a fallback" \
	"older|fw-66|0|firmware-fallback-between|1 module present here, .* the kernel log: 13 failed loads, 0 still missing here, 12 fallbacks|-72…-60 failed, -66 here now: -72…-67 fall back to it, -66 present, -65…-60 not reached" \
	"gap|fw-72|1|-|0 modules present here, 1 missing here, .* the kernel log: 4 failed loads, 4 still missing here, 0 fallbacks|-77…-74 failed, -72 here, -73 not seen failing: the driver not seen walking down to -72, still missing" \
	"one|fw-0|1|firmware-fallback-none|0 modules present here, 1 missing here, .* the kernel log: 1 failed load, 1 still missing here, 0 fallbacks|-72 failed, only -0 here (the driver not seen walking down to it): still missing, iwlwifi missing here"; do
	IFS='|' read -r log dir want gold said what <<EOF_ROW
$row
EOF_ROW
	check "firmware --snapshot: $what, exit $want" "$want" "$gold" "$said" -- "$cli" firmware \
		--snapshot "$tmp/ax201-fallback-$log.json" -m "$DM" -C /dev/null -f "$tmp/$dir"
	n=$((n + 1))
	grep -q 'present here (.*[ (]0 of its' "$tmp/raw" &&
		report "firmware --snapshot: $what: no module present here with 0 of its files" "said" "$tmp/raw" out ||
		report "firmware --snapshot: $what: no module present here with 0 of its files" ""
done
# --missing: what is not known is printed with what is missing, a fallback
# (nothing missing) is not
check "firmware --missing: AX201 with another chip's file: the not known module printed, exit 4" 4 - "" -- "$cli" firmware \
	--missing --snapshot "$F/ax201.json" -m "$DM" -C /dev/null -f "$tmp/fw-other"
n=$((n + 1))
grep -qx '  iwlwifi: not known here (1 of its 57 files here; which one this device loads cannot be told from the module)' \
	"$tmp/raw" && report "firmware --missing: iwlwifi's not known line printed" "" ||
	report "firmware --missing: iwlwifi's not known line printed" "not printed" "$tmp/raw" out
check "firmware --missing: -77…-73 failed, -72 here: no kernel log line printed, exit 0" 0 - "" -- "$cli" firmware \
	--missing --snapshot "$tmp/ax201-fallback-newer.json" -m "$DM" -C /dev/null -f "$tmp/fw-72"
n=$((n + 1))
grep -q 'kernel log: iwlwifi\|iwlwifi:' "$tmp/raw" && report "firmware --missing: a fallback not printed" "printed" "$tmp/raw" out ||
	report "firmware --missing: a fallback not printed" ""
# the running machine (a tree given a kernel log) tells what the module
# cannot: its driver bound to the device, and no failed load of it in the
# log, is served; unbound, not known.  A tree made here: the AX201 bound to
# iwlwifi (its driver and driver/module links), another chip's file only
lv="$tmp/live-ax201" ldev="$tmp/live-ax201/devices/pci0000:00/0000:00:14.3"
mkdir -p "$ldev" "$lv/bus/pci/drivers/iwlwifi" "$lv/module/iwlwifi"
echo pci:v00008086d0000A0F0sv00008086sd00000244bc02sc80i00 >"$ldev/modalias"
printf '%s\n' DRIVER=iwlwifi MODALIAS=pci:v00008086d0000A0F0sv00008086sd00000244bc02sc80i00 >"$ldev/uevent"
ln -s ../../../bus/pci/drivers/iwlwifi "$ldev/driver"
ln -s ../../../../module/iwlwifi "$lv/bus/pci/drivers/iwlwifi/module"
: >"$tmp/kmsg-none"
check "firmware: the running machine, iwlwifi bound, no failed load in its log: served, exit 0" 0 firmware-bound \
	"1 module served, 0 missing, 0 not known;" -- env MODALIAS_KMSG="$tmp/kmsg-none" "$cli" firmware --sysfs "$lv" \
	-m "$DM" -C /dev/null -f "$tmp/fw-other"
rm "$ldev/driver"
check "firmware: the running machine, no driver bound: not known, exit 4" 4 - "0 modules served, 0 missing, 1 not known;" -- \
	env MODALIAS_KMSG="$tmp/kmsg-none" "$cli" firmware --sysfs "$lv" -m "$DM" -C /dev/null -f "$tmp/fw-other"
# a snapshot of a captured tree has no record: said so, neither blamed
# on an unreadable log nor on a captured tree (the document tells neither)
"$cli" snapshot --sysfs "$Q" -o "$tmp/q35-captured.json" 2>/dev/null
check "firmware --snapshot of a captured tree: the kernel log not recorded" 0 - "" -- "$cli" firmware \
	--snapshot "$tmp/q35-captured.json" -m "$DM" -C /dev/null -f "$F/lib/firmware"
n=$((n + 1))
why=""
grep -qx 'kernel log: not recorded in the snapshot' "$tmp/raw" || why="not said 'not recorded in the snapshot'"
report "firmware --snapshot of a captured tree: 'not recorded in the snapshot', nothing more" "$why" "$tmp/raw" out
# diff: Debian 6.1 -> 6.12 for a set of real PCI IDs (tests/data/sysfs/kernel-upgrade):
# airo (14B9:0340) and ixgb (8086:1048) have no driver in 6.12, intel_lpss_pci
# gains 8086:4D25, e1000e stays; TO made changed/builtin from a copy of 6.12
K="$data/sysfs/kernel-upgrade"
D61="$data/linux-6.1.0-57-amd64" D612="$data/linux-6.12.118+deb12-amd64"
check "diff 6.1 -> 6.12: lost and gained, exit 4 (lost)" 4 diff-612 "2 lost" -- "$cli" diff --sysfs "$K" -C /dev/null "$D61" "$D612"
check "diff --all --json" 4 diff-612-json "5 devices: 1 same, 1 gained, 2 lost" -- "$cli" diff --all --json --sysfs "$K" \
	-C /dev/null "$D61" "$D612"
# the counts add up, each meaning one thing: "same" counts the devices --all prints as same, the
# device no table has a module for (0000:00:05.0) is counted apart
check "diff --all: 1 same line, 1 same counted, 1 without a module" 4 - \
	"^5 devices: 1 same, 1 gained, 2 lost, 0 built in, 0 changed, 0 unmatched, 1 without a module in either\$" -- \
	"$cli" diff --all --sysfs "$K" -C /dev/null "$D61" "$D612"
n=$((n + 1))
why=""
counted=$(sed -n 's/^[0-9]* devices: \([0-9]*\) same,.*/\1/p' "$tmp/err")
[ "$(grep -c '^same	' "$tmp/out")" = "$counted" ] || why="$(grep -c '^same	' "$tmp/out") same lines, $counted counted"
report "diff --all: as many same lines as counted" "$why" "$tmp/out" out "$tmp/err" err
# 6.1 has shpchp built in, with no alias recorded; 7.2 names it for the QEMU PCI bridge: the
# bridge had its driver before, no gain
check "diff 6.1 -> 7.2: a driver built into FROM, named by TO, is builtin, not gained" 4 - \
	"1 gained, 2 lost, 1 built in" -- "$cli" diff --all --sysfs "$K" -C /dev/null "$D61" "$data/linux-7.2.13+deb14-amd64"
n=$((n + 1))
grep -q "^builtin	/devices/pci0000:00/0000:00:05.0	.*	(none; built in) -> shpchp\$" "$tmp/out" &&
	report "diff 6.1 -> 7.2: the bridge's line says shpchp was built in" "" ||
	report "diff 6.1 -> 7.2: the bridge's line says shpchp was built in" "no such line" "$tmp/out" out
# 6.12 has shpchp built in too, as a bool option's driver: named in its modules.builtin.modinfo
# (shpchp.parm=...), not in its modules.builtin; the same builtin line as from 6.1, not a gain,
# and nothing lost or unmatched: exit 0
D72="$data/linux-7.2.13+deb14-amd64"
check "diff 6.12 -> 7.2: shpchp, built into 6.12 (modules.builtin.modinfo only), is builtin, not gained" 0 - \
	"^5 devices: 2 same, 0 gained, 0 lost, 1 built in, 0 changed, 0 unmatched, 2 without a module in either\$" -- \
	"$cli" diff --all --sysfs "$K" -C /dev/null "$D612" "$D72"
n=$((n + 1))
grep -q "^builtin	/devices/pci0000:00/0000:00:05.0	.*	(none; built in) -> shpchp\$" "$tmp/out" &&
	report "diff 6.12 -> 7.2: the bridge's line says shpchp was built in" "" ||
	report "diff 6.12 -> 7.2: the bridge's line says shpchp was built in" "no such line" "$tmp/out" out
# --json says it of FROM in "from_builtin" (TO's modules FROM has built in), beside "gone"
for from in "$D61" "$D612"; do
	check "diff --json ${from##*/} -> 7.2: from_builtin names shpchp" 0 - "" -- sh -c \
		"'$cli' diff --json --sysfs '$K' -C /dev/null '$from' '$D72' 2>/dev/null | grep -F '\"from\": [], \"to\": [\"shpchp\"], \"change\": \"builtin\", \"gone\": [], \"from_builtin\": [\"shpchp\"]}'"
done
# list and explain with a modprobe.d alias naming shpchp for the bridge, on 6.12's tables:
# built in, not available (6.12 has no shpchp.ko)
printf 'alias pci:v00001B36d00000001* shpchp\n' >"$tmp/shpchp.conf"
check "list on 6.12, shpchp aliased: builtin (modules.builtin.modinfo)" 0 - "" -- \
	"$cli" list --sysfs "$K" -m "$D612" -C "$tmp/shpchp.conf"
n=$((n + 1))
grep -q "^/devices/pci0000:00/0000:00:05.0	.*	-	shpchp:builtin\$" "$tmp/out" &&
	report "list on 6.12: the bridge's shpchp builtin" "" ||
	report "list on 6.12: the bridge's shpchp builtin" "no such line" "$tmp/out" out
check "explain on 6.12, shpchp aliased: builtin, nothing bound (exit 0: nothing to load)" 0 - "" -- \
	"$cli" explain --sysfs "$K" -m "$D612" -C "$tmp/shpchp.conf" 0000:00:05.0
n=$((n + 1))
grep -q "^  shpchp: builtin\$" "$tmp/out" && report "explain on 6.12: shpchp builtin" "" ||
	report "explain on 6.12: shpchp builtin" "no such line" "$tmp/out" out
# 6.1 has intel_lpss_pci, but not for 8086:4D25: unmatched (still in TO), not lost; exit 1 all
# the same: in 6.1 that device has no driver, which the gate must not pass
check "diff 6.12 -> 6.1, the other way: intel_lpss_pci unmatched, airo and ixgb gained: exit 5" 5 diff-61 \
	"2 gained, 0 lost, 0 built in, 0 changed, 1 unmatched" -- "$cli" diff --sysfs "$K" -C /dev/null "$D612" "$D61"
# qemu-q35's CPU: 6.12 loads acpi_cpufreq and pcc_cpufreq through the platform devices it makes
# (platform:acpi-cpufreq), no longer through acpi:LNXCPU:; both are in its modules.dep, so the
# device is unmatched, not lost; the gate fails all the same (the tables cannot tell this from
# the case above), and the line says the modules are still in TO
Q35="$data/sysfs/qemu-q35"
check "diff qemu-q35 6.1 -> 6.12: the CPU's modules unmatched, not lost: exit 5" 5 diff-q35-612 \
	"^94 devices: 45 same, 0 gained, 0 lost, 6 built in, 2 changed, 1 unmatched, 40 without a module in either\$" -- \
	"$cli" diff --sysfs "$Q35" -C /dev/null "$D61" "$D612"
check "diff -q qemu-q35 6.1 -> 6.12: unmatched fails the gate, 5" 5 - "" -- "$cli" diff -q --sysfs "$Q35" -C /dev/null "$D61" "$D612"
check "diff --json qemu-q35: unmatched, gone: []" 5 - "" -- "$cli" diff --json --sysfs "$Q35" -C /dev/null "$D61" "$D612"
n=$((n + 1))
why=""
grep -q -F '"modalias": "acpi:LNXCPU:", "from": ["acpi_cpufreq", "pcc_cpufreq"], "to": [], "change": "unmatched", "gone": [], "from_builtin": []}' \
	"$tmp/out" || why="no unmatched LNXCPU entry with \"gone\": []"
report "diff --json qemu-q35: the CPU unmatched, nothing gone" "$why" "$tmp/out" out
# a 6.12 without pcc_cpufreq: the CPU loses a module that is gone, and the line says which
mkdir -p "$tmp/nopcc"
cp -r "$D612/." "$tmp/nopcc/" && chmod -R u+w "$tmp/nopcc"
sed -i '/pcc-cpufreq/d' "$tmp/nopcc/modules.dep"
check "diff: one of the CPU's modules gone from TO: lost, exit 4" 4 - "1 lost" -- "$cli" diff --no-cache --sysfs "$Q35" \
	-C /dev/null "$D61" "$tmp/nopcc"
n=$((n + 1))
why=""
grep -q -F "$(printf 'lost\t/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0010:00/LNXCPU:00\tacpi:LNXCPU:\tacpi_cpufreq pcc_cpufreq -> (none; gone: pcc_cpufreq)')" \
	"$tmp/out" || why="no lost line naming pcc_cpufreq gone"
report "diff: lost, the module gone named" "$why" "$tmp/out" out
check "diff --json: the module gone in \"gone\"" 4 - "" -- "$cli" diff --no-cache --json --sysfs "$Q35" \
	-C /dev/null "$D61" "$tmp/nopcc"
n=$((n + 1))
why=""
grep -q -F '"to": [], "change": "lost", "gone": ["pcc_cpufreq"], "from_builtin": []}' "$tmp/out" || why="no \"gone\": [\"pcc_cpufreq\"]"
report "diff --json: gone names pcc_cpufreq" "$why" "$tmp/out" out
mkdir -p "$tmp/next"
cp -r "$D612/." "$tmp/next/" && chmod -R u+w "$tmp/next"
sed -i 's/ e1000e$/ e1000_next/' "$tmp/next/modules.alias"
printf 'kernel/drivers/net/wireless/cisco/airo.ko\nkernel/drivers/net/ethernet/intel/ixgb/ixgb.ko\n' >>"$tmp/next/modules.builtin"
check "diff: built in and changed (not lost): exit 0" 0 - "0 lost, 2 built in, 1 changed" -- "$cli" diff --no-cache \
	--sysfs "$K" -C /dev/null "$D61" "$tmp/next"
check "diff: one kernel only" 2 - "^modalias diff: FROM and TO are needed\$" -- "$cli" diff "$D61"
pointed "diff: one kernel only" diff
check "diff: three arguments" 2 - "^modalias diff: unexpected argument 'x'\$" -- "$cli" diff "$D61" "$D612" x
pointed "diff: three arguments" diff
check "diff: a kernel that is not there" 2 - \
	"^modalias diff: TO '.*/nonexistent/': no module tables in .*/nonexistent (no modules.alias): give a module directory" -- \
	"$cli" diff --sysfs "$K" -C /dev/null "$D61" "$tmp/nonexistent/"
# diff takes no -m nor -S: its hint names what it takes (the tables' general one names -m DIR),
# in one line (the library's own "cannot open" not said before it)
n=$((n + 1))
why=""
[ "$(wc -l <"$tmp/err")" = 1 ] || why="$(wc -l <"$tmp/err") lines on standard error"
grep -q -e "-m DIR" -e "-S VERSION" "$tmp/err" && why="names -m or -S, which diff does not take"
report "diff: a kernel that is not there: no option diff does not take" "$why" "$tmp/err" err
check "diff: a version under -d ROOT that is not there" 2 - \
	"^modalias diff: FROM '9.9': no module tables in .*/lib/modules/9.9 (no modules.alias): .*-d ROOT" -- \
	"$cli" diff --sysfs "$K" -C /dev/null -d "$tmp" 9.9 "$D61"
# the same bytes every run, on every captured tree; a kernel against itself all same
for tree in qemu-q35 host-vm kernel-upgrade; do
	S="$data/sysfs/$tree"
	n=$((n + 1))
	why=""
	for run in 1 2 3 4 5; do
		"$cli" diff --all --sysfs "$S" -C /dev/null "$D61" "$D612" >"$tmp/diff.$run" 2>&1
		cmp -s "$tmp/diff.1" "$tmp/diff.$run" || why="run $run differs from run 1"
	done
	report "diff 6.1 -> 6.12 on $tree: 5 runs, the same bytes" "$why" "$tmp/diff.1" run1
	for k in "$D61" "$D612"; do
		check "diff of ${k##*/} against itself on $tree: all same" 0 - " 0 gained, 0 lost, 0 built in, 0 changed" -- \
			"$cli" diff --all --sysfs "$S" -C /dev/null "$k" "$k"
		n=$((n + 1))
		why=""
		grep -v '^same	' "$tmp/raw" >"$tmp/notsame" && why="a device is not same"
		report "diff of ${k##*/} against itself on $tree: no line but same" "$why" "$tmp/notsame" line
	done
done
# FROM and TO in resolve's (kmod's) order: each device's lists are what resolve - prints
n=$((n + 1))
"$cli" diff --all --json --sysfs "$Q" -C /dev/null "$D61" "$D612" >"$tmp/diff.json" 2>/dev/null
for k in "$D61" "$D612"; do
	python3 -c 'import json, sys; [print(d["modalias"]) for d in json.load(open(sys.argv[1]))]' "$tmp/diff.json" |
		"$cli" resolve -m "$k" -C /dev/null - >"$tmp/resolve.${k##*/}" 2>/dev/null
done
why=""
python3 -c 'import json, sys
res = [dict(l.rstrip("\n").split("\t", 1) for l in open(f)) for f in sys.argv[2:4]]
for d in json.load(open(sys.argv[1])):
    for side, r in zip(("from", "to"), res):
        assert " ".join(d[side]) == r[d["modalias"]], (d["devpath"], side, d[side], r[d["modalias"]])' \
	"$tmp/diff.json" "$tmp/resolve.${D61##*/}" "$tmp/resolve.${D612##*/}" 2>"$tmp/perr" ||
	why="a list is not in resolve's order"
report "diff --json on qemu-q35: FROM and TO as resolve - answers each modalias" "$why" "$tmp/perr" python
# the kernel's order: every directory for FILE before any for FILE.zst or FILE.xz;
# firmware_class's path parameter first
mkdir -p "$tmp/fw-later/amd" "$tmp/sys/module/firmware_class/parameters" "$tmp/fw-param/amd"
: >"$tmp/fw-later/amd/amd_sev_fam17h_model0xh.sbin"
n=$((n + 1))
got=$("$cli" firmware --sysfs "$Q" -m "$DM" -C /dev/null --json -f "$F/updates" -f "$tmp/fw-later" 2>"$tmp/err" |
	python3 -c 'import json, sys; print(" ".join(sorted({f["path"] or "-" for x in json.load(sys.stdin) for f in x["files"]})))')
if [ "$got" = "- $tmp/fw-later/amd/amd_sev_fam17h_model0xh.sbin" ]; then
	echo "ok $n - firmware: a plain file in a later directory before FILE.xz in an earlier one"
else
	echo "not ok $n - firmware: the kernel's order: got '$got'"
	fail=1
fi
# the path parameter, read under --sysfs: a copy of the capture with it set
cp -R "$Q" "$tmp/q35"
mkdir -p "$tmp/q35/module/firmware_class/parameters"
echo "$tmp/fw-param" >"$tmp/q35/module/firmware_class/parameters/path"
for f in amd_sev_fam19h_model0xh.sbin amd_sev_fam17h_model3xh.sbin amd_sev_fam17h_model0xh.sbin; do
	: >"$tmp/fw-param/amd/$f"
done
n=$((n + 1))
got=$("$cli" firmware --sysfs "$tmp/q35" -m "$DM" -C /dev/null --json 2>"$tmp/err" |
	python3 -c 'import json, sys; print(" ".join(sorted({f["path"] or "-" for x in json.load(sys.stdin) for f in x["files"]})))')
want="$tmp/fw-param/amd/amd_sev_fam17h_model0xh.sbin $tmp/fw-param/amd/amd_sev_fam17h_model3xh.sbin $tmp/fw-param/amd/amd_sev_fam19h_model0xh.sbin"
if [ "$got" = "$want" ]; then
	echo "ok $n - firmware: firmware_class's path parameter comes first"
else
	echo "not ok $n - firmware: the path parameter: got '$got'"
	fail=1
fi
# the man pages render
for m in modalias.1 modalias.conf.5 libmodalias.3; do
	n=$((n + 1))
	# modalias.1 and modalias.conf.5 are made in the build tree (Makefile.am)
	page="${G_TEST_BUILDDIR:-$here}/../man/$m"
	[ -f "$page" ] || page="$here/../man/$m"
	if command -v man >/dev/null && MANWIDTH=80 man -l "$page" 2>"$tmp/manerr" | grep -q . && ! grep -q . "$tmp/manerr"; then
		echo "ok $n - man -l $m renders"
	else
		echo "not ok $n - man -l $m does not render cleanly"
		sed 's/^/# /' "$tmp/manerr"
		fail=1
	fi
done
M="$data/maps"
check "map: entries of every map type" 0 map-entries "" -- "$cli" map "$M/modules.pcimap" "$M/usb.usermap" \
	"$M/modules.ieee1394map" "$M/modules.ccwmap" "$M/modules.isapnpmap" "$M/modules.inputmap" \
	"$M/modules.ofmap" "$M/modules.seriomap"
check "map --json" 0 map-json "" -- "$cli" map --json "$M/modules.ofmap" "$M/modules.isapnpmap"
check "map --to-aliases" 0 map-aliases "" -- "$cli" map --to-aliases "$M/usb.usermap" "$M/modules.ofmap" \
	"$M/modules.pcimap" "$M/modules.seriomap"
check "map --to-aliases --dialect=2.6" 0 map-aliases-2.6 "" -- "$cli" map --to-aliases --dialect=2.6 \
	"$M/usb.usermap" "$M/modules.ofmap" "$M/modules.isapnpmap"
check "map --match usb" 0 map-match-usb "" -- "$cli" map --match usb idVendor=1234 idProduct=5678 \
	bcdDevice=0155 "$M/usb.usermap"
check "map --match: nothing" 1 - "" -- "$cli" map --match usb idVendor=1234 idProduct=5678 \
	bcdDevice=0211 "$M/usb.usermap"
check "map --match: bad field" 2 - "unknown field 'colour' of bus usb" -- "$cli" map --match usb colour=1 "$M/usb.usermap"
check "map: bad row named with line and column" 2 - "bad.usbmap:2:7: idVendor" -- sh -c \
	"printf '# usb module\nx 0x3 0x04zz 0x1 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n' > '$tmp/bad.usbmap' && '$cli' map '$tmp/bad.usbmap'"
check "map: unknown dialect" 2 - "unknown dialect" -- "$cli" map --to-aliases --dialect=2.4 "$M/usb.usermap"
# a row file2alias makes no alias of: named and counted, not an error (as file2alias)
check "map --to-aliases: a class_mask not of whole bytes is named" 0 - \
	"modules.pcimap:6: odd-mask: class_mask 0x00fff000 has a byte neither 00 nor ff" -- \
	"$cli" map --to-aliases "$M/modules.pcimap"
check "map --to-aliases: the rows without alias counted" 0 - "modules.pcimap: 2 of 5 rows give no alias" -- \
	"$cli" map --to-aliases "$M/modules.pcimap"
# the word size of bitmaps (--word-bits, one option of map and build)
check "map --word-bits=32 --to-aliases: the 32-bit inputmap" 0 map-aliases-input-32 "" -- \
	"$cli" map --word-bits=32 --to-aliases "$M/modules.inputmap"
check "map -v --to-aliases: the word size assumed is said" 0 - \
	"modules.inputmap: bitmap words of 8 digits at most do not tell their size: read as" -- \
	"$cli" map -v --to-aliases "$M/modules.inputmap"
check "map --word-bits=16: a usage error naming the option" 2 - "word-bits takes 32 or 64" -- \
	"$cli" map --word-bits=16 --to-aliases "$M/modules.inputmap"
pointed "map --word-bits=16" map
check "build --env --word-bits=32: the PandaBoard's KEY= (a 32-bit machine's event)" 0 build-env-word-bits-32 "" -- \
	env -i EV=3 "KEY=100000 0 0 0 0 0 0 0 0" PRODUCT=19/1/1/100 SUBSYSTEM=input "$cli" build --env --word-bits=32
check "build --env: the word size assumed is said" 0 - "variable KEY: words of 8 digits at most do not tell" -- \
	env -i EV=3 "KEY=100000 0 0 0 0 0 0 0 0" PRODUCT=19/1/1/100 SUBSYSTEM=input "$cli" build --env
check "build --word-bits=x: a usage error naming the option" 2 - "word-bits takes 32 or 64" -- \
	"$cli" build --env --word-bits=x
pointed "build --word-bits=x" build
# ---- standard output that cannot be written (every command) -------------------------
# To /dev/full: exit status 3 and "PROG: write error: REASON"; to a pipe whose
# reader is gone: killed by SIGPIPE and nothing said (141 in the shell), even
# when the caller left SIGPIPE ignored (python does: restore_signals=False).
agent=${HOTPLUG_AGENT:?}
M="$data/maps"
printf 'acpi:PNP0C0A:\nnosuch:x\n' >"$tmp/stdin-aliases"
ended_on_closed_pipe() { # COMMAND...: "signal N" or "exit N", then its stderr
	python3 - "$tmp/stdin-aliases" "$@" <<'PY'
import os, signal, subprocess, sys
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[2:], stdin=open(sys.argv[1]), stdout=w, stderr=subprocess.PIPE,
                   restore_signals=False)
print("signal %d" % -p.returncode if p.returncode < 0 else "exit %d" % p.returncode)
sys.stdout.write(p.stderr.decode("utf-8", "replace"))
PY
}
while IFS='|' read -r prog args; do
	[ -n "$prog" ] || continue
	# (env -i drops the test's cache directory: the agent, root, would use /var/cache/modalias)
	case $prog in
	modalias) set -- "$cli" ;;
	hotplug) set -- env -i "MODALIAS_CACHE_DIR=${MODALIAS_CACHE_DIR:-}" ACTION=add MODALIAS=platform:pcspkr "$agent" ;;
	esac
	# shellcheck disable=SC2086
	set -- "$@" $args
	n=$((n + 1))
	why=""
	"$@" <"$tmp/stdin-aliases" >"$tmp/out" 2>/dev/null
	[ -s "$tmp/out" ] || why="writes nothing to begin with"
	"$@" <"$tmp/stdin-aliases" >/dev/full 2>"$tmp/err"
	status=$?
	[ "$status" = 3 ] || why="${why:+$why; }to /dev/full: exit status $status, wanted 3"
	grep -qx "$prog: write error: No space left on device" "$tmp/err" ||
		why="${why:+$why; }to /dev/full: no '$prog: write error: No space left on device'"
	ended_on_closed_pipe "$@" >"$tmp/pipe"
	[ "$(head -1 "$tmp/pipe")" = "signal 13" ] || why="${why:+$why; }to a closed pipe: $(head -1 "$tmp/pipe"), wanted signal 13"
	! grep -q 'write error' "$tmp/pipe" || why="${why:+$why; }to a closed pipe: a write error reported"
	report "output checked: $prog $args" "$why" "$tmp/err" err "$tmp/pipe" pipe
done <<EOT
modalias|--help
modalias|--version
modalias|resolve --help
modalias|resolve -m $D -C /dev/null acpi:PNP0C0A:
modalias|resolve -m $D -C /dev/null --json acpi:PNP0C0A:
modalias|resolve -m $D -C /dev/null --explain acpi:PNP0C0A:
modalias|resolve -m $D -C /dev/null -
modalias|list --sysfs $data/sysfs/qemu-q35 --moddir $D -C /dev/null
modalias|list --json --sysfs $data/sysfs/qemu-q35 --moddir $D -C /dev/null
modalias|list --no-modules --sysfs $data/sysfs/host-vm
modalias|load --no-cache --dry-run -d $L -S 9.9.9-test -C $L/modprobe.d test:dev:abc
modalias|load --json --no-cache --dry-run -d $L -S 9.9.9-test -C $L/modprobe.d test:dev:abc
modalias|build usb idVendor=046d
modalias|build --json usb idVendor=046d
modalias|build --buses
modalias|build --fields pci
modalias|parse platform:pcspkr
modalias|parse --json platform:pcspkr
modalias|map $M/modules.pcimap
modalias|map --json $M/modules.ofmap
modalias|map --to-aliases $M/usb.usermap
modalias|map --match usb idVendor=1234 idProduct=5678 bcdDevice=0155 $M/usb.usermap
hotplug|--help
hotplug|--dry-run --moddir $D -C /dev/null --hotplug-dir /nonexistent platform
hotplug|--coldplug --dry-run --sysfs $data/sysfs/host-vm --moddir $D -C /dev/null --hotplug-dir /nonexistent
EOT
# a filter stops at its first failed write, not at the end of its input:
# resolve - over an endless input, to /dev/full
n=$((n + 1))
yes acpi:PNP0C0A: | timeout -k 2 20 "$cli" resolve -m "$D" -C /dev/null - >/dev/full 2>"$tmp/err"
status=$?
why=""
[ "$status" = 3 ] || why="exit status $status, wanted 3 (124: it did not stop)"
grep -qx 'modalias: write error: No space left on device' "$tmp/err" || why="${why:+$why; }no write error"
report "resolve - of an endless input to /dev/full stops" "$why" "$tmp/err" err

# ---- JSON is always JSON: bytes that are not UTF-8, control characters ------------------
# Each output is checked by python3 -m json.tool reading the file (strict
# UTF-8), and the strings decoded: each byte that is no UTF-8 is \u00XX.
mkdir -p "$tmp/hostile/m" "$tmp/hostile/sys/devices/platform/bad$(printf '\377')dev"
# (a module name with a control character is no module name: the control
# character rides in the pattern and the alias instead)
printf 'alias hostile:* mod\377ule\nalias ctl:\001* ctlmod\n' >"$tmp/hostile/m/modules.alias"
printf 'platform:caf\303\251\376\n' >"$tmp/hostile/sys/devices/platform/bad$(printf '\377')dev/modalias"
# bound: the kernel's DRIVER= line, as a copy of a tree without its links keeps it
printf 'DRIVER=drv\376\n' >"$tmp/hostile/sys/devices/platform/bad$(printf '\377')dev/uevent"
printf 'bad\377mod name\001x * compat\376\n' >"$tmp/hostile/modules.ofmap"
# json_ok NAME PYTHON-ASSERTION -- COMMAND...  (d: the decoded JSON)
json_ok() {
	name=$1 assertion=$2
	shift 3
	n=$((n + 1))
	"$@" >"$tmp/json" 2>"$tmp/err"
	why=""
	if ! python3 -m json.tool "$tmp/json" >/dev/null 2>"$tmp/jerr"; then
		why="not JSON"
	elif ! python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert '"$assertion"', d' \
		"$tmp/json" 2>"$tmp/jerr"; then
		why="not the strings wanted"
	fi
	report "$name" "$why" "$tmp/jerr" python "$tmp/json" out
}
json_ok "resolve --json: an alias and a module name that are not UTF-8" \
	'[m["name"] for e in d for m in e["modules"]] == ["mod\u00ffule", "ctlmod"] and d[0]["alias"] == "hostile:\u00fe\u00e9" and d[1]["modules"][0]["patterns"] == ["ctl:\u0001*"] and d[1]["alias"] == "ctl:\u0001x"' -- \
	"$cli" resolve --no-cache -m "$tmp/hostile/m" -C /dev/null --json "hostile:$(printf '\376\351')" "ctl:$(printf '\001')x"
json_ok "parse --json: invalid UTF-8 (a lone byte, overlong, surrogate, past U+10FFFF) and valid" \
	'[e["fields"]["name"] for e in d] == ["\u00ffcafé", "\u00c0\u0080", "\u00ed\u00a0\u0080", "\u00f4\u0090\u0080\u0080"]' -- \
	"$cli" parse --json "$(printf 'platform:\377caf\303\251')" "$(printf 'platform:\300\200')" \
	"$(printf 'platform:\355\240\200')" "$(printf 'platform:\364\220\200\200')"
json_ok "list --json: a sysfs devpath, modalias and driver (uevent's DRIVER=) that are not UTF-8" \
	'd == [{"devpath": "/devices/platform/bad\u00ffdev", "modalias": "platform:café\u00fe", "driver": "drv\u00fe", "modules": []}]' -- \
	"$cli" list --json --no-modules --sysfs "$tmp/hostile/sys"
json_ok "map --json: map file fields that are not UTF-8, a control character" \
	'd[0]["module"] == "bad\u00ffmod" and d[0]["name"] == "name\u0001x" and d[0]["compatible"] == "compat\u00fe"' -- \
	"$cli" map --json "$tmp/hostile/modules.ofmap"
json_ok "load --json: an alias that is not UTF-8" \
	'd[0]["alias"] == "test:dev:\u00ff" and d[1]["alias"] == "test:dev:abc" and d[1]["modules"]' -- \
	"$cli" load --json --no-cache --dry-run -d "$L" -S 9.9.9-test -C "$L/modprobe.d" "$(printf 'test:dev:\377')" test:dev:abc
json_ok "build --json: a string field that is not UTF-8" \
	'd["fields"]["name"] == "a\u00ff" and d["modalias"] == "of:Na\u00ffT<NULL>Cx"' -- \
	"$cli" build --json of "name=$(printf 'a\377')" 'type=<NULL>' compatible=x
# ---- '--' ends the options; an unknown option is a usage error ------------------------
mkdir -p "$tmp/dash"
printf 'alias -hmac dashmod\nalias acpi:PNP0C0A:* battery\n' >"$tmp/dash/modules.alias"
printf 'dashof name * compat\n' >"$tmp/dash/-x.ofmap"
for c in resolve load parse; do
	check "$c -hmac: an unknown option, not the help" 2 - \
		"^modalias $c: unknown option -hmac (an alias starting with '-' goes after '--')\$" -- "$cli" $c -hmac
done
check "map -hmac: an unknown option" 2 - "^modalias map: unknown option -hmac (a file starting with '-' goes after '--')\$" -- \
	"$cli" map -hmac
check "build -hmac: an unknown option" 2 - "^modalias build: unknown option -hmac (an argument starting with '-' goes after '--')\$" -- \
	"$cli" build -hmac usb
check "list -hmac: an unknown option" 2 - "^modalias list: unknown option -hmac\$" -- "$cli" list -hmac
check "modalias -hmac: an unknown option before the command" 2 - "^modalias: unknown option -hmac\$" -- "$cli" -hmac resolve
check "resolve --frobnicate=1: an unknown long option" 2 - "^modalias resolve: unknown option --frobnicate=1 " -- \
	"$cli" resolve --frobnicate=1 x
check "resolve --json=no: a flag takes no value" 2 - "^modalias resolve: option --json takes no value\$" -- \
	"$cli" resolve --json=no -m "$D" -C /dev/null acpi:PNP0C0A:
check "resolve -mj DIR: a value option must end its group" 2 - "unknown option -mj " -- "$cli" resolve -mj "$D" x
check "resolve -jx: flags grouped" 0 - "" -- "$cli" resolve -jx -m "$D" -C /dev/null acpi:PNP0C0A:
check "resolve --json -- -hmac acpi:PNP0C0A: ('--' is no alias)" 0 resolve-dashdash "" -- \
	"$cli" resolve --no-cache -m "$tmp/dash" -C /dev/null --json -- -hmac acpi:PNP0C0A:
check "resolve --json -- --explain (an option after '--' is an alias)" 1 resolve-dashdash-option "" -- \
	"$cli" resolve --no-cache -m "$tmp/dash" -C /dev/null --json -- --explain
check "load --json -- -hmac test:dev:abc (-hmac has no module: exit 1)" 1 load-dashdash "^modalias load: -hmac: no module$" -- "$cli" load --json --no-cache --dry-run \
	-d "$L" -S 9.9.9-test -C "$L/modprobe.d" -- -hmac test:dev:abc
check "parse -- -x:y" 0 parse-dashdash "" -- "$cli" parse -- -x:y
check "map -- -x.ofmap" 0 map-dashdash "" -- sh -c "cd '$tmp/dash' && '$cli' map -- -x.ofmap"
# weak dependencies (modules.weakdep, written by kmod 34's depmod for the
# load tree's mod_weak): explain and resolve --explain show them, a dry run
# leaves them out as modprobe -n does (sid's kmod 34's, when fetched:
# tests/data/fetch-sid-kmod.sh)
check "explain: a module's weak dependencies" 0 explain-weakdep "" -- "$cli" explain --no-cache \
	-d "$L" -S 9.9.9-test -C "$L/modprobe.d" test:dev:weak
check "resolve --explain: a module's weak dependencies" 0 resolve-explain-weakdep "" -- "$cli" resolve \
	--no-cache --explain -d "$L" -S 9.9.9-test -C "$L/modprobe.d" test:dev:weak
check "load --dry-run: weak dependencies are not loaded" 0 load-dry-weakdep "" -- "$cli" load --no-cache \
	--dry-run -d "$L" -S 9.9.9-test -C "$L/modprobe.d" test:dev:weak
sid_modprobe=${MODALIAS_KMOD_SID:-}/bin/modprobe
if [ -x "$sid_modprobe" ]; then
	same_as_modprobe "kmod 34's modprobe" "$sid_modprobe" test:dev:weak
else
	n=$((n + 1))
	echo "ok $n - load --dry-run equals kmod 34's modprobe -n -v # SKIP no sid kmod (tests/data/fetch-sid-kmod.sh)"
fi
# build writes what today's kernels write, so piped into resolve it finds the
# driver: USB's in00 and HID's g0000 unless given (FIELD= leaves one out, as
# old kernels did), a wmi GUID in upper case whatever it was given in
D="$data/linux-6.12.118+deb13-amd64"
check "build | resolve: today's strings find their drivers" 0 build-today-resolve "" -- sh -c "{
	'$cli' build usb idVendor=0bda idProduct=8153 bcdDevice=3000 bInterfaceClass=ff bInterfaceSubClass=ff
	'$cli' build usb idVendor=0bda idProduct=8153 bcdDevice=3000 bInterfaceClass=ff bInterfaceSubClass=ff \
		bInterfaceNumber=
	'$cli' build hid bus=3 vendor=46d product=c52b
	'$cli' build hid bus=3 vendor=46d product=c52b group=
	'$cli' build wmi guid=05901221-d566-11d1-b2f0-00a0c9062910
	} | '$cli' resolve -m '$D' -C /dev/null - 2>&1"
# every device with a devicetree node has the OF variables, but spi writes
# spi:, not of: (the brief's mram): no modalias from them, named; a platform
# device's are its modalias
check "build --env: a spi event's OF variables are no modalias" 2 - \
	"spi event: no MODALIAS, and its OF_ variables are not its modalias" -- env -i SUBSYSTEM=spi \
	OF_NAME=mram OF_COMPATIBLE_0=everspin,mr25h40 OF_COMPATIBLE_N=1 "$cli" build --env --sysfs /nonexistent
check "build --env: a platform event's OF variables" 0 build-env-of "" -- env -i SUBSYSTEM=platform \
	OF_NAME=mram OF_COMPATIBLE_0=everspin,mr25h40 OF_COMPATIBLE_N=1 "$cli" build --env --sysfs /nonexistent
echo "1..$n"
exit $fail
