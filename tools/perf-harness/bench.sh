#!/bin/sh
# Cost table (callgrind), replay table and plots for the perf harness.
# Usage: bench.sh OUTDIR   (OUTDIR holds bench and bench-countdiv; see Makefile)
set -e
OUT=$1
HARNESS=$(cd "$(dirname "$0")" && pwd)
CAPS=${BENCH_CAPACITIES:-"1024 446"}
cd "$OUT"

# Addresses of every div/idiv instruction in the binary (PIE offsets, as
# callgrind reports them for the main object).
objdump -d --no-show-raw-insn bench | awk '$2 ~ /^i?div/ { sub(":", "", $1); print $1 }' > divaddr.txt

echo "== cost per update (callgrind, Ir inclusive of the path function; divisions = executed div/idiv instructions) =="
printf '%-28s %8s %9s %9s %9s %9s %9s %10s\n' path capacity updates "instr/upd" "div/upd" "div(src)" "rd/upd" "wr/upd"
for cap in $CAPS; do
	for p in perf freq v2 m73; do
		case $p in
		perf) name="(a) series adjust_perf";;
		freq) name="(b) 5.10 freq path";;
		v2)   name="(c) v2 Dec 2020";;
		m73)  name="(d) mainline 7.3";;
		esac
		cg=cg.$p.$cap
		valgrind --tool=callgrind --callgrind-out-file=$cg --toggle-collect=h6_path_$p \
			--dump-instr=yes --compress-pos=no --compress-strings=no \
			./bench cost $p $cap > cost.$p.$cap.txt 2> cg.$p.$cap.log
		src=$(./bench-countdiv cost $p $cap | sed -n 's/.*src_divs=\([0-9]*\).*/\1/p')
		# Sum the self cost of the instructions at div addresses in the
		# main object; the line after a calls= line is an inclusive call
		# cost and is skipped.
		divs=$(awk -v bin="$(readlink -f bench)" '
			FNR == NR { d["0x" $1] = 1; next }
			/^ob=/ { inbin = (substr($0, 4) == bin) ; next }
			/^calls=/ { skip = 1; next }
			skip { skip = 0; next }
			inbin && /^0x/ { a = $1; sub(/^0x0*/, "0x", a); if (a in d) s += $3 }
			END { print s + 0 }' divaddr.txt $cg)
		ir=$(sed -n 's/^totals: *//p' $cg)
		# map_util_freq() always divides: a zero here means the dump was
		# not matched against the binary, not that there was no division.
		if [ $p = freq ] && [ "$divs" -eq 0 ]; then
			echo "bench: no division found in the frequency path: callgrind dump not matched" >&2
			exit 1
		fi
		set -- $(sed -n 's/.*updates=\([0-9]*\) msr_reads=\([0-9]*\) msr_writes=\([0-9]*\).*/\1 \2 \3/p' cost.$p.$cap.txt)
		awk -v n="$name" -v c=$cap -v u=$1 -v ir=$ir -v dv=$divs -v sd=$src -v r=$2 -v w=$3 'BEGIN {
			printf "%-28s %8d %9d %9.1f %9.3f %9.3f %9.3f %10.3f\n", n, c, u, ir / u, dv / u, sd / u, r / u, w / u }'
		echo "$p $cap $1 $ir $divs $src $2 $3" >> cost.tsv.new
	done
done
mv cost.tsv.new cost.tsv
awk '{ k = $2; ipu[$1 "," k] = $4 / $3 } END {
	for (k in ipu) { split(k, a, ","); caps[a[2]] = 1 }
	for (c in caps) {
		printf "capacity %d: (a)/(b) instructions = %.2f (goal <= 0.50)\n", c, ipu["perf," c] / ipu["freq," c]
		printf "capacity %d: (a)/(d) instructions = %.2f (goal <= 1.00)\n", c, ipu["perf," c] / ipu["m73," c] } }' cost.tsv

echo
echo "== time per update, side by side in one run (TSC ticks, not core cycles; median of ${BENCH_ROUNDS:-201} rounds of every update of every trace through each path in turn) =="
for cap in $CAPS; do
	./bench cycles $cap ${BENCH_ROUNDS:-201}
done

echo
echo "== trace replay (HWP_REQUEST writes per 1000 updates; capacity 1024, levels 8/37/46) =="
mkdir -p plots
./bench replay plots

if command -v gnuplot >/dev/null 2>&1; then
	for f in plots/*.dat; do
		n=$(basename "$f" .dat)
		gnuplot -e "datafile='$f'; outfile='plots/$n.png'; title='$(sed -n '1s/^# //p' "$f" | sed "s/'//g")'" \
			"$HARNESS/plot.gp"
	done
	echo "plots: $(ls plots/*.png | wc -l) PNG files in $OUT/plots"
else
	echo "plots: gnuplot missing, none written" >&2
	exit 1
fi
