# Guest of suite 59, boot "dec": MSR_POWER_CTL bit 27 set (hwp-dec=on);
# checked by check.py dec. hwp-machine.md.
set -u
. /lib/hwp-guest-lib.sh
p1=$c/cpu1/cpufreq

say DRIVER "$(cat $c/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
say STATUS "$(cat $c/intel_pstate/status 2>/dev/null || echo absent)"
say POWER-CTL "$(hwpload rdmsr 0 0x1fc)"
# a full spin: wait (10 s) for MAX highest, DESIRED 0 (maybe the reset value), read it
for cpu in 0 1; do
	caps $cpu
	hwpload spin $cpu 60 &
	load=$!
	phase spin-cpu$cpu
	wait_for $cpu 10 "max == $highest && des == 0"
	say REQ-SPIN$cpu "$(hwpload rdmsr $cpu 0x774)"
	kill $load; wait $load 2>/dev/null
	phase spin-cpu$cpu-done
done
caps 0
half=$(((highest + 1) / 2))
load_phase uclamp-max-cpu1 1 "max == $half" 1 hwpload uclamp 0 512 spin 1 600
load_phase uclamp-min-cpu1 1 "min >= $half" 1 hwpload uclamp 512 1024 duty 1 100 20000 600
# governors under load: each phase waits, bounded, for its request
caps 1
hwpload spin 1 60 &
load=$!
phase gov-ramp
phase gov-performance; echo performance >$p1/scaling_governor
wait_for 1 30 "min == $highest && max == $highest && des == 0"
phase gov-schedutil; echo schedutil >$p1/scaling_governor
wait_for 1 30 "min < max && des == 0"
phase gov-done; kill $load; wait $load 2>/dev/null
phase end
splats
