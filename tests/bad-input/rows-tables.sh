# tests/bad-input/rows-tables.sh - bad-input rows: modules.alias and the index cache: bad lines, truncation, binary, directories, FIFOs, links.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- modules.alias and the index cache ---------------------------------------

good2='alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:* fan\n'
moddir "alias acpi:PNP0C0A:* battery\nbogus line here\n$good2"
row alias-bad-line in: 'modules.alias line 2: `bogus line here`' \
	err: "modalias: @TMP@/r/m/modules.alias:2: expected 'alias PATTERN MODULE', got 'bogus'
modalias resolve: @TMP@/r/m: 1 malformed line skipped" exit: 0 out: "battery
fan" unchanged: "$r/m" also: 'stdout: the patterns before and after it answer; the file unchanged' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias acpi:PNP0C0A:* battery\nalias usb:v*\n$good2"
row alias-no-module in: 'modules.alias line 2: `alias usb:v*` (no module name)' \
	err: "modalias: @TMP@/r/m/modules.alias:2: missing module name
modalias resolve: @TMP@/r/m: 1 malformed line skipped" exit: 0 out: "battery
fan" also: 'stdout: the other patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias\n$good2"
row alias-keyword-only in: 'modules.alias line 1: `alias` alone' \
	err: "modalias: @TMP@/r/m/modules.alias:1: missing pattern and module
modalias resolve: @TMP@/r/m: 1 malformed line skipped" exit: 0 out: "battery
fan" also: 'stdout: the other patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias pci:v[00* foo\n$good2"
row alias-bracket in: 'modules.alias line 1: `alias pci:v[00* foo`' \
	err: "modalias: @TMP@/r/m/modules.alias:1: unbalanced brackets in pattern 'pci:v[00*'
modalias resolve: @TMP@/r/m: 1 malformed line skipped" exit: 0 out: "battery
fan" also: 'stdout: the other patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "$good2"
printf 'kernel/drivers/acpi/battery.ko:\nkernel/evil\033[31m.ko:\n' >"$r/m/modules.dep"
row dep-name-escape in: 'modules.dep line 2: `kernel/evil\x1b[31m.ko:` (a module name holding a terminal escape)' \
	err: "modalias: @TMP@/r/m/modules.dep:2: bad module name 'evil\\x1b[31m': it has a control character" exit: 0 out: "battery
fan" also: 'the line is named, escaped; stdout: the patterns answer' \
	fixed: 'libmodalias/table.c `add_pattern`: the name was read as a pattern first, and the line reported as "unbalanced brackets in pattern"' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "$good2"
printf 'kernel/drivers/acpi/battery.ko\nkernel/evil\001[.ko\n' >"$r/m/modules.builtin"
row builtin-name-control in: 'modules.builtin line 2: `kernel/evil\x01[.ko`' \
	err: "modalias: @TMP@/r/m/modules.builtin:2: bad module name 'evil\\x01[': it has a control character" exit: 0 out: "battery
fan" also: 'stdout: the patterns answer' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:* evil\033[31m\n"
row alias-module-escape in: 'modules.alias line 2: `alias acpi:PNP0C0B:* evil\x1b[31m`' \
	err: "modalias: @TMP@/r/m/modules.alias:2: bad module name 'evil\\x1b[31m': it has a control character
modalias resolve: @TMP@/r/m: 1 malformed line skipped
modalias resolve: acpi:PNP0C0B:: no module" exit: 1 out: "battery" also: 'stdout: the good pattern answers' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir ''
cp "$D/modules.alias.bin" "$r/m/modules.alias"
row alias-binary in: "\`modules.alias.bin\` (kmod's binary index) copied over modules.alias" \
	err: "modalias: @TMP@/r/m/modules.alias:1: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:2: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:3: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:4: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:5: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:6: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:7: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:8: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:9: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias:10: NUL byte in line, line skipped
modalias: @TMP@/r/m/modules.alias: 3050 more malformed lines skipped
modalias resolve: @TMP@/r/m: 3060 malformed lines skipped
modalias resolve: acpi:PNP0C0A:: no module" exit: 1 out: '' \
	also: 'ten bad lines named, then their count; nothing matched' \
	fixed: 'libmodalias/table.c `load_alias_text`: every bad line was logged, 3,060 lines for one binary file (per event, in the agent)' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
moddir "alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:"
row alias-truncated-pattern in: 'modules.alias cut in its last line: `…\nalias acpi:PNP0C0B:` (no newline)' \
	err: "modalias: @TMP@/r/m/modules.alias:2: missing module name
modalias resolve: @TMP@/r/m: 1 malformed line skipped
modalias resolve: acpi:PNP0C0B:: no module" exit: 1 out: battery \
	also: 'stdout: the complete line before it answers; the cut one is named, with no module (exit 1)' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir "alias acpi:PNP0C0A:* battery\nalias acpi:PNP0C0B:* fa"
row alias-truncated-module in: 'modules.alias cut inside its last module name: `alias acpi:PNP0C0B:* fa` (no newline)' \
	err: '' exit: 0 out: "battery
fa" also: "not detectable: an unterminated last line is a line (as in kmod's text files); the module name is what is there" \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:
moddir ''
row alias-empty in: 'an empty modules.alias' err: 'modalias resolve: acpi:PNP0C0A:: no module' exit: 1 out: '' \
	also: 'nothing found, no error' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir -p "$r/m/modules.alias"
row alias-directory in: 'modules.alias is a directory' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: Is a directory
modalias resolve: cannot load the module tables of @TMP@/r/m: Is a directory" exit: 2 out: '' \
	fixed: 'libmodalias/table.c `slurp` (new `open_regular_file` in util.c): a directory was read, failing late as "Input/output error"' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
mkfifo "$r/m/modules.alias"
row alias-fifo in: 'modules.alias is a FIFO nobody writes' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: not a regular file
modalias resolve: cannot load the module tables of @TMP@/r/m: Invalid argument" exit: 2 out: '' \
	also: 'returns at once' \
	fixed: 'libmodalias/table.c `slurp`, libmodalias/maps.c `modalias_map_new_from_file`: a FIFO blocked the command (the agent) for ever' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
ln -s /dev/zero "$r/m/modules.alias"
row alias-dev-zero in: 'modules.alias is a symlink to /dev/zero' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: not a regular file
modalias resolve: cannot load the module tables of @TMP@/r/m: Invalid argument" exit: 2 out: '' \
	also: 'returns at once' \
	fixed: 'libmodalias/table.c `slurp`: /dev/zero was read until memory ran out' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
ln -s modules.alias "$r/m/modules.alias"
row alias-symlink-loop in: 'modules.alias is a symlink to itself' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: Too many levels of symbolic links
modalias resolve: cannot load the module tables of @TMP@/r/m: Too many levels of symbolic links" exit: 2 out: '' \
	fixed: 'libmodalias/table.c `modalias_table_new_from_directory`: a file that could not even be stat()ed was not named' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
moddir "$good2"
chmod 000 "$r/m/modules.alias"
row alias-unreadable in: 'modules.alias mode 000, run as nobody' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: Permission denied
modalias resolve: cannot load the module tables of @TMP@/r/m: Permission denied" exit: 2 out: '' \
	skip-unless: have_setpriv -- as_nobody "$cli" --settings /dev/null resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A:
fresh
mkdir "$r/m"
row alias-missing in: 'a module directory without modules.alias' \
	err: "modalias: cannot open @TMP@/r/m/modules.alias: No such file or directory
modalias resolve: cannot load the module tables of @TMP@/r/m: No such file or directory (a module directory holds modules.alias, as /lib/modules/VERSION: -m DIR, or -d ROOT -S VERSION for ROOT/lib/modules/VERSION)" exit: 2 out: '' \
	-- "$cli" resolve --no-cache -m "$r/m/" -C /dev/null acpi:PNP0C0A:
moddir "$good2"
head -c 10 "$D/modules.alias.bin" >"$r/m/modules.alias.bin"
row bin-truncated in: 'modules.alias.bin truncated to 10 bytes beside a good modules.alias' \
	err: '' exit: 0 out: "battery
fan" also: 'the library reads the text files only: the answer is unchanged' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null acpi:PNP0C0A: acpi:PNP0C0B:

# the index cache of the bundled table: built once, then damaged row by row
"$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: >/dev/null
cache=$(ls "$tmp"/cache/modalias-*.idx)
idx=$(basename "$cache")
cp "$cache" "$tmp/good.idx"
cache_ok='cmp -s "$cache" "$tmp/good.idx"'
truncate -s 1000 "$cache"
row cache-truncated in: 'the index cache truncated to 1,000 bytes' err: '' exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers from the text tables; the cache rebuilt, equal to a fresh one' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
: >"$cache"
row cache-empty in: 'the index cache an empty file' err: '' exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers right; the cache rebuilt' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
printf 'XXXX' | dd of="$cache" bs=1 seek=0 conv=notrunc 2>/dev/null
row cache-bad-magic in: 'the index cache with its magic overwritten' err: '' exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers right; the cache rebuilt' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
# the string pool's offset (bytes 112-119 of the header) past the end of the file
python3 - "$cache" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", b, 112, len(b))
open(sys.argv[1], "wb").write(b)
PY
row cache-damaged in: 'the index cache with an array offset past its end (its checksum left as it was)' \
	err: "modalias: @TMP@/cache/@IDX@: damaged index cache (checksum mismatch)" exit: 0 out: "battery
e1000e" check: "$cache_ok" also: 'answers right; the cache rebuilt' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
echo "victim" >"$tmp/victim"
rm -f "$cache"
ln -s "$tmp/victim" "$cache"
row cache-symlink in: 'the index cache a symlink to another file' \
	err: "modalias: index cache not used: @TMP@/cache/@IDX@: a symlink" exit: 0 out: "battery
e1000e" unchanged: "$tmp/victim" check: "test ! -L \"\$cache\" && $cache_ok" \
	also: 'the link is replaced by a new cache (rename), the file it pointed to is unchanged' \
	-- "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A: pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00
fresh
: >"$r/not-a-dir"
row cache-dir-a-file in: '`MODALIAS_CACHE_DIR` names a regular file' \
	err: "modalias: index cache directory @TMP@/r/not-a-dir not used: @TMP@/r/not-a-dir: Not a directory" exit: 0 out: "battery" \
	also: 'answers from the text tables' \
	-- env MODALIAS_CACHE_DIR="$r/not-a-dir" "$cli" resolve -m "$D" -C /dev/null acpi:PNP0C0A:

# ---- the files libkmod opens itself: the indexes, the .ko files -------------------------

LMD="$data/load/lib/modules/9.9.9-test"
firmware_quiet() { # modalias firmware of @TMP@/r/s.json and @TMP@/r/m, its standard output dropped
	timeout 10 "$cli" firmware --snapshot "$r/s.json" -m "$r/m" -C /dev/null >/dev/null
}
lmcopy() { # FILE KIND: a copy of the load fixture in @TMP@/r/m, FILE a FIFO (p) or a link to /dev/zero (z)
	fresh
	cp -r "$LMD" "$r/m"
	rm -f "$r/m/$1"
	if [ "$2" = p ]; then mkfifo "$r/m/$1"; else ln -s /dev/zero "$r/m/$1"; fi
}
for f in modules.dep.bin modules.alias.bin modules.symbols.bin modules.builtin.alias.bin modules.builtin.bin; do
	lmcopy "$f" p
	row "kmod-index-fifo-$f" in: "$f (kmod's binary index, which libkmod opens itself) is a FIFO nobody writes: \`load --dry-run\`" \
		err: "modalias: cannot open @TMP@/r/m/$f: not a regular file (a FIFO)
modalias load: cannot set up libkmod: Invalid argument" exit: 2 out: '' also: 'returns at once' \
		fixed: "libmodalias/load.c \`loader_open_kmod\`: libkmod opened $f as it was, and \`load\`, \`firmware\` and the agent hung in open() for ever" \
		-- timeout 10 "$cli" load --dry-run -m "$r/m" -C /dev/null test:dev:multi
	lmcopy "$f" z
	row "kmod-index-dev-zero-$f" in: "$f is a symlink to /dev/zero: \`load --dry-run\`" \
		err: "modalias: cannot open @TMP@/r/m/$f: not a regular file (a character device)
modalias load: cannot set up libkmod: Invalid argument" exit: 2 out: '' also: 'the device is not opened' \
		-- timeout 10 "$cli" load --dry-run -m "$r/m" -C /dev/null test:dev:multi
done
lmcopy modules.dep.bin p
mkdir -p "$r/hp/default"
row kmod-index-fifo-agent in: 'modules.dep.bin a FIFO nobody writes: the agent, one-shot (`hotplug --dry-run --moddir`)' \
	err: "hotplug: cannot open @TMP@/r/m/modules.dep.bin: not a regular file (a FIFO)
hotplug: cannot set up libkmod: Invalid argument
hotplug: modules not loaded" exit: 1 out: 'event - add platform -' also: 'returns at once; no module loaded' \
	-- timeout 10 env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add MODALIAS=test:dev:multi "$agent" --stderr --dry-run --moddir "$r/m" -C /dev/null \
	--hotplug-dir "$r/hp" platform
for k in p z; do
	lmcopy kernel/test/mod_b.ko "$k"
	what=$([ "$k" = p ] && echo 'a FIFO' || echo 'a character device')
	row "ko-$k-load" in: "kernel/test/mod_b.ko (mod_a's dependency) is $([ "$k" = p ] && echo 'a FIFO' || echo 'a symlink to /dev/zero'): \`load --dry-run\` of mod_a and mod_x" \
		err: "modalias: cannot open @TMP@/r/m/kernel/test/mod_b.ko: not a regular file ($what)" exit: 1 \
		out: "insmod @TMP@/r/m/kernel/test/mod_x.ko " also: 'stdout: mod_x, whose files are good; nothing of mod_a (its chain would stop at mod_b)' \
		fixed: 'libmodalias/load.c `modalias_loader_load_module`: libkmod opened a module file as it was to insert it (a dry run said it would insert it)' \
		-- timeout 10 "$cli" load --dry-run -m "$r/m" -C /dev/null test:dev:multi
	row "ko-$k-agent" in: "the same, the agent one-shot (\`hotplug --dry-run --moddir\`)" \
		err: "hotplug: cannot open @TMP@/r/m/kernel/test/mod_b.ko: not a regular file ($what)
hotplug: mod_b: failed (Invalid argument)
hotplug: mod_a: cannot be loaded: Invalid argument" exit: 0 out: 'event - add platform -
load mod_x' also: 'stdout: mod_x would be loaded' \
		-- timeout 10 env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add MODALIAS=test:dev:multi "$agent" --stderr --dry-run --moddir "$r/m" -C /dev/null \
		--hotplug-dir "$r/hp" platform
	printf '{"version": 1, "kernel": "9.9.9-test", "arch": "x86_64", "devices": [{"devpath": "/devices/platform/t0", "subsystem": "platform", "modalias": "test:dev:multi"}], "modules": []}\n' >"$r/s.json"
	row "ko-$k-firmware" in: "the same, \`firmware --snapshot\` of a device of test:dev:multi" \
		err-has: "modalias: cannot open @TMP@/r/m/kernel/test/mod_b.ko: not a regular file ($what)
modalias firmware: cannot read the modinfo of mod_b: Invalid argument; its firmware is not checked" exit: 2 \
		out: '' check: 'grep -q "(not read, see above: 1 module.s modinfo)\$" "$ERR"' \
		also: "returns at once; the summary counts the module unread (stdout, this machine's firmware search path, not compared)" \
		fixed: 'libmodalias/load.c `module_info`: libkmod opened a module file as it was to read its modinfo, and `firmware` hung' \
		-- firmware_quiet
done
