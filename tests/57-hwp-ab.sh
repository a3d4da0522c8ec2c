#!/bin/bash
# Suite 57: the A/B pipeline of tools/hwp-ab.py end to end on the emulated
# HWP machine (issue 12, item 4): the base 5.10 kernel against the series,
# both with the HWP machine's configuration (Kconfig.fragment,
# configs/x86_64-test.config, configs/hwp-machine.config; at the base, the
# symbols it has), intel_pstate=passive and schedutil. The guest
# (tests/hwp-machine/ab-guest.sh) runs the tool's workloads from its plan
# (hwp-ab.py plan, with the guest's own work calibration from a first boot)
# and reads the machine's SIMULATED package energy counter around each; the
# host imports both runs (hwp-ab.py import) and prints the tool's table
# (hwp-ab.py compare); the runs are labelled base-simulated and
# series-simulated, so the run files and summary.csv say so too. The machine's record shows which request each kernel
# made: the base puts its target into MIN only (DESIRED 0), the series
# steers DESIRED. Every energy and power figure here is SIMULATED by the
# emulated machine's power model (Documentation/project/hwp-machine.md),
# never a measurement of real hardware.
#
# Environment: REPO BUILD KSRC. AB_DURATION (s of each periodic load,
# default 4), AB_REPEAT (default 1).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
export REPO BUILD KSRC
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
base=base-$BASE_VERSION
dir=$BUILD/state/57-hwp-ab
logs=$BUILD/logs
# the base tree: suite 21's worktree (suite 21 leaves it at the series tip, so
# it is checked out at the base here); the base kernel's first build starts
# from a copy of that suite's last build there (SEED: only what the series and
# the configuration change is
# rebuilt), or from scratch when suite 21 has not run
wt=$BUILD/wt/bisect
mkdir -p "$dir" "$logs" "$BUILD/wt"
ab=$REPO/tools/hwp-ab.py
ARGS="intel_pstate=passive cpufreq.default_governor=schedutil"

pass() { echo "PASS: hwp-ab $1"; }
fail() { echo "FAIL: hwp-ab $1: $2"; }

if ! "$REPO/tools/build-qemu.sh" >/dev/null 2>"$dir/qemu-build.err"; then
	sed 's/^/  /' "$dir/qemu-build.err" | tail -n 20
	fail machine "the emulated HWP machine did not build (tools/build-qemu.sh)"
	exit 0
fi
if ! series_img=$("$REPO/tools/hwp-kernel.sh" 2>"$dir/kernel.err"); then
	sed 's/^/  /' "$dir/kernel.err" | tail -n 20
	fail kernel "the HWP machine's kernel did not build (tools/hwp-kernel.sh)"
	exit 0
fi
# the base kernel, in a worktree of the kernel tree at the base tag
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" "$base" || { fail base-kernel "cannot create worktree $wt"; exit 0; }
fi
git -C "$wt" checkout -q --detach "$base" || { fail base-kernel "cannot check out $base in $wt"; exit 0; }
"$REPO/tools/filter-fragments.sh" "$wt" "$dir/base.config" "$REPO/Kconfig.fragment" \
	"$REPO/configs/x86_64-test.config" "$REPO/configs/hwp-machine.config"
if ! base_img=$(KSRC=$wt SEED=bisect "$REPO/tools/build-kernel.sh" x86_64-hwp-base x86_64 "$dir/base.config" 2>"$dir/base-kernel.err"); then
	sed 's/^/  /' "$dir/base-kernel.err" | tail -n 20
	fail base-kernel "the base kernel did not build"
	exit 0
fi
pass "kernels and machine build ($(grep -h 'built .* in' "$dir/base-kernel.err" | sed 's/^build-kernel: //'))"

# guest programs: the tool's helpers (static) and hwpload for the MSRs
extra=()
for h in periodic spawn pingpong; do
	if ! gcc -static -O2 -Wall -pthread -o "$dir/$h" "$REPO/tools/hwp-ab/$h.c" >"$dir/$h.log" 2>&1; then
		fail "guest tools" "$h does not build: $(tail -n 3 "$dir/$h.log" | tr '\n' '|')"
		exit 0
	fi
	extra+=("$dir/$h:/bin/$h")
done
if ! gcc -static -O2 -Wall -o "$dir/hwpload" "$REPO/tools/hwp-guest/hwpload.c" >"$dir/hwpload.log" 2>&1; then
	fail "guest tools" "hwpload does not build: $(tail -n 3 "$dir/hwpload.log" | tr '\n' '|')"
	exit 0
fi
extra+=("$dir/hwpload:/bin/hwpload")

boot() { # NAME IMAGE INITRD EXTRA-ARGS
	local name=$1 img=$2 initrd=$3 more=$4
	rm -f "$logs/57-$name.record"
	if ! "$REPO/tools/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$logs/57-$name.record" \
		--kernel "$img" --initrd "$initrd" --append "$ARGS $more" \
		--timeout 600 --log "$logs/57-$name.console.log" >"$dir/$name.qemu" 2>&1; then
		sed 's/^/  /' "$dir/$name.qemu" | tail -n 10
		fail "$name" "the guest did not finish (console $logs/57-$name.console.log)"
		return 1
	fi
	tr -d '\r' <"$logs/57-$name.console.log" >"$dir/$name.txt"
	if grep -q '^GUEST-ERROR=' "$dir/$name.txt"; then
		grep '^GUEST-ERROR=' "$dir/$name.txt" | sed "s/^/FAIL: hwp-ab $name guest: /"
		return 1
	fi
}

# 1. the guest's work calibration, on the series kernel
: >"$dir/empty-plan"
if ! "$REPO/tools/mkinitramfs.sh" "$dir/initrd-cal.cpio.gz" "$REPO/tests/hwp-machine/ab-guest.sh" \
	"${extra[@]}" "$dir/empty-plan:/ab-plan" >"$dir/initramfs.log" 2>&1; then
	fail initramfs "$(tail -n 3 "$dir/initramfs.log" | tr '\n' '|')"
	exit 0
fi
boot calibrate "$series_img" "$dir/initrd-cal.cpio.gz" "ab.calibrate=1" || exit 0
ips=$(sed -n 's/^AB-IPS=\([0-9][0-9]*\)$/\1/p' "$dir/calibrate.txt" | head -n1)
if [ -z "$ips" ] || [ "$ips" -le 0 ]; then
	fail calibration "no AB-IPS=N on the guest's console"
	exit 0
fi
pass "calibration (periodic -c 2 in the guest: $ips iterations/s)"

# 2. the plan, and a run on each kernel
if ! "$ab" plan --ips "$ips" --repeat "${AB_REPEAT:-1}" --duration "${AB_DURATION:-4}" \
	--processes 200 --roundtrips 20000 >"$dir/plan" 2>"$dir/plan.err" || [ ! -s "$dir/plan" ]; then
	fail plan "hwp-ab.py plan failed: $(tr '\n' ' ' <"$dir/plan.err")"
	exit 0
fi
nplan=$(grep -c . "$dir/plan")
"$REPO/tools/mkinitramfs.sh" "$dir/initrd-run.cpio.gz" "$REPO/tests/hwp-machine/ab-guest.sh" \
	"${extra[@]}" "$dir/plan:/ab-plan" >>"$dir/initramfs.log" 2>&1 ||
	{ fail initramfs "$(tail -n 3 "$dir/initramfs.log" | tr '\n' '|')"; exit 0; }
res=$dir/results
rm -rf "$res"
ok=1
for k in base series; do
	img=$base_img
	[ $k = series ] && img=$series_img
	if ! boot $k "$img" "$dir/initrd-run.cpio.gz" "ab.settle=2"; then
		ok=0
		continue
	fi
	rows=$(grep -c '^AB-ROW .* energy_uj=[1-9][0-9]* ' "$dir/$k.txt")
	run=$(grep -m1 '^AB-RUN ' "$dir/$k.txt")
	case "$run" in
	*"driver=intel_cpufreq governor=schedutil"*)
		if [ "$rows" -eq "$nplan" ]; then
			pass "$k run ($rows of $nplan workloads with simulated energy; $run)"
		else
			fail "$k run" "$rows of $nplan workloads with simulated energy on the console"
			ok=0
		fi ;;
	*) fail "$k run" "not intel_cpufreq with schedutil: '$run'"; ok=0 ;;
	esac
	if ! "$ab" import -r "$res" -l "$k-simulated" "$dir/$k.txt" 2>"$dir/$k.import"; then
		fail "$k import" "$(tr '\n' ' ' <"$dir/$k.import")"
		ok=0
	fi
done
[ $ok = 1 ] || exit 0

# 3. what each kernel asked the machine for, during the workloads
python3 - "$dir/base.txt" "$logs/57-base.record" "$dir/series.txt" "$logs/57-series.record" <<'PY'
import os
import sys
sys.path.insert(0, os.path.join(os.environ["REPO"], "tools"))
import hwp_record
for k, rec in (("base", sys.argv[2]), ("series", sys.argv[4])):
    reqs, _ = hwp_record.phases(hwp_record.parse_record(rec))
    n = len(reqs)
    des = [r for r in reqs if r["des"]]
    if k == "base":
        ok = n > 0 and not des
        why = "%d writes, %d with DESIRED set (the base writes its target into MIN only)" % (n, len(des))
    else:
        steer = [r for r in des if r["min"] < r["des"]]
        ok = len(steer) > 0
        why = "%d writes, %d with DESIRED above MIN (schedutil's hints)" % (n, len(steer))
    print("%s: hwp-ab %s requests (%s; simulated machine)" % ("PASS" if ok else "FAIL", k, why))
PY

# 4. the tool's table, every figure simulated
echo "INFO: hwp-ab table (SIMULATED energy and power of the emulated HWP machine's model, not measured):"
if "$ab" compare -r "$res" --base base-simulated >"$dir/table" 2>"$dir/compare.err"; then
	sed 's/^/  SIMULATED | /' "$dir/table"
	n=$(tail -n +2 "$res/summary.csv" | grep -c .)
	if [ "$n" -eq $((2 * nplan / ${AB_REPEAT:-1})) ]; then
		pass "compare (summary.csv: $n rows, base and series for every workload; simulated)"
	else
		fail compare "summary.csv has $n rows, expected $((2 * nplan / ${AB_REPEAT:-1}))"
	fi
else
	fail compare "hwp-ab.py compare failed: $(tr '\n' ' ' <"$dir/compare.err")"
fi
exit 0
