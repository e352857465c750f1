#!/bin/bash
# Regenerates tests/data/linux-KVER/: Debian's real depmod output for the
# kernel package linux-image-KVER of architecture ARCH (index files, no
# whole .ko files).  The output directory is itself a valid kmod module
# directory, read by the oracle test (tests/test-oracle.c) with libkmod.
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
# Usage: regenerate-debian.sh KVER [ARCH] [OUTDIR]
#   KVER    the kernel's release, as in /lib/modules: 6.1.0-57-amd64,
#           6.12.118+deb12-arm64, …  (the package is linux-image-KVER)
#   ARCH    the package's architecture (default: the last '-' part of
#           KVER, e.g. amd64, arm64).  A foreign one needs
#           `dpkg --add-architecture ARCH && apt-get update` first.
#   OUTDIR  defaults to linux-KVER/ next to this script.
#
# The fixtures of this tree, one line each (a new kernel is one more line
# here and one in tests/test-oracle.c):
#   MODINFO_SYSFS=sysfs/qemu-q35 \
#   MODINFO_ALIASES="pci:v00008086d0000A0F0sv00008086sd00000244bc02sc80i00 sdio:c00v02D0dA9A6" \
#     regenerate-debian.sh 6.1.0-57-amd64   (bookworm; the aliases: an Intel AX201, a Broadcom BCM43430 on SDIO)
#   regenerate-debian.sh 6.12.118+deb12-amd64    (bookworm-security)
#   regenerate-debian.sh 6.12.118+deb12-arm64    (bookworm-security)
#
# Needs apt-get (access to Debian's archive), dpkg-deb and depmod (kmod);
# objcopy (binutils) with MODINFO_SYSFS.
# Idempotent: the index files in OUTDIR are overwritten, nothing else is
# touched.  Set DEB=/path/to/linux-image-KVER_*.deb to skip the download.
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

tmp=$(mktemp -d)
chmod 755 "$tmp"   # lets apt-get download as user _apt
trap 'rm -rf "$tmp"' EXIT

if [ -n "${DEB:-}" ]; then
	deb=$(readlink -f "$DEB")
else
	(cd "$tmp" && apt-get download "$pkg:$arch" >/dev/null)
	deb=$(ls "$tmp/${pkg}"_*.deb)
fi

dpkg-deb -x "$deb" "$tmp/root"
# depmod's warnings (unmatched brackets, …) are part of the record
depmod -b "$tmp/root" "$kver" 2> "$tmp/depmod.err" || { cat "$tmp/depmod.err" >&2; exit 1; }
moddir=$tmp/root/lib/modules/$kver

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
			modprobe -d "$tmp/root" -S "$kver" -C /dev/null --show-depends -- "$alias" 2>/dev/null |
				awk '$1 == "insmod" { print $2 }' || true
		done | sort -u > "$tmp/kos"
	while IFS= read -r ko; do
		rel=${ko#"$moddir"/}
		mkdir -p "$mi/$(dirname "$rel")"
		objcopy -j .modinfo "$ko" "$mi/$rel"
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

version=$(dpkg-deb -f "$deb" Version)
{
	echo "# linux-$kver: Debian depmod output"
	echo
	echo "Index files only (no \`.ko\` files) produced by kmod's \`depmod\` from"
	echo "Debian's real kernel package:"
	echo
	echo "- package: \`$pkg\` ($arch), version \`$version\` (\`dpkg-deb -f\`)"
	echo "- commands: \`apt-get download $pkg:$arch\`, \`dpkg-deb -x *.deb ROOT\`,"
	echo "  \`depmod -b ROOT $kver\` ($(depmod --version | head -1)),"
	echo "  then the index files of \`ROOT/lib/modules/$kver/\` were copied here"
	echo "- depmod's warnings: $(if [ -s "$tmp/depmod.err" ]; then echo; sed 's/^/  /' "$tmp/depmod.err"; else echo none; fi)"
	echo "- generated: $(date -u +%Y-%m-%d) on $(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "- regenerate: \`${MODINFO_SYSFS:+MODINFO_SYSFS=$MODINFO_SYSFS }${MODINFO_ALIASES:+MODINFO_ALIASES=\"$MODINFO_ALIASES\" }tests/data/regenerate-debian.sh $kver $arch [OUTDIR]\`"
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
