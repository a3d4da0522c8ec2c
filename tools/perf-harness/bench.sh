#!/bin/sh
# Instructions (callgrind) and TSC ticks per call of the two ->adjust_perf
# callbacks compiled from kernel text.
# Usage: bench.sh OUTDIR   (OUTDIR holds bench; see Makefile)
set -e
OUT=$1
CAPS=${BENCH_CAPACITIES:-"1024 446"}
cd "$OUT"

# Addresses of every div/idiv instruction in the binary (PIE offsets, as
# callgrind reports them for the main object).
objdump -d --no-show-raw-insn bench | awk '$2 ~ /^i?div/ { sub(":", "", $1); print $1 }' > divaddr.txt

echo "== ->adjust_perf callbacks compiled from kernel text: series (KSRC) and mainline 7.3, $(${CC:-gcc} --version | head -1), ${CFLAGS:--O2 -g}"
echo "== instructions per call (callgrind, Ir inclusive of intel_cpufreq_adjust_perf; divisions = executed div/idiv instructions) =="
printf '%-34s %8s %8s %10s %9s %9s %8s\n' callback capacity calls "instr/call" "div/call" "wr/call" "cur"
for cap in $CAPS; do
	for p in series m73; do
		case $p in
		series) name="series intel_cpufreq_adjust_perf";;
		m73)    name="7.3 intel_cpufreq_adjust_perf";;
		esac
		cg=cg.$p.$cap
		valgrind --tool=callgrind --callgrind-out-file=$cg --toggle-collect=intel_cpufreq_adjust_perf \
			--dump-instr=yes --compress-pos=no --compress-strings=no \
			./bench cost $p $cap > cost.$p.$cap.txt 2> cg.$p.$cap.log
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
		# 7.3 divides for every hint below the capacity: a zero here
		# means the dump was not matched against the binary.
		if [ $p = m73 ] && [ "$divs" -eq 0 ]; then
			echo "bench: no division found in 7.3's callback: callgrind dump not matched" >&2
			exit 1
		fi
		set -- $(sed -n 's/.*calls=\([0-9]*\) msr_writes=\([0-9]*\).* cur=\([0-9]*\).*/\1 \2 \3/p' cost.$p.$cap.txt)
		awk -v n="$name" -v c=$cap -v u=$1 -v ir=$ir -v dv=$divs -v w=$2 -v cur=$3 'BEGIN {
			printf "%-34s %8d %8d %10.2f %9.3f %9.3f %8d\n", n, c, u, ir / u, dv / u, w / u, cur }'
		echo "$p $cap $1 $ir $divs $2" >> cost.tsv.new
	done
done
mv cost.tsv.new cost.tsv
awk '{ ipu[$1 "," $2] = $4 / $3; caps[$2] = 1 } END {
	for (c in caps)
		printf "capacity %d: series/7.3 instructions per call = %.3f (goal <= 1.000)\n", c, ipu["series," c] / ipu["m73," c] }' cost.tsv

echo
echo "== TSC ticks per call, side by side in one run (not core cycles; ${BENCH_ROUNDS:-201} rounds, alternating order, medians) =="
for cap in $CAPS; do
	./bench cycles $cap ${BENCH_ROUNDS:-201}
done

