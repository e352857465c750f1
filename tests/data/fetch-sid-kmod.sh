#!/bin/bash
# Fetches Debian sid's kmod (kmod, libkmod2) with the libraries it needs
# from sid (it needs a newer glibc than Debian 12's) into CACHE, unpacks
# them into CACHE/root (nothing is installed), and writes CACHE/bin/run,
# which runs a program under sid's loader and libraries:
#
#   CACHE/bin/run PROGRAM ARGS...   e.g. CACHE/bin/run CACHE/root/usr/bin/kmod --version
#   CACHE/bin/depmod ARGS...        sid's depmod (kmod as argv0 depmod)
#   CACHE/bin/modprobe ARGS...      sid's modprobe
#
# A program built on this host against libkmod.so.2 runs with sid's
# libkmod under CACHE/bin/run (libkmod's ABI is stable): that is how
# tests/test-oracle.c compares with libkmod 34 (when CACHE/root is there;
# `make check` does not download it).  regenerate-debian.sh's KMOD=CACHE
# depmods with it.
#
# Usage: fetch-sid-kmod.sh [CACHE]   (default: tests/.kmod-sid of the tree)
# Idempotent: a CACHE/root already there is kept (remove CACHE to refetch).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-$here/../.kmod-sid}
# shellcheck source=tests/data/apt-suite.sh
. "$here/apt-suite.sh"

pkgs="kmod libkmod2 libc6 liblzma5 libzstd1 libssl3t64 zlib1g"
if [ ! -x "$cache/root/usr/bin/kmod" ]; then
	mkdir -p "$cache"
	cache=$(cd "$cache" && pwd)
	apt_suite "$cache/apt" sid
	rm -rf "$cache/debs" "$cache/root.new"
	# shellcheck disable=SC2046 # one word a package
	apt_download "$cache/debs" $(for p in $pkgs; do echo "$p:amd64/sid"; done)
	for deb in "$cache"/debs/*.deb; do
		dpkg-deb -x "$deb" "$cache/root.new"
	done
	mv "$cache/root.new" "$cache/root"
fi
cache=$(cd "$cache" && pwd)
lib=$cache/root/usr/lib/x86_64-linux-gnu
mkdir -p "$cache/bin"
cat > "$cache/bin/run" <<RUN
#!/bin/sh
# runs PROGRAM ARGS... under Debian sid's loader and libraries ($cache/root)
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "\$@"
RUN
for tool in depmod modprobe; do
	printf '#!/bin/sh\nexec "%s" --library-path "%s" --argv0 %s "%s" "$@"\n' \
		"$lib/ld-linux-x86-64.so.2" "$lib" "$tool" "$cache/root/usr/bin/kmod" > "$cache/bin/$tool"
done
chmod 755 "$cache/bin/run" "$cache/bin/depmod" "$cache/bin/modprobe"
# a root that cannot run (a sid library it lacks) is no oracle: bin/ goes
if ! version=$("$cache/bin/run" "$cache/root/usr/bin/kmod" --version 2>&1); then
	rm -rf "${cache:?}/bin"
	echo "$0: sid's kmod does not run from $cache/root: $version" >&2
	exit 1
fi
echo "$(echo "$version" | head -1) in $cache"
