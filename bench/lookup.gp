# Draws bench/lookup.png from bench/lookup.dat (written by bench-lookup).
set terminal pngcairo size 1100,520 font "sans,10"
set output outdir."/lookup.png"
set title "µs per lookup, Debian 6.1 table (log scale; lower is better)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set yrange [0.01:*]
set ylabel "µs / lookup"
set xtics rotate by -45
set grid ytics
set key outside top center horizontal
plot outdir."/lookup.dat" using 2:xtic(1) title "libmodalias", \
     "" using 3 title "libkmod (indexes loaded)", \
     "" using 4 title "fnmatch loop over modules.alias"
