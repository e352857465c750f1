#!/bin/bash
# Regenerates tests/data/linux-6.1.0-57-amd64/: Debian 12's real depmod
# output for linux-image-6.1.0-57-amd64 (index files only, no .ko files).
# Needs apt-get (network access to Debian's archive), dpkg-deb and depmod.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/linux-6.1.0-57-amd64}
pkg=linux-image-6.1.0-57-amd64
ver=6.1.0-57-amd64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
apt-get download "$pkg" >/dev/null
deb=$(ls "$pkg"_*.deb)
dpkg-deb -x "$deb" root
depmod -b root "$ver"
mkdir -p "$out"
for f in modules.alias modules.alias.bin modules.builtin modules.builtin.bin \
	 modules.builtin.alias.bin modules.builtin.modinfo modules.dep modules.dep.bin \
	 modules.order modules.softdep modules.symbols modules.symbols.bin modules.devname; do
	cp "root/lib/modules/$ver/$f" "$out/$f"
done
[ -f "root/lib/modules/$ver/modules.weakdep" ] && cp "root/lib/modules/$ver/modules.weakdep" "$out/"
{
	echo "# Debian 12 linux-image-6.1.0-57-amd64: depmod output"
	echo
	echo "Index files only (no .ko files) of Debian's package \`$pkg\`,"
	echo "version \`$(dpkg-deb -f "$deb" Version)\`, produced by"
	echo "\`depmod -b ROOT $ver\` ($(depmod --version | head -1)) on the unpacked package."
	echo "Regenerate with \`tests/data/regenerate-debian-6.1.sh\`."
	echo
	echo "- modules.alias: $(grep -c '^alias' "$out/modules.alias") aliases"
	echo "- modules.order: $(wc -l < "$out/modules.order") modules"
	echo "- modules.builtin: $(wc -l < "$out/modules.builtin") builtin modules"
} > "$out/README.md"
echo "wrote $out"
