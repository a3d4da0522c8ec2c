#!/bin/bash
# Suite 57: tools/hwp-ab.py's A/B pipeline on the emulated HWP machine, the base against
# the series in both adjust_perf_modes (one boot), energy SIMULATED; AB_DURATION (s, 4),
# AB_REPEAT (1). harness.md, hwp-machine.md.
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
export REPO BUILD KSRC
dir=$BUILD/state/57-hwp-ab
logs=$BUILD/logs
mkdir -p "$dir" "$logs"
. "$REPO/tools/lib/series-wt.sh"
ab=$REPO/tools/hwp-ab.py
ARGS="intel_pstate=passive cpufreq.default_governor=schedutil"

. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
ktap_plan 6

hwp_prepare "$dir" || { ktap_fail "kernels and machine build" "$HWP_WHY"; ktap_stop "$HWP_WHY"; }
series_img=$HWP_IMG
# the base kernel: suite 21's copy of the walk's base step, else built here the same way
base_img=$BUILD/out/walk-base/bzImage
want=$(base_key)
if [ ! -f "$base_img" ] || [ "$(cat "$BUILD/out/walk-base/key" 2>/dev/null)" != "$want" ]; then
	{ series_wt && walk_at "$base"; } || { ktap_fail "kernels and machine build" "$SERIES_WT_WHY"; ktap_stop "no base kernel"; }
	if ! img=$(VMLINUX_ONLY=0 "$REPO/tools/kernel.sh" build walk 2>"$dir/base-kernel.err"); then
		sed 's/^/  /' "$dir/base-kernel.err" | tail -n 20
		ktap_fail "kernels and machine build" "the base kernel did not build"
		ktap_stop "no base kernel"
	fi
	mkdir -p "$BUILD/out/walk-base"
	cp "$img" "$base_img"
	echo "$want" >"$BUILD/out/walk-base/key"
	walk_at "$branch" || echo "# $SERIES_WT_WHY"
fi
ktap_ok "kernels and machine build" "$series_img; base $base_img (the walk's base step)"

# guest programs: the tool's helpers (static), beside hwpload (hwp_initrd)
extra=()
for h in periodic spawn pingpong; do
	gcc -static -O2 -Wall -pthread -o "$dir/$h" "$REPO/tools/hwp-ab/$h.c" >"$dir/$h.log" 2>&1 ||
		ktap_stop "guest tools: $h does not build: $(tail -n 3 "$dir/$h.log" | tr '\n' '|')"
	extra+=("$dir/$h:/bin/$h")
done

# boot NAME IMAGE INITRD EXTRA-ARGS: the console in $dir/NAME.txt (hwp_boot)
boot() {
	HWP_SUITE_TIMEOUT=600 hwp_boot "57-$1" "$dir/$1.txt" --kernel "$2" --initrd "$3" --append "$ARGS $4"
}

# 1. the guest's work calibration, on the series kernel
: >"$dir/empty-plan"
hwp_initrd "$dir/initrd-cal.cpio.gz" "$REPO/tests/hwp-machine/ab-guest.sh" \
	"${extra[@]}" "$dir/empty-plan:/ab-plan" || ktap_stop "$HWP_WHY"
boot calibrate "$series_img" "$dir/initrd-cal.cpio.gz" "ab.calibrate=1" ||
	{ ktap_fail calibration "$HWP_WHY"; ktap_stop "no calibration"; }
ips=$(sed -n 's/^AB-IPS=\([0-9][0-9]*\)$/\1/p' "$dir/calibrate.txt" | head -n1)
{ [ -n "$ips" ] && [ "$ips" -gt 0 ]; } || { ktap_fail calibration "no AB-IPS=N on the guest's console"; ktap_stop "no calibration"; }
ktap_ok calibration "periodic -c 2 in the guest: $ips iterations/s"

# 2. the plan, and a run on each kernel
if ! "$ab" plan --ips "$ips" --repeat "${AB_REPEAT:-1}" --duration "${AB_DURATION:-4}" \
	--processes 200 --roundtrips 20000 >"$dir/plan" 2>"$dir/plan.err" || [ ! -s "$dir/plan" ]; then
	ktap_stop "hwp-ab.py plan failed: $(tr '\n' ' ' <"$dir/plan.err")"
fi
nplan=$(grep -c . "$dir/plan")
hwp_initrd "$dir/initrd-run.cpio.gz" "$REPO/tests/hwp-machine/ab-guest.sh" \
	"${extra[@]}" "$dir/plan:/ab-plan" || ktap_stop "$HWP_WHY"
res=$dir/results
rm -rf "$res"
ok=1
for k in base series; do
	img=$base_img want=$nplan modes=
	[ $k = series ] && img=$series_img want=$((2 * nplan)) modes=ab.modes=hints,floor
	if ! boot $k "$img" "$dir/initrd-run.cpio.gz" "ab.settle=2 $modes"; then
		ktap_fail "$k run" "$HWP_WHY"
		ok=0
		continue
	fi
	rows=$(grep -c '^AB-ROW .* energy_uj=[1-9][0-9]* ' "$dir/$k.txt")
	run=$(grep -m1 '^AB-RUN ' "$dir/$k.txt")
	case "$run" in
	*"driver=intel_cpufreq governor=schedutil"*)
		if [ "$rows" -ne "$want" ]; then
			ktap_fail "$k run" "$rows of $want workloads with simulated energy on the console"
			ok=0
		elif ! "$ab" import -r "$res" -l "$k-simulated" "$dir/$k.txt" 2>"$dir/$k.import"; then
			ktap_fail "$k run" "hwp-ab.py import: $(tr '\n' ' ' <"$dir/$k.import")"
			ok=0
		else
			ktap_ok "$k run" "$rows of $want workloads with simulated energy, imported; $run"
		fi ;;
	*) ktap_fail "$k run" "not intel_cpufreq with schedutil: '$run'"; ok=0 ;;
	esac
done
# (the base run's result and the series run's are reported either way)
[ $ok = 1 ] || ktap_stop "a run failed"

# 3. what each kernel asked the machine for, during the workloads
ktap_sub requests python3 "$REPO/tests/hwp-machine/check.py" ab "$logs/57-base.record" "$logs/57-series.record"

# 4. the tool's table, every figure simulated
echo "# hwp-ab table (SIMULATED energy and power of the emulated HWP machine's model, not measured):"
if "$ab" compare -r "$res" --base base-simulated >"$dir/table" 2>"$dir/compare.err"; then
	sed 's/^/  SIMULATED | /' "$dir/table"
	n=$(tail -n +2 "$res/summary.csv" | grep -c .)
	# the series' rows carry the trace's writes per second, the base's none
	tw=$(grep -c '/series-simulated-\(hints\|floor\),.*,[0-9.]*[1-9][0-9.]*$' "$res/summary.csv")
	[ "$n" -eq $((3 * nplan / ${AB_REPEAT:-1})) ] && [ "$tw" -eq $((2 * nplan / ${AB_REPEAT:-1})) ]
	ktap_rc compare $? "summary.csv has $n rows, expected $((3 * nplan / ${AB_REPEAT:-1})); $tw series rows with writes/s" \
		"summary.csv: $n rows, base, series-hints and series-floor for every workload, writes/s from the trace for the series; simulated"
else
	ktap_fail compare "hwp-ab.py compare failed: $(tr '\n' ' ' <"$dir/compare.err")"
fi
exit 0
