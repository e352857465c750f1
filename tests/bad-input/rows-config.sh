# tests/bad-input/rows-config.sh - bad-input rows: modalias.conf, module names, missing modules, unknown fields, kmod parity.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- modalias.conf (--settings FILE) -------------------------------------------------

conf "[modules]\ndirectory=$D\n# the vendor's table\ntables=$r/t.alias\n"
row conf-table-safe in: '`--settings`: `[modules] tables=` a table mode 644, owned by root (the control row)' \
	err: '' exit: 0 out: acme_drv also: 'stdout: the table answers' \
	-- "$cli" --settings "$r/c.conf" resolve -C /dev/null acme:x
conf "[modules]\ndirectory=$D\n# the vendor's table\ntables=$r/t.alias\n"
chmod 666 "$r/t.alias"
confrow conf-table-world-writable '`--settings`: `tables=` a table mode 666' \
	"@TMP@/r/c.conf:4: [modules] tables: a table file writable by group or others (@TMP@/r/t.alias)" \
	fixed: 'cli/cli-config.c `cli_config_load`: the messages about a table did not say which table (the key takes a list)'
conf "[modules]\ndirectory=$D\ntables=$r/t.alias\n"
chmod 666 "$r/t.alias"
row conf-table-world-writable-agent in: 'the agent (`hotplug --settings … usb`, ACTION=add) with the same config' \
	err: "hotplug: @TMP@/r/c.conf:3: [modules] tables: a table file writable by group or others (@TMP@/r/t.alias)" \
	exit: 2 out: '' also: 'refused before any module or handler' \
	-- env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add MODALIAS=acme:x "$agent" --stderr --settings "$r/c.conf" --dry-run -C /dev/null \
	--hotplug-dir /nonexistent usb
conf "[modules]\ntables=$r/t.alias\n"
chmod 620 "$r/t.alias"
confrow conf-table-group-writable '`--settings`: `tables=` a table mode 620' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file writable by group or others (@TMP@/r/t.alias)"
conf "[modules]\ntables=$r/t.alias\n"
chown nobody "$r/t.alias" 2>/dev/null || chown 65534 "$r/t.alias"
confrow conf-table-not-owner '`--settings`: `tables=` a table mode 644 owned by nobody (who may rewrite it)' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file owned by another user (@TMP@/r/t.alias)" \
	fixed: 'cli/cli-config.c `cli_config_load`: a table owned by another user (who can write it whatever its mode) was accepted, and the agent runs as root'
# tables= is checked by the trust walk: the table and every directory on
# its way (symlinks followed), as the agent needs it (root, every event)
nobody_owns() { chown -R nobody:nogroup "$@" 2>/dev/null || chown -R 65534 "$@"; }
conf "[modules]\ndirectory=$D\ntables=$r/nob/t.alias\n"
mkdir "$r/nob"
cp -p "$r/t.alias" "$r/nob/t.alias"
nobody_owns "$r/nob"
chown 0:0 "$r/nob/t.alias"
confrow conf-table-dir-not-owner "\`--settings\`: \`tables=\` a table mode 644 owned by root, in a directory of nobody's (who may rename another file over it)" \
	"@TMP@/r/c.conf:3: [modules] tables: a table file on a path another user may change (@TMP@/r/nob/t.alias: @TMP@/r/nob: not owned by root)" \
	fixed: 'cli/cli-config.c `cli_config_load`: a table was judged alone (stat, access: its owner and mode), not by the directories above it: one of nobody'"'"'s could have its root-owned table replaced with his own after the check, read by root at the next load (the agent'"'"'s reloads read it by its path again); now the trust walk, in one place (cli/cli-tables.c `cli_table_open`), and the checked descriptor is read, at every load'
conf "[modules]\ndirectory=$D\ntables=$r/link/t.alias\n"
mkdir "$r/nob"
cp -p "$r/t.alias" "$r/nob/t.alias"
nobody_owns "$r/nob"
chown 0:0 "$r/nob/t.alias"
ln -s "$r/nob" "$r/link"
confrow conf-table-symlink-to-nobody-dir "\`--settings\`: \`tables=@TMP@/r/link/t.alias\`, \`link\` root's symlink to a directory of nobody's holding root's table" \
	"@TMP@/r/c.conf:3: [modules] tables: a table file on a path another user may change (@TMP@/r/link/t.alias: @TMP@/r/nob: not owned by root)"
conf "[modules]\ndirectory=$D\ntables=$r/g/t.alias\n"
mkdir "$r/g"
chmod 775 "$r/g"
cp -p "$r/t.alias" "$r/g/t.alias"
confrow conf-table-dir-group-writable '`--settings`: `tables=` a table mode 644 owned by root, in a directory mode 775' \
	"@TMP@/r/c.conf:3: [modules] tables: a table file on a path another user may change (@TMP@/r/g/t.alias: @TMP@/r/g: writable by group or others)"
conf "[modules]\ndirectory=$D\ntables=$r/shared/t.alias\n"
mkdir "$r/shared"
chmod 1777 "$r/shared"
ln -s "$r/t.alias" "$r/shared/t.alias"
chown -h nobody "$r/shared/t.alias" 2>/dev/null || chown -h 65534 "$r/shared/t.alias"
confrow conf-table-nobody-link-in-sticky-dir "\`--settings\`: \`tables=\` a symlink of nobody's in a sticky directory mode 1777 (as /tmp), to root's table (nobody may point it elsewhere at any time)" \
	"@TMP@/r/c.conf:3: [modules] tables: a table file on a path another user may change (@TMP@/r/shared/t.alias: @TMP@/r/shared/t.alias: a symlink made by another user in a shared directory)"
conf "[modules]\ntables=$r/t.alias;$r/missing.alias\n"
confrow conf-table-missing '`--settings`: `tables=` a good table and a missing one' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file that cannot be read (@TMP@/r/missing.alias: No such file or directory)"
conf "[modules]\ntables=$r\n"
confrow conf-table-directory '`--settings`: `tables=` a directory' \
	"@TMP@/r/c.conf:2: [modules] tables: a table file that cannot be read (@TMP@/r: not a regular file)"
conf "[modules]\ntables=t.alias\n"
confrow conf-table-relative '`--settings`: `tables=t.alias` (relative)' "@TMP@/r/c.conf:2: [modules] tables: not an absolute path"
conf "[modules]\ndirectory=tests/data/linux-6.1.0-57-amd64\n"
confrow conf-directory-relative '`--settings`: `directory=` a relative path' \
	"@TMP@/r/c.conf:2: [modules] directory: not an absolute path"
conf "[modules]\nversion=../../../etc\n"
confrow conf-version-traversal '`--settings`: `version=../../../etc`' "@TMP@/r/c.conf:2: [modules] version: not a kernel version"
conf "[log]\n\nlevel=loud\n"
confrow conf-bad-level '`--settings`: `[log] level=loud`' \
	"@TMP@/r/c.conf:3: [log] level: not err, warning, notice, info, debug or 0-7"
conf "[agent]\nmax-parallel=99999999999999999999\n"
confrow conf-max-parallel-overflow '`--settings`: `[agent] max-parallel=99999999999999999999`' \
	"@TMP@/r/c.conf:2: [agent] max-parallel: not a number from 1 to 1024"
conf "[agent]\ncoldplug=sometimes\n"
confrow conf-coldplug-bad '`--settings`: `[agent] coldplug=sometimes`' \
	"@TMP@/r/c.conf:2: [agent] coldplug: neither 'trigger' nor 'resolve'"
conf "[modules]\ndirectory=$D\ntabels=$r/t.alias\n"
row conf-typo in: '`--settings`: `tabels=` (a typo of `tables=`)' \
	err: "modalias: @TMP@/r/c.conf:3: unknown key 'tabels' in [modules], ignored" exit: 0 out: battery \
	also: 'a warning, as modalias.conf(5) says; stdout: the rest of the file applies' \
	-- "$cli" --settings "$r/c.conf" resolve -C /dev/null acpi:PNP0C0A:
conf "[modules]\ndirectory=$D\n# not UTF-8: GKeyFile gives no value\nblacklist=acme_drv;\377;other\n"
confrow conf-not-utf8 '`--settings`: `blacklist=` a list with a byte that is no UTF-8' \
	"@TMP@/r/c.conf:4: [modules] blacklist: not UTF-8 text" \
	fixed: 'cli/cli-config.c `cli_config_load`: the key was passed over in silence: no blacklist, and the bundled table for a root= or directory= so written'
conf "# modalias.conf\n[log]\nlevel=notice\n[modules\ndirectory=$D\n"
confrow conf-syntax '`--settings`: line 4 `[modules` (no closing bracket)' \
	"@TMP@/r/c.conf:4: Key file contains line ${LQ}[modules${RQ} which is not a key-value pair, group, or comment" \
	fixed: 'cli/cli-config.c `cli_config_load`: a syntax error named no line (GLib quotes the line, without its number); it is found by loading ever shorter prefixes' 

# ---- modalias.conf's paths root acts on: the agent, load ----------------------------

# modprobe.d= names commands root runs (install), directory= (root=,
# version=) the modules root inserts: the agent and load take them only
# where nobody else may change them; -C, -m, -d given on their command line
# are root's own choice, as modprobe's
LM="$data/load/lib/modules/9.9.9-test"
pwn_conf() { # DIR: a modprobe.d directory whose install line makes @TMP@/r/PWNED
	mkdir -p "$1" && printf 'install mod_x /bin/touch %s/PWNED\n' "$r" >"$1/x.conf"
}
agent_event() { # a dry run of test:dev:multi's add event with @TMP@/r/c.conf (its caches in the row's)
	env -i MODALIAS_CACHE_DIR="$MODALIAS_CACHE_DIR" ACTION=add DEVPATH=/devices/x MODALIAS=test:dev:multi "$agent" \
		--stderr --settings "$r/c.conf" --dry-run --hotplug-dir "$r/hp" "$@" test
}
agentrow() { # ID INPUT ERR [KEY: VALUE…]: refused, no module, no install command
	id=$1 input=$2 e=$3
	shift 3
	row "$id" in: "$input" err: "$e
hotplug: modules not loaded" exit: 1 out: 'event - add test /devices/x' check: 'test ! -e "$r/PWNED"' \
		also: 'no module, no install command (the handlers still run); stdout: the event alone' "$@" -- agent_event
}
fresh
mkdir "$r/hp"
pwn_conf "$r/nob/conf.d"
nobody_owns "$r/nob"
printf '[modules]\ndirectory=%s\nmodprobe.d=%s/nob/conf.d\n' "$LM" "$r" >"$r/c.conf"
agentrow conf-modprobe-d-not-owner-agent "the agent (\`hotplug --settings … test\`, ACTION=add, dry run): \`modprobe.d=\` a directory of nobody's holding \`install mod_x /bin/touch @TMP@/r/PWNED\`" \
	"hotplug: @TMP@/r/nob/conf.d (modprobe.d, from @TMP@/r/c.conf): refused: @TMP@/r/nob: not owned by root" \
	fixed: 'cli/cli-tables.c `cli_tables_open`: the agent refused another user'"'"'s `tables=` but took `modprobe.d=` (whose install lines root runs) and `directory=` (whose modules root inserts) from anybody'"'"'s files: the dry run printed the install line, exit 0; now `CLI_TABLES_TRUSTED` (the agent, load) puts modalias.conf'"'"'s modprobe.d= and module directory through the trust walk at every load (`cli_tables_trusted`)'
fresh
mkdir "$r/hp"
pwn_conf "$r/conf.d"
nobody_owns "$r/conf.d/x.conf"
printf '[modules]\ndirectory=%s\nmodprobe.d=%s/conf.d\n' "$LM" "$r" >"$r/c.conf"
agentrow conf-modprobe-d-file-not-owner-agent "the agent: \`modprobe.d=\` root's directory holding a file of nobody's (\`x.conf\`, the install line)" \
	"hotplug: @TMP@/r/conf.d (modprobe.d, from @TMP@/r/c.conf): refused: @TMP@/r/conf.d/x.conf: not owned by root"
fresh
mkdir "$r/hp"
pwn_conf "$r/conf.d"
chmod 775 "$r/conf.d"
printf '[modules]\ndirectory=%s\nmodprobe.d=%s/conf.d\n' "$LM" "$r" >"$r/c.conf"
agentrow conf-modprobe-d-group-writable-agent "the agent: \`modprobe.d=\` root's directory mode 775 holding root's file" \
	"hotplug: @TMP@/r/conf.d (modprobe.d, from @TMP@/r/c.conf): refused: @TMP@/r/conf.d: writable by group or others"
fresh
mkdir "$r/hp"
cp -r "$LM" "$r/m"
nobody_owns "$r/m"
printf '[modules]\ndirectory=%s/m\n' "$r" >"$r/c.conf"
agentrow conf-directory-not-owner-agent "the agent: \`directory=\` a copy of the test module directory owned by nobody (whose modules root would insert)" \
	"hotplug: @TMP@/r/m (the module directory, from @TMP@/r/c.conf): refused: @TMP@/r/m: not owned by root"
fresh
mkdir "$r/hp"
cp -r "$LM" "$r/m"
nobody_owns "$r/m/kernel"
printf '[modules]\ndirectory=%s/m\n' "$r" >"$r/c.conf"
agentrow conf-directory-subdir-not-owner-agent "the agent: \`directory=\` root's copy of the test module directory whose \`kernel/\` (the modules) is nobody's" \
	"hotplug: @TMP@/r/m (the module directory, from @TMP@/r/c.conf): refused: @TMP@/r/m/kernel: not owned by root"
fresh
mkdir "$r/hp"
mkdir -p "$r/nob/lib/modules"
cp -r "$LM" "$r/nob/lib/modules/9.9.9-test"
nobody_owns "$r/nob"
printf '[modules]\nroot=%s/nob\nversion=9.9.9-test\n' "$r" >"$r/c.conf"
agentrow conf-root-not-owner-agent "the agent: \`root=\` a directory of nobody's, \`version=9.9.9-test\`" \
	"hotplug: @TMP@/r/nob/lib/modules/9.9.9-test (the module directory, from @TMP@/r/c.conf): refused: @TMP@/r/nob: not owned by root"
fresh
mkdir "$r/hp"
pwn_conf "$r/nob/conf.d"
nobody_owns "$r/nob"
: >"$r/c.conf"
row cmdline-modprobe-d-not-owner-agent in: "the agent with \`-C @TMP@/r/nob/conf.d -m\` the test module directory on its command line: the same directory of nobody's" \
	err: '' exit: 0 out: "event - add test /devices/x
load mod_c
load mod_b
load mod_a
install mod_x /bin/touch @TMP@/r/PWNED" \
	also: "the command line is root's own choice, as modprobe -C: taken (hotplug(8)); a dry run: nothing run" \
	-- agent_event -C "$r/nob/conf.d" -m "$LM"
fresh
pwn_conf "$r/nob/conf.d"
nobody_owns "$r/nob"
printf '[modules]\ndirectory=%s\nmodprobe.d=%s/nob/conf.d\n' "$LM" "$r" >"$r/c.conf"
row load-conf-modprobe-d-not-owner in: "\`modalias --settings … load --dry-run test:dev:multi\`: \`modprobe.d=\` a directory of nobody's holding an install line" \
	err: "modalias load: @TMP@/r/nob/conf.d (modprobe.d, from @TMP@/r/c.conf): refused: @TMP@/r/nob: not owned by root" \
	exit: 2 out: '' check: "test \"\$($cli --settings $r/c.conf resolve test:dev:multi | tr '\\n' ' ')\" = 'mod_a mod_x '" \
	also: 'nothing inserted or run; resolve, which acts on nothing, reads the same settings' \
	fixed: 'cli/modalias-load.c: load (root inserting modules, running install lines) took modalias.conf'"'"'s modprobe.d= and directory= from anybody'"'"'s files, as the agent did' \
	-- "$cli" --settings "$r/c.conf" load --dry-run test:dev:multi
fresh
row conf-missing in: '`--settings` a file that does not exist' \
	err: "modalias: --settings @TMP@/r/nonexistent.conf: No such file or directory" \
	fixed: 'cli/cli-config.c `cli_config_load`: the message named the file, not that it was the settings file' \
	exit: 2 out: '' -- "$cli" --settings "$r/nonexistent.conf" resolve -C /dev/null acme:x
row modprobe-d-missing in: '`-C` a modprobe configuration that does not exist (a typo)' \
	err: "modalias resolve: -C/--config @TMP@/r/nonexistent.d: no such file or directory (a modprobe.d file or directory; /dev/null for none)" \
	fixed: 'cli/cli-tables.c `add_config`: read as an empty configuration, in silence: a blacklist or an option the person meant to give was not applied' \
	exit: 2 out: '' -- "$cli" resolve -m "$D" -C "$r/nonexistent.d" acme:x
conf "[modules]\ndirectory=$D\nmodprobe.d=$r/nonexistent.d\n"
row conf-modprobe-d-missing in: '`--settings`: `[modules] modprobe.d=` a directory that does not exist' \
	err: "modalias resolve: @TMP@/r/nonexistent.d (modprobe.d, from @TMP@/r/c.conf): no such file or directory" \
	exit: 2 out: '' -- "$cli" --settings "$r/c.conf" resolve acme:x
row conf-directory in: '`--settings` a directory' \
	err: "modalias: --settings @TMP@/r: Is a directory" \
	exit: 2 out: '' -- "$cli" --settings "$r" resolve -C /dev/null acme:x

# ---- module names, missing modules, unknown fields (load, build) --------------------

LM="$data/load/lib/modules/9.9.9-test"
fresh
printf 'alias test:dev:missing nosuchmod\n' >"$r/missing.conf"
printf 'alias test:dev:slash /tmp/evil\n' >"$r/slash.conf"
row load-dry-missing-module in: '`load --dry-run` of a modprobe.d `alias test:dev:missing nosuchmod` (no such module)' \
	err: "modalias load: module 'nosuchmod' not found" exit: 1 out: '' \
	also: 'stdout: nothing, as `modprobe -n -v` prints for it; exit 1, as the real run fails' \
	fixed: 'libmodalias/load.c `modalias_loader_load_module`: a module libkmod has no file for was "would insert", and the dry run printed `insmod  ` (an empty path) and exited 0' \
	-- "$cli" load --dry-run -m "$LM" -C "$r/missing.conf" test:dev:missing
row load-json-missing-module in: '`load --dry-run --json` of the same alias' \
	err: '' exit: 1 out: '[
  {"alias": "test:dev:missing", "modules": [{"name": "nosuchmod", "state": "not found", "detail": "", "options": "", "errno": 2}]}
]' also: 'stdout: the module, "not found", errno ENOENT' \
	-- "$cli" load --dry-run --json -m "$LM" -C "$r/missing.conf" test:dev:missing
row load-dry-slash-name in: '`load --dry-run` of a modprobe.d `alias test:dev:slash /tmp/evil` (a path for a module name)' \
	err: "modalias: @TMP@/r/slash.conf:1: bad module name '/tmp/evil': it has a '/'
modalias load: test:dev:slash: no module" exit: 1 out: '' \
	also: 'the line is refused when the configuration is read (one rule of what a module name is, module_name_check(), for tables, configs and the loader); libkmod is never asked about it' \
	fixed: 'libmodalias/load.c `modalias_loader_load`, libmodalias/table.c `module_id`: any name from the table went to libkmod; `/tmp/evil` "would insert" (`insmod  `), exit 0' \
	-- "$cli" load --dry-run -m "$LM" -C "$r/slash.conf" test:dev:slash
long_mod=$(printf 'm%.0s' $(seq 300))
printf 'alias acme:long %s\nalias acme:good snd_ens1370\n' "$long_mod" >"$r/long.conf"
row conf-long-module in: 'a modprobe.d `alias acme:long mmm…` whose module name is 300 bytes, before a good alias' \
	err: "modalias: @TMP@/r/long.conf:1: bad module name '${long_mod:0:200}': longer than 255 bytes
modalias resolve: acme:long: no module" exit: 1 out: 'snd_ens1370' \
	also: 'stdout: the good alias of the same file answers; the long one is skipped, as libkmod cannot take it (no module: exit 1)' \
	fixed: 'libmodalias/table.c `modalias_table_load_config`: the name stopped the whole configuration with ENAMETOOLONG, then a NULL iterator went to kmod_config_iter_free_iter() and every command reading that file crashed (SIGSEGV)' \
	-- "$cli" resolve --no-cache -m "$D" -C "$r/long.conf" acme:good acme:long
row build-unknown-field in: '`build usb nosuch=1`' \
	err: "modalias build: unknown field 'nosuch' of bus usb; its fields: idVendor, idProduct, bcdDevice, bDeviceClass, bDeviceSubClass, bDeviceProtocol, bInterfaceClass, bInterfaceSubClass, bInterfaceProtocol, bInterfaceNumber (see 'modalias build --fields usb')" exit: 2 out: '' \
	fixed: 'libmodalias/dev.c `field_of`: an unknown field was "usb has no field" from set and add, and was not logged by set_uint, unset, get_count, get and get_uint (the front ends said ENOENT'"'"'s "No such file or directory")' \
	-- "$cli" build usb nosuch=1

# ---- kmod parity: what kmod answers (issue 14) --------------------------------------

moddir "alias mt8188 mt6359 soc card mt8188_mt6359\nalias platform: mt8365_mt6357 mt8365_mt6357\n$good2"
row alias-spaces in: 'modules.alias lines `alias mt8188 mt6359 soc card mt8188_mt6359` and `alias platform: mt8365_mt6357 mt8365_mt6357` (arm64 6.12, as depmod writes them)' \
	err: '' exit: 0 out: "mt8188_mt6359
mt8365_mt6357
battery" \
	also: 'stdout: each alias with spaces answers, as kmod answers it from modules.alias.bin; the other lines too' \
	fixed: 'libmodalias/table.c `load_alias_text`: a line whose alias has spaces was skipped as "unexpected text after the module name", so the sound cards kmod loads got nothing' \
	-- "$cli" resolve --no-cache -m "$r/m" -C /dev/null 'mt8188 mt6359 soc card' 'platform: mt8365_mt6357' acpi:PNP0C0A:
a4087=$(python3 -c "import sys; sys.stdout.write('acpi:PNP0C0A:' + 'X' * (4087 - 13))")
a4088=$(python3 -c "import sys; sys.stdout.write('acpi:PNP0C0A:' + 'X' * (4088 - 13))")
row alias-4088 in: "resolve \`acpi:PNP0C0A:XXX…\` of 4,087 then 4,088 bytes (the module: battery)" \
	err: "modalias: '${a4088:0:60}…' (4088 bytes) is too long for kmod: with the module name 'battery' it exceeds kmod's 4096-byte key, and kmod answers nothing
modalias resolve: cannot look '${a4088:0:200}…' up: File name too long" exit: 2 out: battery \
	also: "stdout: the 4,087-byte alias answers (\`battery\\\`, the alias and a NUL fill kmod's 4,096-byte key exactly); the limit depends on the module's name, as in kmod" \
	fixed: 'libmodalias/index.c `modalias_table_lookup`: it answered what kmod refuses' \
	-- "$cli" resolve -m "$D" -C /dev/null "$a4087" "$a4088"
