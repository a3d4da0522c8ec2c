#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Suite 60: the HWP kselftest and tools/hwp-ab.py (harness.md "Test suites"). An
# expected skip of the selftest is an ok; what this machine cannot run, a SKIP.
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -u

: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
selftest=$KSRC/tools/testing/selftests/intel_pstate
work=$BUILD/tests/60-hwkit
. "$REPO/tools/lib/ktap.sh"

# 3 selftest checks, 8 on the emulated HWP machine, 2 of hwp-ab, 1 of hwp-trace.py
ktap_plan 14

rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"

# check_skip NAME OUTFILE RC REASON_REGEX: exit code 4, exactly one
# "1..0 # SKIP <reason>" line matching REASON_REGEX, no test results.
check_skip() {
	local name=$1 out=$2 rc=$3 re=$4 n
	n=$(grep -c '# SKIP ' "$out")
	if [ "$rc" != 4 ]; then
		ktap_fail "$name" "exit code $rc, not 4: $(tr '\n' '|' <"$out")"
	elif [ "$n" != 1 ] || ! grep -q '^1\.\.0 # SKIP ..' "$out"; then
		ktap_fail "$name" "want one '1..0 # SKIP <reason>' line: $(tr '\n' '|' <"$out")"
	elif grep -qE '^(ok|not ok|Bail out)' "$out"; then
		ktap_fail "$name" "it ran checks: $(tr '\n' '|' <"$out")"
	elif ! grep -qE "$re" "$out"; then
		ktap_fail "$name" "unexpected reason: $(grep '# SKIP' "$out")"
	else
		ktap_ok "$name" "$(sed -n 's/^1\.\.0 # SKIP //p' "$out")"
	fi
}

# ---------------------------------------------------------------- selftest
sel=("hwkit selftest builds statically" "hwkit selftest skips cleanly without HWP"
	"hwkit selftest skips cleanly when not root")
bin=
if [ ! -f "$selftest/hwp_request.c" ]; then
	for t in "${sel[@]}"; do
		ktap_fail "$t" "$selftest is missing (the selftest patch is not in the series)"
	done
elif ! MAKEFLAGS= MAKELEVEL= make -s -C "$selftest" OUTPUT="$work" ARCH=x86_64 \
	LDFLAGS=-static >"$work/build.log" 2>&1 || [ ! -x "$work/hwp_request" ]; then
	ktap_fail "${sel[0]}" "$(tail -5 "$work/build.log" | tr '\n' '|')"
elif readelf -l "$work/hwp_request" | grep -q INTERP; then
	ktap_fail "${sel[0]}" "binary is dynamically linked"
else
	ktap_ok "${sel[0]}"
	bin=$work/hwp_request
fi

if [ -z "$bin" ] && [ -f "$selftest/hwp_request.c" ]; then
	for t in "${sel[@]:1}"; do
		ktap_fail "$t" "the selftest did not build (see the first check)"
	done
elif [ -n "$bin" ]; then
	chmod 755 "$bin"
	if grep -qw hwp /proc/cpuinfo; then
		ktap_skip "${sel[1]}" "this host has HWP: run $bin on it by hand instead"
	elif [ "$(id -u)" != 0 ]; then
		ktap_skip "${sel[1]}" "make check is not running as root"
	else
		"$bin" >"$work/host.out" 2>&1
		check_skip "${sel[1]}" "$work/host.out" $? 'no HWP|no CPUID leaf 6'
	fi

	# Not root: as it is, or as nobody through setpriv when root.
	drop=()
	[ "$(id -u)" != 0 ] || drop=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	if [ ${#drop[@]} != 0 ] && ! command -v setpriv >/dev/null; then
		ktap_skip "${sel[2]}" "no setpriv to drop root"
	else
		"${drop[@]}" "$bin" >"$work/nonroot.out" 2>&1
		check_skip "${sel[2]}" "$work/nonroot.out" $? 'must be run as root'
	fi
fi

# ---------------------------------------------------- emulated HWP machine
emu_names=("hwkit selftest passes on emulated HWP"
	"hwkit selftest catches MIN above a lowered MAX (emulated)"
	"hwkit selftest catches schedutil on the frequency path (emulated)"
	"hwkit selftest restores scaling_max_freq on SIGTERM (emulated)"
	"hwkit selftest restores the governor on SIGTERM (emulated)"
	"hwkit selftest passes with DEC on, DESIRED 0 (emulated)"
	"hwkit selftest catches DESIRED written with DEC on (emulated)"
	"hwkit selftest selects schedutil and restores the governor (emulated)")
why=
bad=
if [ ! -f "$selftest/hwp_request.c" ]; then
	bad="$selftest is missing"
elif [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	why="needs root and unshare -m for the fake sysfs and msr files"
elif ! command -v python3 >/dev/null; then
	why="no python3"
else
	mkdir -p "$work/emu"
	if ! gcc -O2 -Wall -I"$REPO/tests/hwkit" -o "$work/emu/hwp_request" \
		"$selftest/hwp_request.c" >"$work/emu/build.log" 2>&1; then
		bad="build against tests/hwkit/cpuid.h failed: $(head -3 "$work/emu/build.log" | tr '\n' '|')"
	fi
fi
if [ -n "$bad$why" ]; then
	for t in "${emu_names[@]}"; do
		if [ -n "$bad" ]; then ktap_fail "$t" "$bad"; else ktap_skip "$t" "$why"; fi
	done
else
	# emu_check I GOV RUN RC PATTERN...: check I (emu_names[I]): run-emu.sh RUN from GOV; ok on
	# "rc=RC", a line matching each PATTERN ("!ERE": none; no-skip: no SKIP but the floor mode's,
	# not emulated, run by 56), and every fake CPU left at GOV and 4000000 kHz
	emu_check() {
		local t=${emu_names[$1]} gov=$2 f=$work/emu/$1-${3// /-}.out rc=$4 p ok=1
		# shellcheck disable=SC2086 # RUN is MODE and an optional term-*
		HWKIT_GOV=$gov "$REPO/tests/hwkit/run-emu.sh" "$work/emu/hwp_request" $3 >"$f" 2>&1
		shift 4
		grep -q "^rc=$rc\$" "$f" || ok=
		for p in "$@"; do
			case $p in
			'!'*) ! grep -qE "${p#!}" "$f" || ok= ;;
			no-skip) [ "$(grep -c '# SKIP' "$f")" = "$(grep -c '# SKIP .*adjust_perf_mode$' "$f")" ] || ok= ;;
			*) grep -q "$p" "$f" || ok= ;;
			esac
		done
		grep -qE '^cpu[0-9]+: ' "$f" && ! grep -E '^cpu[0-9]+: ' "$f" | grep -qv ": $gov 4000000\$" || ok=
		if [ -z "$ok" ]; then
			ktap_fail "$t" "$(grep -E '^(not )?ok|^Bail|^rc=|^cpu|SKIP|^# (sent|Dyn)|governor' "$f" | tr '\n' '|')"
		elif [ "$rc" = 0 ]; then
			ktap_ok "$t" "$(grep -c '^ok' "$f") checks"
		else
			ktap_ok "$t"
		fi
	}
	emu_check 0 schedutil good 0 '!^not ok' no-skip '^# Totals: pass:[1-9]'
	emu_check 1 schedutil bad-min 1 '^not ok .*scaling_max_freq .*lowers MAX.*MIN 40 DESIRED 40 MAX 24'
	emu_check 2 schedutil freq-path 1 '^not ok .*under load.*DESIRED above MIN' 'adjust_perf not used'
	emu_check 3 schedutil 'good term-max' 1 '^# sent SIGTERM' '^Bail out! interrupted by signal 15'
	emu_check 4 schedutil 'good term-gov' 1 '^# sent SIGTERM' '^Bail out! interrupted by signal 15'
	# DEC on (MSR_IA32_POWER_CTL bit 27): the driver writes no DESIRED
	emu_check 5 schedutil dec 0 '!^not ok' no-skip '^# Dynamic Efficiency Control is on' \
		'^ok .*under load DESIRED 0 (DEC), MIN < MAX' '^ok .*performance governor: MIN = MAX, DESIRED 0 (DEC)'
	emu_check 6 schedutil dec-bad 1 '^not ok .*under load DESIRED 0 (DEC), MIN < MAX' 'DESIRED written with DEC on'
	# another governor at the start: the selftest selects schedutil, then
	# puts the old one back
	emu_check 7 performance good 0 '!^not ok' no-skip 'governor set to schedutil for the test'
fi

# ------------------------------------------------------------------ hwp-ab
ab=$REPO/tools/hwp-ab.py
name="hwp-ab dry run writes the table and CSV"
if ! command -v python3 >/dev/null || ! command -v gcc >/dev/null; then
	ktap_fail "$name" "python3 or gcc missing (make deps installs both)"
else
	res=$work/ab
	rc=0
	for l in dry-a dry-b; do
		"$ab" run --dry-run -l $l -r "$res" >/dev/null 2>>"$work/ab.err" || rc=$?
	done
	[ $rc != 0 ] || "$ab" compare -r "$res" --base dry-a >"$work/ab.out" 2>>"$work/ab.err" || rc=$?
	want='workload,config,runs,seconds,energy_j,power_w,perf,perf_unit,perf_better,energy_vs_base_pct,perf_vs_base_pct,writes_per_s'
	runhdr='kernel,driver,governor,label,workload,repeat,seconds,energy_j,power_w,perf,perf_unit,detail'
	nrows=$(tail -n +2 "$res/summary.csv" 2>/dev/null | grep -c .)
	nruns=$(ls "$res"/runs/*.csv 2>/dev/null | wc -l)
	bad_run=
	for f in "$res"/runs/*.csv; do
		[ "$(head -1 "$f")" = "$runhdr" ] && [ "$(tail -n +2 "$f" | grep -c ',NA,NA,')" = 7 ] || bad_run=$f
	done
	wl=$(tail -n +2 "$res/summary.csv" 2>/dev/null | cut -d, -f1 | sort -u | tr '\n' ' ')
	if [ $rc != 0 ]; then
		ktap_fail "$name" "exit code $rc: $(tail -3 "$work/ab.err" | tr '\n' '|')"
	elif [ "$(head -1 "$res/summary.csv")" != "$want" ]; then
		ktap_fail "$name" "summary.csv header is '$(head -1 "$res/summary.csv")'"
	elif [ "$nrows" != 14 ] || [ "$nruns" != 2 ] || [ -n "$bad_run" ]; then
		ktap_fail "$name" "$nrows summary rows (want 14), $nruns run files (want 2) ${bad_run:+bad: $bad_run}"
	elif [ "$wl" != "periodic-113Hz periodic-211Hz periodic-347Hz periodic-401Hz periodic-73Hz pingpong serial " ]; then
		ktap_fail "$name" "workloads: $wl"
	elif ! grep -q '^baseline: .*/dry-a$' "$work/ab.out" ||
		[ "$(grep -cE '^(periodic-[0-9]+Hz|serial|pingpong) ' "$work/ab.out")" != 14 ]; then
		ktap_fail "$name" "table: $(head -4 "$work/ab.out" | tr '\n' '|')"
	else
		ktap_ok "$name"
	fi
fi

name="hwp-ab reports missing RAPL in one line"
if [ -e /sys/bus/event_source/devices/power/events/energy-pkg ] ||
	ls -d /sys/class/powercap/intel-rapl:* >/dev/null 2>&1; then
	ktap_skip "$name" "this machine has RAPL"
else
	"$ab" run -r "$work/ab-rapl" >"$work/rapl.out" 2>"$work/rapl.err"
	rc=$?
	if [ $rc = 0 ]; then
		ktap_fail "$name" "exit code 0"
	elif [ "$(grep -c . "$work/rapl.err")" != 1 ] || [ -s "$work/rapl.out" ]; then
		ktap_fail "$name" "want one line on stderr: $(tr '\n' '|' <"$work/rapl.err")"
	elif ! grep -q 'cannot measure package energy: .*RAPL' "$work/rapl.err"; then
		ktap_fail "$name" "$(cat "$work/rapl.err")"
	else
		ktap_ok "$name" "exit $rc"
	fi
fi

ktap_sub "hwp-trace reads its sample trace" python3 "$REPO/tools/hwp-trace.py" --self-test

[ "$KTAP_FAILED" = 0 ]
