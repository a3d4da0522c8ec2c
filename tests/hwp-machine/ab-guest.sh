#!/bin/sh
# Guest of tests/57-hwp-ab.sh on the emulated HWP machine: the workloads of
# tools/hwp-ab.py, run here because the guest has no Python. With
# ab.calibrate=1 on the kernel command line it prints the machine's work
# calibration (AB-IPS=N, from `periodic -c 2`); otherwise it runs the plan
# /ab-plan (`hwp-ab.py plan`: "REPEAT WORKLOAD COMMAND..." per line) and
# prints, per workload, the SIMULATED package energy the machine counted
# while it ran (MSR_PKG_ENERGY_STATUS, 0x611, in units of 2^-ESU J from
# MSR_RAPL_POWER_UNIT, 0x606) with the helper's output:
#   AB-RUN kernel=K driver=D governor=G
#   AB-ROW repeat=R workload=W energy_uj=E <helper output>
# The host turns these lines into a run file (hwp-ab.py import).
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
	sleep "${settle:-2}"
	e0=$(energy) || { say_err "energy read failed"; exit 1; }
	# shellcheck disable=SC2086
	out=$($cmd) || { say_err "$w: '$cmd' failed"; exit 1; }
	e1=$(energy) || { say_err "energy read failed"; exit 1; }
	d=$((e1 - e0))
	[ $d -ge 0 ] || d=$((d + 4294967296))
	echo "AB-ROW repeat=$rep workload=$w energy_uj=$(((d * 1000000) >> esu)) $out"
done </ab-plan
