# tests/qemu/lib.sh - what the real-kernel runs share (sourced by e2e.sh and
# boot-bench.sh): whether qemu can run, Debian's kernel package, an initramfs
# staged with exactly the modules some modaliases need, the agent and its
# libraries, and the boot itself.  Functions only; nothing runs on sourcing.
#
# The caller sets: tmp (a scratch directory), kver, cache (where .deb files
# are kept), and defines die MESSAGE and skip MESSAGE.

qemu_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# qemu_can_run: an empty q35 machine under TCG, asked for its status; skips
# the caller when that cannot work here.
qemu_can_run() {
	local probe
	command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
	probe=$( (sleep 1; printf 'info status\nquit\n') | timeout 30 qemu-system-x86_64 -accel tcg \
		-machine q35 -m 64 -display none -nodefaults -monitor stdio 2>&1)
	case $probe in
	*"VM status: running"*) ;;
	*) skip "qemu-system-x86_64 cannot run a q35 machine with -accel tcg: $(echo "$probe" | grep -v '^(qemu)\|^QEMU' | head -1)" ;;
	esac
}

# need_static_busybox PATH: the guest's shell and applets, static
need_static_busybox() {
	if ! "$1" --list 2>/dev/null | grep -qx modprobe || readelf -l "$1" 2>/dev/null | grep -q INTERP; then
		die "need a static busybox at $1 (apt-get install busybox-static)"
	fi
}

# deb_fetch PACKAGE[=VERSION] ARCH: the path of PACKAGE's .deb in $cache,
# downloaded once with apt-get download (a damaged one is fetched again).
deb_fetch() {
	local pkg=$1 arch=$2 name=${1%%=*} deb dl
	mkdir -p "$cache" || die "cannot create $cache"
	deb=$(ls "$cache/${name}"_*_"$arch".deb 2>/dev/null | tail -1)
	if [ -n "$deb" ] && ! dpkg-deb --info "$deb" >/dev/null 2>&1; then
		echo "# cached $(basename "$deb") is damaged; downloading again" >&2
		rm -f "$deb"
		deb=
	fi
	if [ -z "$deb" ]; then
		echo "# downloading $pkg into $cache" >&2
		dl=$(mktemp -d "$cache/dl.XXXXXX") && chmod 755 "$dl"
		if ! (cd "$dl" && apt-get download "$pkg" >/dev/null 2>"$dl/apt.err"); then
			sed 's/^/# apt: /' "$dl/apt.err" >&2
			rm -rf "$dl"
			die "apt-get download $pkg failed"
		fi
		mv "$dl"/*.deb "$cache/" && rm -rf "$dl"
		deb=$(ls "$cache/${name}"_*_"$arch".deb | tail -1)
	fi
	[ -f "$deb" ] || die "no package $pkg"
	echo "$deb"
}

# kernel_unpack: Debian's linux-image-$kver (or $DEB) unpacked into $root
# with depmod run; sets root and vmlinuz.
kernel_unpack() {
	local deb
	if [ -n "${DEB:-}" ]; then
		deb=$(readlink -f "$DEB")
	else
		deb=$(deb_fetch "linux-image-$kver" amd64) || exit 1
	fi
	echo "# kernel package: $(basename "$deb")"
	root=$tmp/root
	dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x failed"
	depmod -b "$root" "$kver" || die "depmod on the package failed"
	vmlinuz=$root/boot/vmlinuz-$kver
	[ -f "$vmlinuz" ] || die "no $vmlinuz in the package"
}

# kq DIR ARGS…: modprobe on the module tree under DIR, never reading the
# host's modprobe.d
kq() { modprobe -d "$1" -S "$kver" -C /dev/null "${@:2}"; }

# ko_names: the module names of modprobe --show-depends output (insmod lines)
ko_names() {
	awk '$1 == "insmod" { n = $2; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n); gsub(/-/, "_", n); print n }'
}

# stage_init STAGE: the skeleton of an initramfs with a static busybox
stage_init() {
	mkdir -p "$1"/{bin,sbin,dev,proc,sys,tmp,etc,run,var} "$1/lib/modules/$kver"
	cp "${BUSYBOX:-/bin/busybox}" "$1/bin/busybox"
	mknod "$1/dev/console" c 5 1 2>/dev/null || true
	mknod "$1/dev/null" c 1 3 2>/dev/null || true
}

# stage_modules STAGE: the .ko files named on standard input (paths under
# $root), uncompressed, with the package's builtin/order files and depmod
# output for exactly them
stage_modules() {
	local stage=$1 mdir=$1/lib/modules/$kver ko rel f
	while IFS= read -r ko; do
		rel=${ko#"$root/lib/modules/$kver/"}
		mkdir -p "$mdir/$(dirname "$rel")"
		case "$ko" in
		*.ko.xz)  xz -dc "$ko" > "$mdir/${rel%.xz}" ;;
		*.ko.zst) zstd -qdc "$ko" > "$mdir/${rel%.zst}" ;;
		*.ko.gz)  gzip -dc "$ko" > "$mdir/${rel%.gz}" ;;
		*)        cp "$ko" "$mdir/$rel" ;;
		esac
	done
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		cp "$root/lib/modules/$kver/$f" "$mdir/"
	done
	depmod -b "$stage" "$kver" || die "depmod on the initramfs failed"
}

# closure_kos: the .ko paths (under $root) of the modules that modprobe -R
# names for the modaliases on standard input, and of what they depend on
closure_kos() {
	local a
	while IFS= read -r a; do
		kq "$root" --show-depends "$a" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++'
}

# copy_libs STAGE FILE [LIBDIR]: every library ldd names for FILE, at its
# path under STAGE (LIBDIR searched first, as LD_LIBRARY_PATH)
copy_libs() {
	local stage=$1 file=$2 libdir=${3:-} lib
	LD_LIBRARY_PATH=${libdir:+$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}} ldd "$file" 2>/dev/null |
		awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' |
		while IFS= read -r lib; do
			[ -e "$stage$lib" ] && continue
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
	if LD_LIBRARY_PATH=$libdir ldd "$file" 2>/dev/null | grep -q 'not found'; then
		ldd "$file" | sed 's/^/# ldd: /'
		die "unresolved libraries for $file"
	fi
}

# agent_elf PATH: the ELF behind a libtool wrapper script
agent_elf() {
	local a=$1
	if [ -f "$a" ] && ! head -c 4 "$a" | grep -q ELF; then
		a=$(dirname "$a")/.libs/$(basename "$a")
	fi
	[ -x "$a" ] || die "no agent binary at $a"
	echo "$a"
}

# stage_agent STAGE AGENT: the agent at /bin/hotplug with its libraries,
# libmodalias ($LIBMODALIAS_SO, when the agent is not static) and libkmod
stage_agent() {
	local stage=$1 agent=$2 libdir= soname kmod_so
	cp "$agent" "$stage/bin/hotplug"
	if [ -n "${LIBMODALIAS_SO:-}" ] && [ -e "$LIBMODALIAS_SO" ]; then
		libdir=$(cd "$(dirname "$LIBMODALIAS_SO")" && pwd)
		soname=$(readelf -d "$LIBMODALIAS_SO" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
		mkdir -p "$stage/lib/x86_64-linux-gnu"
		cp -L "$LIBMODALIAS_SO" "$stage/lib/x86_64-linux-gnu/${soname:-libmodalias.so.0}"
		copy_libs "$stage" "$LIBMODALIAS_SO" "$libdir"
	fi
	copy_libs "$stage" "$agent" "$libdir"
	# libkmod, when the agent does not name it (dlopen): what ldd cannot see
	kmod_so=$(ldconfig -p 2>/dev/null | awk '$1 == "libkmod.so.2" && /x86-64/ { print $NF; exit }')
	[ -n "$kmod_so" ] || kmod_so=/lib/x86_64-linux-gnu/libkmod.so.2
	[ -e "$kmod_so" ] || die "no libkmod.so.2 on this host (apt-get install kmod)"
	if [ ! -e "$stage/lib/x86_64-linux-gnu/libkmod.so.2" ]; then
		mkdir -p "$stage/lib/x86_64-linux-gnu"
		cp -L "$kmod_so" "$stage/lib/x86_64-linux-gnu/libkmod.so.2"
		copy_libs "$stage" "$kmod_so"
	fi
}

# build_initrd STAGE OUT: the newc cpio, gzip -1
build_initrd() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 > "$2" ||
		die "cannot build the initramfs"
}

# console_text LOG: the serial console without CRs and terminal escapes
console_text() {
	tr -d '\r' < "$1" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1b[a-zA-Z]//g'
}
