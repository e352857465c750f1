#!/bin/bash
# Captures a sysfs fixture from a QEMU q35 guest running Debian 12's
# linux-image-6.1.0-57-amd64 kernel with an assortment of emulated devices.
#
# Usage: capture-qemu-sysfs.sh [OUTDIR]
#   OUTDIR defaults to sysfs/qemu-q35/ next to this script.
#
# Steps: fetch the kernel package (apt-get download; or DEB=/path/to.deb),
# unpack it, build a busybox initramfs holding the modules needed for
# USB/SCSI/virtio/HDA devices plus capture-sysfs.sh, boot it under TCG,
# and unpack the tar.gz that the guest prints (base64, between marker lines)
# on its serial console into OUTDIR.
#
# Needs: apt-get, dpkg-deb, kmod (depmod, modprobe), cpio, gzip, base64,
# busybox-static, qemu-system-x86.  Env: DEB, QEMU_TIMEOUT (seconds, 600),
# KEEP_TMP=1 to keep the work directory (console log, initramfs).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/sysfs/qemu-q35}
pkg=linux-image-6.1.0-57-amd64
kver=6.1.0-57-amd64
busybox=${BUSYBOX:-/bin/busybox}
qemu_timeout=${QEMU_TIMEOUT:-600}

# Modules to load in the guest, in this order (dependencies are resolved on
# the host).  snd_hda_codec_generic must be loaded before snd_hda_intel, whose
# asynchronous codec probe otherwise finds no codec driver and tears the
# hdaudio device down again ("Cannot probe codecs, giving up").
modules="usb_common usbcore xhci_hcd xhci_pci ehci_hcd ehci_pci
	 usb_storage uas usbhid hid_generic sd_mod sr_mod ahci
	 virtio_pci virtio_scsi virtio_rng virtio_balloon virtio_console
	 virtio_input e1000e snd_hda_codec_generic snd_hda_intel
	 snd_usb_audio cdc_ether ftdi_sio evdev psmouse qemu_fw_cfg"

for tool in dpkg-deb depmod modprobe cpio gzip base64 qemu-system-x86_64 timeout; do
	command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done
bb_applets=$("$busybox" --list 2>/dev/null || true)
bb_type=$(command -v file >/dev/null && file -L "$busybox" || echo 'statically linked')
if ! grep -qx base64 <<<"$bb_applets" || ! grep -q 'statically linked' <<<"$bb_type"; then
	echo "need a static busybox at $busybox (apt-get install busybox-static)" >&2
	exit 1
fi

tmp=$(mktemp -d)
chmod 755 "$tmp"   # lets apt-get download as user _apt
if [ "${KEEP_TMP:-0}" = 1 ]; then
	echo "work directory: $tmp" >&2
else
	trap 'rm -rf "$tmp"' EXIT
fi

if [ -n "${DEB:-}" ]; then
	deb=$(readlink -f "$DEB")
else
	(cd "$tmp" && apt-get download "$pkg" >/dev/null)
	deb=$(ls "$tmp/${pkg}"_*.deb)
fi

echo "unpacking $(basename "$deb")" >&2
root=$tmp/root
dpkg-deb -x "$deb" "$root"
depmod -b "$root" "$kver"
vmlinuz=$root/boot/vmlinuz-$kver

# ---------------------------------------------------------------- initramfs
stage=$tmp/initramfs
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,etc} "$stage/lib/modules/$kver"
cp "$busybox" "$stage/bin/busybox"
cp "$here/capture-sysfs.sh" "$stage/bin/capture-sysfs.sh"
mknod "$stage/dev/console" c 5 1 2>/dev/null || true
mknod "$stage/dev/null" c 1 3 2>/dev/null || true

# Resolve dependencies with the host's kmod against the unpacked tree, in
# load order, without reading the host's modprobe.d configuration.
mkdir -p "$tmp/noconf"
: > "$stage/modules.list"
for m in $modules; do
	modprobe -C "$tmp/noconf" -d "$root" -S "$kver" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while IFS= read -r ko; do
	rel=${ko#"$root/lib/modules/$kver/"}
	mkdir -p "$stage/lib/modules/$kver/$(dirname "$rel")"
	case "$ko" in
	*.ko.xz)  xz -dc "$ko" > "$stage/lib/modules/$kver/${rel%.xz}"; rel=${rel%.xz} ;;
	*.ko.zst) zstd -qdc "$ko" > "$stage/lib/modules/$kver/${rel%.zst}"; rel=${rel%.zst} ;;
	*.ko.gz)  gzip -dc "$ko" > "$stage/lib/modules/$kver/${rel%.gz}"; rel=${rel%.gz} ;;
	*)        cp "$ko" "$stage/lib/modules/$kver/$rel" ;;
	esac
	echo "$rel" >> "$stage/modules.list"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	cp "$root/lib/modules/$kver/$f" "$stage/lib/modules/$kver/"
done
depmod -b "$stage" "$kver"
echo "initramfs: $(wc -l < "$stage/modules.list") modules" >&2

# Number of USB interfaces with bInterfaceNumber 0 the guest should wait for
# (one per USB device below, including the hub, plus the 3 root hubs).
expect_usb=12
expect_block=3

cat > "$stage/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
echo 1 > /proc/sys/kernel/printk
kver=\$(uname -r)
echo "guest: \$(uname -a)"
for m in \$(cat /modules.list); do
	insmod "/lib/modules/\$kver/\$m" 2>/dev/null || echo "guest: insmod \$m failed"
done
# wait for USB enumeration and the SCSI disks (sd/sr) to show up
i=0
while [ \$i -lt 90 ]; do
	nusb=\$(ls -d /sys/bus/usb/devices/*:1.0 2>/dev/null | wc -l)
	nblk=\$(ls -d /sys/class/block/sd* /sys/class/block/sr* 2>/dev/null | wc -l)
	nhda=\$(ls /sys/bus/hdaudio/devices 2>/dev/null | wc -l)
	[ "\$nusb" -ge $expect_usb ] && [ "\$nblk" -ge $expect_block ] &&
		[ "\$nhda" -ge 1 ] && break
	sleep 1
	i=\$((i + 1))
done
sleep 3
echo "guest: usb interfaces #0: \$(ls -d /sys/bus/usb/devices/*:1.0 | wc -l), block: \$(ls /sys/class/block | tr '\n' ' ')"
dmesg | grep -i -E 'hda|hdaudio' | sed 's/^/guest: dmesg: /'
echo "guest: loaded: \$(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')"
sh /bin/capture-sysfs.sh /sys /tmp/cap
tar -C /tmp/cap -czf /tmp/cap.tar.gz devices
echo "guest: tar.gz is \$(wc -c < /tmp/cap.tar.gz) bytes"
echo "=====BEGIN SYSFS CAPTURE====="
base64 /tmp/cap.tar.gz
echo "=====END SYSFS CAPTURE====="
sync
poweroff -f
EOF
chmod 755 "$stage/init"

initrd=$tmp/initrd.gz
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -6 > "$initrd"
echo "initrd: $(stat -c %s "$initrd") bytes" >&2

# ---------------------------------------------------------------- disks
truncate -s 16M "$tmp/usb-disk.raw" "$tmp/usb-disk2.raw" "$tmp/scsi-disk.raw"

# ---------------------------------------------------------------- boot
log=$tmp/console.log
echo "booting (TCG, timeout ${qemu_timeout}s)..." >&2
set +e
timeout "$qemu_timeout" qemu-system-x86_64 \
	-accel tcg -cpu max -m 1024 -machine q35 -nographic -no-reboot \
	-kernel "$vmlinuz" -initrd "$initrd" \
	-append 'console=ttyS0 panic=-1 quiet' \
	-audiodev none,id=snd0 \
	-chardev ringbuf,id=ser0 -chardev null,id=ser1 \
	-netdev user,id=net0 -netdev user,id=net1 \
	-device e1000e,netdev=net0 \
	-device qemu-xhci,id=xhci,p2=8,p3=4 \
	-device usb-tablet,bus=xhci.0,port=1 \
	-device usb-kbd,bus=xhci.0,port=2 \
	-drive if=none,id=usbdisk,format=raw,file="$tmp/usb-disk.raw" \
	-device usb-storage,bus=xhci.0,port=3,drive=usbdisk,serial=QEMUUSB0001 \
	-device usb-audio,bus=xhci.0,port=4,audiodev=snd0 \
	-device usb-net,bus=xhci.0,port=5,netdev=net1 \
	-device usb-hub,bus=xhci.0,port=6 \
	-device usb-mouse,bus=xhci.0,port=6.1 \
	-device usb-serial,bus=xhci.0,port=6.2,chardev=ser0 \
	-device usb-ehci,id=ehci \
	-drive if=none,id=usbdisk2,format=raw,file="$tmp/usb-disk2.raw" \
	-device usb-storage,bus=ehci.0,drive=usbdisk2,serial=QEMUUSB0002 \
	-device intel-hda -device hda-duplex,audiodev=snd0 \
	-device virtio-rng-pci \
	-device virtio-balloon-pci \
	-device virtio-serial-pci -device virtconsole,chardev=ser1,name=org.example.port0 \
	-device virtio-keyboard-pci \
	-device virtio-scsi-pci,id=vscsi \
	-drive if=none,id=scsidisk,format=raw,file="$tmp/scsi-disk.raw" \
	-device scsi-hd,bus=vscsi.0,drive=scsidisk,serial=QEMUSCSI0001 \
	-drive if=none,id=cd0,media=cdrom \
	-device ide-cd,bus=ide.0,drive=cd0 \
	</dev/null > "$log" 2>&1
rc=$?
set -e
tr -d '\r' < "$log" > "$log.unix"
grep '^guest:' "$log.unix" >&2 || true
if ! grep -q '^=====END SYSFS CAPTURE=====$' "$log.unix"; then
	echo "qemu exited with $rc and no complete capture; last console lines:" >&2
	tail -40 "$log.unix" >&2
	exit 1
fi

sed -n '/^=====BEGIN SYSFS CAPTURE=====$/,/^=====END SYSFS CAPTURE=====$/p' "$log.unix" |
	sed '1d;$d' | base64 -d > "$tmp/cap.tar.gz"
mkdir -p "$out"
rm -rf "$out/devices"
tar -C "$out" -xzf "$tmp/cap.tar.gz" --no-same-owner
echo "wrote $out ($(find "$out" -name modalias | wc -l) modalias files)" >&2
