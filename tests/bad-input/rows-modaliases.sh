# tests/bad-input/rows-modaliases.sh - bad-input rows: modaliases given to resolve and parse: huge, empty, NUL, unbalanced brackets, bad fields.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- modaliases --------------------------------------------------------------

cpu_head="cpu:type:x86,ven0000fam0006mod003F:feature:"
cpu4k=$(python3 -c "import sys; sys.stdout.write('$cpu_head' + ''.join(',%04X' % i for i in range(810)))")
cpu64k=$(python3 -c "import sys; sys.stdout.write('$cpu_head' + ''.join(',%04X' % i for i in range(13100)))")
# parse's answer, built independently: one feature= line per word
python3 - "$tmp/cpu4k.parse" "$tmp/cpu64k.parse" <<PY
import sys
for path, words in ((sys.argv[1], [i for i in range(810)]), (sys.argv[2], [i for i in range(13100)])):
    s = "$cpu_head" + "".join(",%04X" % i for i in words)
    with open(path, "w") as f:
        f.write(s + "\n\tcpu\n\tarch=x86\n\tvendor=0000\n\tfamily=0006\n\tmodel=003F\n")
        f.writelines("\tfeature=%04X\n" % i for i in words)
PY

row cpu-4k-resolve in: "resolve a 4,093-byte \`cpu:\` modalias (810 feature words)" \
	err: "modalias: '${cpu4k:0:60}…' (4093 bytes) is too long for kmod: with the module name 'intel_uncore' it exceeds kmod's 4096-byte key, and kmod answers nothing
modalias resolve: cannot look '${cpu4k:0:200}…' up: File name too long" exit: 2 out: '' \
	also: "kmod's answer: its lookup fails with -ENAMETOOLONG (the module name, '\\', the alias and a NUL must fit 4,096 bytes), so modprobe and udev load none of its 23 modules" \
	fixed: 'libmodalias/index.c `modalias_table_lookup`: it answered the 23 modules that kmod refuses' \
	-- "$cli" resolve -m "$D" -C /dev/null "$cpu4k"
row cpu-4k-parse in: 'parse the same 4 KiB `cpu:` modalias' \
	err: '' exit: 0 out-file: "$tmp/cpu4k.parse" also: 'stdout: every one of the 810 feature words, in order' \
	-- "$cli" parse "$cpu4k"
row cpu-64k-resolve in: "resolve a 65,543-byte \`cpu:\` modalias (13,100 feature words)" \
	err: "modalias: '${cpu64k:0:60}…' (65543 bytes) is too long for kmod: with the module name 'intel_uncore' it exceeds kmod's 4096-byte key, and kmod answers nothing
modalias resolve: cannot look '${cpu64k:0:200}…' up: File name too long" exit: 2 out: '' \
	also: "kmod cuts it at 4,095 bytes, matches, and fails as above: no answer" \
	fixed: 'libmodalias/index.c `modalias_table_lookup`: it answered the 23 modules that kmod refuses' \
	-- "$cli" resolve -m "$D" -C /dev/null "$cpu64k"
row cpu-64k-parse in: 'parse the same 64 KiB `cpu:` modalias' \
	err: '' exit: 0 out-file: "$tmp/cpu64k.parse" also: 'stdout: all 13,100 feature words (no fixed buffer)' \
	-- "$cli" parse "$cpu64k"

printf 'acpi:PNP0C0A:\npci:v0000\0008086\nnosuch:x\nacpi:PNP0C0A:\n' >"$tmp/nul.in"
printf 'acpi:PNP0C0A:\tbattery\npci:v0000\\x008086\t\nnosuch:x\t\nacpi:PNP0C0A:\tbattery\n' >"$tmp/nul.want"
row stdin-nul in: '`resolve -`: line 2 of 4 holds a NUL byte' \
	err: 'modalias resolve: stdin:2: NUL byte in the line, not looked up' exit: 2 \
	stdin: "$tmp/nul.in" out-file: "$tmp/nul.want" \
	also: 'stdout: one line per input line; the NUL line echoed whole (the NUL shown as `\x00`) with no module (it was looked up as `pci:v0000`, the text before the NUL, and answered as if that were the line)' \
	fixed: 'cli/modalias.c `cmd_resolve`: a line with a NUL byte was looked up as its text before the NUL, and echoed so, exit 0' \
	-- "$cli" resolve -m "$D" -C /dev/null -
python3 - "$tmp" <<'PY'
import sys
t = sys.argv[1]
big = "usb:v" + "A" * (1 << 20)
bad = "usb:v[" + "A" * (1 << 20)
open(t + "/big.in", "w").write("acpi:PNP0C0A:\n" + big + "\nacpi:PNP0C0A:\n")
open(t + "/big.want", "w").write("acpi:PNP0C0A:\tbattery\n" + big + "\t\nacpi:PNP0C0A:\tbattery\n")
open(t + "/bigbad.in", "w").write("acpi:PNP0C0A:\n" + bad + "\nacpi:PNP0C0A:\n")
open(t + "/bigbad.want", "w").write("acpi:PNP0C0A:\tbattery\n" + bad + "\t\nacpi:PNP0C0A:\tbattery\n")
PY
row stdin-1mib in: '`resolve -`: a 1 MiB line (`usb:vAAAA…`) between two good ones' \
	err: '' exit: 0 stdin: "$tmp/big.in" out-file: "$tmp/big.want" \
	also: 'stdout: the good lines answered, the 1 MiB line echoed whole with no module' \
	-- "$cli" resolve -m "$D" -C /dev/null -
A195=$(printf '%0195d' 0 | tr 0 A)
A194=$(printf '%0194d' 0 | tr 0 A)
row stdin-1mib-bracket in: '`resolve -`: a 1 MiB line with an unbalanced `[` between two good ones' \
	err: "modalias: 'usb:v[$A194' has unbalanced brackets
modalias resolve: stdin:2: cannot look 'usb:v[$A194…' up: Invalid argument" exit: 2 \
	stdin: "$tmp/bigbad.in" out-file: "$tmp/bigbad.want" \
	also: 'each message quotes 200 bytes of the line, not all of it; stdout: the good lines answered, the bad one echoed' \
	fixed: 'cli/modalias.c `cmd_resolve` (and `cmd_parse`, `cmd_load`): the message quoted the whole alias, 1 MiB on standard error for a 1 MiB line' \
	-- "$cli" resolve -m "$D" -C /dev/null -
row bracket-open in: "\`resolve 'pci:v[00' acpi:PNP0C0A:\`" \
	err: "modalias: 'pci:v[00' has unbalanced brackets
modalias resolve: cannot look 'pci:v[00' up: Invalid argument" exit: 2 out: battery \
	also: 'stdout: the good alias after it still answered' \
	-- "$cli" resolve -m "$D" -C /dev/null 'pci:v[00' acpi:PNP0C0A:
row bracket-close in: "\`resolve acpi:PNP0C0A: 'pci:v]00'\`" \
	err: "modalias: 'pci:v]00' has unbalanced brackets
modalias resolve: cannot look 'pci:v]00' up: Invalid argument" exit: 2 out: battery \
	also: 'stdout: the good alias before it answered' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: 'pci:v]00'
row resolve-empty in: "\`resolve ''\`" err: 'modalias resolve: argument 1 is empty: no ALIAS to look up' exit: 2 out: '' \
	also: 'an input error (a variable that was empty), not an alias without a module' \
	fixed: 'cli/modalias-resolve.c `cmd_resolve`: exit 1 and "modalias resolve: : no module", the answer for an alias no module serves' \
	-- "$cli" resolve -m "$D" -C /dev/null ''
row parse-empty in: "\`parse '' platform:pcspkr\`" \
	err: "modalias: '' is not a modalias: no \"bus:\" prefix
modalias parse: '' is not a valid modalias" exit: 2 out: "platform:pcspkr
${TAB}platform
${TAB}name=pcspkr" also: 'stdout: the good modalias after it parsed' \
	-- "$cli" parse '' platform:pcspkr
row parse-unknown-bus in: '`parse nosuchbus:abc`' err: '' exit: 0 out: "nosuchbus:abc
${TAB}nosuchbus
${TAB}raw=abc" also: 'an unknown bus is its prefix and the raw rest' \
	-- "$cli" parse nosuchbus:abc
row resolve-unknown-bus in: '`resolve nosuchbus:abc`' err: 'modalias resolve: nosuchbus:abc: no module' exit: 1 \
	out: '' also: 'nothing found' \
	-- "$cli" resolve -m "$D" -C /dev/null nosuchbus:abc
row parse-short-field in: '`parse usb:v046DpC5 platform:pcspkr` (idProduct cut short)' \
	err: "modalias: malformed usb modalias: field idProduct at offset 6: hexadecimal digits missing
modalias parse: 'usb:v046DpC5' is not a valid modalias" exit: 2 out: "platform:pcspkr
${TAB}platform
${TAB}name=pcspkr" also: 'stdout: the good modalias after it parsed' \
	-- "$cli" parse usb:v046DpC5 platform:pcspkr
row parse-bad-hex in: '`parse pci:vZZZZ0000d…` (a known bus, its first field not hex)' \
	err: "modalias: malformed pci modalias: field vendor at offset 1: hexadecimal digits missing
modalias parse: 'pci:vZZZZ0000d00001E31sv000017AAsd000021FBbc0Csc03i30' is not a valid modalias" exit: 2 out: '' \
	also: 'stdout: nothing' \
	-- "$cli" parse pci:vZZZZ0000d00001E31sv000017AAsd000021FBbc0Csc03i30
row parse-control-char in: '`parse` a modalias with a 0x01 byte' \
	err: "modalias: modalias has a control character (0x01) at offset 5
modalias parse: 'usb:v\\x01046D' is not a valid modalias" exit: 2 out: '' also: 'stdout: nothing; the control character escaped' \
	-- "$cli" parse "usb:v$(printf '\001')046D"
