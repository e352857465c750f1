# tests/bad-input/rows-bounded.sh - bad-input rows: whole files read bounded: FIFOs, endless and huge files (issue 13 item 7).
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

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
	err: "modalias: cannot open @TMP@/r/m/modules.alias: a kernel file (procfs, sysfs…): reading may change it
modalias resolve: cannot load the module tables of @TMP@/r/m: Wrong medium type" exit: 2 out: '' \
	also: 'refused before it is opened: a table, a map, a snapshot, a names file or a configuration is never read from procfs, sysfs, debugfs, tracefs or securityfs (/proc/kmsg would hand over the messages syslog waits for)' \
	fixed: 'libmodalias/table.c `slurp`, libmodalias/maps.c, cli/cli-config.c, libmodalias/sysfs.c: a file that reports size 0 and never ends was read until memory ran out; one bounded reader now (shared/read-file.c `read_file`); and since, a table of a kernel file system was read at all' \
	-- t10 "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
truncate -s 65M "$r/m/modules.alias"
row read-alias-huge in: 'modules.alias a 65 MiB file (sparse: holes, no line)' \
	err: "modalias: cannot read @TMP@/r/m/modules.alias: larger than 64 MiB
modalias resolve: cannot load the module tables of @TMP@/r/m: File too large" exit: 2 out: '' \
	also: 'stops at the 64 MiB bound, before reading' \
	-- t10 "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
conf "[modules]\ndirectory=$D\ntables=/proc/self/pagemap\n"
row read-conf-table-pagemap in: '`--settings`: `[modules] tables=/proc/self/pagemap`' \
	err: "modalias resolve: @TMP@/r/c.conf: [modules] tables: a table file that cannot be read (/proc/self/pagemap: a kernel file (procfs, sysfs…): reading may change it)" exit: 2 out: '' \
	-- t10 "$cli" --settings "$r/c.conf" resolve -C /dev/null acpi:PNP0C0A:
row read-map-pagemap in: '`map /proc/self/pagemap`' \
	err: "modalias map: cannot open /proc/self/pagemap: a kernel file (procfs, sysfs…): reading may change it" exit: 2 out: '' \
	-- t10 "$cli" map /proc/self/pagemap
row read-conf-pagemap in: '`--settings /proc/self/pagemap`' \
	err: "modalias: --settings /proc/self/pagemap: a kernel file (procfs, sysfs…): reading may change it" exit: 2 out: '' \
	-- t10 "$cli" --settings /proc/self/pagemap parse platform:pcspkr
row read-conf-dev-zero in: '`--settings /dev/zero`' \
	err: "modalias: --settings /dev/zero: not a regular file" exit: 2 out: '' also: 'refused before it is opened (it was read, to 1 MiB)' \
	fixed: 'shared/read-file.c: `READ_FILE_DEVICE` let any character device named as a configuration be opened and read by root; now only the null device, known (O_PATH, fstat) before any open' \
	-- t10 "$cli" --settings /dev/zero parse platform:pcspkr
fresh
mkfifo "$r/c.conf"
row read-conf-fifo in: '`--settings` a FIFO nobody writes' \
	err: "modalias: --settings @TMP@/r/c.conf: not a regular file" exit: 2 out: '' \
	fixed: 'cli/cli-config.c `cli_config_load`: a FIFO as the configuration blocked the command (and the agent) for ever' \
	-- t10 "$cli" --settings "$r/c.conf" parse platform:pcspkr
row read-conf-dev-null in: '`--settings /dev/null` (the control row: a device reads as empty)' \
	err: '' exit: 0 out: "platform:pcspkr
${TAB}platform
${TAB}name=pcspkr" -- t10 "$cli" --settings /dev/null parse platform:pcspkr
fresh
mkfifo "$r/c.conf"
row read-conf-fifo-agent in: '`hotplug --settings` a FIFO (ACTION=add)' \
	err: "hotplug: --settings @TMP@/r/c.conf: not a regular file" exit: 2 out: '' \
	-- env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add MODALIAS=platform:pcspkr timeout -k 2 10 "$agent" --stderr --settings "$r/c.conf" --dry-run \
	--moddir "$D" -C /dev/null --hotplug-dir /nonexistent platform
row read-python-load-file-pagemap in: "Python \`Table.empty().load_file('/proc/self/pagemap')\`" \
	err: '' exit: 0 out: "Error 124 cannot open /proc/self/pagemap: a kernel file (procfs, sysfs…): reading may change it" skip-unless: have_pymod \
	also: 'stdout: the exception, errno EMEDIUMTYPE and the message naming the file' \
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
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	fixed: 'libmodalias/sysfs.c `sys_read`: a FIFO as a sysfs attribute (modalias, uevent) hung `list`, coldplug and `walk_sysfs()` for ever; attributes are opened O_NONBLOCK and only regular files read' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias" "$pcspkr/uevent"
mkfifo "$pcspkr/uevent"
row read-sysfs-uevent-fifo in: 'the same, the device without `modalias` and its `uevent` a FIFO' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/uevent: not a regular file
modalias list: /devices/platform/pcspkr: cannot read its modalias: Invalid argument
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
ln -s /proc/self/pagemap "$pcspkr/modalias"
row read-sysfs-modalias-pagemap in: 'the same, one `modalias` a symlink to `/proc/self/pagemap`' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: larger than 64 KiB
modalias list: /devices/platform/pcspkr: cannot read its modalias: File too large
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device' \
	-- t10 "$cli" list --no-modules --sysfs "$r/sys"
tree
rm "$pcspkr/modalias"
ln -s /dev/zero "$pcspkr/modalias"
row read-sysfs-modalias-dev-zero in: 'the same, one `modalias` a symlink to `/dev/zero`' \
	err: "modalias: cannot read @TMP@/r/sys/devices/platform/pcspkr/modalias: not a regular file
modalias list: /devices/platform/pcspkr: cannot read its modalias: Invalid argument
28 devices, 15 without a bound driver; 1 more whose modalias cannot be read (named above)" exit: 2 out-file: "$tmp/list-no-pcspkr" also: 'stdout: every other device; nothing read from the device' \
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
builtin pcspkr" also: 'the other device handled (its module/pcspkr without initstate: built in); the walk goes on' \
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
	err: '1 device, 1 without a bound driver, 0 that no module matches' exit: 0 out: "/devices/platform/pcspkr${TAB}platform:pcspkr${TAB}-${TAB}pcspkr:available" \
	also: 'the state read without blocking: not loaded' \
	fixed: 'cli/modalias.c `module_state`: a FIFO as a module'"'"'s initstate hung `modalias list`' \
	-- t10 "$cli" list --sysfs "$r/sys" --moddir "$D" -C /dev/null
minisys
rm "$r/sys/devices/platform/serial8250/uevent"
echo live >"$r/sys/module/pcspkr/initstate"
row read-list-initstate-live in: "the same, \`initstate\` a regular file saying \`live\` (the control row)" \
	err: '1 device, 1 without a bound driver, 0 that no module matches' exit: 0 out: "/devices/platform/pcspkr${TAB}platform:pcspkr${TAB}-${TAB}pcspkr:loaded" \
	-- t10 "$cli" list --sysfs "$r/sys" --moddir "$D" -C /dev/null
