#!/bin/sh
# Captures the parts of a sysfs tree that libmodalias reads into OUTDIR, as
# plain files at their real paths relative to the sysfs root, e.g.
#   OUTDIR/devices/pci0000:00/0000:00:01.0/modalias
#
# Usage: capture-sysfs.sh [SRC_SYSFS [OUTDIR]]
#   SRC_SYSFS defaults to /sys, OUTDIR to ./sysfs-capture.
#
# For every directory below SRC_SYSFS/devices that holds a regular "uevent"
# file (symlinks are not followed; power/ is skipped) the attribute files in
# ATTRS below are copied when they exist, are readable and are at most
# 64 KiB.  Two invented files record the device's symlinks:
#   .subsystem  basename of the "subsystem" link target (if the link exists)
#   .driver     basename of the "driver" link target (if the link exists)
#
# Runs under bash, dash and busybox sh (it is also used inside the QEMU
# guest by capture-qemu-sysfs.sh), so keep it POSIX sh + busybox applets.
# Idempotent: OUTDIR/devices is removed and rewritten.
set -eu

src=${1:-/sys}
out=${2:-./sysfs-capture}
src=${src%/}
maxsize=65536

ATTRS="uevent modalias
idVendor idProduct bcdDevice bDeviceClass bDeviceSubClass bDeviceProtocol
bInterfaceClass bInterfaceSubClass bInterfaceProtocol bInterfaceNumber
bNumInterfaces bConfigurationValue
vendor device subsystem_vendor subsystem_device class revision
type name
id/bustype id/vendor id/product id/version
id/type id/proto id/id id/extra
capabilities/ev capabilities/key capabilities/rel capabilities/abs
capabilities/msc capabilities/led capabilities/snd capabilities/ff
capabilities/sw
specifier_id version model"

if [ ! -d "$src/devices" ]; then
	echo "capture-sysfs.sh: $src/devices is not a directory" >&2
	exit 1
fi

mkdir -p "$out"
rm -rf "$out/devices"
mkdir -p "$out/devices"

# copy_attr SRCFILE DSTFILE: copy one attribute, skip unreadable/huge ones
copy_attr() {
	[ -f "$1" ] && [ ! -h "$1" ] || return 0
	mkdir -p "$(dirname "$2")"
	if head -c $((maxsize + 1)) "$1" > "$2" 2>/dev/null; then
		if [ "$(wc -c < "$2")" -gt "$maxsize" ]; then
			rm -f "$2"
		fi
	else
		rm -f "$2"
	fi
	return 0
}

ndev=0
find "$src/devices" -name uevent -type f 2>/dev/null | sort |
while IFS= read -r ev; do
	d=${ev%/uevent}
	case "$d/" in
	*/power/*) continue ;;
	esac
	rel=${d#"$src"/}
	dst=$out/$rel
	mkdir -p "$dst"
	for a in $ATTRS; do
		copy_attr "$d/$a" "$dst/$a"
	done
	for l in subsystem driver; do
		if [ -h "$d/$l" ]; then
			t=$(readlink "$d/$l" 2>/dev/null) || continue
			basename "$t" > "$dst/.$l"
		fi
	done
	ndev=$((ndev + 1))
	# remove directories that stayed empty (e.g. an unreadable id/)
	rmdir "$dst/id" "$dst/capabilities" 2>/dev/null || :
	echo "$ndev" > "$out/.count.$$"
done

n=$(cat "$out/.count.$$" 2>/dev/null || echo 0)
rm -f "$out/.count.$$"
echo "capture-sysfs.sh: captured $n device directories from $src into $out" >&2
