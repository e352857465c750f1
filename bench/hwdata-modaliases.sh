#!/bin/sh
# bench/hwdata-modaliases.sh: turns hwdata's pci.ids and usb.ids into one
# modalias a line (every PCI vendor:device and every USB vendor:product),
# the input of the batch benchmark (modalias resolve - against libkmod).
# It only reads the two files and writes to stdout; it fetches nothing.
#
# usage: hwdata-modaliases.sh PCI_IDS USB_IDS > ids.modalias
# (pci.ids/usb.ids: /usr/share/misc or /usr/share/hwdata, or from the
#  hwdata package: apt-get download hwdata && dpkg -x hwdata_*.deb DIR)
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PCI_IDS USB_IDS" >&2; exit 2; }
for f in "$1" "$2"; do
	[ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }
done
# vendor lines: 4 hex digits at column 0; device lines: one tab, 4 hex digits.
# A line starting with a capital letter and a space opens the class (and
# other) sections that follow the vendor list: stop there.
awk '
/^[A-Z]+ / { exit }
/^[0-9a-f][0-9a-f][0-9a-f][0-9a-f] / { v = toupper(substr($0, 1, 4)); next }
/^\t[0-9a-f][0-9a-f][0-9a-f][0-9a-f] / && v != "" {
	d = toupper(substr($0, 2, 4))
	printf "pci:v0000%sd0000%ssv00000000sd00000000bc00sc00i00\n", v, d
}' "$1"
awk '
/^[A-Z]+ / { exit }
/^[0-9a-f][0-9a-f][0-9a-f][0-9a-f] / { v = toupper(substr($0, 1, 4)); next }
/^\t[0-9a-f][0-9a-f][0-9a-f][0-9a-f] / && v != "" {
	p = toupper(substr($0, 2, 4))
	printf "usb:v%sp%sd0000dc00dsc00dp00ic00isc00ip00in00\n", v, p
}' "$2"
