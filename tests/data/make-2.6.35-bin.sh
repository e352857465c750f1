#!/bin/bash
# Regenerates the binary indexes (modules.*.bin) of tests/data/linux-2.6.35.7-samsung/
# from its text index files, without the original .ko files.
#
# libkmod reads only the .bin indexes, but the 2.6.35.7 fixture has just the text files
# that module-init-tools' depmod wrote. This script synthesizes one stand-in module per
# entry of modules.dep: a tiny host ELF object (gcc -c) with
#   - a .modinfo section: alias= (each alias of that module in modules.alias, in file
#     order), depends= (from modules.dep), vermagic= and name=;
#   - a __ksymtab_strings section exporting one synthetic symbol
#     "__synthetic_dep_<module>" if some other module depends on it, and an undefined
#     reference to that symbol of each module it depends on, because depmod computes
#     modules.dep from symbols (it ignores the depends= field).
# It then runs depmod (kmod) on them and copies ONLY the produced *.bin files into the
# fixture directory; the text files there are never written. Before copying it checks
# that depmod's own modules.alias and modules.dep agree with the original text files.
#
# Usage: make-2.6.35-bin.sh [FIXTURE_DIR]   (needs bash, python3, gcc, depmod)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:-$here/linux-2.6.35.7-samsung}" && pwd)
ver=2.6.35.7
depmod=${DEPMOD:-$(command -v depmod || echo /usr/sbin/depmod)}

for f in modules.alias modules.dep modules.order modules.builtin; do
	[ -f "$dir/$f" ] || { echo "missing $dir/$f" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
moddir=$root/lib/modules/$ver
mkdir -p "$moddir" "$tmp/src"

# Write one assembly file per module plus a list "N<TAB>path" (python does all quoting;
# no alias pattern ever passes through the shell).
python3 - "$dir" "$tmp/src" <<'EOF'
import os, sys

fixture, src = sys.argv[1], sys.argv[2]

def modname(path):
    """kernel/sound/core/snd-pcm.ko -> snd-pcm"""
    base = os.path.basename(path)
    return base[:-3] if base.endswith('.ko') else base

def norm(name):
    return name.replace('-', '_')

def asciz(s):
    return '\t.asciz "%s"\n' % s.replace('\\', '\\\\').replace('"', '\\"')

deps = []  # (path, [dep paths]) in modules.dep order
with open(os.path.join(fixture, 'modules.dep')) as f:
    for line in f:
        line = line.rstrip('\n')
        if not line.strip():
            continue
        path, sep, rest = line.partition(':')
        if not sep:
            sys.exit('bad modules.dep line: %r' % line)
        deps.append((path.strip(), rest.split()))

by_name = {}
for path, _ in deps:
    n = norm(modname(path))
    if n in by_name:
        sys.exit('two modules named %s: %s %s' % (n, by_name[n], path))
    by_name[n] = path

aliases = {}  # normalized module name -> [patterns] in modules.alias order
with open(os.path.join(fixture, 'modules.alias')) as f:
    for line in f:
        fields = line.split()
        if not fields or fields[0] != 'alias':
            continue
        if len(fields) != 3:
            sys.exit('bad modules.alias line: %r' % line)
        n = norm(fields[2])
        if n not in by_name:
            sys.exit('alias for module %s which is not in modules.dep' % fields[2])
        aliases.setdefault(n, []).append(fields[1])

needed = {norm(modname(d)) for _, ds in deps for d in ds}

with open(os.path.join(src, 'list'), 'w') as lst:
    for i, (path, ds) in enumerate(deps):
        name = modname(path)
        n = norm(name)
        with open(os.path.join(src, '%d.s' % i), 'w') as out:
            out.write('\t.section .modinfo,"a",@progbits\n')
            for a in aliases.get(n, []):
                out.write(asciz('alias=' + a))
            out.write(asciz('depends=' + ','.join(modname(d) for d in ds)))
            out.write(asciz('vermagic=2.6.35.7 SMP mod_unload ARMv7 '))
            out.write(asciz('name=' + n))
            if n in needed:
                out.write('\t.section __ksymtab_strings,"a",@progbits\n')
                out.write(asciz('__synthetic_dep_' + n))
            if ds:
                out.write('\t.section .data.synthetic_deps,"aw",@progbits\n')
                for d in ds:
                    out.write('\t.quad __synthetic_dep_%s\n' % norm(modname(d)))
        lst.write('%d\t%s\n' % (i, path))
EOF

while IFS=$'\t' read -r n path; do
	mkdir -p "$moddir/$(dirname "$path")"
	gcc -c -o "$moddir/$path" "$tmp/src/$n.s"
done < "$tmp/src/list"

cp "$dir/modules.order" "$dir/modules.builtin" "$moddir/"
"$depmod" -b "$root" "$ver"

# depmod's text output must say what the original text files say (modulo depmod
# normalizing '-' to '_' in module names and dropping duplicate aliases).
python3 - "$dir" "$moddir" <<'EOF'
import sys

def alias_set(p):
    s = set()
    with open(p) as f:
        for line in f:
            fl = line.split()
            if fl and fl[0] == 'alias':
                s.add((fl[1], fl[2].replace('-', '_')))
    return s

def dep_map(p):
    m = {}
    with open(p) as f:
        for line in f:
            k, sep, v = line.rstrip('\n').partition(':')
            if sep:
                m[k.strip()] = frozenset(v.split())
    return m

orig, new = sys.argv[1], sys.argv[2]
bad = False
a, b = alias_set(orig + '/modules.alias'), alias_set(new + '/modules.alias')
for x in sorted(a - b):
    print('alias missing from depmod output: %s %s' % x, file=sys.stderr); bad = True
for x in sorted(b - a):
    print('alias only in depmod output: %s %s' % x, file=sys.stderr); bad = True
a, b = dep_map(orig + '/modules.dep'), dep_map(new + '/modules.dep')
if a != b:
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            print('modules.dep differs for %s: %s vs %s' % (k, sorted(a.get(k, ())),
                  sorted(b.get(k, ()))), file=sys.stderr)
    bad = True
if bad:
    sys.exit('depmod output does not match the original text indexes')
EOF

shopt -s nullglob
bins=("$moddir"/*.bin)
[ ${#bins[@]} -gt 0 ] || { echo "depmod wrote no .bin files" >&2; exit 1; }
for f in "${bins[@]}"; do
	cp "$f" "$dir/"
	echo "wrote $dir/$(basename "$f")"
done
