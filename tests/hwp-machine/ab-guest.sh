#!/bin/sh
# Guest of suite 57: tools/hwp-ab.py's workloads without Python. ab.calibrate=1:
# AB-IPS=N; else runs /ab-plan and prints the AB-RUN and AB-ROW lines of hwp-ab.py
# import, energy SIMULATED (0x611, unit from 0x606). hwp-machine.md.
set -u
say_err() { echo "GUEST-ERROR=$1"; }
if grep -q 'ab\.calibrate=1' /proc/cmdline; then
	out=$(periodic -c 2) || say_err "periodic -c 2 failed"
	echo "AB-IPS=$(echo "$out" | sed -n 's/.*iters_per_s=\([0-9]*\).*/\1/p')"
	exit 0
fi
settle=$(sed -n 's/.*ab\.settle=\([0-9]*\).*/\1/p' /proc/cmdline)
unit=$(hwpload rdmsr 0 0x606) || { say_err "no MSR_RAPL_POWER_UNIT"; exit 1; }
esu=$(((unit >> 8) & 31))
energy() { v=$(hwpload rdmsr 0 0x611) && echo $((v & 0xffffffff)); }
c=/sys/devices/system/cpu/cpu0/cpufreq
echo "AB-RUN kernel=$(uname -r) driver=$(cat $c/scaling_driver 2>/dev/null || echo none) governor=$(cat $c/scaling_governor 2>/dev/null || echo none)"
while read -r rep w cmd; do
	# a fixed settle, as hwp-ab.py --settle: no one state to wait for, as an
	# idle CPU keeps its last level in MIN on the A kernel, DESIRED on the B
	sleep "${settle:-2}"
	e0=$(energy) || { say_err "energy read failed"; exit 1; }
	# shellcheck disable=SC2086
	out=$($cmd) || { say_err "$w: '$cmd' failed"; exit 1; }
	e1=$(energy) || { say_err "energy read failed"; exit 1; }
	d=$((e1 - e0))
	[ $d -ge 0 ] || d=$((d + 4294967296))
	echo "AB-ROW repeat=$rep workload=$w energy_uj=$(((d * 1000000) >> esu)) $out"
done </ab-plan
