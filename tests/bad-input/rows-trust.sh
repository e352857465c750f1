# tests/bad-input/rows-trust.sh - bad-input rows: whose files root acts on: handlers, hung handlers, coldplug trigger, the index cache.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

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
confrow conf-handler-timeout-zero '`--settings`: `[agent] handler-timeout=0`' \
	"@TMP@/r/c.conf:2: [agent] handler-timeout: not a number of seconds from 1 to 86400"
conf "[agent]\ncoldplug-timeout=99999\n"
confrow conf-coldplug-timeout-big '`--settings`: `[agent] coldplug-timeout=99999`' \
	"@TMP@/r/c.conf:2: [agent] coldplug-timeout: not a number of seconds from 1 to 3600"

# --coldplug=trigger writes "add" only to regular uevent files reached
# without a symlink below the sysfs root, on sysfs; the old agent followed
# both, and wrote to any file.  The stand-in kernel's shim tells the copied
# tree as sysfs (FAKE_KERNEL_SYSFS), where the checks below are the ones
# that hold.
assysfs() { env LD_PRELOAD="$G_TEST_BUILDDIR/shim/.libs/fake-kernel.so" FAKE_KERNEL_SYSFS="$r/sys" "$@"; }
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
	-- assysfs "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
trigtree
mkdir "$r/sys/devices/platform/fifo"
echo platform:fifo >"$r/sys/devices/platform/fifo/modalias"
mkfifo "$r/sys/devices/platform/fifo/uevent"
row trigger-uevent-fifo in: '`hotplug --coldplug=trigger --sysfs @TMP@/r/sys`: one device'"'"'s `uevent` a FIFO nobody reads' \
	err: 'hotplug: @TMP@/r/sys/devices/platform/fifo/uevent: cannot trigger: not a regular file' exit: 0 out: '' \
	check: 'test "$(cat "$r/sys/devices/platform/good/uevent")" = add' also: 'no hang; the good device'"'"'s `uevent` gets `add`' \
	fixed: 'cli/hotplug.c `coldplug_trigger_one`: opening a FIFO `uevent` for writing waited for a reader for ever' \
	-- assysfs "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
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
	-- assysfs "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
trigtree
mkdir "$r/sys/devices/platform/linked"
echo platform:linked >"$r/sys/devices/platform/linked/modalias"
ln "$r/victim" "$r/sys/devices/platform/linked/uevent"
row trigger-not-sysfs in: '`hotplug --coldplug=trigger --sysfs @TMP@/r/sys`, a tree that is not sysfs (a captured one), one device'"'"'s `uevent` a hard link to another file (@TMP@/r/victim)' \
	err: 'hotplug: coldplug: --coldplug=trigger writes "add" only to sysfs, and @TMP@/r/sys is not (a captured tree cannot replay its events; --coldplug=resolve loads what its devices want): nothing written' exit: 2 out: '' \
	check: 'test "$(cat "$r/victim")" = precious && test ! -s "$r/sys/devices/platform/good/uevent"' \
	also: 'the other file and the tree unchanged' \
	fixed: 'cli/hotplug-coldplug.c `uevent_open`: `add` was written into every regular `uevent` file under the root, a captured tree'"'"'s own (475 of them in qemu-q35) or a hard link to any file' \
	-- "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$D" -C /dev/null --hotplug-dir /nonexistent
row trigger-no-tables in: '`hotplug --coldplug=trigger --sysfs @TMP@/r/sys --moddir @TMP@/r/none`: the same tree, and no module tables (a host without /lib/modules for its kernel)' \
	err: 'hotplug: coldplug: --coldplug=trigger writes "add" only to sysfs, and @TMP@/r/sys is not (a captured tree cannot replay its events; --coldplug=resolve loads what its devices want): nothing written' exit: 2 out: '' \
	check: 'test "$(cat "$r/victim")" = precious && test ! -s "$r/sys/devices/platform/good/uevent"' \
	also: 'the tree unchanged; trigger loads nothing, so the tables are not opened' \
	fixed: 'cli/hotplug.c: one-shot trigger opened the module tables it never uses, and failed on them (exit 1) before its own check' \
	-- "$agent" --coldplug=trigger --sysfs "$r/sys" --moddir "$r/none" -C /dev/null --hotplug-dir /nonexistent

# ---- the index cache: whose it is, and damage ---------------------------------------
forge=${G_TEST_BUILDDIR:?}/bad-input/cache-forge
E1000E=pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
# DIR (nobody's): nobody's own cache of the bundled table, e1000e renamed
# evil_x in it and the checksum made good again
forged_by_nobody() {
	mkdir -p "$1" && chown nobody:nogroup "$1" &&
		as_nobody env MODALIAS_CACHE_DIR="$1" "$cli" --settings /dev/null resolve -m "$D" -C /dev/null "$E1000E" >/dev/null &&
		as_nobody "$forge" "$1/$idx" e1000e evil_x >/dev/null
}
# nobody runs modalias (through env) and the forger, and reads tests/data
nobody_forges() { nobody_reaches "$cli" "$forge" "$D" "$D/modules.alias"; }
fresh
nobody_forges && forged_by_nobody "$r/evil"
row cache-dir-untrusted in: "\`MODALIAS_CACHE_DIR\` a directory of nobody's, holding nobody's forged cache (e1000e renamed evil_x, checksum good)" \
	err: "modalias: index cache directory @TMP@/r/evil not used: @TMP@/r/evil: not owned by root" exit: 0 out: e1000e \
	unchanged: "$r/evil" check: "as_nobody env MODALIAS_CACHE_DIR=$r/evil $cli --config /dev/null resolve -m $D -C /dev/null $E1000E | grep -qx evil_x" \
	also: 'root answers from the text tables and writes nothing there; nobody, who trusts his own directory, is answered evil_x: the forged cache works wherever it is believed' \
	fixed: 'libmodalias/cache.c `modalias_table_open`: any cache directory (`cache=`, `$MODALIAS_CACHE_DIR`, the default) was read, so whoever could write it chose what root resolved and loaded; caches are now used only where shared/path-trust allows' \
	skip-unless: nobody_forges -- env MODALIAS_CACHE_DIR="$r/evil" "$cli" resolve -m "$D" -C /dev/null "$E1000E"
fresh
mkdir "$r/c"
nobody_forges && forged_by_nobody "$r/evil" && cp -p "$r/evil/$idx" "$r/c/$idx"
row cache-file-forged in: "root's cache directory holding a cache file of nobody's (forged: e1000e renamed evil_x, checksum good)" \
	err: "modalias: index cache not used: @TMP@/r/c/@IDX@: not owned by root" exit: 0 out: e1000e \
	check: "test \"\$(stat -c %u $r/c/$idx)\" = 0 && cmp -s $r/c/$idx $tmp/good.idx" \
	also: "answers from the text tables; the forged file is not read, and is replaced (renamed over, not written through) by root's own cache, equal to a fresh one" \
	fixed: 'libmodalias/cache.c: a cache file was read whoever owned it; now trust_openat() refuses a file not root'"'"'s alone (or the user'"'"'s own)' \
	skip-unless: nobody_forges -- env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$D" -C /dev/null "$E1000E"
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
	err: "modalias resolve: @TMP@/r/m: 1 malformed line skipped" exit: 0 out: battery \
	also: 'the run from the cache reports the count as the run from the text did (that one named the line too)' \
	fixed: 'libmodalias/cache.c: a run from the cache said nothing of the malformed lines; the count is kept in the cache' \
	-- env MODALIAS_CACHE_DIR="$r/c" "$cli" resolve -m "$r/m" -C /dev/null acpi:PNP0C0A:
# Two tmpfs mounts whose modules.alias are alike (the same inode number,
# size and time), the first sending e1000e's alias to floppy, mounted in
# turn at one path (@TMP@/r/m) in a mount namespace of the row's own: the
# cache built from the first is not used for the second.
other_mount() {
	unshare -m sh -c '
	set -e
	mount --make-rprivate /
	for d in a b m; do mkdir "$1/$d"; done
	for d in a b; do mount -t tmpfs -o mode=0755 none "$1/$d"; done
	sed "s/ e1000e\$/ floppy/" "$2/modules.alias" >"$1/a/modules.alias"
	cp "$2/modules.alias" "$1/b/modules.alias"
	touch -d @1700000000.123456789 "$1/a/modules.alias" "$1/b/modules.alias"
	test "$(stat -c %i:%s:%y "$1/a/modules.alias")" = "$(stat -c %i:%s:%y "$1/b/modules.alias")"
	mount --bind "$1/a" "$1/m"
	MODALIAS_CACHE_DIR="$1/c" "$3" resolve -m "$1/m" -C /dev/null "$4"
	umount "$1/m"
	mount --bind "$1/b" "$1/m"
	MODALIAS_CACHE_DIR="$1/c" "$3" resolve -v -m "$1/m" -C /dev/null "$4"
	' sh "$r" "$D" "$cli" "$E1000E"
}
fresh
idx_d=$idx
idx=modalias-$(printf %s "$r/m" | sha256sum | cut -d' ' -f1).idx # the SHA-256 of the path
row cache-other-mount in: "two tmpfs mounts whose \`modules.alias\` have the same inode number, size and time, the first sending e1000e's alias to floppy, mounted in turn at one path; the first one's index cache" \
	err-has: "modalias: @TMP@/r/c/@IDX@: index cache not used: @TMP@/r/m is another directory than the one it was built from" exit: 0 out: "floppy
e1000e" also: 'the first mount answers floppy from its own tables; the second e1000e, its cache rebuilt: a cache records its directory (path, device, inode) and each source'"'"'s device' \
	fixed: 'libmodalias/cache.c, stamp.c: a cache was named by a 32-bit hash of the path and checked against its sources'"'"' size, time and inode only, so the first mount'"'"'s cache answered floppy for the second, "from this index cache"; now the directory and every source are compared with their device, and the file is named by the SHA-256 of the path' \
	skip-unless: 'unshare -m true' -- other_mount
idx=$idx_d
