#!/bin/bash
# Regenerates tests/data/linux-6.1.0-57-amd64/: Debian 12's real depmod
# output for linux-image-6.1.0-57-amd64 (index files only, no .ko files).
# The output directory is itself a valid kmod module directory.
#
# Usage: regenerate-debian-6.1.sh [OUTDIR]
#   OUTDIR defaults to linux-6.1.0-57-amd64/ next to this script.
#
# Needs apt-get (access to Debian's archive), dpkg-deb and depmod (kmod).
# Idempotent: the index files in OUTDIR are overwritten, nothing else is
# touched.  Set DEB=/path/to/linux-image-6.1.0-57-amd64_*.deb to skip the
# download.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/linux-6.1.0-57-amd64}
pkg=linux-image-6.1.0-57-amd64
kver=6.1.0-57-amd64

tmp=$(mktemp -d)
chmod 755 "$tmp"   # lets apt-get download as user _apt
trap 'rm -rf "$tmp"' EXIT

if [ -n "${DEB:-}" ]; then
	deb=$(readlink -f "$DEB")
else
	(cd "$tmp" && apt-get download "$pkg" >/dev/null)
	deb=$(ls "$tmp/${pkg}"_*.deb)
fi

dpkg-deb -x "$deb" "$tmp/root"
depmod -b "$tmp/root" "$kver"
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

version=$(dpkg-deb -f "$deb" Version)
{
	echo "# linux-6.1.0-57-amd64: Debian 12 depmod output"
	echo
	echo "Index files only (no \`.ko\` files) produced by kmod's \`depmod\` from"
	echo "Debian's real kernel package:"
	echo
	echo "- package: \`$pkg\`, version \`$version\` (\`dpkg-deb -f\`)"
	echo "- commands: \`apt-get download $pkg\`, \`dpkg-deb -x *.deb ROOT\`,"
	echo "  \`depmod -b ROOT $kver\` ($(depmod --version | head -1)),"
	echo "  then the index files of \`ROOT/lib/modules/$kver/\` were copied here"
	echo "- generated: $(date -u +%Y-%m-%d) on $(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "- regenerate: \`tests/data/regenerate-debian-6.1.sh [OUTDIR]\`"
	echo
	echo "This directory is a valid kmod module directory, e.g."
	echo "\`kmod_new(\"tests/data/linux-6.1.0-57-amd64\", (const char *[]){NULL})\`."
	echo
	echo "- modules.alias: $(grep -c '^alias' "$out/modules.alias") aliases"
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
