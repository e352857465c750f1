# tests/bad-input/rows-agent.sh - bad-input rows: the hotplug agent: SUBSYSTEM values, hotplug.d, netlink messages not from the kernel.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- the hotplug agent: SUBSYSTEM, hotplug.d ------------------------------------

for s in 'parent:../x' 'slash:a/b' 'dotdot:..' 'dot:.' 'through-default:net/../default' 'empty:'; do
	name=${s%%:*} s=${s#*:}
	hpdir
	row "subsystem-$name" in: "\`hotplug '$s'\` (ACTION=add)" \
		err: "hotplug: refusing SUBSYSTEM '$s'" exit: 2 out: '' check: 'test ! -s "$r/log"' \
		also: 'no handler run, no module loaded' \
		-- env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add MODALIAS=platform:pcspkr "$agent" --stderr --dry-run --moddir "$D" -C /dev/null \
		--hotplug-dir "$r/hp" "$s"
done
hpdir
row subsystem-newline in: '`hotplug` with a SUBSYSTEM holding a newline (`usb\nhotplug: inserted x`, a forged log line)' \
	err: "hotplug: refusing SUBSYSTEM 'usb\\nhotplug: inserted x'" exit: 2 out: '' check: 'test ! -s "$r/log"' \
	also: 'the newline escaped in the message: one log line; no handler run, no module loaded' \
	fixed: 'cli/hotplug.c `subsystem_ok`: a SUBSYSTEM with a control character was accepted, and quoted raw in syslog (a newline forges a log line); it is refused, and quoted escaped' \
	-- env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add MODALIAS=platform:pcspkr "$agent" --stderr --dry-run --moddir "$D" -C /dev/null \
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
fresh
row preload-without-daemon in: '`hotplug --coldplug --preload=FILE` (one-shot: nothing would write the list back), and `--preload` with a relative path' \
	err: 'hotplug: --preload=FILE goes with --daemon --coldplug, and FILE is an absolute path' exit: 2 out: '' \
	also: 'nothing loaded, no file written; /agent/preload runs the daemon with a list made by another user (not used, not replaced)' \
	check: 'test ! -e "$r/preload"' \
	-- "$agent" --coldplug --dry-run --stderr --moddir "$D" -C /dev/null --preload="$r/preload"
