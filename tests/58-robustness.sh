#!/bin/bash
# Suite 58: the debug-x86 kernel, harness.md "Test suites"; its knobs (ROBUST_ITER,
# SPTEST_FULL, ...): Documentation/project/robustness.md.
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
. "$(dirname "$0")/../tools/lib/env.sh"
export REPO BUILD KSRC
splats=$REPO/tools/lib/splats.ere # the one splat pattern, also the guests' /lib/splats.ere
mkdir -p "$BUILD"
. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
ktap_plan 11

# 1. the KUnit suites in the debug kernel (debug-x86 of configs/kernels), stock QEMU
t0=$(date +%s)
if ! kimage=$("$REPO/tools/kernel.sh" build debug-x86 2>"$BUILD/58-build.err") ||
	! ko=$("$REPO/tools/build-test-module.sh" "$BUILD/out/debug-x86" x86_64 2>>"$BUILD/58-build.err"); then
	sed 's/^/  /' "$BUILD/58-build.err"
	ktap_fail build "the debug kernel with the KUnit suites did not build"
	ktap_stop "the debug kernel did not build" 1
fi
ktap_ok build
echo "# debug kernel (KUnit): build step $(($(date +%s) - t0))s; $(grep -h 'built .* in' "$BUILD/58-build.err" | sed 's/^build-kernel: //')"
kout=$BUILD/out/debug-x86
{ grep -qx 'CONFIG_MODULES=y' "$kout/.config" && [ -f "$ko" ]; } ||
	{ ktap_fail config "debug kernel lacks CONFIG_MODULES=y or the test module ($ko)"; ktap_stop "no test module" 1; }
ktap_ok config
t0=$(date +%s)
ktap_sub debug env KUNIT_BOOT_TIMEOUT="${ROBUST_KUNIT_TIMEOUT:-1200}" "$REPO/tools/kunit-boot.sh" \
	x86_64 "$kimage" intel_pstate_perf cpufreq-perf-test 2>"$BUILD/58-kunit.err"
echo "# debug kernel (KUnit): boot and suites took $(($(date +%s) - t0))s (log $kout/kunit-console.log)"
hit=$(tr -d '\r' <"$kout/kunit-console.log" 2>/dev/null | grep -m1 -E -f "$splats")
[ -s "$kout/kunit-console.log" ] || hit="no console log $kout/kunit-console.log"
ktap_check debug.kunit-phase.splats "$hit" [ -z "$hit" ]

# 2. the scenarios on the real driver, on the emulated HWP machine
t0=$(date +%s)
if ! qemu=$("$REPO/tools/build-qemu.sh" 2>"$BUILD/58-qemu-build.err"); then
	sed 's/^/  /' "$BUILD/58-qemu-build.err" | tail -n 20
	ktap_fail machine "the emulated HWP machine did not build (tools/build-qemu.sh)"
	ktap_stop "the emulated HWP machine did not build" 1
fi
ktap_ok machine "$qemu"
out=$BUILD/out/debug-hwp
mkdir -p "$out"

# the selftests' `sudo` (runs its arguments); the test module, which must refuse to load
extra=("$REPO/tests/robustness/sudo:/usr/bin/sudo")
extra+=("$ko:/kunit-modules/cpufreq-perf-test.ko")
extra+=("$kout/kunit-modules/intel_pstate_perf_test.ko:/kunit-modules/intel_pstate_perf_test.ko")
# hwpload (the scenario markers) and guest-lib.sh (waits on HWP_REQUEST): hwp_initrd adds them
hwp_hwpload "$out" || { ktap_fail initramfs "$HWP_WHY"; ktap_stop "no initramfs" 1; }
# unless SPTEST_FULL=1, sptest2-4's loop counts shrink in a copy (robustness.md);
# each loop must be found as often as upstream has it
stdir=$out/selftests-cpufreq
rm -rf "$stdir" && mkdir -p "$stdir"
cp "$KSRC"/tools/testing/selftests/cpufreq/*.sh "$stdir"/
if [ "${SPTEST_FULL:-0}" != 1 ]; then
	sp=$stdir/special-tests.sh
	n2=$(grep -c 'for i in `seq 0 100`' "$sp")
	n3=$(grep -c 'for I in `seq 1000`' "$sp")
	n4=$(grep -c 'for [ij] in `seq 1 5000`' "$sp")
	if [ "$n2" != 1 ] || [ "$n3" != 1 ] || [ "$n4" != 2 ]; then
		ktap_fail initramfs "special-tests.sh does not have the loops this script scales (found $n2, $n3 and $n4)"
		ktap_stop "no initramfs" 1
	fi
	sed -i -e 's/for i in `seq 0 100`/for i in `seq 1 25`/' \
		-e 's/for I in `seq 1000`/for I in `seq 25`/' \
		-e 's/for \([ij]\) in `seq 1 5000`/for \1 in `seq 1 100`/' "$sp"
	echo "# selftests: sptest2 runs seq 1 25 instead of seq 0 100, sptest3 seq 25 instead of seq 1000, sptest4 seq 1 100 instead of seq 1 5000 (SPTEST_FULL=1 for the full size)"
fi
for f in "$stdir"/*.sh; do
	extra+=("$f:/selftests/cpufreq/$(basename "$f")")
done
if [ -x /bin/bash ]; then
	extra+=("$(readlink -f /bin/bash):/bin/bash")
	for lib in $(ldd /bin/bash | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
		extra+=("$(readlink -f "$lib"):$lib")
	done
fi
initrd=$out/robustness-initrd.cpio.gz
hwp_initrd "$initrd" "$REPO/tests/robustness/guest.sh" "${extra[@]}" || { ktap_fail initramfs "$HWP_WHY"; ktap_stop "no initramfs" 1; }
ktap_ok initramfs

log=$out/robustness-console.log
record=$out/robustness.record
rm -f "$record"
t0=$(date +%s)
"$REPO/tools/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$record" --hwp-opts hwp-highest=30:24 \
	--kernel "$kimage" --initrd "$initrd" \
	--append "intel_pstate=passive cpufreq.default_governor=schedutil log_buf_len=16M robust.iter=${ROBUST_ITER:-1} robust.selftests=${ROBUST_SELFTESTS:-basic,sptest1,sptest2,sptest3,sptest4} ${ROBUST_ARGS:-}" \
	--timeout "${ROBUST_TIMEOUT:-2400}" --mem 1G \
	--log "$log" 2>"$BUILD/58-qemu.err"
qrc=$?
echo "# debug kernel (HWP machine): boot and scenarios took $(($(date +%s) - t0))s (log $log, record $record)"
ktap_check run "$(grep -m1 'qemu-run: FAILED' "$BUILD/58-qemu.err" | cut -c1-200)" [ $qrc -eq 0 ]
tr -d '\r' <"$log" >"$log.txt"

# KUnit in this boot (intel_pstate registered first): the test module's suite must not
# have run, intel_pstate_perf must pass every case its plan (1..N) declares
kunit_hwp=$(awk '
	/# Subtest: cpufreq-perf-test/ { pt++; next }
	/# Subtest: intel_pstate_perf/ { ip = 1; next }
	ip && /^\[[ 0-9.]*\]    +1\.\.[0-9]+$/ { sub(/.*1\.\./, ""); plan = $0 }
	ip && /^\[[ 0-9.]*\]    +not ok [0-9]+ - / { ipfail++ }
	ip && /^\[[ 0-9.]*\]    +ok [0-9]+ - / { ipok++ }
	ip && /^\[[ 0-9.]*\] (not )?ok [0-9]+ - intel_pstate_perf$/ { ip = 0 }
	END { printf "%d %d %d %d", pt, ipok, ipfail, plan }' "$log.txt")
read -r k_pt k_ipok k_ipfail k_plan <<<"$kunit_hwp"
[ "$k_pt" = 0 ] && grep -q '^R-PASS: setup.test_module_refused' "$log.txt" &&
	[ "$k_ipok" -gt 0 ] && [ "$k_ipfail" = 0 ] && [ "$k_ipok" = "$k_plan" ]
ktap_rc kunit_safe_on_hwp $? "cpufreq-perf-test suite ran $k_pt time(s) (must not: the module must refuse to load), refusal $(grep -c '^R-PASS: setup.test_module_refused' "$log.txt") time(s); intel_pstate_perf $k_ipok ok, $k_ipfail not ok, plan 1..$k_plan" \
	"cpufreq-perf-test: the module refused to load, intel_pstate registered, the suite did not run; intel_pstate_perf: $k_ipok of $k_plan cases passed"

# 2. the guest's checks, one result per scenario (check.py scenarios), and each record
IFS=, read -r -a sts <<<"${ROBUST_SELFTESTS:-basic,sptest1,sptest2,sptest3,sptest4}"
scen=(setup governors hotplug limits modes "${sts[@]/#/selftest.}" badinput freeze)
sed -n 's/\[ *[0-9][0-9]*\.[0-9]*\] .*//; s/^R-INFO: /# /p' "$log.txt"
ktap_sub scenarios python3 "$REPO/tests/hwp-machine/check.py" scenarios "$log.txt" "${scen[@]}" teardown
ktap_sub record python3 "$REPO/tests/hwp-machine/check.py" robustness "$log.txt" "$record" "${scen[@]}" end

# 3. the whole log
n=$(grep -cE -f "$splats" "$log.txt")
ktap_check splats_total "$n splat line(s), first: $(grep -m1 -E -f "$splats" "$log.txt" | cut -c1-160)" [ "$n" -eq 0 ]
[ "$KTAP_FAILED" = 0 ]
