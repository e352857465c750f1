#!/bin/sh
# modalias snapshot and --snapshot: a snapshot of each captured sysfs tree
# (tests/data/sysfs) answers list, explain, diff, firmware and the agent's
# dry-run coldplug exactly as the tree itself does; the document is the
# golden one, rewrites itself byte for byte, and carries hostile bytes and
# unreadable devices through; its kernel (unknown for a capture, or given)
# picks the tables under -d ROOT, and another architecture's tables are
# warned about.  TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
agent=${HOTPLUG_AGENT:?}
. "$here/cli-lib.sh"

D61="$data/linux-6.1.0-57-amd64" D612="$data/linux-6.12.118+deb12-amd64"
DM="$data/linux-6.1.0-57-amd64+modinfo"
Q="$data/sysfs/qemu-q35"

# same NAME -- A... -- B...: commands A and B print the same (standard
# output and error; lines of standard error matching $ignore, when set,
# left out; B's words changed back by the sed script $map_b, when set)
# and exit alike
same() {
	name=$1
	shift 2
	n=$((n + 1))
	a=""
	while [ "$1" != -- ]; do a="$a '$1'"; shift; done
	shift
	eval "$a" >"$tmp/a.out" 2>"$tmp/a.err"
	sa=$?
	"$@" >"$tmp/b.out" 2>"$tmp/b.err"
	sb=$?
	if [ -n "${map_b:-}" ]; then
		sed -i -e "$map_b" "$tmp/b.out" "$tmp/b.err"
	fi
	if [ -n "${ignore:-}" ]; then
		grep -v -e "$ignore" "$tmp/a.err" >"$tmp/a.kept"; mv "$tmp/a.kept" "$tmp/a.err"
		grep -v -e "$ignore" "$tmp/b.err" >"$tmp/b.kept"; mv "$tmp/b.kept" "$tmp/b.err"
	fi
	why=""
	if [ "$sa" != "$sb" ]; then
		why="exit status $sb with the snapshot, $sa without"
	elif ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
		why="standard output differs"
		diff "$tmp/a.out" "$tmp/b.out" | head -10 >"$tmp/diff"
	elif ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		why="standard error differs"
		diff "$tmp/a.err" "$tmp/b.err" | head -10 >"$tmp/diff"
	fi
	: >>"$tmp/diff"
	report "$name" "$why" "$tmp/diff" diff
	rm -f "$tmp/diff"
}

for tree in qemu-q35 host-vm kernel-upgrade; do
	S="$tmp/$tree.json"
	check "snapshot of $tree: written with -o" 0 - "devices" -- "$cli" snapshot --sysfs "$data/sysfs/$tree" -o "$S"
	same "list --snapshot of $tree is list --sysfs" -- \
		"$cli" list --sysfs "$data/sysfs/$tree" -m "$D61" -C /dev/null -- \
		"$cli" list --snapshot "$S" -m "$D61" -C /dev/null
	same "list --json --snapshot of $tree is list --json --sysfs" -- \
		"$cli" list --json --sysfs "$data/sysfs/$tree" -m "$D61" -C /dev/null -- \
		"$cli" list --json --snapshot "$S" -m "$D61" -C /dev/null
	same "list --tree --width=90 --snapshot of $tree is the tree's" -- \
		"$cli" list --tree --width=90 --sysfs "$data/sysfs/$tree" -m "$D61" -C /dev/null -- \
		"$cli" list --tree --width=90 --snapshot "$S" -m "$D61" -C /dev/null
	same "snapshot --snapshot of $tree writes it again, byte for byte" -- \
		cat "$S" -- sh -c "'$cli' snapshot --snapshot '$S' -o - 2>/dev/null"
	same "snapshot --snapshot of $tree says the same on standard error" -- \
		"$cli" snapshot --sysfs "$data/sysfs/$tree" -o "$tmp/again.json" -- \
		"$cli" snapshot --snapshot "$S" -o "$tmp/again.json"
done
S="$tmp/qemu-q35.json"
check "the qemu-q35 snapshot document (a captured tree: kernel and arch unknown)" 0 snapshot-qemu-q35 "" -- cat "$S"
n=$((n + 1))
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 1 and d["kernel"] is None and d["arch"] is None
assert all(set(x) >= {"devpath", "subsystem", "modalias", "driver"} for x in d["devices"])
x = [x for x in d["devices"] if x["devpath"] == "/devices/pci0000:00/0000:00:03.0"][0]
assert x["driver"] == "xhci_hcd", x' "$S" 2>"$tmp/err"; then
	echo "ok $n - the snapshot is JSON of the documented shape, the bound driver recorded"
else
	echo "not ok $n - the snapshot's shape"; sed 's/^/# /' "$tmp/err"; fail=1
fi

# explain: the same, but where the modalias came from
for dev in /devices/pci0000:00/0000:00:03.0/usb1/1-6/1-6.2/1-6.2:1.0 /devices/pci0000:00/0000:00:03.0 \
	/devices/pci0000:00/0000:00:01.0 /devices/pci0000:00/0000:00:00.0 1-6.2:1.0 virtio0 0000:00:1f.0; do
	"$cli" explain --sysfs "$Q" -m "$D61" -C /dev/null "$dev" 2>&1 | grep -v '^  from ' >"$tmp/e1"
	"$cli" explain --snapshot "$S" -m "$D61" -C /dev/null "$dev" 2>&1 | grep -v '^  from ' >"$tmp/e2"
	same "explain --snapshot $dev: as on the tree (but the origin line)" -- cat "$tmp/e1" -- cat "$tmp/e2"
done
check "explain --snapshot: the modalias comes from the snapshot" 0 - "" -- sh -c \
	"'$cli' explain --snapshot '$S' -m '$D61' -C /dev/null /devices/pci0000:00/0000:00:03.0 | grep -F '  from the snapshot $S'"
check "explain --snapshot: a device it does not hold" 2 - "no such device in the snapshot" -- \
	"$cli" explain --snapshot "$S" -m "$D61" -C /dev/null /devices/nosuch

K="$data/sysfs/kernel-upgrade"
same "diff --all --json --snapshot is diff on the tree (6.1 -> 6.12: 2 lost, exit 4)" -- \
	"$cli" diff --all --json --sysfs "$K" -C /dev/null "$D61" "$D612" -- \
	"$cli" diff --all --json --snapshot "$tmp/kernel-upgrade.json" -C /dev/null "$D61" "$D612"
# a snapshot's files, as a captured tree's, are looked for here, not on its
# machine, and said so: the same words, but for whose machine it is not
map_b="s/not the snapshot's/not the captured tree's/g"
same "firmware --json --snapshot is firmware on the tree, both said here" -- \
	"$cli" firmware --json --sysfs "$Q" -m "$DM" -C /dev/null -f "$data/firmware/lib/firmware" -- \
	"$cli" firmware --json --snapshot "$S" -m "$DM" -C /dev/null -f "$data/firmware/lib/firmware"
map_b=""
for tree in qemu-q35 host-vm; do
	same "hotplug --dry-run --coldplug --snapshot of $tree: the modules of the tree's walk" -- \
		"$agent" --dry-run --coldplug --sysfs "$data/sysfs/$tree" -m "$D61" -C /dev/null --log-level=crit \
		--hotplug-dir "$tmp/none" -- \
		"$agent" --dry-run --coldplug --snapshot "$tmp/$tree.json" -m "$D61" -C /dev/null --log-level=crit \
		--hotplug-dir "$tmp/none"
done

# a dry run over a snapshot: what it recorded loaded or built in is not
# to load ("loaded M", "builtin M"); the tree's bound drivers too (a
# snapshot of the captured tree records no modules: they are given here)
sed '$ s/^}$/, "modules": ["xhci_pci"], "builtin": ["bochs"], "builtin_drivers": []}/' "$tmp/qemu-q35.json" \
	>"$tmp/recorded.json"
"$agent" --dry-run --coldplug --snapshot "$tmp/recorded.json" -m "$D61" -C /dev/null --log-level=crit \
	--hotplug-dir "$tmp/none" >"$tmp/out" 2>"$tmp/err"
n=$((n + 1))
why=""
for line in "loaded xhci_pci" "builtin bochs" "loaded e1000e" "load i2c_i801"; do
	grep -qx "$line" "$tmp/out" || why="${why:+$why; }no '$line'"
done
! grep -qE "^load (xhci_pci|bochs|e1000e)$" "$tmp/out" || why="${why:+$why; }a recorded module to load"
report "hotplug --dry-run --coldplug --snapshot: the snapshot's loaded and builtin modules are not to load" "$why" \
	"$tmp/out" out "$tmp/err" err

# A snapshot keeps its kernel: given with --kernel/--arch for a captured
# tree; the readers take it as the version of -d ROOT (-S wins), say which
# kernel and which options when its tables are not there, and warn when the
# tables are another architecture's (by their name, else their modules.dep)
S61="$tmp/q35-61.json"
check "snapshot --kernel --arch: recorded" 0 - "" -- "$cli" snapshot --sysfs "$Q" --kernel 6.1.0-57-amd64 \
	--arch x86_64 -o "$S61"
check "snapshot --kernel: the document says it" 0 - "" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["kernel"], d["arch"]) == ("6.1.0-57-amd64", "x86_64"), d' "$S61"
check "snapshot --kernel: not a release" 2 - "is not a kernel release" -- "$cli" snapshot --sysfs "$Q" --kernel ../x
check "snapshot --arch: not a machine name (an escape sequence), escaped" 2 - "--arch 'x\\\\x1b\\[2J' is not a machine name" -- \
	"$cli" snapshot --sysfs "$Q" --arch "$(printf 'x\033[2J')" -o "$tmp/arch.json"
n=$((n + 1))
[ ! -e "$tmp/arch.json" ] && report "snapshot --arch refused: nothing written" "" ||
	report "snapshot --arch refused: nothing written" "written" "$tmp/arch.json" out
mkdir -p "$tmp/root/lib/modules" "$tmp/noroot/lib/modules"
ln -s "$D61" "$tmp/root/lib/modules/6.1.0-57-amd64"
ln -s "$D612" "$tmp/root/lib/modules/6.12.118+deb12-amd64"
same "list --snapshot -d ROOT: the tables of the snapshot's kernel, ROOT/lib/modules/6.1.0-57-amd64" -- \
	"$cli" list --sysfs "$Q" -m "$D61" -C /dev/null -- "$cli" list --snapshot "$S61" -d "$tmp/root" -C /dev/null
check "list --snapshot -d ROOT -S VERSION: -S wins, said as tables of another kernel than the snapshot's" 0 - \
	"the module tables are kernel 6.12.118+deb12-amd64's .*not the machine's (6.1.0-57-amd64)" -- \
	"$cli" list --snapshot "$S61" -d "$tmp/root" -S 6.12.118+deb12-amd64 -C /dev/null
check "list --snapshot -d ROOT without the snapshot's kernel: the kernel and the options named" 2 - \
	"the snapshot is of kernel 6.1.0-57-amd64, whose module tables are not in $tmp/noroot/lib/modules/6.1.0-57-amd64: give -d ROOT.*-S VERSION or -m DIR" -- \
	"$cli" list --snapshot "$S61" -d "$tmp/noroot" -C /dev/null
check "explain --snapshot -d ROOT: likewise" 2 - "the snapshot is of kernel 6.1.0-57-amd64" -- \
	"$cli" explain --snapshot "$S61" -d "$tmp/noroot" -C /dev/null /devices/pci0000:00/0000:00:03.0
check "firmware --snapshot -d ROOT: likewise" 2 - "the snapshot is of kernel 6.1.0-57-amd64" -- \
	"$cli" firmware --snapshot "$S61" -d "$tmp/noroot" -C /dev/null
# a snapshot that records no kernel (a capture's): the release uname gives
# is this machine's, and said to be
rel=$(uname -r)
check "list --snapshot of no kernel, -d ROOT without this machine's release: says the snapshot records none" 2 - \
	"the snapshot does not record its kernel, and $tmp/noroot/lib/modules/$rel (of this machine's release) is no module directory: give -S VERSION" -- \
	"$cli" list --snapshot "$tmp/qemu-q35.json" -d "$tmp/noroot" -C /dev/null
mkdir -p "$tmp/thisroot/lib/modules"
ln -s "$D61" "$tmp/thisroot/lib/modules/$rel"
check "list --snapshot of no kernel, -d ROOT with this machine's release: read with it, said not known to be its" 0 - \
	"the snapshot does not record its kernel: read with the module tables of this machine's ($rel), not known to be its" -- \
	"$cli" list --snapshot "$tmp/qemu-q35.json" -d "$tmp/thisroot" -C /dev/null
A64="$data/linux-6.12.118+deb12-arm64"
ln -s "$A64" "$tmp/some-tables"
check "list --snapshot of an x86_64 machine, arm64 tables (by their name): a warning" 0 - \
	"warning: the snapshot's machine is x86_64 (arch/x86), the module tables of $A64 are for arch/arm64" -- \
	"$cli" list --snapshot "$S61" -m "$A64" -C /dev/null
check "list --snapshot, arm64 tables of no telling name: by their modules.dep" 0 - \
	"the module tables of $tmp/some-tables are for arch/arm64" -- "$cli" list --snapshot "$S61" -m "$tmp/some-tables" -C /dev/null
check "diff --snapshot to arm64 tables: a warning" 4 - "are for arch/arm64" -- \
	"$cli" diff --snapshot "$S61" -C /dev/null "$D61" "$A64"
check "list --snapshot, tables of its architecture: no warning" 0 - "" -- sh -c \
	"'$cli' list --snapshot '$S61' -m '$D612' -C /dev/null 2>&1 >/dev/null | grep -c warning | grep -qx 0"
# this machine's own /sys: its architecture is uname -m's; a captured tree
# has none, but FROM and TO of two architectures are said apart
here=$(uname -m)
if [ "$here" = x86_64 ] && [ -d /sys/devices ]; then
	check "list on this x86_64 machine, arm64 tables: a warning" 0 - \
		"warning: this machine is x86_64 (arch/x86), the module tables of $A64 are for arch/arm64" -- \
		"$cli" list -m "$A64" -C /dev/null
else
	n=$((n + 1)); echo "ok $n - list on this machine, arm64 tables # SKIP not an x86_64 machine with /sys"
fi
check "diff of a captured tree, amd64 to arm64 tables: a warning" 4 - \
	"warning: the module tables of $D61 are for arch/x86, those of $A64 for arch/arm64" -- \
	"$cli" diff --sysfs "$Q" -C /dev/null "$D61" "$A64"
check "diff of a captured tree, two amd64 tables: no warning" 0 - "" -- sh -c \
	"'$cli' diff --sysfs '$Q' -C /dev/null '$D61' '$D612' 2>&1 >/dev/null | grep -c warning | grep -qx 0"

# bytes that are not UTF-8 and a device whose modalias cannot be read
# travel through the document
H="$tmp/hostile/sys/devices/platform"
mkdir -p "$H/bad$(printf '\377')dev" "$H/unreadable" "$H/ok"
printf 'platform:caf\303\251\376\n' >"$H/bad$(printf '\377')dev/modalias"
printf 'DRIVER=x\n' >"$H/bad$(printf '\377')dev/uevent"
: >"$H/unreadable/uevent"
mkdir "$H/unreadable/modalias"
printf 'platform:pcspkr\n' >"$H/ok/modalias"
: >"$H/ok/uevent"
check "snapshot of a tree with a directory for a modalias: recorded, exit 2" 2 - "1 of them recorded with the error" -- \
	"$cli" snapshot --sysfs "$tmp/hostile/sys" -o "$tmp/hostile.json"
# (reading sysfs, the library says which file it could not read)
ignore='^modalias: cannot read'
same "list --snapshot of it: the same lines, the same error, the same status" -- \
	"$cli" list --sysfs "$tmp/hostile/sys" -m "$D61" -C /dev/null -- \
	"$cli" list --snapshot "$tmp/hostile.json" -m "$D61" -C /dev/null
ignore=""
same "snapshot --snapshot of it writes it again, byte for byte" -- \
	cat "$tmp/hostile.json" -- sh -c "'$cli' snapshot --snapshot '$tmp/hostile.json' 2>/dev/null; true"
n=$((n + 1))
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
by = {x["devpath"]: x for x in d["devices"]}
assert by["/devices/platform/bad\u00ffdev"]["modalias"] == "platform:café\u00fe", by
assert by["/devices/platform/unreadable"]["modalias"] is None and by["/devices/platform/unreadable"]["errno"] == 21, by' \
	"$tmp/hostile.json" 2>"$tmp/err"; then
	echo "ok $n - hostile bytes escaped, the unreadable device recorded with its errno"
else
	echo "not ok $n - hostile bytes and errors in the document"; sed 's/^/# /' "$tmp/err"; fail=1
fi

# -o: a FIFO or a device is refused, neither opened nor replaced (standard
# output is -o -); a symlink stays
mkfifo "$tmp/fifo"
check "snapshot -o FIFO: refused, not opened (no reader needed)" 2 - "fifo: not a regular file (-o - writes to standard output)" -- \
	timeout 10 "$cli" snapshot --sysfs "$Q" -o "$tmp/fifo"
check "snapshot -o /dev/null: refused" 2 - "/dev/null: not a regular file" -- \
	"$cli" snapshot --sysfs "$Q" -o /dev/null
check "snapshot -o '': a usage error" 2 - "^modalias snapshot: -o needs a FILE; - for standard output\$" -- \
	"$cli" snapshot --sysfs "$Q" -o ''
pointed "snapshot -o ''" snapshot
# -q: the device count not said; with -o the file is written all the same,
# without it nothing is printed: the exit status alone
"$cli" snapshot --sysfs "$Q" -o "$tmp/loud.json" 2>/dev/null
check "snapshot -q -o FILE: exit 0" 0 - "" -- "$cli" snapshot -q --sysfs "$Q" -o "$tmp/quiet.json"
n=$((n + 1))
why=""
[ -s "$tmp/err" ] && why="standard error is not empty"
cmp -s "$tmp/quiet.json" "$tmp/loud.json" || why="${why:+$why; }the file differs from the one written without -q"
report "snapshot -q -o FILE: nothing said, the same file written" "$why" "$tmp/err" err
check "snapshot --quiet: exit 0, nothing printed" 0 - "" -- "$cli" snapshot --quiet --sysfs "$Q"
n=$((n + 1))
why=""
[ -s "$tmp/raw" ] && why="standard output is not empty"
[ -s "$tmp/err" ] && why="${why:+$why; }standard error is not empty"
report "snapshot --quiet: neither the document nor the count" "$why" "$tmp/raw" out "$tmp/err" err
n=$((n + 1))
if [ -p "$tmp/fifo" ] && [ -c /dev/null ]; then
	echo "ok $n - snapshot -o FIFO, /dev/null: both left as they were"
else
	echo "not ok $n - snapshot -o FIFO, /dev/null: replaced"; fail=1
fi
: >"$tmp/target.json"
ln -s "$tmp/target.json" "$tmp/link.json"
"$cli" snapshot --sysfs "$Q" -o "$tmp/link.json" 2>/dev/null
n=$((n + 1))
if [ -L "$tmp/link.json" ] && cmp -s "$tmp/target.json" "$S"; then
	echo "ok $n - snapshot -o SYMLINK: the file it points to replaced, the link kept"
else
	echo "not ok $n - snapshot -o SYMLINK"; fail=1
fi
check "--sysfs and --snapshot together" 2 - "exclude each other" -- \
	"$cli" list --sysfs "$Q" --snapshot "$S"
check "snapshot: -o into a directory that is not there" 2 - "nonexistent" -- \
	"$cli" snapshot --sysfs "$Q" -o "$tmp/nonexistent/s.json"
check "hotplug --snapshot without --dry-run" 2 - "goes with --dry-run --coldplug" -- \
	"$agent" --coldplug --snapshot "$S"
echo "1..$n"
exit $fail
