# tests/bad-input/rows-sysfs.sh - bad-input rows: sysfs trees: files that vanish, dangle, loop or cannot be read during a walk.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- sysfs: files that vanish or cannot be read ----------------------------------

golden="$here/../golden/list-host-vm-no-modules.out"
grep -v '^/devices/platform/pcspkr' "$golden" >"$tmp/list-no-pcspkr"
# (sysfs-vanish prints DEVPATH<TAB>MODALIAS, the walk's own answer)
grep -v '^/devices/pci0000:00/0000:00:01.0' "$golden" | cut -f1,2 >"$tmp/list-no-01"
pcspkr="$r/sys/devices/platform/pcspkr"
tree
rm "$pcspkr/modalias"
ln -s /nonexistent/modalias "$pcspkr/modalias"
row sysfs-dangling in: '`list --no-modules` of a captured tree where one `modalias` is a dangling symlink' \
	err: '29 devices, 16 without a bound driver' exit: 0 out-file: "$golden" \
	also: "stdout: the tree's golden list, that device's modalias from its uevent file" \
	-- "$cli" list --no-modules --sysfs "$r/sys"
tree
chmod 000 "$pcspkr/modalias"
row sysfs-unreadable in: 'the same, one `modalias` mode 000, run as nobody' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: Permission denied
modalias list: /devices/platform/pcspkr: cannot read its modalias: Permission denied
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device, as in the golden list' \
	skip-unless: have_setpriv -- as_nobody "$cli" --settings /dev/null list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
mkdir "$pcspkr/modalias"
row sysfs-modalias-dir in: 'the same, one `modalias` a directory' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: Is a directory
modalias list: /devices/platform/pcspkr: cannot read its modalias: Is a directory
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
ln -s modalias "$pcspkr/modalias"
row sysfs-modalias-loop in: 'the same, one `modalias` a symlink to itself' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: Too many levels of symbolic links
modalias list: /devices/platform/pcspkr: cannot read its modalias: Too many levels of symbolic links
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
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
