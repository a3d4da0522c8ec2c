#!/bin/bash
# Robustness (issue 5) in a debug test kernel: lockdep (PROVE_LOCKING,
# PROVE_RCU), DEBUG_ATOMIC_SLEEP, PREEMPT + DEBUG_PREEMPT, generic KASAN,
# UBSAN, DEBUG_LIST, SCHED_DEBUG (configs/debug.config), x86_64 under TCG.
#
# 1. Both KUnit suites (intel_pstate, cpufreq-perf-test) run at boot in this
#    kernel: one PASS/FAIL line per case (debug.<suite>.<case>), parsed by
#    the tree's kunit.py, and no splat while they run.
# 2. tests/robustness/guest.sh runs from the initramfs against the test
#    cpufreq driver (registered through debugfs, its "invariance" knob
#    pulsing so that schedutil's perf path runs): invariance lost mid-load,
#    governor switching, CPU hotplug, limit writes racing with updates
#    (including a maximum below the minimum) and driver re-registration,
#    all under load; the upstream cpufreq selftests (main.sh -t basic,
#    sptest1..4; sptest2, sptest3 and sptest4 with fewer iterations, see
#    below);
#    bad input to every writable cpufreq attribute and schedutil tunable,
#    with read-back.  After every scenario the guest checks the kernel log
#    written since the previous check for splats, and the test driver's
#    call records (no call in the wrong context, ->adjust_perf() reached).
# 3. The whole console log is checked for splats as well.
#
# Environment: REPO BUILD KSRC (tree with the series);
#   ROBUST_ITER  scales the scenario loops (default 1); ROBUST_TIMEOUT (s);
#   ROBUST_SELFTESTS  comma-separated main.sh -t tests (default all five);
#   SPTEST2_LOOPS (default 25, upstream 101), SPTEST3_LOOPS (default 25,
#   upstream 1000) and SPTEST4_LOOPS (default 100, upstream 5000), or
#   SPTEST_FULL=1 for the upstream sizes;
#   ROBUST_ONLY  comma-separated parts of guest.sh to run (setup always
#   runs; for debugging: a run with it set is not a full check);
#   ROBUST_ARGS  more guest arguments (tests/robustness/README).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(cd "$here/.." && pwd)}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
export REPO BUILD KSRC
name=debug-x86
splats='BUG:|WARNING:|possible circular locking|suspicious RCU usage|sleeping function called from invalid context|KASAN|UBSAN|Oops|Call Trace'

frags=("$REPO/configs/x86_64-test.config" "$REPO/Kconfig.fragment")
frags+=("$REPO/configs/kunit-x86.config" "$REPO/configs/kunit-e2e.config" "$REPO/configs/robustness.config" "$REPO/configs/debug.config")

mkdir -p "$BUILD"
t0=$(date +%s)
if ! image=$("$REPO/tools/build-kernel.sh" "$name" x86_64 "${frags[@]}" 2>"$BUILD/50-build.err"); then
	sed 's/^/  /' "$BUILD/50-build.err"
	echo "FAIL: robustness.build: the debug kernel did not build"
	exit 1
fi
echo "INFO: debug kernel: build step $(($(date +%s) - t0))s; $(grep -h 'built .* in' "$BUILD/50-build.err" | sed 's/^build-kernel: //')"
out=$BUILD/out/$name
if ! grep -qx 'CONFIG_CPU_FREQ_PERF_TEST=y' "$out/.config"; then
	echo "FAIL: robustness.config: debug kernel lacks CONFIG_CPU_FREQ_PERF_TEST"
	exit 1
fi

# the guest script, the upstream cpufreq selftests, and bash for them (they
# are bash scripts) with its libraries, plus a `sudo` that just runs its
# arguments
extra=("$REPO/tests/robustness/sudo:/usr/bin/sudo")
# sptest2, sptest3 and sptest4 at their full size take far longer under TCG
# with KASAN and lockdep than CI allows (see tests/robustness/README):
# run them with fewer iterations, unless SPTEST_FULL=1.  Only the loop
# counts change, in a copy.  What they look for is reported by lockdep and
# KASAN the first time the path runs (sptest2 is "concurrent_lockdep"); the
# counts keep every path running concurrently many times over:
SPTEST2_LOOPS=${SPTEST2_LOOPS:-25}	# upstream: seq 0 100 (per policy, concurrently)
SPTEST3_LOOPS=${SPTEST3_LOOPS:-25}	# upstream: seq 1000 (x 8 instances, x 2 writers: 400 writers)
SPTEST4_LOOPS=${SPTEST4_LOOPS:-100}	# upstream: seq 1 5000 (hotplug cycles, limit sweeps)
stdir=$out/selftests-cpufreq
rm -rf "$stdir" && mkdir -p "$stdir"
cp "$KSRC"/tools/testing/selftests/cpufreq/*.sh "$stdir"/
if [ "${SPTEST_FULL:-0}" != 1 ]; then
	sp=$stdir/special-tests.sh
	n2=$(grep -c 'for i in `seq 0 100`' "$sp")
	n3=$(grep -c 'for I in `seq 1000`' "$sp")
	n4=$(grep -c 'for [ij] in `seq 1 5000`' "$sp")
	if [ "$n2" != 1 ] || [ "$n3" != 1 ] || [ "$n4" != 2 ]; then
		echo "FAIL: robustness.selftests: special-tests.sh does not have the loops this script scales (found $n2, $n3 and $n4)"
		exit 1
	fi
	sed -i -e "s/for i in \`seq 0 100\`/for i in \`seq 1 $SPTEST2_LOOPS\`/" \
		-e "s/for I in \`seq 1000\`/for I in \`seq $SPTEST3_LOOPS\`/" \
		-e "s/for \([ij]\) in \`seq 1 5000\`/for \1 in \`seq 1 $SPTEST4_LOOPS\`/" "$sp"
	for n in 2 3 4; do
		case $n in 2) pat="seq 1 $SPTEST2_LOOPS" c=1 ;; 3) pat="seq $SPTEST3_LOOPS" c=1 ;; 4) pat="seq 1 $SPTEST4_LOOPS" c=2 ;; esac
		if [ "$(grep -c "in \`$pat\`" "$sp")" -lt $c ]; then
			echo "FAIL: robustness.selftests: could not scale sptest$n's loop to $pat"
			exit 1
		fi
	done
	echo "INFO: selftests: sptest2 runs seq 1 $SPTEST2_LOOPS instead of seq 0 100, sptest3 seq $SPTEST3_LOOPS instead of seq 1000, sptest4 seq 1 $SPTEST4_LOOPS instead of seq 1 5000 (SPTEST_FULL=1 for the full size)"
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
if ! "$REPO/tools/mkinitramfs.sh" "$initrd" "$REPO/tests/robustness/guest.sh" "${extra[@]}" 2>"$BUILD/50-initrd.err"; then
	sed 's/^/  /' "$BUILD/50-initrd.err"
	echo "FAIL: robustness.initramfs: could not build the initramfs"
	exit 1
fi

log=$out/robustness-console.log
t0=$(date +%s)
"$REPO/tools/qemu-run.sh" --arch x86_64 --kernel "$image" --initrd "$initrd" \
	--append "log_buf_len=16M robust.iter=${ROBUST_ITER:-1} robust.selftests=${ROBUST_SELFTESTS:-basic,sptest1,sptest2,sptest3,sptest4}${ROBUST_ONLY:+ robust.only=$ROBUST_ONLY} ${ROBUST_ARGS:-}" \
	--timeout "${ROBUST_TIMEOUT:-2400}" --mem 1G \
	--log "$log" 2>"$BUILD/50-qemu.err"
qrc=$?
echo "INFO: debug kernel: boot, KUnit suites and scenarios took $(($(date +%s) - t0))s (log $log)"
fail=0
if [ $qrc -ne 0 ]; then
	echo "FAIL: robustness.run: $(grep -m1 'qemu-run: FAILED' "$BUILD/50-qemu.err" | cut -c1-200)"
	fail=1
fi

# 1. KUnit cases in the debug kernel
json=$(mktemp)
python3 "$KSRC/tools/testing/kunit/kunit.py" parse --json="$json" "$log" >/dev/null 2>&1
python3 - "$json" <<'PY' || fail=1
import json, sys
try:
    data = json.load(open(sys.argv[1]))
except Exception:
    print("FAIL: debug.kunit: no KUnit results in the console log")
    sys.exit(1)
bad = False
groups = data.get("sub_groups", [])
for suite in ("intel_pstate", "cpufreq-perf-test"):
    if not any(g["name"] == suite for g in groups):
        print(f"FAIL: debug.{suite}: suite missing from the console log")
        bad = True
for g in groups:
    if not g["test_cases"]:
        print(f"FAIL: debug.{g['name']}: suite ran zero cases")
        bad = True
    for c in g["test_cases"]:
        if c["status"] == "PASS":
            print(f"PASS: debug.{g['name']}.{c['name']}")
        else:
            print(f"FAIL: debug.{g['name']}.{c['name']}: kunit status {c['status']}")
            bad = True
sys.exit(1 if bad else 0)
PY
rm -f "$json"

# splats while the KUnit suites ran (before init)
tr -d '\r' <"$log" >"$log.txt"
kunit_part=$(sed -n '1,/^QEMU-TEST-BEGIN/p' "$log.txt")
hit=$(echo "$kunit_part" | grep -m1 -E "$splats")
if [ -n "$hit" ]; then
	echo "FAIL: debug.kunit-phase.splats: $hit"
	fail=1
else
	echo "PASS: debug.kunit-phase.splats"
fi

# 2. the guest's own checks
if ! grep -q '^R-DONE' "$log.txt"; then
	echo "FAIL: robustness.guest: the scenario script did not finish"
	fail=1
fi
# (a kernel message may follow a result on the same console line: cut it)
sed -n '/^R-[A-Z]*: /s/\[ *[0-9][0-9]*\.[0-9]*\] .*//; s/^R-PASS: /PASS: robustness./p; s/^R-FAIL: /FAIL: robustness./p; s/^R-SKIP: /SKIP: robustness./p; s/^R-INFO: /INFO: /p' "$log.txt"
grep -q '^R-FAIL' "$log.txt" && fail=1

if [ -n "${ROBUST_ONLY:-}" ]; then
	echo "SKIP: robustness.partial: ROBUST_ONLY=$ROBUST_ONLY ran only part of the scenarios"
fi

# 3. the whole log
n=$(grep -cE "$splats" "$log.txt")
if [ "$n" -ne 0 ]; then
	echo "FAIL: robustness.splats_total: $n splat line(s), first: $(grep -m1 -E "$splats" "$log.txt" | cut -c1-160)"
	fail=1
else
	echo "PASS: robustness.splats_total"
fi
exit $fail
