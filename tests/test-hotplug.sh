#!/bin/sh
# The kernel-helper mode of the hotplug agent: the /sbin/hotplug rules on
# temporary hotplug.d trees (order, filters, symlinks, argv, environment,
# exit statuses, bad SUBSYSTEM, unsafe permissions), how handlers start
# (a binary and a script, clean signals and descriptors), the handler
# timeout, the command line, and module loading (dry run) for real recorded
# uevent environments.  TAP on stdout.  (Hostile hotplug.d trees and the
# check-to-exec race: tests/bad-input.)
set -u
here=$(cd "$(dirname "$0")" && pwd)
data="$here/data"
agent=${HOTPLUG_AGENT:?}
D="$data/linux-6.1.0-57-amd64"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MODALIAS_CACHE_DIR="$tmp/cache"
# env -i drops it: the agent (root) would keep its index caches in /var/cache/modalias
cache_env="MODALIAS_CACHE_DIR=$MODALIAS_CACHE_DIR"
n=0
fail=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
expect() { # NAME WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else
		notok "$1"
		printf '%s\n' "--- wanted" "$2" "--- got" "$3" | sed 's/^/# /'
	fi
}

hp="$tmp/hotplug.d"
mkdir -p "$hp/net" "$hp/default" "$tmp/elsewhere"
log="$tmp/log"
handler() { # PATH [EXIT]: a script that logs its name (a script sees $0 as /dev/fd/3)
	printf '#!/bin/sh\necho "%s argc=$# 1=$1 ACTION=$ACTION FOO=$FOO" >> %s\nexit %s\n' "$(basename "$1")" "$log" \
		"${2:-0}" > "$1"
	chmod 755 "$1"
}
# order: subsystem directory first, then default/, each in C-locale byte order
handler "$hp/net/b.hotplug"
handler "$hp/net/B.hotplug"
handler "$hp/net/10-a.hotplug" 3
handler "$hp/net/9-z.hotplug"
handler "$hp/default/00-default.hotplug"
handler "$hp/default/zz.hotplug"
# filters: only *.hotplug, no dot-files, executable regular files (symlinks followed)
handler "$hp/net/not-a-handler.sh"
handler "$hp/net/.hidden.hotplug"
printf '#!/bin/sh\necho noexec >> %s\n' "$log" > "$hp/net/noexec.hotplug"
chmod 644 "$hp/net/noexec.hotplug"
mkdir "$hp/net/dir.hotplug"
handler "$tmp/elsewhere/target"
ln -s "$tmp/elsewhere/target" "$hp/net/link.hotplug"
ln -s "$tmp/nowhere" "$hp/net/dangling.hotplug"
ln -s loop1.hotplug "$hp/net/loop2.hotplug"
ln -s loop2.hotplug "$hp/net/loop1.hotplug"
# executable, but not by the kernel: no format it knows, an interpreter missing
printf 'garbage\n' >"$hp/net/garbage.hotplug"
printf '#!/nonexistent/sh\n' >"$hp/net/nointerp.hotplug"
chmod 755 "$hp/net/garbage.hotplug" "$hp/net/nointerp.hotplug"
# unsafe: writable by others, or not owned by root
handler "$hp/net/unsafe-w.hotplug"
chmod 757 "$hp/net/unsafe-w.hotplug"
handler "$hp/net/unsafe-owner.hotplug"
chown nobody "$hp/net/unsafe-owner.hotplug" 2>/dev/null || chown 65534 "$hp/net/unsafe-owner.hotplug"

env -i ACTION=change FOO=bar PATH=/usr/bin:/bin "$agent" --stderr --log-level info --hotplug-dir "$hp" net \
	>"$tmp/out" 2>"$tmp/err"
status=$?
expect "helper exits 0 whatever its handlers do" 0 "$status"
expect "handlers run in order, with argv (path, SUBSYSTEM) and the environment" \
"10-a.hotplug argc=1 1=net ACTION=change FOO=bar
9-z.hotplug argc=1 1=net ACTION=change FOO=bar
B.hotplug argc=1 1=net ACTION=change FOO=bar
b.hotplug argc=1 1=net ACTION=change FOO=bar
target argc=1 1=net ACTION=change FOO=bar
00-default.hotplug argc=1 1=net ACTION=change FOO=bar
zz.hotplug argc=1 1=net ACTION=change FOO=bar" "$(cat "$log")"
for why in "noexec.hotplug: refused: not executable" "dir.hotplug: refused: a directory" \
	"dangling.hotplug: refused: $tmp/nowhere: No such file or directory" \
	"loop1.hotplug: refused: Too many levels of symbolic links" \
	"unsafe-w.hotplug: refused: writable by group or others" "unsafe-owner.hotplug: refused: not owned by root" \
	"10-a.hotplug: exited with status 3" "garbage.hotplug: cannot run it: Exec format error" \
	"nointerp.hotplug: cannot run it: No such file or directory"; do
	if grep -q "$why" "$tmp/err"; then ok "logged: $why"; else notok "not logged: $why"; sed 's/^/# /' "$tmp/err"; fi
done
if grep -q "not-a-handler\|hidden" "$log" "$tmp/err"; then notok "non-handlers ignored silently"; else ok "non-handlers ignored silently"; fi
# a dry run says why a handler is left out on standard error, a file too
# (not only to syslog, which may be read by nobody)
: >"$log"
env -i ACTION=change PATH=/usr/bin:/bin "$agent" -n --hotplug-dir "$hp" net >"$tmp/out" 2>"$tmp/err"
if grep -q "unsafe-w.hotplug: refused: writable by group or others" "$tmp/err" && [ ! -s "$log" ]; then
	ok "a dry run logs a refused handler on standard error, not a terminal"
else
	notok "a dry run logs a refused handler on standard error, not a terminal"; sed 's/^/# /' "$tmp/err"
fi

# a missing subsystem directory: default/ still runs
: >"$log"
env -i ACTION=change "$agent" --hotplug-dir "$hp" sound
expect "default/ runs for a subsystem without a directory" \
"00-default.hotplug argc=1 1=sound ACTION=change FOO=
zz.hotplug argc=1 1=sound ACTION=change FOO=" "$(cat "$log")"

# bad SUBSYSTEM: refused, nothing runs
for bad in "../net" "net/../default" ".." "a/b" ""; do
	: >"$log"
	env -i ACTION=add "$agent" --stderr --hotplug-dir "$hp" "$bad" 2>"$tmp/err"
	status=$?
	if [ "$status" = 2 ] && [ ! -s "$log" ] && grep -q "refusing SUBSYSTEM" "$tmp/err"; then
		ok "SUBSYSTEM '$bad' refused"
	else
		notok "SUBSYSTEM '$bad' not refused (status $status)"
	fi
done

# no standard streams: the kernel may give none
: >"$log"
env -i ACTION=change "$agent" --hotplug-dir "$hp" net <&- >&- 2>&-
if grep -q "zz.hotplug" "$log"; then ok "runs with stdin/stdout/stderr closed"; else notok "fails with closed streams"; fi

# how a handler starts, a binary and a script (run from the descriptor that
# was checked: $0 is /dev/fd/3, kept open for the interpreter), whatever the
# agent was given: signals ignored, a descriptor left open, stdin a file
report="$tmp/report"
mkdir "$hp/clean"
cp "${G_TEST_BUILDDIR:?}/handler-report" "$hp/clean/10-binary.hotplug"
printf '#!/bin/sh\nexec %s script "$0" "$@"\n' "$G_TEST_BUILDDIR/handler-report" >"$hp/clean/20-script.hotplug"
chmod 755 "$hp/clean/10-binary.hotplug" "$hp/clean/20-script.hotplug"
(
	trap '' PIPE HUP
	exec 7<"$0"
	exec env -i HANDLER_REPORT="$report" "$agent" --hotplug-dir "$hp" clean <"$0" >"$tmp/out" 2>"$tmp/err"
)
z=0000000000000000
expect "a binary and a script handler start clean: no signal blocked or ignored, stdin /dev/null, no descriptor above 2 but the script" \
"binary argv0=$hp/clean/10-binary.hotplug argv1=clean SigBlk=$z SigIgn=$z pgrp=own fds=0:/dev/null,1:$tmp/out,2:$tmp/err
script argv0=/dev/fd/3 argv1=clean SigBlk=$z SigIgn=$z pgrp=own fds=0:/dev/null,1:$tmp/out,2:$tmp/err,3:$hp/clean/20-script.hotplug" \
	"$(cat "$report" 2>/dev/null)"

# a script runs as /dev/fd/3: without /dev/fd (a bare devtmpfs, no init
# made the link) it cannot, and the message says why; a binary still runs
if unshare -m true 2>/dev/null; then
	: >"$report"
	unshare -m sh -c 'mount -t tmpfs none /dev && mknod -m 666 /dev/null c 1 3 && exec "$@"' - \
		env -i HANDLER_REPORT="$report" "$agent" --stderr --hotplug-dir "$hp" clean >"$tmp/out" 2>"$tmp/err"
	expect "without /dev/fd a script handler is refused, saying why; a binary runs" \
"0 binary argv0=$hp/clean/10-binary.hotplug
hotplug: $hp/clean/20-script.hotplug: cannot run it: No such file or directory (a script runs as /dev/fd/3: no /dev/fd, or no /proc)" \
		"$? $(cut -d' ' -f1-2 "$report")
$(grep /clean/ "$tmp/err")"
else
	ok "without /dev/fd # SKIP no mount namespace of our own (unshare -m)"
fi

# a handler that hangs is killed (its process group: what it started too)
# after the timeout, and the next one runs; from the option and the config
mkdir "$hp/hang"
printf '#!/bin/sh\nsleep 1000 &\necho $$ $! >>%s/hung\nwait\n' "$tmp" >"$hp/hang/10-hang.hotplug"
handler "$hp/hang/20-next.hotplug"
chmod 755 "$hp/hang/10-hang.hotplug"
printf '[agent]\nhandler-timeout=1\n' >"$tmp/timeout.conf"
for how in "--handler-timeout=1" "--settings=$tmp/timeout.conf"; do
	: >"$log"
	: >"$tmp/hung"
	start=$(date +%s)
	env -i ACTION=change timeout 30 "$agent" --stderr "$how" --hotplug-dir "$hp" hang 2>"$tmp/err"
	status=$? took=$(($(date +%s) - start))
	alive=""
	for pid in $(cat "$tmp/hung"); do
		# gone, or a zombie whose parent (the handler, killed) is gone
		if [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then alive="$alive $pid"; fi
	done
	if [ "$status" = 0 ] && [ "$took" -le 10 ] && [ -z "$alive" ] && [ "$(wc -w <"$tmp/hung")" = 2 ] &&
		grep -qx "hotplug: $hp/hang/10-hang.hotplug: still running after 1 s: killed" "$tmp/err" &&
		grep -q "^20-next.hotplug argc=1 1=hang" "$log"; then
		ok "a hung handler killed after 1 s ($how), with what it started; the next one runs"
	else
		notok "a hung handler ($how): exit $status after ${took}s, still alive:${alive:- none}"
		sed 's/^/# /' "$tmp/err" "$log"
	fi
done
for bad in 0 -1 86401; do
	env -i "$agent" --handler-timeout="$bad" net 2>"$tmp/err"
	status=$?
	expect "--handler-timeout=$bad: a usage error" \
		"2 hotplug: --handler-timeout=$bad: not a number of seconds from 1 to 86400" "$status $(cat "$tmp/err")"
done
for bad in 0 -1 3601; do
	env -i "$agent" --coldplug --coldplug-timeout="$bad" 2>"$tmp/err"
	status=$?
	expect "--coldplug-timeout=$bad: a usage error" \
		"2 hotplug: --coldplug-timeout=$bad: not a number of seconds from 1 to 3600" "$status $(cat "$tmp/err")"
done

# hotplug default: default/ runs once, not as the subsystem and again as default/
: >"$log"
env -i ACTION=change "$agent" --hotplug-dir "$hp" default
expect "hotplug default runs default/ once" \
"00-default.hotplug argc=1 1=default ACTION=change FOO=
zz.hotplug argc=1 1=default ACTION=change FOO=" "$(cat "$log")"

# the command line: an unknown option, operands, "--"
env -i "$agent" --nosuch net >"$tmp/out" 2>"$tmp/err"
expect "an unknown option is a usage error naming it" "2 hotplug: Unknown option --nosuch
Try 'hotplug --help'." "$? $(cat "$tmp/err")"
env -i "$agent" --hotplug-dir "$hp" net extra >"$tmp/out" 2>"$tmp/err"
expect "a second operand is a usage error naming it" "2 hotplug: unexpected argument 'extra'" "$? $(cat "$tmp/err")"
env -i "$agent" --hotplug-dir "$hp" >"$tmp/out" 2>"$tmp/err"
expect "no operand is a usage error" "2 hotplug: a SUBSYSTEM is needed (or --daemon, --coldplug)" "$? $(cat "$tmp/err")"
mkdir "$hp/-x"
handler "$hp/-x/dash.hotplug"
: >"$log"
env -i ACTION=change "$agent" --hotplug-dir "$hp" -- -x >"$tmp/out" 2>"$tmp/err"
expect "after --, an operand starting with - is the subsystem" "0 dash.hotplug argc=1 1=-x ACTION=change FOO=" \
	"$? $(grep dash "$log")"
env -i "$agent" --hotplug-dir "$hp" -- --daemon extra >"$tmp/out" 2>"$tmp/err"
expect "after --, two operands are a usage error" "2 hotplug: unexpected argument 'extra'" "$? $(cat "$tmp/err")"
env -i "$agent" --daemon -- x >"$tmp/out" 2>"$tmp/err"
expect "--daemon with an operand is a usage error" "2 hotplug: unexpected argument 'x'" "$? $(cat "$tmp/err")"

# dry run: modules and handlers printed, neither loaded nor run
: >"$log"
env -i "$cache_env" ACTION=add PRODUCT=46d/c52b/1200 TYPE=0/0/0 INTERFACE=3/1/1 \
	DEVPATH=/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0 \
	"$agent" --dry-run --moddir "$D" -C /dev/null --hotplug-dir "$hp" --sysfs /nonexistent usb >"$tmp/out"
expect "dry run: the modules and handlers, neither done" \
"event - add usb /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0
load usbhid
run $hp/default/00-default.hotplug usb
run $hp/default/zz.hotplug usb" "$(cat "$tmp/out")"
expect "dry run runs nothing" "" "$(cat "$log")"

# a dry run says what would happen to each module: "load M" only for one
# to insert; one in the kernel already is "loaded M" (the machine's
# /sys/module, or a device bound to its driver in a captured tree) or
# "builtin M" (the table's modules.builtin, or the machine's word)
env -i "$cache_env" ACTION=add MODALIAS=pci:v00008086d000010D3sv00008086sd00000000bc02sc00i00 \
	DEVPATH=/devices/pci0000:00/0000:00:02.0 "$agent" --dry-run --moddir "$D" -C /dev/null \
	--hotplug-dir /nonexistent --sysfs "$data/sysfs/qemu-q35" pci >"$tmp/out"
expect "dry run: the NIC bound to e1000e in the tree is loaded, not to load" \
"event - add pci /devices/pci0000:00/0000:00:02.0
loaded e1000e" "$(cat "$tmp/out")"
env -i "$cache_env" ACTION=add MODALIAS=test:dev:black DEVPATH=/devices/x "$agent" --dry-run -d "$data/load" \
	-S 9.9.9-test -C "$data/load/modprobe.d" --hotplug-dir /nonexistent --sysfs /nonexistent test >"$tmp/out"
expect "dry run: a blacklisted module is said so" "event - add test /devices/x
blacklisted mod_black" "$(cat "$tmp/out")"
"$agent" --dry-run --coldplug --moddir "$D" -C /dev/null --hotplug-dir /nonexistent --log-level=crit \
	--sysfs "$data/sysfs/host-vm" >"$tmp/out"
expect "dry run --coldplug: loaded, builtin and to load told apart, in the walk's order" \
"loaded virtio_pci
loaded virtio_balloon
loaded virtio_blk
loaded virtio_net
loaded vmw_vsock_virtio_transport
loaded virtio_rng
load pcspkr
builtin rtc_cmos
load aesni_intel
load sha1_ssse3
load sha256_ssse3
load sha512_ssse3
load ghash_clmulni_intel
load crc32c_intel
load crc32_pclmul
load crct10dif_pclmul" "$(grep -v '^coldplug ' "$tmp/out")"

# a modprobe.d alias to a module that does not exist: the library reports it
# through the callback alone (at info in its own log), the agent logs it once
printf 'alias test:dev:missing nosuchmod\n' >"$tmp/missing.conf"
env -i "$cache_env" ACTION=add MODALIAS=test:dev:missing DEVPATH=/devices/x "$agent" --stderr --dry-run \
	-m "$data/load/lib/modules/9.9.9-test" -C "$tmp/missing.conf" --hotplug-dir /nonexistent --sysfs /nonexistent \
	test >"$tmp/out" 2>"$tmp/err"
expect "a missing module is logged once, as an error, and nothing is loaded" \
"0 event - add test /devices/x
hotplug: nosuchmod: not found (No such file or directory)" "$? $(cat "$tmp/out" "$tmp/err")"

# real recorded events (tests/data/uevents): the legacy variables alone give
# the modules the event's own MODALIAS gives
python3 - "$data/uevents/uevents.txt" "$tmp/events" <<'PY'
import sys
blocks, cur = [], None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("# source:"):
        cur = {}
        blocks.append(cur)
    elif cur is not None and "=" in line:
        k, v = line.split("=", 1)
        cur[k] = v
out = open(sys.argv[2], "w")
n = 0
for b in blocks:
    m = b.get("MODALIAS", "")
    # pre-3.x USB strings have no interface number: the legacy variables give
    # today's string, which today's patterns match and the old one does not
    if b.get("SUBSYSTEM") == "usb" and m[-4:-2] != "in":
        continue
    if b.get("SUBSYSTEM") in ("usb", "pci") and m and ("INTERFACE" in b or "PCI_ID" in b):
        n += 1
        if n % 7:
            continue
        legacy = " ".join("%s=%s" % (k, v) for k, v in b.items() if k != "MODALIAS" and " " not in v)
        out.write("%s\t%s\t%s\n" % (b["SUBSYSTEM"], b["MODALIAS"], legacy))
PY
count=0
bad=0
while IFS="$(printf '\t')" read -r sub modalias legacy; do
	count=$((count + 1))
	# shellcheck disable=SC2086
	got=$(env -i "$cache_env" ACTION=add $legacy "$agent" --dry-run --moddir "$D" -C /dev/null --hotplug-dir /nonexistent \
		--sysfs /nonexistent "$sub" | grep '^load ' | sort)
	want=$(env -i "$cache_env" ACTION=add "MODALIAS=$modalias" "$agent" --dry-run --moddir "$D" -C /dev/null \
		--hotplug-dir /nonexistent --sysfs /nonexistent "$sub" | grep '^load ' | sort)
	if [ "$got" != "$want" ]; then
		bad=$((bad + 1))
		echo "# $sub $modalias: legacy gives [$got], MODALIAS gives [$want]"
	fi
done <"$tmp/events"
if [ "$count" -ge 150 ] && [ "$bad" = 0 ]; then
	ok "recorded events: legacy variables and MODALIAS load the same modules ($count events)"
else
	notok "recorded events: $bad of $count disagree"
fi
# the kernel-helper mode opens its tables as the CLI does, index cache
# included (\$MODALIAS_CACHE_DIR here; /var/cache/modalias for root by
# default): the first add event parses the tables and writes the cache, the
# second reads the cache and parses nothing (the library says so at info)
helper_cache="$tmp/helper-cache"
for i in 1 2; do
	env -i MODALIAS_CACHE_DIR="$helper_cache" ACTION=add MODALIAS=platform:pcspkr DEVPATH=/devices/platform/pcspkr \
		"$agent" --stderr --log-level=info --dry-run --moddir "$D" -C /dev/null --hotplug-dir /nonexistent \
		--sysfs /nonexistent platform >"$tmp/cached$i" 2>&1
	echo "exit $?, caches: $(ls "$helper_cache" 2>/dev/null | grep -c '^modalias-[0-9a-f]*\.idx$')" >>"$tmp/cached$i"
done
expect "helper mode: the first add event parses the tables and writes the index cache" \
"event - add platform /devices/platform/pcspkr
load pcspkr
exit 0, caches: 1" "$(cat "$tmp/cached1")"
expect "helper mode: a second add event reads the index cache, not the text" \
"hotplug: $helper_cache/$(ls "$helper_cache" 2>/dev/null): the tables of $D, from this index cache
event - add platform /devices/platform/pcspkr
load pcspkr
exit 0, caches: 1" "$(cat "$tmp/cached2")"

# No libkmod (an initramfs built from what ldd lists): every mode that would
# load modules says so and exits 1 (the helper still runs its handlers)
mkdir -p "$tmp/nokmod"
echo 'not a library' >"$tmp/nokmod/libkmod.so.2"
for mode in "--coldplug --sysfs $data/sysfs/host-vm" "--daemon --netlink-group=31" "usb"; do
	# shellcheck disable=SC2086
	env -i ACTION=add MODALIAS=platform:pcspkr LD_LIBRARY_PATH="$tmp/nokmod" "$agent" --stderr -m "$D" -C /dev/null \
		--hotplug-dir "$hp" $mode >/dev/null 2>"$tmp/err"
	status=$?
	expect "no libkmod: hotplug ${mode%% *} fails loudly" "1 hotplug: cannot load libkmod.so.2: modules cannot be loaded" \
		"$status $(grep -m1 libkmod "$tmp/err")"
done
# ... and the ELF note that tells an initramfs builder to copy libkmod
for elf in "$agent" "${LIBMODALIAS_SO:?}"; do
	if readelf -p .note.dlopen "$elf" 2>/dev/null | grep -q '"soname":\["libkmod.so.2"\]'; then
		ok ".note.dlopen of $(basename "$elf") names libkmod.so.2"
	else
		notok ".note.dlopen of $(basename "$elf") names libkmod.so.2"
	fi
done

# the completion offers every long option --help lists, and no other
helped=$("$agent" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
completed=$(sed -n '/compgen -W "--daemon/,/-- "\$cur"/p' "$here/../shell-completion/bash/hotplug" |
	grep -o -- '--[a-z][a-z-]*' | sort -u)
expect "the bash completion offers --help's long options, no other" "$helped" "$completed"

echo "1..$n"
exit $fail
