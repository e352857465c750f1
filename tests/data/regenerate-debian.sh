#!/bin/bash
# Regenerates tests/data/linux-KVER/: Debian's real depmod output for the
# kernel KVER of architecture ARCH (index files, no whole .ko files).  The
# output directory is itself a valid kmod module directory, read by the
# oracle test (tests/test-oracle.c) with libkmod.
#
# Both shapes of Debian's kernel packages: linux-image-KVER with the
# modules in it (up to 6.x), or a small linux-image-KVER depending on
# linux-modules-KVER (the .ko.xz modules) and linux-base-KVER
# (modules.builtin, modules.builtin.modinfo, modules.order) since 7.x; the
# modules below /lib/modules or /usr/lib/modules, compressed or not.
#
# With MODINFO_SYSFS=CAPTURE (a sysfs capture below this directory), the
# modules that serve its devices, as kmod answers (modprobe --show-depends
# of each device's modalias: the modules and their dependencies), are kept
# in OUTDIR+modinfo/ (beside relative links to OUTDIR's index files), each
# reduced to its real .modinfo section (objcopy -j .modinfo): libkmod reads
# their modinfo (firmware, …) from them as from the whole module, for
# `modalias firmware`'s tests (MODINFO_ALIASES="ALIAS…": the modules of
# these modaliases too, devices no capture holds); OUTDIR itself keeps no
# .ko file, so that
# loading there (dry runs) sees no module file, as before.
#
# Usage: [SUITE=S] [KMOD=K] regenerate-debian.sh KVER [ARCH] [OUTDIR]
#   KVER    the kernel's release, as in /lib/modules: 6.1.0-57-amd64,
#           6.12.118+deb12-arm64, 7.2.13+deb14-amd64, …
#   ARCH    the package's architecture (default: the last '-' part of
#           KVER, e.g. amd64, arm64).  A foreign one needs
#           `dpkg --add-architecture ARCH && apt-get update` first.
#   OUTDIR  defaults to linux-KVER/ next to this script.
#   SUITE   fetch from that Debian suite (sid, trixie-security, …) rather
#           than the host's own sources: its package lists are kept in a
#           scratch directory (apt-suite.sh), nothing is installed.
#   KMOD    whose depmod and modprobe: `system` (default, the host's) or
#           the cache directory of fetch-sid-kmod.sh (sid's kmod, run under
#           sid's loader; fetched there first when missing).
#   DEB     one or more .deb files (space-separated) instead of downloading.
#   WORKDIR where the packages are downloaded and unpacked (default: a
#           temporary directory, removed at the end; a given one is kept,
#           and its .deb files reused).
#
# The fixtures of this tree, one line each (a new kernel is one more line
# here and one in tests/test-oracle.c):
#   MODINFO_SYSFS=sysfs/qemu-q35 \
#   MODINFO_ALIASES="pci:v00008086d0000A0F0sv00008086sd00000244bc02sc80i00 sdio:c00v02D0dA9A6" \
#     regenerate-debian.sh 6.1.0-57-amd64   (bookworm; the aliases: an Intel AX201, a Broadcom BCM43430 on SDIO)
#   regenerate-debian.sh 6.12.118+deb12-amd64    (bookworm-security)
#   regenerate-debian.sh 6.12.118+deb12-arm64    (bookworm-security)
#   SUITE=trixie-security KMOD=tests/.kmod-sid regenerate-debian.sh 6.12.118+deb13-amd64
#   SUITE=sid KMOD=tests/.kmod-sid regenerate-debian.sh 7.2.13+deb14-amd64
# (KMOD as seen from the tree's top directory)
#
# Needs apt-get (access to Debian's archive), dpkg-deb and depmod (kmod);
# objcopy (binutils) with MODINFO_SYSFS, xz for compressed modules there.
# Idempotent: the index files in OUTDIR are overwritten, nothing else is
# touched.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
	echo "usage: $0 KVER [ARCH] [OUTDIR]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
kver=$1
arch=${2:-${kver##*-}}
out=${3:-$here/linux-$kver}
pkg=linux-image-$kver

if [ -n "${WORKDIR:-}" ]; then
	mkdir -p "$WORKDIR"
	tmp=$(cd "$WORKDIR" && pwd)
	rm -rf "$tmp/root"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi
chmod 755 "$tmp"   # lets apt-get download as user _apt

case ${KMOD:=system} in
system)
	depmod=depmod modprobe=modprobe ;;
*)
	mkdir -p "$KMOD"
	KMOD=$(cd "$KMOD" && pwd)
	[ -x "$KMOD/bin/depmod" ] || "$here/fetch-sid-kmod.sh" "$KMOD" >&2
	depmod=$KMOD/bin/depmod modprobe=$KMOD/bin/modprobe ;;
esac

# shellcheck source=tests/data/apt-suite.sh
. "$here/apt-suite.sh"
APT_OPTS=()
[ -n "${SUITE:-}" ] && apt_suite "$tmp/apt" "$SUITE"
if [ -n "${DEB:-}" ]; then
	# shellcheck disable=SC2086
	debs=$(readlink -f $DEB)
else
	# since 7.x the image is a small package; the modules and the index
	# files depmod needs are in linux-modules-KVER and linux-base-KVER
	fetched() { ls "$tmp/debs/${1}"_*_"$arch".deb 2>/dev/null; }
	fetched "$pkg" >/dev/null || apt_download "$tmp/debs" "$pkg:$arch"
	pkgs="$pkg $(kernel_parts "$(fetched "$pkg")" "$kver" modules base)"
	for p in $pkgs; do
		fetched "$p" >/dev/null || apt_download "$tmp/debs" "$p:$arch"
	done
	debs=$(for p in $pkgs; do fetched "$p"; done)
fi

# the modules below /lib/modules (Debian 12) or /usr/lib/modules (13 on),
# reachable by both paths (apt-suite.sh)
# shellcheck disable=SC2086 # one word a file
kernel_tree "$tmp/root" $debs
moddir=$tmp/root/lib/modules/$kver
[ -f "$moddir/modules.order" ] || { echo "$0: no $kver modules in $debs" >&2; exit 1; }
# depmod's warnings (unmatched brackets, …) are part of the record
"$depmod" -b "$tmp/root" "$kver" 2> "$tmp/depmod.err" || { cat "$tmp/depmod.err" >&2; exit 1; }
kmod_version=$("$depmod" --version | head -1)

files="modules.alias modules.alias.bin modules.builtin modules.builtin.bin
       modules.builtin.alias.bin modules.builtin.modinfo modules.dep
       modules.dep.bin modules.order modules.softdep modules.symbols
       modules.symbols.bin modules.devname"
# modules.weakdep only exists with kmod >= 33
[ -f "$moddir/modules.weakdep" ] && files="$files modules.weakdep"

mkdir -p "$out"
for f in $files; do
	install -m 0644 "$moddir/$f" "$out/$f"
done

kept=0
if [ -n "${MODINFO_SYSFS:-}" ]; then
	mi="$out+modinfo"
	rm -rf "$mi"
	mkdir -p "$mi"
	for f in $files; do
		ln -s "../$(basename "$out")/$f" "$mi/$f"
	done
	{
		find "$here/$MODINFO_SYSFS/devices" -name modalias -type f -print0 | sort -z | xargs -0 cat
		for alias in ${MODINFO_ALIASES:-}; do echo "$alias"; done
	} | sort -u | while IFS= read -r alias; do
			"$modprobe" -d "$tmp/root" -S "$kver" -C /dev/null --show-depends -- "$alias" 2>/dev/null |
				awk '$1 == "insmod" { print $2 }' || true
		done | sort -u > "$tmp/kos"
	while IFS= read -r ko; do
		rel=${ko#"$moddir"/}
		mkdir -p "$mi/$(dirname "$rel")"
		case $ko in
		*.xz)
			xz -dc "$ko" > "$tmp/ko"
			objcopy -j .modinfo "$tmp/ko" "$tmp/ko.mi"
			xz -c "$tmp/ko.mi" > "$mi/$rel" ;;
		*) objcopy -j .modinfo "$ko" "$mi/$rel" ;;
		esac
		chmod 0644 "$mi/$rel"
	done < "$tmp/kos"
	kept=$(wc -l < "$tmp/kos")
	{
		echo "# linux-$kver+modinfo: real module information for \`$MODINFO_SYSFS\`"
		echo
		echo "Links to \`../linux-$kver/\`'s index files, and the $kept modules of \`$pkg\` that"
		echo "serve the devices of \`$MODINFO_SYSFS\` (with their dependencies, as"
		echo "\`modprobe --show-depends\` answers)${MODINFO_ALIASES:+ and of the modaliases \`$MODINFO_ALIASES\`},"
		echo "each reduced to its real \`.modinfo\` section (\`objcopy -j .modinfo\`): a kmod module"
		echo "directory where libkmod reads their modinfo."
		echo "Regenerate: \`MODINFO_SYSFS=$MODINFO_SYSFS ${MODINFO_ALIASES:+MODINFO_ALIASES=\"$MODINFO_ALIASES\" }tests/data/regenerate-debian.sh $kver $arch\`."
	} > "$mi/README.md"
fi

{
	echo "# linux-$kver: Debian depmod output"
	echo
	echo "Index files only (no \`.ko\` files) produced by kmod's \`depmod\` from"
	echo "Debian's real kernel package:"
	echo
	for deb in $debs; do
		echo "- package: \`$(dpkg-deb -f "$deb" Package)\` ($arch), version \`$(dpkg-deb -f "$deb" Version)\` (\`dpkg-deb -f\`)"
	done
	echo "- commands: \`apt-get download$(for deb in $debs; do printf ' %s:%s' "$(dpkg-deb -f "$deb" Package)" "$arch"; done)\`${SUITE:+ (from $SUITE)}, \`dpkg-deb -x *.deb ROOT\`,"
	echo "  \`depmod -b ROOT $kver\` ($kmod_version$([ "$KMOD" = system ] || echo ", Debian sid's, run by fetch-sid-kmod.sh's loader")),"
	echo "  then the index files of \`ROOT/${moddir#"$tmp/root/"}/\` were copied here"
	echo "- depmod's warnings: $(if [ -s "$tmp/depmod.err" ]; then echo; sed 's/^/  /' "$tmp/depmod.err"; else echo none; fi)"
	echo "- generated: $(date -u +%Y-%m-%d) on $(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "- regenerate: \`${MODINFO_SYSFS:+MODINFO_SYSFS=$MODINFO_SYSFS }${MODINFO_ALIASES:+MODINFO_ALIASES=\"$MODINFO_ALIASES\" }${SUITE:+SUITE=$SUITE }$([ "$KMOD" = system ] || echo "KMOD=tests/.kmod-sid ")tests/data/regenerate-debian.sh $kver $arch [OUTDIR]\`"
	echo
	echo "This directory is a valid kmod module directory, e.g."
	echo "\`kmod_new(\"tests/data/linux-$kver\", (const char *[]){NULL})\`."
	echo
	echo "- modules.alias: $(grep -c '^alias' "$out/modules.alias") aliases"
	echo "  ($(awk '/^alias/ && NF != 3' "$out/modules.alias" | wc -l) of them with spaces)"
	echo "- modules.order: $(wc -l < "$out/modules.order") modules"
	echo "- modules.builtin: $(wc -l < "$out/modules.builtin") built-in modules"
	echo
	echo "| file | bytes |"
	echo "|------|------:|"
	for f in $files; do
		echo "| $f | $(stat -c %s "$out/$f") |"
	done
} > "$out/README.md"
echo "wrote $out"
