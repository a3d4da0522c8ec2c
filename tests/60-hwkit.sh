#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Suite 60: the HWP kselftest (patch 14) builds statically, skips cleanly
# (KSFT_SKIP, one reason) on this host and as non-root, and passes, fails
# and restores as it should on the emulation (tests/hwkit/); its skip in a
# QEMU guest without HWP is suite 56's nohwp boot. tools/hwp-ab.py's dry
# run and no-RAPL path. Environment: KSRC BUILD REPO.
# KTAP, plan 13: an expected skip of the selftest is an "ok"; a check this
# machine cannot run (it has HWP or RAPL, not root) is a SKIP with the reason.
set -u

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
selftest=$KSRC/tools/testing/selftests/intel_pstate
work=$BUILD/tests/60-hwkit
# shellcheck source=../tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"

pass() { ktap_ok "$@"; }
fail() { ktap_fail "$@"; }
skip() { ktap_skip "$@"; }

# 3 selftest checks, 8 on the emulated HWP machine, 2 of hwp-ab
ktap_plan 13

rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"

# check_skip NAME OUTFILE RC REASON_REGEX: exit code 4, exactly one
# "1..0 # SKIP <reason>" line matching REASON_REGEX, no test results.
check_skip() {
	local name=$1 out=$2 rc=$3 re=$4 n
	n=$(grep -c '# SKIP ' "$out")
	if [ "$rc" != 4 ]; then
		fail "$name" "exit code $rc, not 4: $(tr '\n' '|' <"$out")"
	elif [ "$n" != 1 ] || ! grep -q '^1\.\.0 # SKIP ..' "$out"; then
		fail "$name" "want one '1..0 # SKIP <reason>' line: $(tr '\n' '|' <"$out")"
	elif grep -qE '^(ok|not ok|Bail out)' "$out"; then
		fail "$name" "it ran checks: $(tr '\n' '|' <"$out")"
	elif ! grep -qE "$re" "$out"; then
		fail "$name" "unexpected reason: $(grep '# SKIP' "$out")"
	else
		pass "$name" "$(sed -n 's/^1\.\.0 # SKIP //p' "$out")"
	fi
}

# ---------------------------------------------------------------- selftest
bin=
if [ ! -f "$selftest/hwp_request.c" ]; then
	for t in "hwkit selftest builds statically" \
		"hwkit selftest skips cleanly without HWP" \
		"hwkit selftest skips cleanly when not root"; do
		fail "$t" "$selftest is missing (the selftest patch is not in the series)"
	done
else
	if MAKEFLAGS= MAKELEVEL= make -s -C "$selftest" OUTPUT="$work" ARCH=x86_64 \
		LDFLAGS=-static >"$work/build.log" 2>&1 &&
		[ -x "$work/hwp_request" ]; then
		if readelf -l "$work/hwp_request" | grep -q INTERP; then
			fail "hwkit selftest builds statically" "binary is dynamically linked"
		else
			pass "hwkit selftest builds statically"
			bin=$work/hwp_request
		fi
	else
		fail "hwkit selftest builds statically" "$(tail -5 "$work/build.log" | tr '\n' '|')"
	fi
fi

if [ -z "$bin" ] && [ -f "$selftest/hwp_request.c" ]; then
	for t in "hwkit selftest skips cleanly without HWP" \
		"hwkit selftest skips cleanly when not root"; do
		fail "$t" "the selftest did not build (see the first check)"
	done
elif [ -n "$bin" ]; then
	chmod 755 "$bin"
	# On the host, as root.
	name="hwkit selftest skips cleanly without HWP"
	if grep -qw hwp /proc/cpuinfo; then
		skip "$name" "this host has HWP: run $bin on it by hand instead"
	elif [ "$(id -u)" != 0 ]; then
		skip "$name" "make check is not running as root"
	else
		"$bin" >"$work/host.out" 2>&1
		check_skip "$name" "$work/host.out" $? 'no HWP|no CPUID leaf 6'
	fi

	# Not root.
	name="hwkit selftest skips cleanly when not root"
	if [ "$(id -u)" != 0 ]; then
		"$bin" >"$work/nonroot.out" 2>&1
		check_skip "$name" "$work/nonroot.out" $? 'must be run as root'
	elif command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" \
			>"$work/nonroot.out" 2>&1
		check_skip "$name" "$work/nonroot.out" $? 'must be run as root'
	else
		skip "$name" "no setpriv to drop root"
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
	if ! gcc -O2 -Wall -I"$here/hwkit" -o "$work/emu/hwp_request" \
		"$selftest/hwp_request.c" >"$work/emu/build.log" 2>&1; then
		bad="build against tests/hwkit/cpuid.h failed: $(head -3 "$work/emu/build.log" | tr '\n' '|')"
	fi
fi
if [ -n "$bad" ]; then
	for t in "${emu_names[@]}"; do
		fail "$t" "$bad"
	done
elif [ -n "$why" ]; then
	for t in "${emu_names[@]}"; do
		skip "$t" "$why"
	done
else
	emu() { "$here/hwkit/run-emu.sh" "$work/emu/hwp_request" "$@"; }
	restored() { # every fake CPU back at ${2:-schedutil} 4000000
		grep -qE '^cpu[0-9]+: ' "$1" &&
			! grep -E '^cpu[0-9]+: ' "$1" | grep -qv ": ${2:-schedutil} 4000000$"
	}

	emu good >"$work/emu/good.out" 2>&1
	if grep -q '^rc=0$' "$work/emu/good.out" &&
		! grep -qE '^not ok|# SKIP' "$work/emu/good.out" &&
		grep -q '^# Totals: pass:[1-9]' "$work/emu/good.out" &&
		restored "$work/emu/good.out"; then
		pass "${emu_names[0]}" "$(grep -c '^ok' "$work/emu/good.out") checks"
	else
		fail "${emu_names[0]}" "$(grep -E '^not ok|^rc=|^cpu|SKIP' "$work/emu/good.out" | tr '\n' '|')"
	fi

	emu bad-min >"$work/emu/bad-min.out" 2>&1
	if grep -q '^rc=1$' "$work/emu/bad-min.out" &&
		grep -q '^not ok .*scaling_max_freq .*lowers MAX.*MIN 40 DESIRED 40 MAX 24' "$work/emu/bad-min.out" &&
		restored "$work/emu/bad-min.out"; then
		pass "${emu_names[1]}"
	else
		fail "${emu_names[1]}" "$(grep -E '^(not )?ok|^rc=|^cpu' "$work/emu/bad-min.out" | tr '\n' '|')"
	fi

	emu freq-path >"$work/emu/freq-path.out" 2>&1
	if grep -q '^rc=1$' "$work/emu/freq-path.out" &&
		grep -q '^not ok .*under load.*DESIRED above MIN' "$work/emu/freq-path.out" &&
		grep -q 'adjust_perf not used' "$work/emu/freq-path.out" &&
		restored "$work/emu/freq-path.out"; then
		pass "${emu_names[2]}"
	else
		fail "${emu_names[2]}" "$(grep -E '^(not )?ok|^rc=|^cpu' "$work/emu/freq-path.out" | tr '\n' '|')"
	fi

	i=3
	for t in term-max term-gov; do
		emu good "$t" >"$work/emu/$t.out" 2>&1
		if grep -q '^# sent SIGTERM' "$work/emu/$t.out" &&
			grep -q '^Bail out! interrupted by signal 15' "$work/emu/$t.out" &&
			grep -q '^rc=1$' "$work/emu/$t.out" &&
			restored "$work/emu/$t.out"; then
			pass "${emu_names[$i]}"
		else
			fail "${emu_names[$i]}" "$(grep -E '^#|^Bail|^rc=|^cpu' "$work/emu/$t.out" | tr '\n' '|')"
		fi
		i=$((i + 1))
	done

	# DEC on (MSR_IA32_POWER_CTL bit 27): the driver writes no DESIRED
	emu dec >"$work/emu/dec.out" 2>&1
	if grep -q '^rc=0$' "$work/emu/dec.out" &&
		! grep -qE '^not ok|# SKIP' "$work/emu/dec.out" &&
		grep -q '^# Dynamic Efficiency Control is on' "$work/emu/dec.out" &&
		grep -q '^ok .*under load DESIRED 0 (DEC), MIN < MAX' "$work/emu/dec.out" &&
		grep -q '^ok .*performance governor: MIN = MAX, DESIRED 0 (DEC)' "$work/emu/dec.out" &&
		restored "$work/emu/dec.out"; then
		pass "${emu_names[5]}" "$(grep -c '^ok' "$work/emu/dec.out") checks"
	else
		fail "${emu_names[5]}" "$(grep -E '^not ok|^rc=|^cpu|SKIP|^# Dyn' "$work/emu/dec.out" | tr '\n' '|')"
	fi

	emu dec-bad >"$work/emu/dec-bad.out" 2>&1
	if grep -q '^rc=1$' "$work/emu/dec-bad.out" &&
		grep -q '^not ok .*under load DESIRED 0 (DEC), MIN < MAX' "$work/emu/dec-bad.out" &&
		grep -q 'DESIRED written with DEC on' "$work/emu/dec-bad.out" &&
		restored "$work/emu/dec-bad.out"; then
		pass "${emu_names[6]}"
	else
		fail "${emu_names[6]}" "$(grep -E '^(not )?ok|^rc=|^cpu' "$work/emu/dec-bad.out" | tr '\n' '|')"
	fi

	# another governor at the start: the selftest selects schedutil, then
	# puts the old one back
	HWKIT_GOV=performance emu good >"$work/emu/gov.out" 2>&1
	if grep -q '^rc=0$' "$work/emu/gov.out" &&
		! grep -qE '^not ok|# SKIP' "$work/emu/gov.out" &&
		grep -q 'governor set to schedutil for the test' "$work/emu/gov.out" &&
		restored "$work/emu/gov.out" performance; then
		pass "${emu_names[7]}"
	else
		fail "${emu_names[7]}" "$(grep -E '^not ok|^rc=|^cpu|SKIP|governor' "$work/emu/gov.out" | tr '\n' '|')"
	fi
fi

# ------------------------------------------------------------------ hwp-ab
ab=$REPO/tools/hwp-ab.py
name="hwp-ab dry run writes the table and CSV"
if ! command -v python3 >/dev/null || ! command -v gcc >/dev/null; then
	skip "$name" "needs python3 and gcc"
else
	# two labelled dry runs, then the table with the first as the baseline
	res=$work/ab
	rc=0
	for l in dry-a dry-b; do
		"$ab" run --dry-run -l $l -r "$res" >/dev/null 2>>"$work/ab.err" || rc=$?
	done
	[ $rc != 0 ] || "$ab" compare -r "$res" --base dry-a >"$work/ab.out" 2>>"$work/ab.err" || rc=$?
	want='workload,config,runs,seconds,energy_j,power_w,perf,perf_unit,perf_better,energy_vs_base_pct,perf_vs_base_pct'
	runhdr='kernel,driver,governor,label,workload,repeat,seconds,energy_j,power_w,perf,perf_unit,detail'
	nrows=$(tail -n +2 "$res/summary.csv" 2>/dev/null | grep -c .)
	nruns=$(ls "$res"/runs/*.csv 2>/dev/null | wc -l)
	bad_run=
	for f in "$res"/runs/*.csv; do
		[ "$(head -1 "$f")" = "$runhdr" ] && [ "$(tail -n +2 "$f" | grep -c ',NA,NA,')" = 7 ] ||
			bad_run=$f
	done
	wl=$(tail -n +2 "$res/summary.csv" 2>/dev/null | cut -d, -f1 | sort -u | tr '\n' ' ')
	if [ $rc != 0 ]; then
		fail "$name" "exit code $rc: $(tail -3 "$work/ab.err" | tr '\n' '|')"
	elif [ "$(head -1 "$res/summary.csv")" != "$want" ]; then
		fail "$name" "summary.csv header is '$(head -1 "$res/summary.csv")'"
	elif [ "$nrows" != 14 ] || [ "$nruns" != 2 ] || [ -n "$bad_run" ]; then
		fail "$name" "$nrows summary rows (want 14), $nruns run files (want 2) ${bad_run:+bad: $bad_run}"
	elif [ "$wl" != "periodic-113Hz periodic-211Hz periodic-347Hz periodic-401Hz periodic-73Hz pingpong serial " ]; then
		fail "$name" "workloads: $wl"
	elif ! grep -q '^baseline: .*/dry-a$' "$work/ab.out" ||
		[ "$(grep -cE '^(periodic-[0-9]+Hz|serial|pingpong) ' "$work/ab.out")" != 14 ]; then
		fail "$name" "table: $(head -4 "$work/ab.out" | tr '\n' '|')"
	else
		pass "$name"
	fi
fi

name="hwp-ab reports missing RAPL in one line"
if [ -e /sys/bus/event_source/devices/power/events/energy-pkg ] ||
	ls -d /sys/class/powercap/intel-rapl:* >/dev/null 2>&1; then
	skip "$name" "this machine has RAPL"
else
	"$ab" run -r "$work/ab-rapl" >"$work/rapl.out" 2>"$work/rapl.err"
	rc=$?
	if [ $rc = 0 ]; then
		fail "$name" "exit code 0"
	elif [ "$(grep -c . "$work/rapl.err")" != 1 ] || [ -s "$work/rapl.out" ]; then
		fail "$name" "want one line on stderr: $(tr '\n' '|' <"$work/rapl.err")"
	elif ! grep -q 'cannot measure package energy: .*RAPL' "$work/rapl.err"; then
		fail "$name" "$(cat "$work/rapl.err")"
	else
		pass "$name" "exit $rc"
	fi
fi

[ "$KTAP_FAILED" = 0 ]
