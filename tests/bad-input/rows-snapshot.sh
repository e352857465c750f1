# tests/bad-input/rows-snapshot.sh - bad-input rows: snapshot files (--snapshot FILE) that are not JSON, not a snapshot, of another version, hostile or too large.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.

# ---- snapshot files (list, explain and the agent with --snapshot FILE) --------------

snapdoc() { # TEXT (printf format): @TMP@/r/s.json
	fresh
	# shellcheck disable=SC2059
	printf "$1" >"$r/s.json"
}
notsnap="modalias list: cannot use the snapshot @TMP@/r/s.json: not a snapshot this program reads (see above)"
snaprow() { # ID INPUT ERR [more row keys]: list --snapshot refuses the file
	id=$1 input=$2 e=$3
	shift 3
	row "$id" in: "$input" err: "modalias: $e
$notsnap" exit: 2 out: '' unchanged: "$r" also: 'stdout: nothing; the file unchanged' "$@" \
		-- "$cli" list --no-modules --snapshot "$r/s.json"
}
good_dev='{"devpath": "/devices/platform/pcspkr", "subsystem": "platform", "modalias": "platform:pcspkr", "driver": null}'

snapdoc "{\"version\": 1, \"kernel\": \"6.1.0-57-amd64\", \"arch\": \"x86_64\",\n \"devices\": [$good_dev]}\n"
row snap-good in: 'a snapshot of one device (the control row)' err: '1 device, 1 without a bound driver' exit: 0 \
	out: "/devices/platform/pcspkr${TAB}platform:pcspkr${TAB}-" also: 'stdout: the device' \
	-- "$cli" list --no-modules --snapshot "$r/s.json"
snapdoc 'devpath,modalias\n/devices/platform/pcspkr,platform:pcspkr\n'
snaprow snap-not-json 'a CSV file given as a snapshot' '@TMP@/r/s.json:1:1: an object expected'
head -c 316 "$here/../golden/snapshot-qemu-q35.out" >"$tmp/cut"
snapdoc "$(cat "$tmp/cut")"
snaprow snap-truncated 'a real snapshot (qemu-q35) cut after 316 bytes' \
	'@TMP@/r/s.json:8:22: the file ends too early (cut short?): the string does not end'
snapdoc "{\"version\": 2, \"devices\": []}"
snaprow snap-version-2 '`"version": 2` (a later format)' \
	'@TMP@/r/s.json:1:13: a snapshot version this reader does not know (it reads 1)'
snapdoc '{"version": 1, "kernel": "6.1.0"}'
snaprow snap-no-devices 'no `"devices"`' '@TMP@/r/s.json:1:1: no "devices": not a snapshot'
snapdoc '{"devices": []}'
snaprow snap-no-version 'no `"version"`' '@TMP@/r/s.json:1:1: no "version": not a snapshot'
snapdoc '{"version": 1, "devices": {}}'
snaprow snap-devices-object '`"devices"` an object, not an array' '@TMP@/r/s.json:1:27: an array expected'
snapdoc '{"version": 1, "devices": [{"devpath": "/devices/../../etc", "modalias": "platform:x"}]}'
snaprow snap-devpath-escapes 'a devpath that climbs out of /devices (`/devices/../../etc`)' \
	'@TMP@/r/s.json:1:28: the devpath is not a path below /devices'
snapdoc '{"version": 1, "devices": [{"devpath": "/proc/self", "modalias": "platform:x"}]}'
snaprow snap-devpath-outside 'a devpath outside /devices (`/proc/self`)' \
	'@TMP@/r/s.json:1:28: the devpath is not a path below /devices'
snapdoc '{"version": 1, "devices": [{"modalias": "platform:x"}]}'
snaprow snap-no-devpath 'a device without a devpath' '@TMP@/r/s.json:1:28: a device without its devpath'
snapdoc '{"version": 1, "devices": [{"devpath": "/devices/a"}]}'
snaprow snap-no-modalias 'a device without a modalias or an errno' \
	'@TMP@/r/s.json:1:28: a device without a modalias (nor an errno saying why)'
snapdoc '{"version": 1, "devices": [{"devpath": "/devices/a", "modalias": "pci:v0000XYZW"}]}'
snaprow snap-modalias-bad 'a modalias that does not parse (`pci:v0000XYZW`)' \
	'malformed pci modalias: field vendor at offset 1: hexadecimal digits missing
modalias: @TMP@/r/s.json:1:28: the modalias does not parse'
snapdoc "{\"version\": 1, \"devices\": [$good_dev,\n $good_dev]}"
snaprow snap-duplicate 'one device listed twice' "@TMP@/r/s.json: '/devices/platform/pcspkr' is listed twice in \"devices\""
snapdoc '{"version": 1, "devices": [{"devpath": "/devices/a\\u0000/b", "modalias": "platform:x"}]}'
snaprow snap-escaped-nul 'a devpath holding `\u0000`' \
	'@TMP@/r/s.json:1:51: an escaped NUL byte: a string may not hold one'
snapdoc '{"version": 1, "devices": [{"devpath": "/devices/a\\ud800", "modalias": "platform:x"}]}'
snaprow snap-lone-surrogate 'a devpath holding a lone high surrogate `\ud800`' \
	'@TMP@/r/s.json:1:57: a high surrogate without its low one'
snapdoc '{"version": 1, "devices": []}\n\0\n'
snaprow snap-nul-byte 'a NUL byte after the document' '@TMP@/r/s.json:2:1: a NUL byte in the file'
snapdoc '{"version": 1, "devices": []} {"version": 1}'
snaprow snap-two-documents 'two documents one after the other' '@TMP@/r/s.json:1:31: more after the document'
snapdoc "{\"version\": 1, \"devices\": [], \"extra\": $(printf '[%.0s' $(seq 40))$(printf ']%.0s' $(seq 40))}"
snaprow snap-deep 'an unknown member nested 40 deep' '@TMP@/r/s.json:1:72: nested too deep'
snapdoc '{"version": 1, "devices": [{"devpath": "/devices/a", "modalias": "platform:x", "errno": 99999}]}'
snaprow snap-errno-range '`"errno": 99999`' '@TMP@/r/s.json:1:89: a number out of range'
snapdoc '{"version": 1, "devices": [], "modules": ["a/b"]}'
snaprow snap-module-name 'a loaded module named `a/b`' '@TMP@/r/s.json:1:43: not a module name'
fresh
truncate -s 65M "$r/s.json"
row snap-huge in: 'a 65 MiB snapshot (sparse)' \
	err: "modalias: cannot read @TMP@/r/s.json: larger than 64 MiB
modalias list: cannot use the snapshot @TMP@/r/s.json: File too large" exit: 2 out: '' \
	-- "$cli" list --no-modules --snapshot "$r/s.json"
fresh
row snap-directory in: 'a directory given as the snapshot' \
	err: "modalias: cannot read @TMP@/r: Is a directory
modalias list: cannot use the snapshot @TMP@/r: Is a directory" exit: 2 out: '' \
	-- "$cli" list --no-modules --snapshot "$r"
snapdoc '{"version": 2, "devices": []}'
row snap-agent in: 'the agent'"'"'s dry-run coldplug of a version 2 snapshot' \
	err: "hotplug: @TMP@/r/s.json:1:13: a snapshot version this reader does not know (it reads 1)
hotplug: coldplug: cannot use the snapshot @TMP@/r/s.json: not a snapshot this program reads (see above)" \
	exit: 2 out: '' also: 'nothing loaded, nothing run' \
	-- "$agent" --stderr --dry-run --coldplug --snapshot "$r/s.json" -m "$D" -C /dev/null --hotplug-dir /nonexistent

# hostile strings: a devpath holding newlines that spell the agent's
# dry-run lines, a driver that is terminal escape sequences; shown escaped,
# one device a line (cli_shown())
evil_dev='{"devpath": "/devices/platform/pcspkr\\nload totally_evil\\nrun /etc/hotplug.d/default/evil.hotplug pci", "subsystem": "platform", "modalias": "platform:pcspkr", "driver": "\\u001b]0;pwned\\u0007\\u001b[2Jevil"}'
evil_shown='/devices/platform/pcspkr\nload totally_evil\nrun /etc/hotplug.d/default/evil.hotplug pci'
snapdoc "{\"version\": 1, \"devices\": [$evil_dev], \"modules\": []}"
row snap-hostile-list in: 'a devpath holding `\n` that spells dry-run lines, a driver of escape sequences: `list`' \
	err: '1 device, 0 without a bound driver, 0 that no module matches' exit: 0 \
	out: "$evil_shown${TAB}platform:pcspkr${TAB}\\x1b]0;pwned\\a\\x1b[2Jevil${TAB}pcspkr:available" \
	also: 'stdout: one line, the newlines shown as `\n`' -- "$cli" list --snapshot "$r/s.json" -m "$D" -C /dev/null
row snap-hostile-explain in: 'the same device: `explain`' err: '' exit: 0 \
	out: "device:   $evil_shown
modalias: platform:pcspkr
  from the snapshot @TMP@/r/s.json
match:    alias
  pcspkr: available
    platform:pcspkr  (@DATA@/linux-6.1.0-57-amd64/modules.alias:15439)
bound:    \\x1b]0;pwned\\a\\x1b[2Jevil
\\x1b]0;pwned\\a\\x1b[2Jevil is bound, but the aliases name pcspkr (a driver may be named otherwise than its module; no driver/module link here tells which module it is in)." \
	also: 'stdout: the devpath and the driver escaped, no escape byte' \
	-- "$cli" explain --snapshot "$r/s.json" -m "$D" -C /dev/null "$(printf '/devices/platform/pcspkr\nload totally_evil\nrun /etc/hotplug.d/default/evil.hotplug pci')"
row snap-hostile-agent in: 'the same device: the agent'"'"'s `--dry-run --coldplug --snapshot`' err: '' exit: 0 \
	out: "coldplug $evil_shown platform:pcspkr
load pcspkr" also: 'stdout: one coldplug line, the one real load; no forged `load totally_evil` or `run` line' \
	-- "$agent" --dry-run --coldplug --snapshot "$r/s.json" -m "$D" -C /dev/null --hotplug-dir /nonexistent
