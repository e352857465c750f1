# tests/bad-input/rows-maps.sh - bad-input rows: legacy modules.*map files: bad columns, truncated lines, non-regular files.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- legacy modules.*map files -------------------------------------------------

# mapfile NAME HEADER BADROW GOODROW: a map whose row 2 is bad and row 3 good
mapfile() {
	fresh
	printf '%s\n%s\n%s\n' "$2" "$3" "$4" >"$r/$1"
}
maprow() { # ID TYPE WHAT ERR GOODLINE FILE
	row "$1" in: "$2 map, row 2: $3" err: "modalias: @TMP@/r/$6:$4, row skipped
modalias map: @TMP@/r/$6: 1 bad rows skipped" exit: 2 out: "@TMP@/r/$6:3$TAB$5" unchanged: "$r/$6" \
		also: 'stdout: the good row after it; the file unchanged' -- "$cli" map "$r/$6"
}
H_USB='# usb module         match_flags idVendor idProduct bcdDevice_lo bcdDevice_hi bDeviceClass bDeviceSubClass bDeviceProtocol bInterfaceClass bInterfaceSubClass bInterfaceProtocol driver_info'
G_USB='good 0x0003 0x046d 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0'
O_USB='good match_flags=0x3 idVendor=0x46d idProduct=0xc52b bcdDevice_lo=0x0 bcdDevice_hi=0x0 bDeviceClass=0x0 bDeviceSubClass=0x0 bDeviceProtocol=0x0 bInterfaceClass=0x0 bInterfaceSubClass=0x0 bInterfaceProtocol=0x0 driver_info=0x0'
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x046d 0xc52b 0x0 0x0' "$G_USB"
maprow map-usb-columns usb '6 of 13 columns' "2:33: 6 columns, expected 13 (module and 12 numbers)" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x04zz 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-hex usb 'idVendor `0x04zz`' "2:12: idVendor: '0x04zz' is not a hexadecimal number" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x10000 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-overflow usb 'idVendor `0x10000` (17 bits)' "2:12: idVendor: '0x10000' is out of range (16 bits at most)" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 0x1ffffffffffffffff 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-overflow64 usb 'idVendor `0x1ffffffffffffffff` (past 64 bits)' "2:12: idVendor: '0x1ffffffffffffffff' is out of range (16 bits at most)" "$O_USB" bad.usbmap
mapfile bad.usbmap "$H_USB" 'bad 0x0003 1234 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0' "$G_USB"
maprow map-usb-no-0x usb 'idVendor `1234` (no 0x)' "2:12: idVendor: '1234' is not a 0x-prefixed hexadecimal number" "$O_USB" bad.usbmap

H_PCI='# pci module         vendor     device     subvendor  subdevice  class      class_mask driver_data'
G_PCI='good 0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0'
O_PCI='good vendor=0x8086 device=0x10d3 subvendor=0xffffffff subdevice=0xffffffff class=0x0 class_mask=0x0 driver_data=0x0'
mapfile bad.pcimap "$H_PCI" 'bad 0x00008086 0x000010d3 0xffffffff' "$G_PCI"
maprow map-pci-columns pci '4 of 8 columns' "2:37: 4 columns, expected 8 (module and 7 numbers)" "$O_PCI" bad.pcimap
mapfile bad.pcimap "$H_PCI" 'bad 0x00008086 0x0000g0d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0' "$G_PCI"
maprow map-pci-hex pci 'device `0x0000g0d3`' "2:16: device: '0x0000g0d3' is not a hexadecimal number" "$O_PCI" bad.pcimap
mapfile bad.pcimap "$H_PCI" 'bad 0x00008086 0x000010d3 0x100000000 0xffffffff 0x00000000 0x00000000 0x0' "$G_PCI"
maprow map-pci-overflow pci 'subvendor `0x100000000` (33 bits)' "2:27: subvendor: '0x100000000' is out of range (32 bits at most)" "$O_PCI" bad.pcimap

H_1394='# ieee1394 module    match_flags vendor_id model_id specifier_id version'
G_1394='good 0x00000003 0x001287 0x000001 0x000000 0x000000'
O_1394='good match_flags=0x3 vendor_id=0x1287 model_id=0x1 specifier_id=0x0 version=0x0'
mapfile bad.ieee1394map "$H_1394" 'bad 0x00000003 0x001287' "$G_1394"
maprow map-ieee1394-columns ieee1394 '3 of 6 columns' "2:24: 3 columns, expected 6 (module and 5 numbers)" "$O_1394" bad.ieee1394map
mapfile bad.ieee1394map "$H_1394" 'bad 0x00000003 0x00128x 0x000001 0x000000 0x000000' "$G_1394"
maprow map-ieee1394-hex ieee1394 'vendor_id `0x00128x`' "2:16: vendor_id: '0x00128x' is not a hexadecimal number" "$O_1394" bad.ieee1394map
mapfile bad.ieee1394map "$H_1394" 'bad 0x00000003 0x001287 0x000001 0x000000 0x1000000000' "$G_1394"
maprow map-ieee1394-overflow ieee1394 'version `0x1000000000` (37 bits)' "2:43: version: '0x1000000000' is out of range (32 bits at most)" "$O_1394" bad.ieee1394map

H_CCW='# ccw module         match_flags cu_type cu_model dev_type dev_model'
G_CCW='good 0x0003 0x3990 0xe9 0x0000 0x00'
O_CCW='good match_flags=0x3 cu_type=0x3990 cu_model=0xe9 dev_type=0x0 dev_model=0x0'
mapfile bad.ccwmap "$H_CCW" 'bad 0x0003' "$G_CCW"
maprow map-ccw-columns ccw '2 of 6 columns' "2:11: 2 columns, expected 6 (module and 5 numbers)" "$O_CCW" bad.ccwmap
mapfile bad.ccwmap "$H_CCW" 'bad 0x0003 0x3990 0xeg 0x0000 0x00' "$G_CCW"
maprow map-ccw-hex ccw 'cu_model `0xeg`' "2:19: cu_model: '0xeg' is not a hexadecimal number" "$O_CCW" bad.ccwmap
mapfile bad.ccwmap "$H_CCW" 'bad 0x0003 0x3990 0x100 0x0000 0x00' "$G_CCW"
maprow map-ccw-overflow ccw 'cu_model `0x100` (9 bits)' "2:19: cu_model: '0x100' is out of range (8 bits at most)" "$O_CCW" bad.ccwmap

H_PNP='# isapnp module      cardvendor carddevice driver_data vendor     function   ...'
G_PNP='good 0xffff 0xffff 0x00000000 0x630e 0x0001'
O_PNP='good cardvendor=0xffff carddevice=0xffff driver_data=0x0 vendor=0x630e function=0x1'
mapfile bad.isapnpmap "$H_PNP" 'bad 0xffff 0xffff 0x00000000 0x630e' "$G_PNP"
maprow map-isapnp-columns isapnp '5 columns: half a (vendor, function) pair' "2:36: 5 columns, expected module, cardvendor, carddevice, driver_data and (vendor, function) pairs" "$O_PNP" bad.isapnpmap
mapfile bad.isapnpmap "$H_PNP" 'bad 0xffff 0xffff 0x00000000 0x630e 0x000k' "$G_PNP"
maprow map-isapnp-hex isapnp 'function `0x000k`' "2:37: function: '0x000k' is not a hexadecimal number" "$O_PNP" bad.isapnpmap
mapfile bad.isapnpmap "$H_PNP" 'bad 0xffff 0x10000 0x00000000 0x630e 0x0001' "$G_PNP"
maprow map-isapnp-overflow isapnp 'carddevice `0x10000` (17 bits)' "2:12: carddevice: '0x10000' is out of range (16 bits at most)" "$O_PNP" bad.isapnpmap

H_INPUT='# module         matchBits bustype vendor product version evBits keyBits relBits absBits mscBits ledBits sndBits ffBits [swBits] driver_info'
G_INPUT='good 0x10 0x0 0x0 0x0 0x0 2 0 0 0 0 0 0 0 0x0'
O_INPUT='good matchBits=0x10 bustype=0x0 vendor=0x0 product=0x0 version=0x0 evBits=0x2 keyBits=0x0 relBits=0x0 absBits=0x0 mscBits=0x0 ledBits=0x0 sndBits=0x0 ffBits=0x0 swBits=0x0 driver_info=0x0'
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x0 0x0 0x0 0x0 2 0 0 0 0' "$G_INPUT"
maprow map-input-columns input '11 columns' "2:35: 11 columns, expected 15 or 16 (module, matchBits … driver_info, swBits optional)" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x0 0x0 0x0 0x0 2 1:zz 0 0 0 0 0 0 0x0' "$G_INPUT"
maprow map-input-bitmap input 'keyBits `1:zz`' "2:30: keyBits: '1:zz' is not a bitmap (hexadecimal words separated by ':')" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x10000 0x0 0x0 0x0 2 0 0 0 0 0 0 0 0x0' "$G_INPUT"
maprow map-input-overflow input 'bustype `0x10000` (17 bits)' "2:10: bustype: '0x10000' is out of range (16 bits at most)" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" 'bad 0x10 0x0 0x0 0x0 0x0 2 1ffffffffffffffff 0 0 0 0 0 0 0x0' "$G_INPUT"
maprow map-input-bitmap-word input 'keyBits word `1ffffffffffffffff` (65 bits)' "2:28: keyBits: bitmap word '1ffffffffffffffff' is wider than 64 bits" "$O_INPUT" bad.inputmap
mapfile bad.inputmap "$H_INPUT" "bad 0x10 0x0 0x0 0x0 0x0 2 $(printf '%01000000d' 0 | tr 0 f) 0 0 0 0 0 0 0x0" "$G_INPUT"
maprow map-input-bitmap-word-huge input 'keyBits one 1 MiB word `fff…`' "2:28: keyBits: bitmap word '$(printf '%040d' 0 | tr 0 f)' is wider than 64 bits" "$O_INPUT" bad.inputmap

H_SERIO='# serio module       type extra id   proto'
G_SERIO='good 0x01 0xff 0xff 0xff'
O_SERIO='good type=0x1 extra=0xff id=0xff proto=0xff'
mapfile bad.seriomap "$H_SERIO" 'bad 0x01 0xff' "$G_SERIO"
maprow map-serio-columns serio '3 of 5 columns' "2:14: 3 columns, expected 5 (module and 4 numbers)" "$O_SERIO" bad.seriomap
mapfile bad.seriomap "$H_SERIO" 'bad 0x01 0xfg 0xff 0xff' "$G_SERIO"
maprow map-serio-hex serio 'extra `0xfg`' "2:10: extra: '0xfg' is not a hexadecimal number" "$O_SERIO" bad.seriomap
mapfile bad.seriomap "$H_SERIO" 'bad 0x01 0xff 0xff 0x100' "$G_SERIO"
maprow map-serio-overflow serio 'proto `0x100` (9 bits)' "2:20: proto: '0x100' is out of range (8 bits at most)" "$O_SERIO" bad.seriomap

H_OF='# of module          name                 type                 compatible'
mapfile bad.ofmap "$H_OF" 'bad timer' 'good timer * arm,smp-twd'
maprow map-of-columns of '2 of 4 columns (its fields are strings: no numbers to break)' "2:10: 2 columns, expected 4 (module, name, type, compatible)" 'good name=timer type=* compatible=arm,smp-twd' bad.ofmap

fresh
printf '%s\nbad 0x0003 0x04\0006d 0xc52b 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0\n%s\n' "$H_USB" "$G_USB" >"$r/bad.usbmap"
maprow map-nul usb 'a NUL byte inside idVendor' "2:16: NUL byte in the row" "$O_USB" bad.usbmap
# the module column: a name kmod would take, or the row is malformed
mapfile bad.pcimap "$H_PCI" "$(printf 'ev\033[31mil') 0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0" "$G_PCI"
maprow map-module-control pci 'module `ev\x1b[31mil` (an escape sequence)' "2:1: module: 'ev\\x1b[31mil' is not a module name: it has a control character" "$O_PCI" bad.pcimap
mapfile bad.pcimap "$H_PCI" 'ev/il 0x00008086 0x000010d3 0xffffffff 0xffffffff 0x00000000 0x00000000 0x0' "$G_PCI"
maprow map-module-slash pci 'module `ev/il`' "2:1: module: 'ev/il' is not a module name: it has a '/'" "$O_PCI" bad.pcimap
fresh
row map-dev-zero in: '`map /dev/zero`' err: "modalias map: cannot open /dev/zero: not a regular file" exit: 2 out: '' also: 'returns at once' \
	-- "$cli" map /dev/zero
row map-directory in: '`map` of a directory' err: "modalias map: cannot open @TMP@/r: Is a directory" exit: 2 out: '' \
	-- "$cli" map "$r"
