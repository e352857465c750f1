#!/bin/sh
# The modalias CLI as a person meets it (issue 25): device names from the
# machine's pci.ids and usb.ids, one meaning per option, a word for what
# was not found, --quiet, one-line errors that say what to do, one table
# of exit statuses, ASCII where the locale is not UTF-8.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cli-lib.sh"
LM="$data/linux-6.1.0-57-amd64"
Q35="$data/sysfs/qemu-q35"

# has NAME TEXT: the last check's standard output holds the line TEXT
# (a fixed string) somewhere
has() {
	n=$((n + 1))
	why=""
	grep -q -F -e "$2" "$tmp/out" || why="the output does not say '$2'"
	report "$1" "$why" "$tmp/out" out
}
# lacks NAME TEXT: it does not
lacks() {
	n=$((n + 1))
	why=""
	! grep -q -F -e "$2" "$tmp/out" || why="the output says '$2'"
	report "$1" "$why" "$tmp/out" out
}
# silent NAME out|err…: the last check printed nothing on these streams
silent() {
	name=$1
	shift
	n=$((n + 1))
	why=""
	for s in "$@"; do
		[ -s "$tmp/$s" ] && why="${why:+$why; }std$s not empty"
	done
	report "$name" "$why" "$tmp/out" out "$tmp/err" err
}

# ---- names: Debian's pci.ids and usb.ids (.ci/install-deps installs them) ---------------
ids=/usr/share/misc
SATA='82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode]'
if [ -r "$ids/pci.ids" ] && [ -r "$ids/usb.ids" ]; then
	check "list --tree names the devices" 0 - "" -- \
		env MODALIAS_IDS_DIR= "$cli" list --tree --sysfs "$Q35" --moddir "$LM" -C /dev/null
	has "list --tree: the SATA controller by its pci.ids name" "ahci:loaded  Intel Corporation $SATA (SATA controller)"
	has "list --tree: the tablet by its usb.ids name and interface class" \
		"usbhid:loaded  Adomax Technology Co., Ltd QEMU Tablet (Human Interface Device)"
	check "list --width=200 has a name column" 0 - "" -- \
		env MODALIAS_IDS_DIR="$ids" "$cli" list --width=200 --sysfs "$Q35" --moddir "$LM" -C /dev/null
	has "list --width=200: the name, cut last" "ahci                   ahci:loaded                   Intel Corporation 82801IR…"
	check "list --width=60: the name column gives way first" 0 - "" -- \
		env MODALIAS_IDS_DIR="$ids" "$cli" list --width=60 --sysfs "$Q35" --moddir "$LM" -C /dev/null
	lacks "list --width=60: no name" "Intel"
	has "list --width=60: the driver and the modules stay" "  ahci        ahci:load…"
	check "list piped: the tab-separated fields, no name" 0 - "" -- \
		env MODALIAS_IDS_DIR="$ids" "$cli" list --sysfs "$Q35" --moddir "$LM" -C /dev/null
	lacks "list piped: no name" "Intel"
	check "list --json: vendor_name, device_name, class_name" 0 - "" -- \
		env MODALIAS_IDS_DIR="$ids" "$cli" list --json --sysfs "$Q35" --no-modules
	has "list --json: the SATA controller's names" \
		"\"modalias\": \"pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01\", \"driver\": \"ahci\", \"vendor_name\": \"Intel Corporation\", \"device_name\": \"$SATA\", \"class_name\": \"SATA controller\""
	check "explain names the device" 0 - "" -- env MODALIAS_IDS_DIR="$ids" "$cli" explain \
		--sysfs "$Q35" --moddir "$LM" -C /dev/null /devices/pci0000:00/0000:00:1f.2
	has "explain: a name line" "name:     Intel Corporation $SATA (SATA controller)"
	check "explain --json names a bare modalias" 0 - "" -- env MODALIAS_IDS_DIR="$ids" "$cli" explain --json \
		--moddir "$LM" -C /dev/null usb:v0627p0001d0000dc00dsc00dp00ic03isc00ip00in00
	has "explain --json: the tablet's names" \
		'"vendor_name": "Adomax Technology Co., Ltd", "device_name": "QEMU Tablet", "class_name": "Human Interface Device"'
	check "diff --json names the devices" 0 - "" -- env MODALIAS_IDS_DIR="$ids" "$cli" diff --all --json \
		--sysfs "$Q35" -C /dev/null "$LM" "$LM"
	has "diff --json: the SATA controller's names" "\"vendor_name\": \"Intel Corporation\", \"device_name\": \"$SATA\""
else
	n=$((n + 1))
	echo "ok $n # SKIP Debian's pci.ids and usb.ids are not installed (.ci/install-deps installs them)"
fi
# a database is read only by a command that prints names: pci.ids a
# directory, which -v reports when it is read
mkdir -p "$tmp/ids/pci.ids"
check "list piped reads no database" 0 - "" -- \
	env MODALIAS_IDS_DIR="$tmp/ids" "$cli" list -v --no-modules --sysfs "$Q35"
n=$((n + 1))
why=""
! grep -q "pci.ids" "$tmp/err" || why="pci.ids was read"
report "list piped: pci.ids not read" "$why" "$tmp/err" err
check "list --tree reads pci.ids (a directory: no names, no error)" 0 - "cannot read $tmp/ids/pci.ids: Is a directory" -- \
	env MODALIAS_IDS_DIR="$tmp/ids" "$cli" list -v --tree --no-modules --sysfs "$Q35"

# ---- one meaning per option: -C/--config modprobe.d, --settings modalias.conf -----------
agent=${HOTPLUG_AGENT:?}
printf 'alias custom:thing e1000e\n' >"$tmp/modprobe.conf"
printf '[modules]\ndirectory=%s\n' "$LM" >"$tmp/settings.conf"
for where in before after; do
	if [ $where = before ]; then
		set -- "$cli" --config="$tmp/modprobe.conf" resolve -m "$LM" custom:thing
	else
		set -- "$cli" resolve -m "$LM" --config="$tmp/modprobe.conf" custom:thing
	fi
	check "--config $where the command: modprobe.d" 0 - "" -- "$@"
	has "--config $where the command: the modprobe.d alias answers" "e1000e"
	if [ $where = before ]; then
		set -- "$cli" --settings="$tmp/settings.conf" resolve -C "$tmp/modprobe.conf" custom:thing
	else
		set -- "$cli" resolve -C "$tmp/modprobe.conf" --settings "$tmp/settings.conf" custom:thing
	fi
	check "--settings $where the command: modalias.conf's module directory" 0 - "" -- "$@"
	has "--settings $where the command: the answer from its directory" "e1000e"
done
check "-C before the command, -C after it: the last wins, as after it" 1 - "" -- \
	"$cli" -C "$tmp/modprobe.conf" resolve -m "$LM" -C /dev/null custom:thing
check "--config given a modalias.conf (the old meaning before the command): one line naming --settings" 2 - \
	"^modalias resolve: $tmp/settings.conf is a modalias.conf (\[GROUP\] lines): -C/--config names a modprobe.d file, as for modprobe; give modalias.conf with --settings=FILE\$" -- \
	"$cli" --config="$tmp/settings.conf" resolve -m "$LM" custom:thing
check "modalias --settings without a FILE" 2 - "^modalias: --settings needs a FILE\$" -- "$cli" --settings
check "hotplug -C/--config: modprobe.d, as in modalias" 0 - "" -- env -i ACTION=add MODALIAS=custom:thing \
	"$agent" --stderr --dry-run -m "$LM" --config "$tmp/modprobe.conf" --hotplug-dir /nonexistent usb
has "hotplug --config: the modprobe.d alias answers" "load e1000e"
check "hotplug --settings: modalias.conf" 0 - "" -- env -i ACTION=add MODALIAS=custom:thing \
	"$agent" --stderr --dry-run --settings "$tmp/settings.conf" -C "$tmp/modprobe.conf" --hotplug-dir /nonexistent usb
has "hotplug --settings: its module directory" "load e1000e"
check "hotplug --config given a modalias.conf: one line naming --settings" 1 - \
	"^hotplug: $tmp/settings.conf is a modalias.conf (\[GROUP\] lines): -C/--config names a modprobe.d file, as for modprobe; give modalias.conf with --settings=FILE\$" -- \
	env -i ACTION=add MODALIAS=custom:thing "$agent" --stderr --dry-run -m "$LM" --config "$tmp/settings.conf" \
	--hotplug-dir /nonexistent usb
check "hotplug -c (the old spelling): still modalias.conf, with a deprecation message" 0 - \
	"^hotplug: -c is deprecated: give modalias.conf with --settings=FILE (-C/--config names modprobe.d)\$" -- \
	env -i ACTION=add MODALIAS=custom:thing "$agent" --stderr --dry-run -c "$tmp/settings.conf" \
	-C "$tmp/modprobe.conf" --hotplug-dir /nonexistent usb
has "hotplug -c: its module directory" "load e1000e"
check "hotplug --version" 0 - "" -- "$agent" --version
has "hotplug --version: the version" "hotplug (libmodalias) "

# ---- say what was not found; --quiet -------------------------------------------------------
A=pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
check "resolve: an alias without a module is named, exit 1" 1 - "^modalias resolve: nosuch:x: no module\$" -- \
	"$cli" resolve -m "$LM" -C /dev/null "$A" nosuch:x
has "resolve: the others still answer" "e1000e"
check "resolve garbage: said, exit 1" 1 - "^modalias resolve: garbage: no module\$" -- \
	"$cli" resolve -m "$LM" -C /dev/null garbage
check "resolve: every alias answered, exit 0" 0 - "" -- "$cli" resolve -m "$LM" -C /dev/null "$A"
check "load -n garbage: said, exit 1" 1 - "^modalias load: garbage: no module\$" -- \
	"$cli" load -n -m "$LM" -C /dev/null garbage
printf 'blacklist e1000e\n' >"$tmp/blacklist.conf"
check "load -n of a blacklisted module says so, with the file and line" 0 - "" -- \
	"$cli" load -n -m "$LM" -C "$tmp/blacklist.conf" "$A"
has "load -n: the blacklisted module" "# e1000e: blacklisted (@TMP@/blacklist.conf:1)"
for q in -q --quiet; do
	check "resolve $q: nothing printed, the status" 1 - "" -- "$cli" resolve $q -m "$LM" -C /dev/null "$A" nosuch:x
	silent "resolve $q: nothing on either stream" out err
done
check "resolve -q: an error is still said" 2 - "unknown option --frob" -- "$cli" resolve -q --frob x
check "load -n -q: nothing printed" 0 - "" -- "$cli" load -n -q -m "$LM" -C /dev/null "$A"
silent "load -n -q: stdout empty" out
check "explain -q: the status only" 1 - "" -- "$cli" explain -q -m "$LM" -C /dev/null nosuch:x
silent "explain -q: nothing on either stream" out err
check "diff -q as a gate: no device loses its driver" 0 - "" -- "$cli" diff -q --sysfs "$Q35" -C /dev/null "$LM" "$LM"
silent "diff -q: no summary either" out err
check "diff -q: a real error is still said" 2 - "no module tables in /nonexistent" -- \
	"$cli" diff -q --sysfs "$Q35" -C /dev/null "$LM" /nonexistent
check "firmware -q: the status only (nothing the hardware needs is missing)" 0 - "" -- "$cli" firmware -q --sysfs "$Q35" -C /dev/null \
	-m "$data/linux-6.1.0-57-amd64+modinfo" --firmware-path "$data/firmware/lib/firmware"
silent "firmware -q: stdout empty" out

# ---- exit statuses: zero devices is exit 1 for list, firmware and diff alike -----------------
mkdir -p "$tmp/empty/devices"
check "list: zero devices, exit 1" 1 - "^0 devices, 0 without a bound driver, 0 that no module matches\$" -- \
	"$cli" list --sysfs "$tmp/empty" -m "$LM" -C /dev/null
check "firmware: zero devices, exit 1" 1 - "" -- "$cli" firmware --sysfs "$tmp/empty" -m "$LM" -C /dev/null
check "diff: zero devices, exit 1, the sysfs root named" 1 - \
	"^modalias diff: no device with a modalias in .*/empty: nothing to compare\$" -- \
	"$cli" diff --sysfs "$tmp/empty" -C /dev/null "$LM" "$LM"
check "diff -q: zero devices said all the same, exit 1" 1 - "^modalias diff: no device with a modalias in .*/empty" -- \
	"$cli" diff -q --sysfs "$tmp/empty" -C /dev/null "$LM" "$LM"
n=$((n + 1))
why=""
[ "$(wc -l <"$tmp/err")" = 1 ] || why="$(wc -l <"$tmp/err") lines on standard error"
report "diff: zero devices, one line" "$why" "$tmp/err" err
for c in resolve load list explain firmware diff snapshot build parse map; do
	check "$c --help: an exit status table" 0 - "" -- "$cli" $c --help
	has "$c --help: the exit statuses" "Exit status: 0 "
done

# ---- errors: one line, naming the variable, file or field, and what to do ------------------
# one_line NAME: the last check's standard error is exactly one line
one_line() {
	n=$((n + 1))
	why=""
	[ "$(wc -l <"$tmp/err")" = 1 ] || why="$(wc -l <"$tmp/err") lines on standard error"
	report "$1: one line" "$why" "$tmp/err" err
}
check "build --env without PCI_ID: the variable and what to give" 2 - \
	"^modalias build: pci event: variable PCI_ID is not set: no device with a modalias; give MODALIAS, the legacy variables, or DEVPATH of a device under --sysfs\$" -- \
	env -i "$cli" build --env pci
one_line "build --env without PCI_ID"
check "build --env --sysfs DIR: \$DEVPATH under DIR (pci, no legacy variables)" 0 - "" -- \
	env -i SUBSYSTEM=pci DEVPATH=/devices/pci0000:00/0000:00:1f.2 "$cli" build --env --sysfs "$Q35"
has "build --env --sysfs: the SATA controller's modalias" "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01"
check "build --env --sysfs DIR: \$DEVPATH under DIR (usb)" 0 - "" -- \
	env -i DEVPATH=/devices/pci0000:00/0000:00:03.0/usb1/1-1/1-1:1.0 "$cli" build --env usb --sysfs "$Q35"
has "build --env --sysfs: the tablet's modalias" "usb:v0627p0001d0000dc00dsc00dp00ic03isc00ip00in00"
check "build --env: the legacy variables still win over \$DEVPATH" 0 - "" -- \
	env -i SUBSYSTEM=pci PCI_ID=8086:1E31 PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=C0330 \
	DEVPATH=/devices/pci0000:00/0000:00:1f.2 "$cli" build --env --sysfs "$Q35"
has "build --env: the variables' modalias" "pci:v00008086d00001E31sv000017AAsd000021FBbc0Csc03i30"
check "map /etc/passwd: not a map file, give --type" 2 - \
	"^modalias map: /etc/passwd: not a known map file (neither its name nor its header says which); give its type with --type=TYPE (usb, pci, ieee1394, ccw, isapnp, input, of, serio)\$" -- \
	"$cli" map /etc/passwd
one_line "map /etc/passwd"
check "build pci devic=10d3: the bus's fields and --fields pci" 2 - \
	"^modalias build: unknown field 'devic' of bus pci; its fields: vendor, device, subvendor, subdevice, baseclass, subclass, interface, class (see 'modalias build --fields pci')\$" -- \
	"$cli" build pci devic=10d3
one_line "build pci devic=10d3"
check "map --match usb nosuch=1: the same hint" 2 - "^modalias map: unknown field 'nosuch' of bus usb; its fields: idVendor, " -- \
	"$cli" map --match usb nosuch=1 "$data/linux-2.6.35.7-samsung/modules.usbmap"
for d in "$Q35/devices" "$Q35/devices/pci0000:00"; do
	check "list --sysfs ${d#"$data/"}: give the sysfs root" 2 - \
		"^modalias list: $d is not a sysfs root (it has no devices/): give the sysfs root, --sysfs=$Q35\$" -- \
		"$cli" list --no-modules --sysfs "$d"
	one_line "list --sysfs ${d#"$data/"}"
done
check "explain --sysfs of no sysfs tree at all: give the sysfs root" 2 - \
	"^modalias explain: $tmp is not a sysfs root (it has no devices/): give the sysfs root (/sys, or the top of a captured tree)\$" -- \
	"$cli" explain --sysfs "$tmp" -m "$LM" -C /dev/null /devices/x

# ---- a locale whose charset is not UTF-8: the tree and the ellipsis in ASCII ---------------
check "list --tree -w 60 under LC_ALL=C: ASCII" 0 - "" -- \
	env LC_ALL=C "$cli" list --tree --width=60 --sysfs "$Q35" -m "$LM" -C /dev/null
n=$((n + 1))
why=""
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$tmp/out" && why="a byte that is not ASCII"
report "list --tree under LC_ALL=C: ASCII only" "$why" "$tmp/out" out
has "list --tree under LC_ALL=C: a branch" "|-0000:00:02.0"
has "list --tree under LC_ALL=C: a last branch and a pipe" "| | \`-"
has "list --tree under LC_ALL=C: the ellipsis" "..."
check "list --tree -w 60 under LC_ALL=C.UTF-8: UTF-8" 0 - "" -- \
	env LC_ALL=C.UTF-8 "$cli" list --tree --width=60 --sysfs "$Q35" -m "$LM" -C /dev/null
has "list --tree under C.UTF-8: the UTF-8 branch" "├─0000:00:02.0"
check "explain under LC_ALL=C: the ellipsis of the nearest patterns" 1 - "" -- \
	env LC_ALL=C "$cli" explain -m "$LM" -C /dev/null pci:v00008086d0000FFFFsv00008086sd00000000bc02sc00i00
has "explain under LC_ALL=C: '...'" "           ... and "

# ---- diff on a terminal (--width): aligned, cut, the module lists the last to give way ------
D612="$data/linux-6.12.118+deb12-amd64" D72="$data/linux-7.2.13+deb14-amd64"
# fits NAME WIDTH ELLIPSIS [ALL]: in the last check's output (diff --all on qemu-q35, the piped
# output of the same in $tmp/piped) every line is at most WIDTH columns, " -> " stands at the
# same column on each, no line whose lists differ shows them alike, and each side's list is
# whole, or shown short: the modules the other side lacks, whole, in order, then "(+K more, N in
# both)", K the ones left out and N the ones both have (where not even that fits, its start cut
# with ELLIPSIS); the cpu0 line is shown short, keeping more of the line than the devpath and
# the modalias, and with ALL every module only one side of cpu0 has is in sight
fits() {
	n=$((n + 1))
	why=$(python3 - "$tmp/out" "$tmp/piped" "$2" "$3" "${4:-}" <<'PY' 2>&1
import sys
out = open(sys.argv[1], encoding="utf-8").read().splitlines()
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[2], encoding="utf-8")]
width, dots, want_all = int(sys.argv[3]), sys.argv[4], sys.argv[5] == "all"
assert len(out) == len(lines), f"{len(out)} lines, piped {len(lines)}"
assert max(map(len, out)) <= width, f"a line of {max(map(len, out))} columns"
assert len({l.index(" -> ") for l in out}) == 1, "' -> ' not aligned"

def short(own, both, k):
    more = len(own) - k
    counts = ", ".join(([f"+{more} more"] if more else []) + ([f"{both} in both"] if both else []))
    return " ".join(own[:k] + ([f"({counts})"] if counts else []))

def shown(cell, full, other):
    """the modules of FULL shown in CELL (None: whole), or fail"""
    if cell == full:
        return None
    mods, others = full.split(" "), other.split(" ")
    if full.startswith("("):  # no list: cut
        assert cell.endswith(dots) and full.startswith(cell[:-len(dots)]), f"'{cell}' is not '{full}' cut"
        return []
    own = [m for m in mods if m not in others]
    both = len(mods) - len(own)
    for k in range(len(own) + 1):
        if cell == short(own, both, k):
            return own[:k]
    whole = short(own, both, len(own))
    assert cell.endswith(dots) and whole.startswith(cell[:-len(dots)]), f"'{cell}' is neither whole nor short"
    return []

for l, p in zip(out, lines):
    left, to = l.split(" -> ")
    cells = [c.strip() for c in left.rstrip().split("  ") if c.strip()]
    assert len(cells) == 4, f"'{l}': {len(cells)} cells before ' -> '"
    full_from, full_to = p[3].split(" -> ")
    if full_from != full_to:
        assert cells[3] != to, f"'{l}': FROM and TO look the same"
    got = shown(cells[3], full_from, full_to), shown(to, full_to, full_from)
    if p[1] == "/devices/system/cpu/cpu0":
        assert got[0] is not None, f"'{l}': the cpu0 lists whole in {width} columns"
        assert len(cells[3]) + len(to) > len(cells[1]) + len(cells[2]), "the devpath and the modalias before the modules"
        if want_all:
            mods_from, mods_to = full_from.split(" "), full_to.split(" ")
            own = [m for m in mods_from if m not in mods_to], [m for m in mods_to if m not in mods_from]
            for side, own_side in zip(got, own):
                assert side == own_side, f"'{l}': {' '.join(own_side)} not all in sight"
PY
)
	report "$1" "$why" "$tmp/out" out
}
"$cli" diff --all --sysfs "$Q35" -C /dev/null "$LM" "$D612" >"$tmp/piped" 2>/dev/null
check "diff --all --width=100 on qemu-q35, 6.1 -> 6.12" 5 - "1 unmatched" -- \
	env LC_ALL=C.UTF-8 "$cli" diff --all --width=100 --sysfs "$Q35" -C /dev/null "$LM" "$D612"
fits "diff --width=100: lines of 100 columns at most, aligned, the cpu's lists short, all in sight" 100 "…" all
has "diff --width=100: the cpu's own module, then the count of those both have" \
	"  acpi_cpufreq (11 in both) -> (11 in both)"
has "diff --width=100: a devpath loses its start" "builtin    …evices/pci0000:00/0000:00:06.0  "
check "diff --all --width=60 under LC_ALL=C" 5 - "1 unmatched" -- \
	env LC_ALL=C "$cli" diff --all --width=60 --sysfs "$Q35" -C /dev/null "$LM" "$D612"
fits "diff --width=60 under LC_ALL=C: the lists short, cut with '...'" 60 "..."
n=$((n + 1))
why=""
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$tmp/out" && why="a byte that is not ASCII"
report "diff --width under LC_ALL=C: ASCII only" "$why" "$tmp/out" out
# 6.1 -> 7.2 on qemu-q35: cpu0 loses seven crypto modules and acpi_cpufreq, keeps four; every one
# lost in sight at 200 columns, each left out at 120 counted, and none of them hidden behind the
# four kept (the lists are whole at 400)
"$cli" diff --all --sysfs "$Q35" -C /dev/null "$LM" "$D72" >"$tmp/piped" 2>/dev/null
check "diff --all --width=200 on qemu-q35, 6.1 -> 7.2" 0 - "" -- \
	env LC_ALL=C.UTF-8 "$cli" diff --all --width=200 --sysfs "$Q35" -C /dev/null "$LM" "$D72"
fits "diff --width=200, 6.1 -> 7.2: every module cpu0 loses in sight" 200 "…" all
has "diff --width=200, 6.1 -> 7.2: the eight lost, then the four kept counted" \
	"  sha1_ssse3 sha256_ssse3 sha512_ssse3 ghash_clmulni_intel crc32c_intel crc32_pclmul crct10dif_pclmul acpi_cpufreq (4 in both) -> (4 in both)"
check "diff --all --width=120 on qemu-q35, 6.1 -> 7.2" 0 - "" -- \
	env LC_ALL=C.UTF-8 "$cli" diff --all --width=120 --sysfs "$Q35" -C /dev/null "$LM" "$D72"
fits "diff --width=120, 6.1 -> 7.2: cpu0's lost modules first, those left out counted" 120 "…"
has "diff --width=120, 6.1 -> 7.2: cpu0's line" "  sha1_ssse3 sha256_ssse3 sha512_ssse3 (+5 more, 4 in both)"
"$cli" diff --all --sysfs "$Q35" -C /dev/null "$LM" "$D612" >"$tmp/piped" 2>/dev/null
# piped, $COLUMNS or not, the tab-separated lines of before, nothing cut
check "diff piped with COLUMNS=40: the tab-separated golden" 4 diff-612 "2 lost" -- \
	env COLUMNS=40 "$cli" diff --sysfs "$data/sysfs/kernel-upgrade" -C /dev/null "$LM" "$D612"
check "diff piped with COLUMNS=40 on qemu-q35: the cpu's lists whole" 5 - "1 unmatched" -- \
	env COLUMNS=40 "$cli" diff --all --sysfs "$Q35" -C /dev/null "$LM" "$D612"
n=$((n + 1))
why=""
cmp -s "$tmp/raw" "$tmp/piped" || why="not the output without \$COLUMNS"
[ "$(awk -F '\t' '$2 == "/devices/system/cpu" { print length($0) }' "$tmp/raw")" = 913 ] ||
	why="${why:+$why; }the cpu's lists are not whole"
report "diff piped: COLUMNS ignored, the cpu's lists whole" "$why" "$tmp/out" out
check "diff --width with --json: a usage error" 2 - "^modalias diff: --width and --json cannot be used together\$" -- \
	"$cli" diff --json --width=80 --sysfs "$Q35" -C /dev/null "$LM" "$D612"
check "diff --width=0: a usage error" 2 - "^modalias diff: --width takes a number of columns, 30 or more (not '0')\$" -- \
	"$cli" diff --width=0 --sysfs "$Q35" -C /dev/null "$LM" "$D612"
check "diff -w 29: a usage error naming the minimum" 2 - "^modalias diff: --width takes a number of columns, 30 or more (not '29')\$" -- \
	"$cli" diff -w 29 --sysfs "$Q35" -C /dev/null "$LM" "$D612"
check "diff --all --width=30, the narrowest" 5 - "1 unmatched" -- \
	env LC_ALL=C.UTF-8 "$cli" diff --all --width=30 --sysfs "$Q35" -C /dev/null "$LM" "$D612"
n=$((n + 1))
why=$(python3 -c 'import sys
out = open(sys.argv[1], encoding="utf-8").read().splitlines()
piped = open(sys.argv[2], encoding="utf-8").read().splitlines()
assert len(out) == len(piped), "%d lines, piped %d" % (len(out), len(piped))
assert max(map(len, out)) <= 30, "a line of %d columns" % max(map(len, out))
assert len({l.index(" -> ") for l in out}) == 1, "\x27 -> \x27 not aligned"' "$tmp/out" "$tmp/piped" 2>&1)
report "diff --width=30: every line within 30 columns, aligned" "$why" "$tmp/out" out

echo "1..$n"
exit $fail
