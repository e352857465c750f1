#!/bin/sh
# The initramfs hooks (initramfs/): initramfs-tools' hook run for real with
# Debian's hook-functions (from the installed initramfs-tools, or
# initramfs-tools-core fetched with apt-get download into the QEMU cache,
# never installed) into a scratch DESTDIR: the agent, every library ldd
# lists and libkmod (dlopen()ed, named by the .note.dlopen note) are there;
# without libkmod the hook fails loudly.  The dracut module with dracut's
# inst_* functions stood in for: what it installs, and the same failure.
# TAP on stdout.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${G_TEST_BUILDDIR:?}/..
agent=${HOTPLUG_AGENT:?}
cache=${MODALIAS_QEMU_CACHE:-$build/tests/qemu/.cache}
data_load=$here/data/load/lib/modules/9.9.9-test
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script=$here/../initramfs/modalias-agent.sh
data=$here/data
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# an ldconfig that knows no library: libkmod cannot be found
mkdir -p "$tmp/noldconfig"
printf '#!/bin/sh\nexit 0\n' >"$tmp/noldconfig/ldconfig"
chmod +x "$tmp/noldconfig/ldconfig"

# ---- initramfs-tools ---------------------------------------------------------
hf=/usr/share/initramfs-tools/hook-functions
if [ ! -f "$hf" ]; then
	hf="$cache/initramfs-tools-core/usr/share/initramfs-tools/hook-functions"
	if [ ! -f "$hf" ]; then
		mkdir -p "$cache/initramfs-tools-core"
		(cd "$cache" && apt-get download initramfs-tools-core >/dev/null 2>&1 &&
			dpkg -x initramfs-tools-core_*.deb initramfs-tools-core) || true
	fi
fi
if [ -f "$hf" ]; then
	d="$tmp/destdir"
	mkdir -p "$d"
	if env DESTDIR="$d" verbose=n MODALIAS_HOOK_FUNCTIONS="$hf" MODALIAS_HOTPLUG="$agent" MODALIAS_AGENT="$script" \
		sh "$build/initramfs/initramfs-tools/hooks/modalias" >"$tmp/out" 2>&1; then
		ok "initramfs-tools hook runs"
	else
		notok "initramfs-tools hook runs"
		sed 's/^/# /' "$tmp/out"
	fi
	missing=""
	[ -n "$(find "$d" -name hotplug -type f)" ] || missing="$missing hotplug"
	[ -n "$(find "$d" -name modalias-agent -type f)" ] || missing="$missing modalias-agent"
	for lib in $(ldd "$agent" | awk '/=>/ { print $3 } /^\t\// { print $1 }') libkmod.so.2; do
		[ -n "$(find "$d" -name "$(basename "$lib")")" ] || missing="$missing $(basename "$lib")"
	done
	if [ -z "$missing" ]; then
		ok "the initramfs holds the agent, modalias-agent, what ldd lists and libkmod.so.2"
	else
		notok "the initramfs lacks:$missing"
		find "$d" | sed 's/^/# /'
	fi
	rm -rf "$d" && mkdir -p "$d"
	env PATH="$tmp/noldconfig:$PATH" DESTDIR="$d" verbose=n MODALIAS_HOOK_FUNCTIONS="$hf" MODALIAS_HOTPLUG="$agent" \
		MODALIAS_AGENT="$script" sh "$build/initramfs/initramfs-tools/hooks/modalias" >"$tmp/out" 2>&1
	status=$?
	if [ $status -ne 0 ] && grep -q '^E: modalias: libkmod.so.2 not found: the agent could not load modules$' "$tmp/out"; then
		ok "initramfs-tools hook without libkmod: fails loudly (status $status)"
	else
		notok "initramfs-tools hook without libkmod: status $status"
		sed 's/^/# /' "$tmp/out"
	fi
	# weak dependencies: the load tree's mod_weak in the initramfs brings
	# mod_weakling (modules.weakdep, written by kmod 34's depmod), through
	# hook-functions' manual_add_modules (recorded by a stand-in)
	rm -rf "$d" && mkdir -p "$d/lib/modules/9.9.9-test/kernel"
	cp "$data_load/kernel/test/mod_weak.ko" "$d/lib/modules/9.9.9-test/kernel/"
	printf '. "%s"\nmanual_add_modules() { echo "manual_add_modules $*"; }\n' "$hf" >"$tmp/hf-weak"
	if env DESTDIR="$d" verbose=n version=9.9.9-test MODALIAS_MODULES_DIR="$data_load" \
		MODALIAS_WEAKDEPS="$here/../initramfs/initramfs-weakdeps" MODALIAS_HOOK_FUNCTIONS="$tmp/hf-weak" \
		MODALIAS_HOTPLUG="$agent" sh "$build/initramfs/initramfs-tools/hooks/modalias" >"$tmp/out" 2>&1 &&
		grep -qx 'manual_add_modules mod_weakling' "$tmp/out"; then
		ok "initramfs-tools hook adds the weak dependencies of the modules the initramfs holds"
	else
		notok "initramfs-tools hook: no manual_add_modules mod_weakling"
		sed 's/^/# /' "$tmp/out"
	fi
else
	for t in "hook runs" "libraries" "fails loudly" "weak dependencies"; do
		skip "initramfs-tools $t" "no hook-functions (initramfs-tools not installed, apt-get download failed)"
	done
fi

# ---- dracut (inst_* and derror stand in for dracut's) -----------------------------
if command -v bash >/dev/null; then
	# the module as built, for the agent of this build
	sed -e "s|@sbindir@/hotplug|$agent|g" -e "s|@pkgdatadir@|$here/../initramfs|g" \
		"$here/../initramfs/dracut/module-setup.sh.in" >"$tmp/ms.sh"
	# dracut's functions, stood in for: each says what it would install
	standins='
		require_binaries() { [ -x "$agent" ]; }
		inst_binary() { echo "binary $1 $2"; }
		inst_library() { echo "library $1"; [ -f "$1" ]; }
		inst_simple() { echo "simple $1"; }
		inst_script() { echo "script $1 $2"; }
		inst_hook() { echo "hook $1 $2 $3"; }
		instmods() { echo "instmods $*"; }
		derror() { echo "error $*"; }'
	# the image holds the load tree's mod_weak (dracut's srcmods, initdir, kernel)
	mkdir -p "$tmp/initdir/lib/modules/9.9.9-test/kernel"
	cp "$data_load/kernel/test/mod_weak.ko" "$tmp/initdir/lib/modules/9.9.9-test/kernel/"
	bash -c "$standins"'
		agent=$1 moddir=$2 srcmods=$4 initdir=$5 kernel=9.9.9-test
		. "$3"
		install' sh "$agent" "$here/../initramfs/dracut" "$tmp/ms.sh" "$data_load" "$tmp/initdir" >"$tmp/dracut" 2>&1
	status=$?
	if [ $status -eq 0 ] && grep -qx "instmods mod_weakling" "$tmp/dracut"; then
		ok "dracut module adds the weak dependencies of the modules the image holds"
	else
		notok "dracut module: no instmods mod_weakling (status $status)"
		sed 's/^/# /' "$tmp/dracut"
	fi
	if [ $status -eq 0 ] && grep -q "^binary $agent /sbin/hotplug$" "$tmp/dracut" &&
		grep -q '^library .*/libkmod\.so\.2$' "$tmp/dracut" &&
		grep -q "^hook pre-trigger 50 .*/modalias-start.sh$" "$tmp/dracut" &&
		grep -q "^hook cleanup 50 .*/modalias-stop.sh$" "$tmp/dracut" &&
		grep -q "^script $script /sbin/modalias-agent$" "$tmp/dracut"; then
		ok "dracut module installs the agent, libkmod, modalias-agent and its hooks"
	else
		notok "dracut module: status $status"
		sed 's/^/# /' "$tmp/dracut"
	fi
	PATH="$tmp/noldconfig:$PATH" bash -c "$standins"'
		agent=$1 moddir=$2
		. "$3"
		install' sh "$agent" "$here/../initramfs/dracut" "$tmp/ms.sh" >"$tmp/dracut" 2>&1
	status=$?
	if [ $status -ne 0 ] && grep -q '^error modalias: libkmod.so.2 not found: the agent could not load modules$' "$tmp/dracut"; then
		ok "dracut module without libkmod: fails loudly"
	else
		notok "dracut module without libkmod: status $status"
		sed 's/^/# /' "$tmp/dracut"
	fi
else
	skip "dracut module weak dependencies" "no bash"
	skip "dracut module" "no bash"
	skip "dracut module without libkmod" "no bash"
fi
# ---- the boot scripts: the agent started, settled, stopped before switch_root ------
# /sbin/hotplug stood in for by the built agent, its daemon on a netlink
# group of its own, in dry-run over a captured sysfs tree, its control
# socket and modalias-agent's pid file in @TMP@/run
run=$tmp/run
cat >"$tmp/hotplug" <<EOF
#!/bin/sh
case \$1 in
--daemon) exec "$agent" "\$@" --control-socket="$run/control" --netlink-group=29 --dry-run \\
	--sysfs "$data/sysfs/qemu-q35" --moddir "$data/linux-6.1.0-57-amd64" -C /dev/null --hotplug-dir /nonexistent \\
	>>"$tmp/daemon.log" 2>&1 ;;
*) exec "$agent" "\$@" --control-socket="$run/control" ;;
esac
EOF
chmod +x "$tmp/hotplug"
# SCRIPT run as the initramfs runs it (dracut's hooks are sourced)
boot() { # sh|source SCRIPT
	if [ "$1" = source ]; then set -- sh -c '. "$1"' - "$2"; fi
	env MODALIAS_AGENT="$script" MODALIAS_HOTPLUG="$tmp/hotplug" MODALIAS_PIDFILE="$run/initramfs.pid" "$@" \
		>"$tmp/boot.out" 2>&1
}
alive() { [ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = hotplug ] && ! grep -qs '^[0-9]* ([^)]*) Z' "/proc/$1/stat"; }
# START, STOP ("sh|source SCRIPT"): after START the daemon runs, settled;
# after STOP it is gone, and another daemon (the system's unit) takes the
# control socket over and answers --settle
boot_pair() { # NAME START STOP
	name=$1 why=""
	rm -rf "$run" "$tmp/daemon.log"
	# shellcheck disable=SC2086
	boot $2 || why="start: status $?"
	pid=$(cat "$run/initramfs.pid" 2>/dev/null)
	if [ -z "$why" ] && ! alive "$pid"; then why="start: no daemon"; fi
	if [ -z "$why" ] && [ -s "$tmp/boot.out" ]; then why="start: said something"; fi
	if [ -z "$why" ]; then
		# shellcheck disable=SC2086
		boot $3 || why="stop: status $?"
		if [ -z "$why" ] && [ -s "$tmp/boot.out" ]; then why="stop: said something"; fi
		if alive "$pid"; then why="${why:+$why; }the daemon (pid $pid) is left running"; fi
		if [ -e "$run/control" ]; then why="${why:+$why; }its control socket is left"; fi
	fi
	if [ -z "$why" ]; then
		"$tmp/hotplug" --daemon &
		if ! "$tmp/hotplug" --settle=10 2>>"$tmp/boot.out" || grep -q "another daemon answers" "$tmp/daemon.log"; then
			why="the next daemon cannot take the control socket over"
		fi
		kill $! 2>/dev/null
		wait $! 2>/dev/null
	fi
	if alive "$pid"; then kill -KILL "$pid"; fi
	if [ -z "$why" ]; then
		ok "$name: started, settled, stopped before switch_root; the next daemon takes over"
	else
		notok "$name: $why"
		sed 's/^/# /' "$tmp/boot.out" "$tmp/daemon.log" 2>/dev/null | tail -20
	fi
}
if [ "$(id -u)" != 0 ]; then
	skip "initramfs-tools boot scripts" "not root (a netlink group of its own)"
	skip "dracut hooks" "not root (a netlink group of its own)"
else
	boot_pair "initramfs-tools init-top, init-bottom" "sh $build/initramfs/initramfs-tools/init-top/modalias" \
		"sh $here/../initramfs/initramfs-tools/init-bottom/modalias"
	boot_pair "dracut pre-trigger, cleanup hooks" "source $here/../initramfs/dracut/modalias-start.sh" \
		"source $here/../initramfs/dracut/modalias-stop.sh"
fi
echo "1..$n"
exit $fail
