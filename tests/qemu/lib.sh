# tests/qemu/lib.sh - what the real-kernel runs share (sourced by e2e.sh and
# boot-bench.sh): whether qemu can run, Debian's kernel package, an initramfs
# staged with exactly the modules some modaliases need, the agent and its
# libraries, and the boot itself.  Functions only; nothing runs on sourcing.
#
# The caller sets: tmp (a scratch directory), kver, cache (where .deb files
# are kept), and defines die MESSAGE and skip MESSAGE.  Optional: suite (a
# Debian suite other than the host's to fetch the kernel from, e.g. sid: its
# package lists in $cache/apt-SUITE; the run skips when they cannot be
# fetched), kmod_depmod and kmod_modprobe (whose depmod and modprobe build
# and query the module trees: the host's by default, e.g.
# tests/.kmod-sid/bin/depmod for kmod 34).

qemu_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# apt_suite, apt_download, kernel_parts, kernel_tree
# shellcheck source=tests/data/apt-suite.sh
. "$qemu_lib_dir/../data/apt-suite.sh"

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
	if ! "$1" --list 2>/dev/null | grep -x modprobe >/dev/null || readelf -l "$1" 2>/dev/null | grep -q INTERP; then
		die "need a static busybox at $1 (apt-get install busybox-static)"
	fi
}

# deb_fetch PACKAGE[=VERSION] ARCH: the path of PACKAGE's .deb in $cache,
# downloaded once with apt-get download (a damaged one is fetched again;
# with the options in APT_OPTS when set: suite_lists).
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
		if ! (cd "$dl" && apt-get ${APT_OPTS[@]+"${APT_OPTS[@]}"} download "$pkg" >/dev/null 2>"$dl/apt.err"); then
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

# suite_lists: $suite's package lists in $cache/apt-$suite, fetched once a
# run (APT_OPTS, apt-suite.sh); skips the caller when they cannot be
suite_lists() {
	[ -n "${APT_OPTS+set}" ] && return 0
	apt_suite "$cache/apt-$suite" "$suite" 2> "$tmp/apt-suite.err" ||
		skip "Debian $suite's package lists could not be fetched: $( (grep '^apt: [EW]:' "$tmp/apt-suite.err" ||
			cat "$tmp/apt-suite.err") | tail -1)"
}

# suite_fetch PACKAGE: deb_fetch PACKAGE amd64, from $suite when set (its
# lists fetched only when PACKAGE is not in $cache); sets deb.  Exits as
# deb_fetch's die did; skips when a package of $suite cannot be downloaded.
suite_fetch() {
	local rc
	if [ -n "${suite:-}" ] && ! ls "$cache/$1"_*_amd64.deb >/dev/null 2>&1; then
		suite_lists
	fi
	deb=$(deb_fetch "$1" amd64) || {
		rc=$?
		[ -n "${suite:-}" ] && skip "$1 could not be downloaded from Debian $suite (apt's messages above)"
		echo "$deb"
		exit $rc
	}
}

# kernel_unpack: Debian's linux-image-$kver (or the .deb files of $DEB)
# unpacked into $root, with the packages it depends on since 7.x
# (linux-modules, linux-base, linux-binary: apt-suite.sh's kernel_parts),
# depmod run ($kmod_depmod); sets root and vmlinuz.
kernel_unpack() {
	local deb debs part
	if [ -n "${DEB:-}" ]; then
		# shellcheck disable=SC2086 # one word a file
		debs=$(readlink -f $DEB)
	else
		suite_fetch "linux-image-$kver"
		debs=$deb
		for part in $(kernel_parts "$deb" "$kver" modules base binary); do
			suite_fetch "$part"
			debs="$debs $deb"
		done
	fi
	for deb in $debs; do echo "# kernel package: $(basename "$deb")"; done
	root=$tmp/root
	# shellcheck disable=SC2086
	kernel_tree "$root" $debs || die "dpkg-deb -x failed"
	"${kmod_depmod:-depmod}" -b "$root" "$kver" || die "depmod on the package failed"
	# /boot/vmlinuz-KVER up to 6.x, /usr/lib/modules/KVER/vmlinuz since 7.x
	vmlinuz=$root/boot/vmlinuz-$kver
	[ -f "$vmlinuz" ] || vmlinuz=$root/lib/modules/$kver/vmlinuz
	[ -f "$vmlinuz" ] || die "no vmlinuz of $kver in the packages ($root/boot or $root/lib/modules/$kver)"
}

# kq DIR ARGS…: modprobe ($kmod_modprobe) on the module tree under DIR,
# never reading the host's modprobe.d
kq() { "${kmod_modprobe:-modprobe}" -d "$1" -S "$kver" -C /dev/null "${@:2}"; }

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

# stage_modules STAGE [--packaged]: the .ko files named on standard input
# (paths under $root), uncompressed (--packaged: as the package has them,
# .ko.xz say, for the guest's libkmod to decompress), with the package's
# builtin/order files and depmod output ($kmod_depmod) for exactly them.
# /usr/lib/modules is a link to /lib/modules, where a kmod 34 looks.
stage_modules() {
	local stage=$1 keep=${2:-} mdir=$1/lib/modules/$kver ko rel f
	mkdir -p "$stage/usr/lib"
	[ -e "$stage/usr/lib/modules" ] || ln -s ../../lib/modules "$stage/usr/lib/modules"
	while IFS= read -r ko; do
		rel=${ko#"$root/"}
		rel=${rel#usr/}
		rel=${rel#"lib/modules/$kver/"}
		mkdir -p "$mdir/$(dirname "$rel")"
		case "$keep:$ko" in
		--packaged:*) cp "$ko" "$mdir/$rel" ;;
		*.ko.xz)  xz -dc "$ko" > "$mdir/${rel%.xz}" ;;
		*.ko.zst) zstd -qdc "$ko" > "$mdir/${rel%.zst}" ;;
		*.ko.gz)  gzip -dc "$ko" > "$mdir/${rel%.gz}" ;;
		*)        cp "$ko" "$mdir/$rel" ;;
		esac
	done
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		cp "$root/lib/modules/$kver/$f" "$mdir/"
	done
	"${kmod_depmod:-depmod}" -b "$stage" "$kver" || die "depmod on the initramfs failed"
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

# stage_libkmod STAGE ROOT: the guest's libkmod and C library replaced by
# those unpacked in ROOT (tests/data/fetch-sid-kmod.sh's root: sid's libkmod
# 34, which needs sid's glibc): every staged library ROOT has (the loader,
# libc, ...) becomes ROOT's, and libkmod.so.2 with what it needs, at any
# depth (libcrypto, and libcrypto's libz and libzstd).  libkmod 34
# dlopen()s its decompressors: liblzma is left out, so that a .ko.xz loads
# only when libkmod hands it to the kernel (finit_module with
# MODULE_INIT_COMPRESSED_FILE, a kernel with CONFIG_MODULE_DECOMPRESS).
stage_libkmod() {
	local stage=$1 lib=$2/usr/lib/x86_64-linux-gnu f todo=libkmod.so.2
	[ -e "$lib/libkmod.so.2" ] && [ -e "$lib/libc.so.6" ] ||
		die "no libkmod.so.2 and libc.so.6 in $lib (tests/data/fetch-sid-kmod.sh)"
	for f in "$stage"/lib/x86_64-linux-gnu/* "$stage"/lib64/*; do
		[ -e "$lib/$(basename "$f")" ] && cp -L "$lib/$(basename "$f")" "$f"
	done
	rm -f "$stage"/lib/x86_64-linux-gnu/liblzma.so*
	while [ -n "$todo" ]; do
		set -- $todo
		f=$1
		todo=${*:2}
		[ -e "$lib/$f" ] || die "no $f in $lib, needed by its libkmod"
		cp -L "$lib/$f" "$stage/lib/x86_64-linux-gnu/$f"
		todo="$todo $(readelf -d "$lib/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
			grep -vxF -e libc.so.6 -e ld-linux-x86-64.so.2 | tr '\n' ' ')"
		todo=$(echo $todo)
	done
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
