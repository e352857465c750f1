#!/bin/bash
# Builds tests/data/load/: a small module tree for the load tests — synthetic
# stand-in modules (host ELF objects with a .modinfo section, linked to each
# other by synthetic symbols, as depmod computes dependencies from symbols)
# and depmod's output for them, plus the modprobe.d file the tests use.
#
# Usage: make-load-fixture.sh [OUTDIR]   (needs bash, gcc, depmod)
# DEPMOD=… another depmod: the tree's is kmod 34's (it writes modules.weakdep),
# DEPMOD=tests/.kmod-sid/bin/depmod (tests/data/fetch-sid-kmod.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/load}
ver=9.9.9-test
depmod=${DEPMOD:-$(command -v depmod || echo /usr/sbin/depmod)}
mod=$out/lib/modules/$ver
rm -rf "$out"
mkdir -p "$mod/kernel/test" "$out/modprobe.d"

# name | aliases (space-separated) | symbols it exports | symbols it uses | weak dependencies
modules='
mod_c||sym_c|
mod_b||sym_b|sym_c
mod_a|test:dev:a* test:dev:multi||sym_b
mod_x|test:dev:multi||
mod_soft|test:dev:soft||
mod_pre|||
mod_post|||
mod_black|test:dev:black||
mod_fail|test:dev:fail|sym_fail|
mod_needs_fail|test:dev:needsfail||sym_fail
mod_live|test:dev:live||
mod_opt|test:dev:opt||
mod-dash|test:dev:dash||
mod_cmd|test:dev:cmd||
mod_weak|test:dev:weak|||mod_weakling
mod_weakling||||
'
: > "$mod/modules.order"
while IFS='|' read -r name aliases exports uses weakdeps; do
	[ -n "$name" ] || continue
	{
		echo '	.section .modinfo,"a",@progbits'
		for a in $aliases; do echo "	.asciz \"alias=$a\""; done
		echo "	.asciz \"vermagic=$ver SMP mod_unload \""
		echo "	.asciz \"name=${name//-/_}\""
		for w in $weakdeps; do echo "	.asciz \"weakdep=$w\""; done
		if [ -n "$exports" ]; then
			echo '	.section __ksymtab_strings,"a",@progbits'
			echo "	.asciz \"$exports\""
		fi
		if [ -n "$uses" ]; then
			echo '	.section .data.uses,"aw",@progbits'
			echo "	.quad $uses"
		fi
	} > "$out/$name.s"
	gcc -c -o "$mod/kernel/test/$name.ko" "$out/$name.s"
	rm "$out/$name.s"
	echo "kernel/test/$name.ko" >> "$mod/modules.order"
done <<< "$modules"

# a builtin module with an alias
echo "kernel/test/mod_builtin.ko" > "$mod/modules.builtin"
printf 'mod_builtin.alias=test:dev:builtin\0mod_builtin.description=a builtin\0' > "$mod/modules.builtin.modinfo"

# kmod 34's depmod reads ROOT/usr/lib/modules, 30's ROOT/lib/modules
mkdir -p "$out/usr"
ln -s ../lib "$out/usr/lib"
"$depmod" -b "$out" "$ver"
rm -r "$out/usr"

cat > "$out/modprobe.d/test.conf" <<'CONF'
# the load tests' configuration
softdep mod_soft pre: mod_pre post: mod_post
blacklist mod_black
options mod_opt debug=1 level=2
install mod_cmd /bin/true
CONF
cat > "$out/README.md" <<'MD'
# load: a hand-made module tree for the load tests

Synthetic stand-in modules (tiny host ELF objects with a `.modinfo` section: aliases,
name, vermagic; dependencies through synthetic exported symbols) and kmod's `depmod`
output for them, made by `tests/data/make-load-fixture.sh`. They are never really
inserted: the tests run under `tests/shim/fake-kernel.so`, which fakes
`finit_module`/`init_module` and `/sys/module`. `modprobe.d/test.conf` holds a softdep,
a blacklist, options and an install command.

| module | what it tests |
|---|---|
| mod_a → mod_b → mod_c | dependency order |
| mod_a, mod_x (`test:dev:multi`) | several modules for one alias |
| mod_soft (pre: mod_pre, post: mod_post) | softdeps |
| mod_black | blacklist |
| mod_fail, mod_needs_fail | a failing insertion, and a dependency that fails |
| mod_live | already loaded |
| mod_opt | options |
| mod-dash | '-' in a file name |
| mod_cmd | install command |
| mod_builtin | builtin, with an alias |
| mod_weak (weakdep: mod_weakling) | a weak dependency (modules.weakdep, depmod ≥ 33): not loaded, shown by explain |
MD
echo "
depmod: $("$depmod" --version | head -1)." >> "$out/README.md"
echo "wrote $out"
