# gnuplot script for one replayed trace: datafile, outfile, title are set
# with -e.  Columns: t_ms util dl a_min a_desired a_max b_min b_desired b_max
# c_min c_desired c_max (levels read back from the modelled HWP_REQUEST).
set terminal pngcairo size 1200,800 font ",10" noenhanced
set output outfile
set multiplot layout 2,1 title title
set xrange [0:1000]
set key outside right top
set grid
set ylabel "HWP level"
set xlabel ""
set yrange [0:50]
set title "(a) series: MIN / DESIRED / MAX vs (b) 5.10 MIN-only mapping (first second)"
plot datafile u 1:6 w steps lw 2 lc rgb "#999999" t "(a) MAX", \
     datafile u 1:5 w steps lw 2 lc rgb "#1f77b4" t "(a) DESIRED", \
     datafile u 1:4 w steps lw 2 lc rgb "#2ca02c" t "(a) MIN", \
     datafile u 1:7 w steps lw 1.5 dt 2 lc rgb "#d62728" t "(b) MIN (MIN-only)", \
     datafile u 1:8 w steps lw 1 dt 3 lc rgb "#ff7f0e" t "(b) MAX"
set title "utilization (PELT-like model) and (c) v2 MIN / DESIRED / MAX"
set ylabel "util (0..1024)"
set y2label "HWP level"
set yrange [0:1100]
set y2range [0:50]
set y2tics
set xlabel "time (ms)"
plot datafile u 1:2 w lines lc rgb "#444444" t "util (cfs+dl)", \
     datafile u 1:3 w lines lc rgb "#9467bd" t "deadline bw", \
     datafile u 1:12 axes x1y2 w steps lw 2 lc rgb "#999999" t "(c) MAX", \
     datafile u 1:11 axes x1y2 w steps lw 2 lc rgb "#17becf" t "(c) DESIRED", \
     datafile u 1:10 axes x1y2 w steps lw 1.5 dt 2 lc rgb "#8c564b" t "(c) MIN"
unset multiplot
