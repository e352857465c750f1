#!/bin/bash
# The boot benchmark (make bench-boot): Debian's kernel under
# qemu-system-x86_64 -accel tcg -smp 4 with one set of emulated hardware,
# booted once per device manager and run, each time from the same initramfs:
#
#   daemon   hotplug --daemon --coldplug (and hotplug --settle when the agent
#            has it: its completion barrier)
#   preload  the daemon as above with --preload (off by default): the
#            modules its calibration boots' devices wanted (the list those
#            boots' daemon wrote) loaded at once before the walk
#   oneshot  hotplug --coldplug, alone
#   udevd    systemd-udevd from Debian's udev package, started as Debian's
#            initramfs-tools starts it (its rules, udevadm trigger for
#            subsystems and devices, udevadm settle)
#   busybox  the mdev way: mdev -d for new devices ($MODALIAS rule), and a
#            busybox modprobe per modalias file for the ones present
#   limit    the limit: a loader that knows the answer before any device
#            appears (the expected set of the calibration boots) and
#            inserts every expected module from the first lines of /init,
#            all at once in parallel, each as soon as what it depends on is
#            in (limit-load.c: a thread a module, no process, no lookup)
#
# For each boot the guest measures, from the start of /init: when every
# expected driver is loaded (polling /proc/modules every 20 ms), when the
# manager says it is done (settle returned, coldplug returned), and the CPU
# time of the manager's whole session (every process it started, reaped or
# not, from /proc/PID/stat, in clock ticks of 10 ms) at the later of the two,
# and the last uevent before it said it was done (its end after it is a
# column of the table).  "done" is stamped by the shell's own read of
# /proc/uptime, no process started.  Then, the CPU read, the guest waits
# (within BOOT_LIMIT) until every device that a calibration boot ended with
# bound to an expected module's driver is bound again (its bind uevent;
# as many of each modalias): "every device bound", when the hardware works.
# The limit loads drivers before their devices exist: its "all drivers
# loaded" can come before the USB stick's disk appears, its devices bound
# cannot.
# The expected drivers are what modprobe -R names for the final modaliases
# of untimed calibration boots (CALIBRATIONS of them, their union: a device
# that appears late, such as the SCSI disk of USB storage, may be missing
# from one boot's report), with their dependencies and softdeps, restricted
# to the modules of the initramfs.  A boot that does
# not load them all within BOOT_LIMIT seconds is reported incomplete, with
# what it missed.  The table gives the median of RUNS boots for each (boots
# interleaved: daemon, oneshot, udevd, busybox, daemon, …) and ratios to
# udevd's and the limit's medians.  A recorder of the kernel's uevents
# (uevent-log.c, static) runs from the start of /init in every boot: when
# each expected module's device appeared (0: present at /init) and when the
# module went live (its own add uevent, sent once its init returned), and
# the reaction (live less appeared) of each module that a device's
# modalias names (not those only loaded as a dependency).
#
# Usage: boot-bench.sh [--quick] [--runs N] [--managers "daemon oneshot …"]
#   --quick     the QEMU suite's variant: fewer devices, one boot per
#               manager, TAP output checking that daemon, preload and
#               oneshot load every expected driver and say they are done
# Env:
#   HOTPLUG_BIN, LIBMODALIAS_SO   the agent (as tests/qemu/e2e.sh)
#   MODALIAS_QEMU_CACHE  where .deb files are kept (kernel, udev)
#   SMP (4), BOOT_LIMIT (60 s in the guest), QEMU_TIMEOUT (240 s a boot)
#   CALIBRATIONS  calibration boots whose modaliases make the expected set
#                 (2; 1 with --quick)
#   KEEP_TMP=1 keeps the work directory; DEB=… a kernel package to use
#   BUSYBOX  a static busybox [/bin/busybox]
#
# How udev is fetched (never installed on the host): apt-get download udev
# libsystemd-shared (the versions apt prefers, one pair), dpkg-deb -x into
# the work directory; systemd-udevd, udevadm, ata_id, scsi_id, blkid,
# udev.conf and the rules Debian's initramfs-tools hook copies go into the
# initramfs, with the libraries ldd names.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
kver=6.1.0-57-amd64
cache=${MODALIAS_QEMU_CACHE:-$here/.cache}
smp=${SMP:-4}
limit=${BOOT_LIMIT:-60}
qemu_timeout=${QEMU_TIMEOUT:-240}
runs=3
managers="limit daemon preload oneshot udevd busybox"
quick=0
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 runs=1 managers="daemon preload oneshot" ;;
	--runs) runs=$2; shift ;;
	--runs=*) runs=${1#*=} ;;
	--managers) managers=$2; shift ;;
	--managers=*) managers=${1#*=} ;;
	*) echo "boot-bench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

say() { echo "# $*"; }
die() {
	if [ $quick = 1 ]; then echo "not ok 1 - setup: $*"; echo "1..1"; else echo "boot-bench: $*" >&2; fi
	exit 1
}
skip() {
	if [ $quick = 1 ]; then echo "1..0 # SKIP $*"; else echo "boot-bench: skipped: $*" >&2; fi
	exit 77
}
. "$here/lib.sh"

qemu_can_run
for tool in dpkg-deb depmod modprobe cpio gzip timeout readelf ldd; do
	command -v "$tool" >/dev/null || die "missing tool: $tool"
done
busybox=${BUSYBOX:-/bin/busybox}
need_static_busybox "$busybox"
agent=$(agent_elf "${HOTPLUG_BIN:?HOTPLUG_BIN is not set}") || exit 1

tmp=$(mktemp -d)
cleanup() { if [ "${KEEP_TMP:-0}" = 1 ]; then say "work directory kept: $tmp"; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
t0=$(date +%s)
kernel_unpack

# ------------------------------------------------ the hardware
# q35 (its SATA, LPC and SMBus functions are driven too), and: two NICs of
# different drivers, a UHCI and an EHCI controller with a mouse and a USB
# NIC on the first (full speed) and a USB stick on the second (devices that
# exist only once the controller's driver, then the hub's, is bound), a virtio RNG, an
# ES1370 sound card and a watchdog.  --quick keeps one NIC and the USB.
truncate -s 8M "$tmp/usb-disk.raw"
devices=(
	-device rtl8139,netdev=n0 -netdev user,id=n0
	-device usb-ehci,id=ehci
	-device piix3-usb-uhci,id=uhci
	-device usb-mouse,bus=uhci.0
	-device usb-net,bus=uhci.0,netdev=n1 -netdev user,id=n1
	-drive if=none,id=usbdisk,format=raw,file="$tmp/usb-disk.raw"
	-device usb-storage,bus=ehci.0,drive=usbdisk,serial=BENCH0001
)
if [ $quick = 0 ]; then
	devices+=(
		-device pcnet,netdev=n2 -netdev user,id=n2
		-device virtio-rng-pci
		-device ES1370,audiodev=snd0 -audiodev none,id=snd0
		-device i6300esb
	)
fi

# The modules staged: everything modprobe --show-depends names for these
# drivers (by name: the devices behind USB controllers have no modalias
# before boot), and for the q35 capture's PCI functions.  The calibration
# boot then checks that no final modalias of the guest needs a module that
# is not staged.
drivers='8139too 8139cp ehci_pci uhci_hcd usbhid hid_generic cdc_ether cdc_subset usb_storage uas sd_mod
	pcnet32 virtio_pci virtio_rng snd_ens1370 i6300esb ahci lpc_ich i2c_i801'
for d in $drivers; do kq "$root" --show-depends "$d" 2>/dev/null | awk '$1 == "insmod" { print $2 }'; done |
	awk '!seen[$0]++' > "$tmp/kos"
[ -s "$tmp/kos" ] || die "no modules found for the drivers"

# ------------------------------------------------ the initramfs
stage=$tmp/stage
stage_init "$stage"
stage_modules "$stage" < "$tmp/kos"
ko_names < <(sed 's/^/insmod /' "$tmp/kos") | sort -u > "$tmp/staged"
stage_agent "$stage" "$agent"
${CC:-cc} -static -O2 -o "$stage/bin/uevent-log" "$here/uevent-log.c" || die "cannot build the uevent recorder (a static libc?)"
${CC:-cc} -static -O2 -pthread -o "$stage/bin/limit-load" "$here/limit-load.c" || die "cannot build the limit's loader"

# udev, as Debian's initramfs-tools hook installs it
if echo " $managers " | grep -q ' udevd '; then
	udeb=$(deb_fetch udev amd64) || exit 1
	uver=$(dpkg-deb -f "$udeb" Version)
	sdeb=$(deb_fetch "libsystemd-shared=$uver" amd64) || exit 1
	urot=$tmp/udev
	dpkg-deb -x "$udeb" "$urot" && dpkg-deb -x "$sdeb" "$urot" || die "cannot unpack udev"
	ulib=$urot/usr/lib/x86_64-linux-gnu/systemd
	mkdir -p "$stage/lib/systemd" "$stage/lib/udev/rules.d" "$stage/etc/udev" "$stage/usr/lib/x86_64-linux-gnu/systemd"
	# one binary: systemd-udevd is a symlink to udevadm
	cp "$urot/bin/udevadm" "$stage/bin/"
	ln -sf /bin/udevadm "$stage/lib/systemd/systemd-udevd"
	cp "$urot/lib/udev/ata_id" "$urot/lib/udev/scsi_id" "$stage/lib/udev/"
	cp "$urot/etc/udev/udev.conf" "$stage/etc/udev/"
	cp "$ulib/libsystemd-shared-"*.so "$stage/usr/lib/x86_64-linux-gnu/systemd/"
	for rules in 50-firmware.rules 50-udev-default.rules 60-block.rules 60-persistent-storage.rules \
		61-persistent-storage-android.rules 71-seat.rules 73-special-net-names.rules \
		75-net-description.rules 80-net-setup-link.rules 80-drivers.rules; do
		[ -e "$urot/lib/udev/rules.d/$rules" ] && cp "$urot/lib/udev/rules.d/$rules" "$stage/lib/udev/rules.d/"
	done
	mkdir -p "$stage/lib/systemd/network" && cp "$urot"/lib/systemd/network/*.link "$stage/lib/systemd/network/" 2>/dev/null
	for f in "$urot/bin/udevadm" "$urot/lib/udev/ata_id" "$urot/lib/udev/scsi_id"; do
		copy_libs "$stage" "$f" "$ulib"
	done
	cp /sbin/blkid "$stage/sbin/" && copy_libs "$stage" /sbin/blkid
	say "udev $uver from $(basename "$udeb")"
fi

cat > "$stage/etc/mdev.conf" <<'EOF'
$MODALIAS=.* 0:0 660 @modprobe -q "$MODALIAS"
EOF

# The managers: each script is sourced by the leader of a session of its own
# and writes "done UPTIME" to /run/done when it says it is finished.
mkdir -p "$stage/managers"
# daemon_manager NAME [OPTION]: the daemon with coldplug (and OPTION), then
# its completion barrier when the agent has one
daemon_manager() {
	cat > "$stage/managers/$1" <<EOF
hotplug --daemon --coldplug -d / -S $kver -C /dev/null --log-level notice ${2:-} 2>/run/agent.log &
if hotplug --help 2>&1 | grep -q -- '--settle'; then
	hotplug --settle=$limit && { read -r up _ < /proc/uptime; echo "done \$up" > /run/done; }
fi
EOF
}
daemon_manager daemon
# the calibration boots: the daemon, writing the list --preload reads
daemon_manager calibration --preload=/run/preload
daemon_manager preload --preload=/etc/modalias-preload
cat > "$stage/managers/oneshot" <<EOF
hotplug --coldplug -d / -S $kver -C /dev/null --log-level notice 2>/run/agent.log
{ read -r up _ < /proc/uptime; echo "done \$up" > /run/done; }
EOF
cat > "$stage/managers/udevd" <<EOF
mkdir -p /run/udev
/lib/systemd/systemd-udevd --resolve-names=never 2>/run/udevd.log &
udevadm trigger --type=subsystems --action=add
udevadm trigger --type=devices --action=add
udevadm settle --timeout=$limit && { read -r up _ < /proc/uptime; echo "done \$up" > /run/done; }
EOF
cat > "$stage/managers/limit" <<'EOF'
limit-load /limit-plan
{ read -r up _ < /proc/uptime; echo "done $up" > /run/done; }
EOF
cat > "$stage/managers/busybox" <<'EOF'
mdev -df &
find /sys/devices -name modalias | while read -r f; do
	a=$(cat "$f") && [ -n "$a" ] && modprobe -q "$a"
done
{ read -r up _ < /proc/uptime; echo "done $up" > /run/done; }
EOF

# /init: everything it reports is on lines starting "bench" (kernel
# messages on the same console cannot be taken for data).
cat > "$stage/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
t0=$(/bin/busybox cut -d' ' -f1 /proc/uptime)
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=0755 tmpfs /run
uevent-log > /run/uevents 2>&1 &
exec </dev/console >/dev/console 2>&1
echo 1 > /proc/sys/kernel/printk
. /bench.conf
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v a="$t0" -v b="$1" 'BEGIN { printf "%.2f", b - a }'; }
# missing: the expected modules not (yet) in /proc/modules
missing() { awk 'FILENAME == "/proc/modules" { have[$1] = 1; next } !($1 in have) { printf "%s ", $1 }' /proc/modules /expected; }
# the session's leader stays (exec sleep keeps its cutime/cstime: what it reaped)
setsid sh -c ". /managers/$manager; exec sleep 100000" </dev/null >/run/manager.out 2>&1 &
spid=$!
all=
end=$(awk -v a="$t0" -v l="$limit" 'BEGIN { print a + l }')
while :; do
	now=$(up)
	if [ -z "$(missing)" ]; then all=$now; break; fi
	awk -v n="$now" -v e="$end" 'BEGIN { exit !(n > e) }' && break
	sleep 0.02
done
# the manager's own completion (a barrier, or its coldplug returning)
while [ ! -s /run/done ] && awk -v n="$(up)" -v e="$end" 'BEGIN { exit !(n <= e) }'; do sleep 0.02; done
done_at=$(sed -n 's/^done //p' /run/done 2>/dev/null)
# the last uevent (add, bind, change, … of a device or a module) before it said so
last=$(awk -v d="${done_at:-0}" '$2 != "present" && $1 <= d { l = $1 } END { print l }' /run/uevents)
# CPU of the manager's session: utime stime cutime cstime of every process
# in it (reaped children are in their parent's cutime/cstime)
sid=$(awk '{ sub(/.*\) /, ""); print $4 }' /proc/$spid/stat 2>/dev/null)
[ -n "$sid" ] || sid=$spid
ticks=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v s="$sid" '{ sub(/.*\) /, "") } $4 == s { t += $12 + $13 + $14 + $15 } END { print t + 0 }')
# bound: when the last expected device was bound to its driver (its bind
# uevent; /expected-bound: "MODALIAS COUNT", the devices a calibration
# boot ended with bound to a driver of an expected module), waited for
# after the CPU was read, within the limit ("": not all of them)
bound_at() {
	awk 'FILENAME == "/expected-bound" { want[$1] = $2; n++; next }
		$2 == "bind" && !($3 in seen) && ($4 in want) { seen[$3] = 1; if (--want[$4] == 0) { n--; t = $1 } }
		END { if (n == 0) print t }' /expected-bound /run/uevents
}
bound=
if [ -s /expected-bound ]; then
	while [ -z "$(bound_at)" ] && awk -v n="$(up)" -v e="$end" 'BEGIN { exit !(n <= e) }'; do sleep 0.05; done
	bound=$(bound_at)
fi
echo "bench: manager=$manager all=${all:+$(since "$all")} done=${done_at:+$(since "$done_at")} last=${last:+$(since "$last")} bound=${bound:+$(since "$bound")} ticks=$ticks t0=$t0 missing=$(missing)"
sed 's/^/bench-uevent: /' /run/uevents
find /sys/devices -name modalias | while read -r f; do
	a=$(cat "$f" 2>/dev/null) && [ -n "$a" ] || continue
	echo "bench-modalias: $a"
	m=$(readlink "${f%/modalias}/driver/module") && echo "bench-bound: ${m##*/} $a"
done
cut -d' ' -f1 /proc/modules | sed 's/^/bench-module: /'
# a calibration boot's --preload list, once its daemon wrote it (2 s idle)
if [ "$manager" = calibration ]; then
	i=0
	while [ ! -s /run/preload ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
	sed 's/^/bench-preload: /' /run/preload
fi
sed 's/^/bench-log: /' /run/manager.out /run/agent.log /run/udevd.log 2>/dev/null | tail -n 30
sync
poweroff -f
EOF
chmod 755 "$stage/init"

# boot MANAGER LOG: one boot; the console in LOG
boot() {
	printf 'manager=%s\nlimit=%s\n' "$1" "$limit" > "$stage/bench.conf"
	build_initrd "$stage" "$tmp/initrd.gz"
	timeout "$qemu_timeout" qemu-system-x86_64 \
		-accel tcg -cpu max -machine q35 -m 1024 -smp "$smp" -nodefaults -display none -no-reboot \
		-kernel "$vmlinuz" -initrd "$tmp/initrd.gz" \
		-append 'console=ttyS0 panic=-1 quiet loglevel=1' \
		-serial "file:$2.raw" "${devices[@]}" </dev/null >"$2.qemu" 2>&1
	console_text "$2.raw" > "$2"
}

# ------------------------------------------------ calibration
# The expected set: modprobe -R for the guest's final modaliases (the union
# over daemon boots), with dependencies and softdeps, among the staged
# modules.
: > "$stage/expected"
: > "$stage/expected-bound"
calibrations=${CALIBRATIONS:-$((quick ? 1 : 2))}
for c in $(seq 1 "$calibrations"); do
	boot calibration "$tmp/calibration-$c.log"
done
# --preload's list: the first calibration boot's, in its order (the
# shallowest devices' drivers first), and what the others added after it
{
	sed -n 's/^bench-preload: //p' "$tmp/calibration-1.log" | grep -v '^[a-z0-9_-]*$'
	sed -n 's/^bench-preload: //p' "$tmp"/calibration-*.log | grep '^[a-z0-9_-]*$' | awk '!seen[$0]++'
} > "$stage/etc/modalias-preload"
grep -q '^modules ' "$stage/etc/modalias-preload" ||
	{ grep -h '^bench-log' "$tmp"/calibration-*.log | sed 's/^/# /'; die "the calibration boots wrote no --preload list"; }
chmod 0644 "$stage/etc/modalias-preload"
sed -n 's/^bench-modalias: //p' "$tmp"/calibration-*.log | sort -u > "$tmp/aliases"
[ -s "$tmp/aliases" ] || { tail -30 "$tmp/calibration-1.log" | sed 's/^/# console: /'; die "the calibration boots reported no modalias"; }
while IFS= read -r a; do kq "$root" -R "$a" 2>/dev/null; done < "$tmp/aliases" | sort -u > "$tmp/resolved"
comm -23 "$tmp/resolved" "$tmp/staged" > "$tmp/unstaged"
[ -s "$tmp/unstaged" ] && say "answered by modprobe -R but not staged (not this benchmark's drivers: cpu, acpi, platform, serio): $(tr '\n' ' ' < "$tmp/unstaged")"
comm -12 "$tmp/resolved" "$tmp/staged" > "$tmp/resolved.staged"
while IFS= read -r m; do kq "$stage" --show-depends "$m" 2>/dev/null | ko_names; done < "$tmp/resolved.staged" |
	sort -u > "$stage/expected"
# the devices a calibration boot ended with bound to an expected module's
# driver: "MODALIAS COUNT" (the most of any calibration boot), what the
# boots' "bound" waits for
for f in "$tmp"/calibration-*.log; do
	awk -v want="$stage/expected" 'BEGIN { while ((getline l < want) > 0) w[l] = 1 }
		$1 == "bench-bound:" && ($2 in w) { n[$3]++ } END { for (a in n) print a, n[a] }' "$f"
done | awk '$2 > n[$1] { n[$1] = $2 } END { for (a in n) print a, n[a] }' | sort > "$stage/expected-bound"
[ -s "$stage/expected-bound" ] || die "the calibration boots reported no device bound to an expected driver"
# the limit's plan: "NAME PATH DEPENDENCY..." of each expected module, from
# modules.dep
awk -v want="$stage/expected" -v dir="/lib/modules/$kver/" '
	function name(p) { sub(/.*\//, "", p); sub(/\.ko(\.[a-z]+)?$/, "", p); gsub(/-/, "_", p); return p }
	BEGIN { while ((getline l < want) > 0) wanted[l] = 1 }
	{ p = $1; sub(/:$/, "", p); m = name(p); if (!(m in wanted)) next
	  d = ""; for (i = 2; i <= NF; i++) d = d " " name($i); print m, dir p d }' "$stage/lib/modules/$kver/modules.dep" |
	sort > "$stage/limit-plan"
say "expected: $(wc -l < "$stage/expected") modules for $(wc -l < "$tmp/aliases") modaliases ($calibrations calibration boots): $(tr '\n' ' ' < "$stage/expected")"
say "--preload list: $(grep -c '^[a-z0-9_-]*$' "$stage/etc/modalias-preload") modules: $(grep '^[a-z0-9_-]*$' "$stage/etc/modalias-preload" | tr '\n' ' ')"
say "setup and calibration took $(($(date +%s) - t0)) s"

# ------------------------------------------------ the boots
: > "$tmp/results"
for i in $(seq 1 "$runs"); do
	for m in $managers; do
		boot "$m" "$tmp/$m.$i.log"
		line=$(grep -m1 '^bench: ' "$tmp/$m.$i.log")
		if [ -z "$line" ]; then
			say "$m boot $i: no result"; tail -20 "$tmp/$m.$i.log" | sed 's/^/# console: /'
			line="bench: manager=$m all= done= ticks= missing=(no result)"
		fi
		echo "${line#bench: }" >> "$tmp/results"
		say "boot $i: ${line#bench: }"
	done
done

# ------------------------------------------------ reactions
# Each modalias a boot recorded, with the modules modprobe -R names for it
sed -n 's/^bench-uevent: [0-9.]* [a-z]* [^ ]* //p' "$tmp"/*.log | sort -u |
	while IFS= read -r a; do kq "$root" -R "$a" 2>/dev/null | sed "s|^|$a	|"; done > "$tmp/alias-map"
# timeline LOG: "MODULE APPEARED LIVE" in s after /init, for each expected
# module that a modalias names: its first device's appearance (0: one was
# there at /init; a replayed add of a device already there is none), the
# module's own add uevent ("-": not seen)
timeline() {
	awk -v amap="$tmp/alias-map" -v want="$stage/expected" '
	BEGIN {
		while ((getline l < amap) > 0) { split(l, f, "\t"); names[f[1]] = names[f[1]] " " f[2]; direct[f[2]] = 1 }
		while ((getline l < want) > 0) wanted[l] = 1
	}
	$1 == "bench:" { for (i = 2; i <= NF; i++) if ($i ~ /^t0=/) t0 = substr($i, 4) }
	$1 == "bench-uevent:" {
		t = $2; kind = $3; path = $4; alias = $5
		if (kind != "add" && kind != "present") next
		if (kind == "add" && path ~ /^\/module\//) { m = substr(path, 9); if (!(m in live)) live[m] = t; next }
		if (kind == "present") present[path] = 1
		else if (path in present) next
		n = split(names[alias], ms, " ")
		for (j = 1; j <= n; j++) {
			tt = kind == "present" ? t0 : t
			if (!(ms[j] in appear) || tt < appear[ms[j]]) appear[ms[j]] = tt
		}
	}
	END {
		for (m in wanted)
			if (m in direct)
				printf "%s %s %s\n", m, (m in appear) ? sprintf("%.2f", appear[m] - t0) : "-",
					(m in live) ? sprintf("%.2f", live[m] - t0) : "-"
	}' "$1" | sort
}
# reactions MANAGER: "MEDIAN WORST MODULE" of each of its boots, the
# reaction being live less appeared (0 when the module was there first)
reactions() {
	for f in "$tmp/$1".*.log; do
		timeline "$f" | awk '$2 != "-" && $3 != "-" { r = $3 - $2; if (r < 0) r = 0; print r, $1 }' | sort -n |
			awk '{ v[NR] = $1; m[NR] = $2 } END { if (NR) printf "%.2f %.2f %s\n", v[int((NR + 1) / 2)], v[NR], m[NR] }'
	done
}

# timelines: for each module a modalias names, in each manager's boots,
# the median of its device's appearance and of its going live
timelines() {
	echo
	echo "Each module a device's modalias names: its device appeared → the module live (s after /init, medians)"
	echo
	printf '| module |'; for m in $managers; do printf ' %s |' "$m"; done; echo
	printf '|---|'; for m in $managers; do printf -- '---|'; done; echo
	for m in $managers; do for f in "$tmp/$m".*.log; do timeline "$f" | sed "s/^/$m /"; done; done > "$tmp/timelines"
	for mod in $(awk '{ print $2 }' "$tmp/timelines" | sort -u); do
		printf '| %s |' "$mod"
		for m in $managers; do
			a=$(awk -v m="$m" -v x="$mod" '$1 == m && $2 == x && $3 != "-" { print $3 }' "$tmp/timelines" | median)
			l=$(awk -v m="$m" -v x="$mod" '$1 == m && $2 == x && $4 != "-" { print $4 }' "$tmp/timelines" | median)
			printf ' %s → %s |' "$a" "$l"
		done
		echo
	done
}

# ------------------------------------------------ the table
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { # MANAGER KEY: that key's values of every boot of MANAGER, empty ones left out
	awk -v m="$1" -v k="$2" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		f["manager"] == m && f[k] != "" { print f[k] }' "$tmp/results"
}
declare -A med_all med_bound med_ticks med_done complete after
for m in $managers; do
	med_all[$m]=$(col "$m" all | median)
	# every device bound: the median of the boots that got there
	med_bound[$m]=$(col "$m" bound | median)
	[ "$(col "$m" bound | wc -l)" = "$runs" ] || med_bound[$m]="${med_bound[$m]} ($(col "$m" bound | wc -l)/$runs)"
	med_done[$m]=$(col "$m" done | median)
	med_ticks[$m]=$(col "$m" ticks | median)
	# its end after the last uevent before it: each boot's, median and worst
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		f["manager"] == m && f["done"] != "" && f["last"] != "" { printf "%.2f\n", f["done"] - f["last"] }' m="$m" "$tmp/results" |
		sort -n > "$tmp/after"
	after[$m]="$(median < "$tmp/after") / $(tail -1 "$tmp/after")"
	complete[$m]="$(col "$m" all | wc -l)/$runs"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f×", a / b }'; }
if [ $quick = 0 ]; then
	echo "Boot to every expected driver: Debian $kver, qemu -accel tcg -smp $smp, $(date -u +%Y-%m-%d), $(nproc)-core host"
	echo "$(wc -l < "$stage/expected") expected modules; medians of $runs boots; CPU = the manager's session, 10 ms ticks"
	echo
	echo "| manager | complete | all drivers loaded (s) | ratio to the limit | ratio to udevd | every device bound (s) | ratio to the limit | manager done (s) | done after the last uevent, median / worst (s) | CPU (s) | CPU ratio to the limit | CPU ratio to udevd | reaction median / worst (s) |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for m in $managers; do
		cpu=$(awk -v t="${med_ticks[$m]}" 'BEGIN { if (t == "-") print "-"; else printf "%.2f", t / 100 }')
		reactions "$m" > "$tmp/reactions"
		react="$(awk '{ print $1 }' "$tmp/reactions" | median) / $(sort -k2,2n "$tmp/reactions" | tail -1 | awk '{ printf "%s (%s)", $2, $3 }')"
		echo "| $m | ${complete[$m]} | ${med_all[$m]} | $(ratio "${med_all[$m]}" "${med_all[limit]:--}") | $(ratio "${med_all[$m]}" "${med_all[udevd]:--}") | ${med_bound[$m]} | $(ratio "${med_bound[$m]%% *}" "${med_bound[limit]:--}") | ${med_done[$m]} | ${after[$m]:--} | $cpu | $(ratio "${med_ticks[$m]}" "${med_ticks[limit]:--}") | $(ratio "${med_ticks[$m]}" "${med_ticks[udevd]:--}") | $react |"
	done
	timelines
	exit 0
fi

# --quick: TAP (and the reactions and timelines as comments)
for m in $managers; do say "$m: reaction median / worst: $(reactions "$m" | tr '\n' ' ')"; done
timelines | sed 's/^/# /'
n=0 failed=0
for m in $managers; do
	n=$((n + 1))
	miss=$(awk -v m="$m" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } } f["manager"] == m { sub(/.*missing=/, ""); print }' "$tmp/results")
	if [ "${complete[$m]}" = "$runs/$runs" ]; then
		echo "ok $n - $m loads all $(wc -l < "$stage/expected") expected modules (${med_all[$m]} s)"
	else
		echo "not ok $n - $m does not load every expected module: missing $miss"
		failed=1
	fi
	# its own end: the daemon's settle answered, the one-shot returned
	n=$((n + 1))
	if [ "$(col "$m" done | wc -l)" = "$runs" ]; then
		echo "ok $n - $m says it is done (${med_done[$m]} s)"
	else
		echo "not ok $n - $m never said it was done within $limit s: $(grep -h '^bench-log: ' "$tmp/$m".*.log | tail -3 | tr '\n' ' ')"
		failed=1
	fi
done
echo "1..$n"
exit $failed
