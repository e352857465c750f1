# tests/bad-input/rows-env.sh - bad-input rows: legacy hotplug variables (modalias build --env, the agent): huge, traversing, missing.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- legacy hotplug variables: modalias build --env ----------------------------

envrow() { # ID INPUT ERR-LINE ERRNO-TEXT VARS…: one line, the hint where a variable is missing
	id=$1 input=$2 e1=$3 e2=$4
	shift 4
	hint=""
	[ "$e2" = 'No such file or directory' ] && hint="; give MODALIAS, the legacy variables, or DEVPATH of a device under --sysfs"
	row "$id" in: "\`build --env\` with $input" err: "modalias build: $e1$hint" exit: 2 out: '' also: 'stdout: nothing' \
		fixed: "${fixed_next:-}" -- env -i "$@" "$cli" build --env --sysfs /nonexistent
	fixed_next=
}
envrow env-product-overflow '`PRODUCT=12345/c52b/1200` (idVendor of 17 bits)' \
	"variable PRODUCT='12345/c52b/1200' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb PRODUCT=12345/c52b/1200 TYPE=0/0/0 INTERFACE=3/1/1
envrow env-product-overflow64 '`PRODUCT=46d/c52b/ffffffffffffffffffff` (past 64 bits)' \
	"variable PRODUCT='46d/c52b/ffffffffffffffffffff' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/ffffffffffffffffffff TYPE=0/0/0
envrow env-product-few '`PRODUCT=46d/c52b` (no bcdDevice)' \
	"variable PRODUCT='46d/c52b' has too few fields" 'Invalid argument' SUBSYSTEM=usb PRODUCT=46d/c52b TYPE=0/0/0
envrow env-product-many '`PRODUCT=46d/c52b/1/2`' \
	"variable PRODUCT='46d/c52b/1/2' has too many fields" 'Invalid argument' SUBSYSTEM=usb PRODUCT=46d/c52b/1/2 TYPE=0/0/0
envrow env-product-empty '`PRODUCT=` (empty)' \
	"variable PRODUCT='' has too few fields" 'Invalid argument' SUBSYSTEM=usb PRODUCT= TYPE=0/0/0
envrow env-product-negative '`PRODUCT=-1/c52b/1200`' \
	"variable PRODUCT='-1/c52b/1200' is not of the form HEX" 'Invalid argument' SUBSYSTEM=usb PRODUCT=-1/c52b/1200 TYPE=0/0/0
F191=$(printf '%0191d' 0 | tr 0 f)
hpdir
envrow env-product-huge '`PRODUCT=46d/c52b/fff…` (a 5,000-digit bcdDevice)' \
	"variable PRODUCT='46d/c52b/$F191' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb "PRODUCT=46d/c52b/$(printf '%05000d' 0 | tr 0 f)" TYPE=0/0/0
row env-product-huge-agent in: 'the agent (`hotplug usb`, ACTION=add) with the same 5,000-digit `PRODUCT`' \
	err: "hotplug: variable PRODUCT='46d/c52b/$F191' has a number that overflows its field
hotplug: usb event: no modalias from its variables: Numerical result out of range" exit: 0 \
	out: "event - add usb -
run @TMP@/r/hp/default/00-log.hotplug usb" \
	also: 'the value quoted to 200 bytes (syslog); stdout (dry run): the handlers still run' \
	fixed: 'libmodalias/env.c `env_bad`: a bad variable was quoted whole (up to the 128 KiB an environment string may have) on standard error and in syslog' \
	-- env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add "PRODUCT=46d/c52b/$(printf '%05000d' 0 | tr 0 f)" TYPE=0/0/0 \
	"$agent" --stderr --dry-run --moddir "$D" -C /dev/null --hotplug-dir "$r/hp" --sysfs /nonexistent usb
fixed_next='libmodalias/env.c `env_split`: a `PCI_ID` without its colon was "a number that overflows its field"; the fields are now counted first'
envrow env-pci-id-no-colon '`PCI_ID=80861E31` (no colon)' \
	"variable PCI_ID='80861E31' has too few fields" 'Invalid argument' \
	SUBSYSTEM=pci PCI_ID=80861E31 PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=C0330
envrow env-pci-id-empty '`PCI_ID=:`' \
	"variable PCI_ID=':' is not of the form HEX" 'Invalid argument' \
	SUBSYSTEM=pci PCI_ID=: PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=C0330
envrow env-pci-class-overflow '`PCI_CLASS=1000000` (25 bits)' \
	"variable PCI_CLASS='1000000' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=pci PCI_ID=8086:1E31 PCI_SUBSYS_ID=17AA:21FB PCI_CLASS=1000000
envrow env-pci-class-missing 'no `PCI_CLASS`' \
	"pci event: variable PCI_CLASS is not set" 'No such file or directory' \
	SUBSYSTEM=pci PCI_ID=8086:1E31 PCI_SUBSYS_ID=17AA:21FB
envrow env-type-junk "\`TYPE='0/0/x;rm -rf /'\`" \
	"variable TYPE='0/0/x;rm -rf /' has too many fields" 'Invalid argument' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200 'TYPE=0/0/x;rm -rf /'
envrow env-type-overflow '`TYPE=256/0/0` (a class of 9 bits)' \
	"variable TYPE='256/0/0' has a number that overflows its field" 'Numerical result out of range' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200 TYPE=256/0/0
envrow env-type-missing 'no `TYPE`' "usb event: variable TYPE is not set" 'No such file or directory' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200
envrow env-interface-hole '`INTERFACE=3//1`' "variable INTERFACE='3//1' is not of the form DEC" 'Invalid argument' \
	SUBSYSTEM=usb PRODUCT=46d/c52b/1200 TYPE=0/0/0 INTERFACE=3//1
envrow env-ev-junk '`EV=zz` (input)' "variable EV='zz' is not a bitmap of hexadecimal words" 'Invalid argument' \
	SUBSYSTEM=input PRODUCT=3/46d/c52b/111 EV=zz
envrow env-ev-wide '`EV=1ffffffffffffffff` (a 65-bit word)' "variable EV='1ffffffffffffffff' has a word wider than a long" \
	'Numerical result out of range' SUBSYSTEM=input PRODUCT=3/46d/c52b/111 EV=1ffffffffffffffff
envrow env-of-count '`OF_COMPATIBLE_N=99999`' "variable OF_COMPATIBLE_N='99999' is not a small decimal number" \
	'Numerical result out of range' SUBSYSTEM=platform OF_NAME=timer OF_COMPATIBLE_N=99999
envrow env-of-missing '`OF_COMPATIBLE_N=2` and only `OF_COMPATIBLE_0`' "platform event: variable OF_COMPATIBLE_1 is not set" \
	'No such file or directory' SUBSYSTEM=platform OF_NAME=timer OF_COMPATIBLE_N=2 OF_COMPATIBLE_0=arm,smp-twd
envrow env-no-subsystem 'neither `MODALIAS` nor `SUBSYSTEM`' "event has neither MODALIAS nor SUBSYSTEM" \
	'No such file or directory' PRODUCT=46d/c52b/1200 TYPE=0/0/0
envrow env-unknown-subsystem '`SUBSYSTEM=frob` and no `MODALIAS`' \
	"frob event: no MODALIAS, and no legacy variables known for this subsystem" 'No such file or directory' SUBSYSTEM=frob
envrow env-scsi-host '`SUBSYSTEM=scsi DEVTYPE=scsi_host` (a host: only a scsi_device has a type)' \
	"scsi event: DEVTYPE=scsi_host is not a scsi_device: no modalias; DEVPATH /devices/pci0000:00/0000:00:01.1/ata1/host0 under /nonexistent: /nonexistent/devices/pci0000:00/0000:00:01.1/ata1/host0: no such device directory" 'No such file or directory' \
	SUBSYSTEM=scsi DEVTYPE=scsi_host DEVPATH=/devices/pci0000:00/0000:00:01.1/ata1/host0
fixed_agent_noise='libmodalias/env.c: an event of no device with a modalias (a SCSI host or target, an input event node, a partition) was logged as an error, some 150 lines a boot; it is logged at info now, and a `scsi_host`/`scsi_target` event no longer reads a `type` file'
hpdir
for s in 'scsi-host:scsi:DEVTYPE=scsi_host:DEVPATH=/devices/pci0000:00/0000:00:01.1/ata1/host0' \
	'input-node:input:DEVNAME=input/event3:DEVPATH=/devices/platform/i8042/serio0/input/input3/event3' \
	'block:block:DEVTYPE=partition:DEVPATH=/devices/virtual/block/loop0/loop0p1'; do
	name=${s%%:*} s=${s#*:} sub=${s%%:*} s=${s#*:} v1=${s%%:*} v2=${s#*:}
	row "agent-no-device-$name" in: "the agent (\`hotplug $sub\`, ACTION=add): \`$v1\`, no \`MODALIAS\` (no device with a modalias)" \
		err: '' exit: 0 out: "event - add $sub ${v2#DEVPATH=}
run @TMP@/r/hp/default/00-log.hotplug $sub" \
		also: 'nothing logged at the default level (notice); stdout (dry run): the handlers still run' \
		fixed: "${fixed_agent_noise:-}" \
		-- env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add "$v1" "$v2" "$agent" --stderr --dry-run --moddir "$D" -C /dev/null \
		--hotplug-dir "$r/hp" --sysfs /nonexistent "$sub"
	fixed_agent_noise=
done
envrow env-bad-modalias '`MODALIAS=usb:vZZ` (it wins over the legacy variables)' \
	"malformed usb modalias: field idVendor at offset 1: hexadecimal digits missing" 'Invalid argument' \
	SUBSYSTEM=usb MODALIAS=usb:vZZ PRODUCT=46d/c52b/1200 TYPE=0/0/0
keyhuge=$(python3 -c 'print(" ".join(["ffffffffffffffff"] * 4000))')
python3 -c 'import sys; sys.stdout.write("input:b0003v046DpC52Be0111-ek" + "".join("%X," % k for k in range(0x71, 4000 * 64)) + "ramlsfw\n")' >"$tmp/key.want"
row env-key-huge in: '`build --env input` with a `KEY` bitmap of 4,000 full 64-bit words (256,000 keys)' \
	err: '' exit: 0 out-file: "$tmp/key.want" also: 'stdout: every key from 0x71 to 0x3E7FF, 1,465,810 bytes (built independently)' \
	fixed: 'libmodalias/dev.c `dev_add_bitmap`, `dev_put_num`: each bit went to the front of a sorted list (words come highest first): quadratic, 9.5 s for this input (over 120 s under ASan), 0.05 s now' \
	-- env -i SUBSYSTEM=input PRODUCT=3/46d/c52b/111 "KEY=$keyhuge" "$cli" build --env
fresh
mkdir "$r/sys"
echo 07 >"$r/bInterfaceNumber"
echo 5 >"$r/type"
row env-devpath-dotdot-usb in: '`build --env usb --sysfs @TMP@/r/sys` with `DEVPATH=/..` and `@TMP@/r/bInterfaceNumber` = 07' \
	err: '' exit: 0 out: 'usb:v046DpC52Bd1200dc00dsc00dp00ic03isc01ip01in*' \
	also: 'stdout: the interface number unknown (`in*`): nothing read outside the sysfs root' \
	fixed: 'libmodalias/env.c `devpath_attr`: `DEVPATH=/..` (or any path ending in `/..`) read ROOT/../bInterfaceNumber and ROOT/../type, outside the sysfs root' \
	-- env -i PRODUCT=46d/c52b/1200 TYPE=0/0/0 INTERFACE=3/1/1 DEVPATH=/.. "$cli" build --env usb --sysfs "$r/sys"
row env-devpath-dotdot-scsi in: '`build --env scsi --sysfs @TMP@/r/sys` with `DEVPATH=/..` and `@TMP@/r/type` = 5' \
	err: "modalias build: variable DEVPATH='/..' is not a device path below the sysfs root" exit: 2 out: '' \
	also: 'stdout: nothing (it was `scsi:t-0x05`, from the file outside the root)' \
	-- env -i DEVPATH=/.. "$cli" build --env scsi --sysfs "$r/sys"
row env-devpath-traversal in: '`build --env scsi` with `DEVPATH=/devices/../../etc`' \
	err: "modalias build: variable DEVPATH='/devices/../../etc' is not a device path below the sysfs root" exit: 2 out: '' \
	-- env -i DEVPATH=/devices/../../etc "$cli" build --env scsi --sysfs "$r/sys"
D199=$(printf '%0199d' 0 | tr 0 d)
row env-devpath-long in: '`build --env scsi` with a 5,000-byte `DEVPATH` (longer than PATH_MAX)' \
	err: "modalias build: variable DEVPATH='/$D199' is not a device path below the sysfs root" exit: 2 out: '' \
	also: 'the value quoted to 200 bytes' \
	fixed: 'libmodalias/env.c `env_scsi`, libmodalias/sysfs.c `devpath_ok`: a DEVPATH, a SUBSYSTEM, a field name or value, a bus name was quoted whole in messages; the library quotes 200 bytes of anything it did not write (`LOG_ECHO`), the CLI too' \
	-- env -i "DEVPATH=/$(printf '%05000d' 0 | tr 0 d)" "$cli" build --env scsi --sysfs "$r/sys"
S200=$(printf '%0200d' 0 | tr 0 s)
row env-subsystem-huge in: '`build --env` with a 100,000-byte `SUBSYSTEM` and no `MODALIAS`' \
	err: "modalias build: $S200 event: no MODALIAS, and no legacy variables known for this subsystem; give MODALIAS, the legacy variables, or DEVPATH of a device under --sysfs" exit: 2 out: '' \
	also: 'the value quoted to 200 bytes' \
	-- env -i "SUBSYSTEM=$(printf '%0100000d' 0 | tr 0 s)" "$cli" build --env
Q200=$(printf '%0200d' 0 | tr 0 q)
row build-field-huge in: '`build usb` with a 5,000-byte field name `qqq…=1`' \
	err: "modalias build: unknown field '$Q200' of bus usb; its fields: idVendor, idProduct, bcdDevice, bDeviceClass, bDeviceSubClass, bDeviceProtocol, bInterfaceClass, bInterfaceSubClass, bInterfaceProtocol, bInterfaceNumber (see 'modalias build --fields usb')" exit: 2 out: '' \
	also: 'the message quotes 200 bytes' \
	-- "$cli" build usb "$(printf '%05000d' 0 | tr 0 q)=1"
row build-bus-huge in: '`build` a 5,000-byte bus name' \
	err: "modalias: unknown bus '$Q200'
modalias build: unknown bus '$Q200…' (see 'modalias build --buses')" exit: 2 out: '' also: 'each message quotes 200 bytes' \
	-- "$cli" build "$(printf '%05000d' 0 | tr 0 q)"
