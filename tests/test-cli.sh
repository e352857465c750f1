#!/bin/sh
# The modalias CLI against golden files (tests/golden/NAME.out), with its
# exit statuses and the messages of bad input.  TAP on stdout.
# Set UPDATE_GOLDEN=1 to rewrite the golden files from the current output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
golden="$here/golden"
data="$here/data"
cli=${MODALIAS_CLI:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0

# check NAME STATUS GOLDEN|- [STDERR-PATTERN] -- COMMAND...
check() {
	name=$1 want_status=$2 gold=$3 pattern=$4
	shift 5
	n=$((n + 1))
	"$@" >"$tmp/raw" 2>"$tmp/err"
	status=$?
	# fixture paths differ from tree to tree (distcheck builds elsewhere)
	sed "s|$data|@DATA@|g" "$tmp/raw" >"$tmp/out"
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
	if [ -z "$why" ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name: $why"
		sed 's/^/# out: /' "$tmp/out" | head -20
		sed 's/^/# err: /' "$tmp/err" | head -20
		fail=1
	fi
}

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
check "build: unknown field" 2 - "no field 'colour'" -- "$cli" build usb colour=blue
check "build: not FIELD=VALUE" 2 - "is not FIELD=VALUE" -- "$cli" build usb idVendor
check "build: unknown bus" 2 - "unknown bus 'nosuch'" -- "$cli" build nosuch a=b
check "build: no bus" 2 - "a BUS is needed" -- "$cli" build
check "build: bad option" 2 - "Unknown option" -- "$cli" build --frobnicate
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
check "list: no sysfs" 2 - "cannot read /nonexistent/devices" -- "$cli" list --no-modules --sysfs /nonexistent
check "list: no module directory" 2 - "cannot load the module tables of /nonexistent" -- \
	"$cli" list --sysfs "$data/sysfs/host-vm" --moddir /nonexistent
D="$data/linux-6.1.0-57-amd64"
check "resolve a pci alias (e1000e)" 0 resolve-pci "" -- "$cli" resolve -m "$D" -C /dev/null \
	pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
check "resolve several, each module once" 0 resolve-several "" -- "$cli" resolve -m "$D" -C /dev/null \
	hid:b0003g0001v0000046Dp0000C52B hid:b0003g0001v0000046Dp0000C52C snd-hda-intel
check "resolve --explain" 0 resolve-explain "" -- "$cli" resolve -m "$D" -C /dev/null --explain \
	hid:b0003g0001v0000046Dp0000C52B crypto-md5 nosuch:thing
check "resolve --json" 0 resolve-json "" -- "$cli" resolve -m "$D" -C /dev/null --json \
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
echo "1..$n"
exit $fail
