# tests/bad-input/rows-surfaces.sh - bad-input rows: whose files the newer surfaces act on: snapshot -o, --snapshot and --config files, sticky directories the group may write to, the control socket.
# Sourced by test-bad-input.sh after lib.sh (row syntax there); defines no
# helper another rows file uses.  Each row is an attack by nobody on root.

Q="$data/sysfs/qemu-q35"
# @TMP@/r/pub, a directory as /tmp is (1777), and @TMP@/r/secret, root's 0600
pubdir() {
	fresh
	mkdir -m 1777 "$r/pub"
	echo precious >"$r/secret"
	chmod 600 "$r/secret"
}

# ---- modalias snapshot -o FILE -------------------------------------------------------
pubdir
have_setpriv >/dev/null 2>&1 && as_nobody ln -s "$r/secret" "$r/pub/snap.json"
row snapshot-o-user-symlink in: '`modalias snapshot -o @TMP@/r/pub/snap.json` (run by root), where nobody made `snap.json` in a 1777 directory a symlink to root'"'"'s 0600 `@TMP@/r/secret`' \
	err: 'modalias snapshot: cannot write @TMP@/r/pub/snap.json: @TMP@/r/pub/snap.json: a symlink made by another user in a shared directory' \
	exit: 2 out: '' unchanged: "$r/secret" also: "root's file unchanged (mode and bytes)" \
	fixed: 'cli/modalias-snapshot.c `write_output`: the name was resolved with realpath() and the file at the end replaced (0644, the JSON): any user could have root overwrite any file; now shared/write-file: a symlink is followed only where trust_open() follows one, in a directory that passes the trust walk' \
	skip-unless: have_setpriv -- "$cli" snapshot --sysfs "$Q" -o "$r/pub/snap.json"
pubdir
have_setpriv >/dev/null 2>&1 && as_nobody mkfifo "$r/pub/snap.json"
row snapshot-o-user-fifo in: '`modalias snapshot -o @TMP@/r/pub/snap.json` (run by root), where nobody made `snap.json` a FIFO nobody reads' \
	err: 'modalias snapshot: cannot write @TMP@/r/pub/snap.json: not a regular file (-o - writes to standard output)' \
	exit: 2 out: '' check: 'test -p "$r/pub/snap.json"' also: 'no hang (the FIFO is not opened); it stays a FIFO' \
	fixed: 'cli/modalias-snapshot.c `write_output`: a FIFO or a device at the name was opened and written in place: root hung for ever on a FIFO nobody reads, and wrote into a device a link named' \
	skip-unless: have_setpriv -- timeout 10 "$cli" snapshot --sysfs "$Q" -o "$r/pub/snap.json"
fresh
mkdir "$r/out"
chown nobody "$r/out" 2>/dev/null || chown 65534 "$r/out"
row snapshot-o-user-dir in: "\`modalias snapshot -o @TMP@/r/out/snap.json\` (run by root) into a directory of nobody's" \
	err: 'modalias snapshot: cannot write @TMP@/r/out/snap.json: @TMP@/r/out: not owned by root' \
	exit: 2 out: '' check: 'test -z "$(ls -A "$r/out")"' also: 'nothing written there (nobody could swap the file for a link between the write and the rename)' \
	-- "$cli" snapshot --sysfs "$Q" -o "$r/out/snap.json"

# ---- files named to be read: --snapshot, --config ---------------------------------------
# nobody's FIFO, a writer of nobody's waiting in open() for a reader (it
# writes @TMP@/r/opened when one came), and a symlink to it in a 1777 directory
fifo_waiting() {
	pubdir
	mkdir "$r/nob" && chown nobody:nogroup "$r/nob" &&
		as_nobody mkfifo "$r/nob/fifo" && as_nobody ln -s "$r/nob/fifo" "$r/pub/snap.json" || return 1
	as_nobody sh -c 'echo "{}" >"$1/fifo" && touch "$1/opened"' - "$r/nob" &
	sleep 0.2
}
# the writer still waits; then released (a reader) and gone
still_waiting() {
	sleep 0.2
	test ! -e "$r/nob/opened"
	s=$?
	timeout 5 cat "$r/nob/fifo" >/dev/null
	wait
	return $s
}
have_setpriv >/dev/null 2>&1 && fifo_waiting
row snapshot-read-user-fifo in: '`modalias list --snapshot @TMP@/r/pub/snap.json` (run by root): nobody'"'"'s symlink to nobody'"'"'s FIFO, a writer of nobody'"'"'s waiting for a reader' \
	err: 'modalias: cannot read @TMP@/r/pub/snap.json: not a regular file
modalias list: cannot use the snapshot @TMP@/r/pub/snap.json: not a regular file' \
	exit: 2 out: '' check: still_waiting also: 'the FIFO never opened: its writer still waits' \
	fixed: 'libmodalias/snapshot-read.c, shared/read-file.c: the file was opened (O_NONBLOCK) before its kind was checked: a FIFO let its writer through, a device (character devices were allowed: /dev/stdin) was opened by root and read' \
	skip-unless: have_setpriv -- "$cli" list --no-modules --snapshot "$r/pub/snap.json"
fresh
ln -s /dev/zero "$r/snap.json"
row snapshot-read-device in: '`--snapshot` a symlink to `/dev/zero`' \
	err: 'modalias: cannot read @TMP@/r/snap.json: not a regular file
modalias list: cannot use the snapshot @TMP@/r/snap.json: not a regular file' \
	exit: 2 out: '' also: 'refused before it is opened (it was read up to 64 MiB)' \
	-- "$cli" list --no-modules --snapshot "$r/snap.json"

# ---- modprobe.d named with -C: libkmod reads a checked copy -----------------------------
# libkmod quotes the first word of a line it cannot parse, and the file's
# name, on standard error before any log function can be set, and opens
# whatever it lists: the library reads the files first and hands libkmod a
# copy of what it checked (libmodalias/modprobe-d-copy.c).
# nobody's directory @TMP@/r/nob, and what nobody put there
nobdir() {
	fresh
	mkdir "$r/nob" && chown nobody:nogroup "$r/nob"
}
have_setpriv >/dev/null 2>&1 && nobdir && as_nobody sh -c 'printf "\033[2J\033]0;pwned\007x y\nalias acme:x acme_drv\n" >"$1/a.conf"' - "$r/nob"
row modprobe-d-escape-word in: '`modalias resolve -C @TMP@/r/nob` (run by root): nobody'"'"'s `a.conf` there, line 1 starting with `\x1b[2J\x1b]0;pwned\x07x` (clear the screen, set the window title)' \
	err: 'modalias: @TMP@/r/nob/a.conf line 1: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is; the modprobe configuration is not read
modalias resolve: cannot read the modprobe configuration: Bad message' \
	exit: 2 out: '' also: 'no escape sequence on standard error; the file unchanged' unchanged: "$r/nob" \
	fixed: 'libmodalias/modprobe-d-copy.c: libkmod printed the line'"'"'s first word as it was (`libkmod: ERROR … ignoring bad line starting with '"'"'…'"'"'`), escape sequences and all, from inside kmod_new(), before any log function could be set' \
	skip-unless: have_setpriv -- "$cli" resolve -m "$D" -C "$r/nob" acme:x
have_setpriv >/dev/null 2>&1 && nobdir && as_nobody sh -c 'printf "bogus line\n" >"$1/$(printf "\033[2J")x.conf"' - "$r/nob"
row modprobe-d-escape-name in: '`modalias resolve -C @TMP@/r/nob` (run by root): nobody'"'"'s file there named `\x1b[2Jx.conf`, with a line libkmod cannot parse' \
	err: 'modalias: @TMP@/r/nob/\x1b[2Jx.conf: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the file'"'"'s name; the modprobe configuration is not read
modalias resolve: cannot read the modprobe configuration: Bad message' \
	exit: 2 out: '' also: 'the name shown escaped' \
	skip-unless: have_setpriv -- "$cli" resolve -m "$D" -C "$r/nob" acme:x
have_setpriv >/dev/null 2>&1 && nobdir && as_nobody mkfifo "$r/nob/x.conf"
row modprobe-d-fifo in: '`modalias resolve -C @TMP@/r/nob` (run by root): nobody'"'"'s FIFO `x.conf` there' \
	err: 'modalias: @TMP@/r/nob/x.conf: not a regular file (libkmod would open it as it is: a FIFO hangs it); the modprobe configuration is not read
modalias resolve: cannot read the modprobe configuration: Invalid argument' \
	exit: 2 out: '' check: 'test -p "$r/nob/x.conf"' also: 'no hang: the FIFO is never opened' \
	fixed: 'libkmod opened it and waited for a writer for ever (`modprobe -C` does too)' \
	skip-unless: have_setpriv -- timeout 10 "$cli" resolve -m "$D" -C "$r/nob" acme:x
have_setpriv >/dev/null 2>&1 && nobdir && mkdir -m 700 "$r/secret" &&
	printf 'alias acme:x secret_drv\nSECRETWORD x\n' >"$r/secret/s.conf" && chmod 600 "$r/secret/s.conf" &&
	as_nobody ln -s "$r/secret/s.conf" "$r/nob/a.conf"
row modprobe-d-link-to-root-file in: '`modalias resolve -C @TMP@/r/nob` (run by root): nobody'"'"'s `a.conf` there a symlink to root'"'"'s 0600 file in a 0700 directory, which nobody may not read' \
	err: 'modalias: @TMP@/r/nob/a.conf: a link where another user may change the configuration: not followed (only a link to /dev/null, a mask, is; name the file it points to); the modprobe configuration is not read
modalias resolve: cannot read the modprobe configuration: Too many levels of symbolic links' \
	exit: 2 out: '' also: 'root'"'"'s file is not read: no alias from it, none of its words printed' \
	fixed: 'libmodalias/modprobe-d-copy.c: the link was followed and root'"'"'s file copied as the configuration: its alias answered, and libkmod printed the first word of each line it could not parse' \
	skip-unless: have_setpriv -- timeout 10 "$cli" resolve -m "$D" -C "$r/nob" acme:x
have_setpriv >/dev/null 2>&1 && nobdir && as_nobody ln -s /dev/zero "$r/nob/z.conf"
row modprobe-d-agent-device in: 'the agent (`hotplug -C @TMP@/r/nob usb`, ACTION=add): nobody'"'"'s `z.conf` there a symlink to `/dev/zero`' \
	err: 'hotplug: @TMP@/r/nob/z.conf: a link where another user may change the configuration: not followed (only a link to /dev/null, a mask, is; name the file it points to); the modprobe configuration is not read
hotplug: cannot read the modprobe configuration: Too many levels of symbolic links
hotplug: @TMP@/r/nob/z.conf: a link where another user may change the configuration: not followed (only a link to /dev/null, a mask, is; name the file it points to); the modprobe configuration is not read
hotplug: cannot set up libkmod: Too many levels of symbolic links
hotplug: modules not loaded' \
	exit: 1 out: 'event - add usb -' also: 'no module loaded, and no endless read of /dev/zero' \
	skip-unless: have_setpriv -- env -i ACTION=add MODALIAS=acme:x timeout 10 "$agent" --stderr --dry-run --moddir "$D" \
	-C "$r/nob" --hotplug-dir /nonexistent usb

# ---- sticky directories the group may write to (1775) ---------------------------------
# @TMP@/r/g: 1775, group nogroup (nobody's), holding nobody's symlink NAME
# to a root-owned TARGET
groupdir() { # NAME TARGET
	mkdir -m 1775 "$r/g" && chgrp nogroup "$r/g" && chmod 1775 "$r/g" && as_nobody ln -s "$2" "$r/g/$1"
}
fresh
mkdir -p "$r/tools/usb"
handler "$r/tools/usb/10-other.hotplug" 755
: >"$r/log"
have_setpriv >/dev/null 2>&1 && groupdir hp "$r/tools"
row handler-dir-group-sticky in: '`hotplug --hotplug-dir @TMP@/r/g/hp usb`: `g` sticky and writable by its group (1775, nogroup), `hp` there a symlink of nobody'"'"'s to a root-owned directory of root-owned programs' \
	err: 'hotplug: @TMP@/r/g/hp: refused: a symlink made by another user in a shared directory' exit: 0 out: '' \
	check: 'test ! -s "$r/log"' also: 'nothing runs' \
	fixed: 'shared/path-trust.c: only a directory writable by others was shared; in a sticky directory its group could write (1775) a symlink of anyone was followed, to handlers root then ran (and to a cache directory root wrote)' \
	skip-unless: have_setpriv -- env -i ACTION=change "$agent" --stderr --hotplug-dir "$r/g/hp" usb
fresh
mkdir "$r/rootdir"
have_setpriv >/dev/null 2>&1 && groupdir c "$r/rootdir"
row cache-dir-group-sticky in: '`MODALIAS_CACHE_DIR=@TMP@/r/g/c`: `g` 1775 (nogroup), `c` there a symlink of nobody'"'"'s to a directory of root'"'"'s' \
	err: 'modalias: index cache directory @TMP@/r/g/c not used: @TMP@/r/g/c: a symlink made by another user in a shared directory' \
	exit: 0 out: e1000e unchanged: "$r/rootdir" also: 'answers from the text tables; nothing written where the link points' \
	skip-unless: have_setpriv -- env MODALIAS_CACHE_DIR="$r/g/c" "$cli" resolve -m "$D" -C /dev/null "$E1000E"

# ---- hotplug --settle: who answers -------------------------------------------------------
# a server at SOCKET that answers "settled" to one asker; with "drop" it
# binds as root and listens as nobody (its credentials are those of listen())
cat >"$tmp/settled-server.py" <<'PY'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(sys.argv[1])
if len(sys.argv) > 2:
    os.setgid(65534)
    os.setuid(65534)
s.listen(1)
c, _ = s.accept()
c.recv(64)
c.send(b"settled")
PY
chmod 644 "$tmp/settled-server.py"
settle_against() { # SOCKET as-nobody|drop
	if [ "$2" = as-nobody ]; then
		as_nobody timeout 10 python3 "$tmp/settled-server.py" "$1" 2>/dev/null &
	else
		timeout 10 python3 "$tmp/settled-server.py" "$1" drop 2>/dev/null &
	fi
	"$agent" --settle=5 --control-socket="$1"
	s=$?
	kill $! 2>/dev/null
	wait
	return $s
}
fresh
mkdir "$r/nob"
chown nobody:nogroup "$r/nob" 2>/dev/null || chown 65534:65534 "$r/nob"
row settle-user-socket in: '`hotplug --settle --control-socket=@TMP@/r/nob/control` (run by root), the directory nobody'"'"'s and nobody'"'"'s server there answering `settled`' \
	err: 'hotplug: --settle: @TMP@/r/nob/control: refused: @TMP@/r/nob: not owned by root' exit: 2 out: '' \
	also: 'not settled: nobody is not asked' \
	fixed: 'cli/hotplug-settle.c: any socket at the path was asked and believed: with the socket under a user'"'"'s directory, the user'"'"'s server answered `settled` and root'"'"'s settle returned 0; now the socket'"'"'s directories pass the trust walk (control-socket.c, the daemon'"'"'s too)' \
	skip-unless: have_setpriv -- settle_against "$r/nob/control" as-nobody
fresh
mkdir "$r/run"
row settle-peer-not-root in: '`hotplug --settle --control-socket=@TMP@/r/run/control`, the directory root'"'"'s, but the server there listening as nobody (bound by root, then setuid)' \
	err: 'hotplug: --settle: @TMP@/r/run/control: answered by uid 65534, not root: not believed' exit: 1 out: '' \
	also: 'not settled: the answer is not read' \
	fixed: 'cli/hotplug-settle.c: who answered was never asked; now SO_PEERCRED: root, or the caller' \
	skip-unless: 'python3 -c pass' -- settle_against "$r/run/control" drop
# the daemon (dry run, a netlink group of its own) until it is ready, then SIGTERM
daemon_with_socket() { # SOCKET
	"$agent" --daemon --dry-run --stderr --netlink-group=29 --moddir "$D" -C /dev/null --hotplug-dir /nonexistent \
		--sysfs /nonexistent --control-socket="$1" >"$r/dout" 2>"$r/derr" &
	pid=$!
	timeout 30 sh -c 'until grep -qx ready "$1" 2>/dev/null; do sleep 0.1; done' - "$r/dout"
	kill -TERM "$pid"
	wait "$pid"
	s=$?
	cat "$r/derr" >&2
	return $s
}
fresh
mkdir -p "$r/nob/sub"
chown nobody:nogroup "$r/nob" 2>/dev/null || chown 65534:65534 "$r/nob"
row daemon-socket-under-user-dir in: '`hotplug --daemon --control-socket=@TMP@/r/nob/sub/control`: `sub` root'"'"'s, but `nob` above it nobody'"'"'s (who can move `sub` away and put his own there)' \
	err: 'hotplug: control socket @TMP@/r/nob/sub/control: refused: @TMP@/r/nob: not owned by root: no --settle
hotplug: stopped (0 events handled)' exit: 0 out: '' \
	check: 'test ! -e "$r/nob/sub/control"' also: 'no socket made there; the daemon runs without one and stops cleanly' \
	fixed: 'cli/hotplug-control.c `control_dir_ok`: only the socket'"'"'s own directory was checked, not those above it' \
	-- daemon_with_socket "$r/nob/sub/control"

# ---- modprobe.d named with -C, and the module directory's modules.softdep (above) -----
have_setpriv >/dev/null 2>&1 && nobdir && as_nobody sh -c 'printf "x\\\\\n#\033]0;pwned\007 y\nalias acme:x acme_drv\n" >"$1/a.conf"' - "$r/nob"
row modprobe-d-continued-comment in: '`modalias resolve -C @TMP@/r/nob` (run by root): nobody'"'"'s `a.conf` there, line 1 `x\` continued by line 2 `#\x1b]0;pwned\x07 y` (libkmod joins them: no comment)' \
	err: 'modalias: @TMP@/r/nob/a.conf line 1: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is; the modprobe configuration is not read
modalias resolve: cannot read the modprobe configuration: Bad message' \
	exit: 2 out: '' also: 'no escape sequence on standard error' \
	fixed: 'libmodalias/modprobe-d-copy.c read each line alone: line 2 was a comment, and libkmod printed `x#\x1b]0;pwned\x07` as the first word' \
	skip-unless: have_setpriv -- "$cli" resolve -m "$D" -C "$r/nob" acme:x
# nobody copies tests/data's module directory
nobody_reaches "$D" "$D/modules.alias" && nobdir && as_nobody sh -c 'cp -r "$2/." "$1/m" && chmod -R u+w "$1/m" && printf "\033]0;pwned\007 y\n" >"$1/m/modules.softdep"' - "$r/nob" "$D"
row moddir-softdep-escape in: '`modalias resolve -m @TMP@/r/nob/m` (run by root): nobody'"'"'s module directory, its `modules.softdep` line 1 starting with `\x1b]0;pwned\x07`' \
	err: 'modalias: @TMP@/r/nob/m/modules.softdep line 1: a control, invisible or bidirectional character, or a byte that is no UTF-8, in the first word: libkmod would print it as it is; the modprobe configuration is not read
modalias resolve: cannot read the modprobe configuration: Bad message' \
	exit: 2 out: '' also: 'no escape sequence on standard error' \
	fixed: 'libkmod read it inside kmod_new(), with -C or without, and printed its first word as it was' \
	skip-unless: 'nobody_reaches "$D" "$D/modules.alias"' -- "$cli" resolve --no-cache -m "$r/nob/m" acme:x
