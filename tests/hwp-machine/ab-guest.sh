#!/bin/sh
# Guest of suite 57: tools/hwp-ab.py's workloads without Python. ab.calibrate=1:
# AB-IPS=N; else runs /ab-plan once per mode of ab.modes=M,... (adjust_perf_mode;
# none: as booted), after marker N (its position), and prints the AB-RUN and
# AB-ROW lines of hwp-ab.py import, energy SIMULATED (0x611, unit from 0x606),
# with the adjust_perf events counted per workload where the event exists.
# hwp-machine.md.
set -u
say_err() { echo "GUEST-ERROR=$1"; }
if grep -q 'ab\.calibrate=1' /proc/cmdline; then
	out=$(periodic -c 2) || say_err "periodic -c 2 failed"
	echo "AB-IPS=$(echo "$out" | sed -n 's/.*iters_per_s=\([0-9]*\).*/\1/p')"
	exit 0
fi
settle=$(sed -n 's/.*ab\.settle=\([0-9]*\).*/\1/p' /proc/cmdline)
modes=$(sed -n 's/.*ab\.modes=\([a-z,]*\).*/\1/p' /proc/cmdline | tr , ' ')
unit=$(hwpload rdmsr 0 0x606) || { say_err "no MSR_RAPL_POWER_UNIT"; exit 1; }
esu=$(((unit >> 8) & 31))
energy() { v=$(hwpload rdmsr 0 0x611) && echo $((v & 0xffffffff)); }
c=/sys/devices/system/cpu/cpu0/cpufreq
m=/sys/devices/system/cpu/intel_pstate/adjust_perf_mode
tr=/sys/kernel/tracing
mount -t tracefs nodev $tr 2>/dev/null
ev=$tr/events/intel_pstate/intel_pstate_adjust_perf/enable
[ ! -e $ev ] || echo 1 >$ev || say_err "trace event not enabled"
n=0
for mode in ${modes:-none}; do
	n=$((n + 1))
	hwpload mark $n || say_err "mark $n failed"
	[ "$mode" = none ] || echo "$mode" >$m || say_err "adjust_perf_mode $mode not set"
	echo "AB-RUN kernel=$(uname -r) driver=$(cat $c/scaling_driver 2>/dev/null || echo none) governor=$(cat $c/scaling_governor 2>/dev/null || echo none) mode=$(cat $m 2>/dev/null || echo none)"
	while read -r rep w cmd; do
		# a fixed settle, as hwp-ab.py --settle: no one state to wait for, as an
		# idle CPU keeps its last level in MIN on the A kernel, DESIRED on the B
		sleep "${settle:-2}"
		[ ! -e $ev ] || : >$tr/trace
		e0=$(energy) || { say_err "energy read failed"; exit 1; }
		# shellcheck disable=SC2086
		out=$($cmd) || { say_err "$w: '$cmd' failed"; exit 1; }
		e1=$(energy) || { say_err "energy read failed"; exit 1; }
		d=$((e1 - e0))
		[ $d -ge 0 ] || d=$((d + 4294967296))
		tv=
		[ ! -e $ev ] || tv="trace_events=$(grep -c ': intel_pstate_adjust_perf: ' $tr/trace) trace_written=$(grep -c ' written=1' $tr/trace) "
		echo "AB-ROW repeat=$rep workload=$w energy_uj=$(((d * 1000000) >> esu)) $tv$out"
	done </ab-plan
done
