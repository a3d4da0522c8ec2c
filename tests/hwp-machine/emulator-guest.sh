# Guest of suite 54: reads back what the harness gave the machine, checked by
# check.py emulator. hwp-machine.md, "The machine's own checks".
set -u
. /lib/hwp-guest-lib.sh
# only emergencies on the console, so no kernel message splits an HWP-MONITOR line; dmesg keeps all
echo 1 >/proc/sys/kernel/printk

say DRIVER "$(cat $c/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
say CAP0 "$(hwpload rdmsr 0 0x771)"
say CAP1 "$(hwpload rdmsr 1 0x771)"
say CPU1-FREQ "$(cat $c/cpu1/cpufreq/cpuinfo_min_freq 2>/dev/null || echo -) $(cat $c/cpu1/cpufreq/cpuinfo_max_freq 2>/dev/null || echo -)"
# HWP_REQUEST through /dev/cpu/0/msr, between two markers
phase req-read
say REQ0 "$(hwpload rdmsr 0 0x774)"
phase req-read-done

# the kernel's TSC calibrations: wait for the refined one, at most 10 s
refined() { dmesg | grep -q 'tsc: Refined TSC clocksource calibration'; }
wait_until 10 refined || echo "GUEST-ERROR=no refined TSC calibration within 10 s"
say TSC-DETECTED "$(dmesg | sed -n 's/.*tsc: Detected \([0-9.]*\) MHz processor.*/\1/p' | head -n 1)"
say TSC-REFINED "$(dmesg | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p' | head -n 1)"
say CLOCKSOURCE "$(cat $c/../clocksource/clocksource0/current_clocksource 2>/dev/null)"

# ---- TSC, MPERF, APERF over 2 s of each hold (12 and 24, base 20); energy at cpu0's 24
# shellcheck disable=SC2154 # cpu and lvl: set by hold
read_counters() {
	e0=$(hwpload rdmsr 0 0x611)
	# TSC, MPERF and APERF back to back in one process on the CPU
	read -r t0 m0 a0 <<EOC
$(hwpload counters $cpu)
EOC
	sleep 2
	read -r t1 m1 a1 <<EOC
$(hwpload counters $cpu)
EOC
	e1=$(hwpload rdmsr 0 0x611)
	say CNT-$cpu-$lvl "$((t1 - t0)) $((m1 - m0)) $((a1 - a0))"
	[ $cpu$lvl != 024 ] || say ENERGY "$e0 $e1 $(hwpload rdmsr 0 0x606)"
}
hold cnt read_counters

# ---- turbo off (MISC_ENABLE bit 38) under a spin, until cpu0's level is the cap 18 (10 s)
misc=$(hwpload rdmsr 0 0x1a0)
caps 0
level() { v=$(hwpload rdmsr "$1" 0x198) && echo $(((v >> 8) & 255)); }
phase turbo-off
hwpload wrmsr 0 0x1a0 $((misc | (1 << 38))) || echo "GUEST-ERROR=wrmsr MISC_ENABLE failed"
say MISC-ENABLE1 "$(hwpload rdmsr 1 0x1a0)"
hwpload spin 0 60 &
load=$!
wait_until 10 eval '[ "$(level 0)" = "$guaranteed" ]' ||
	echo "GUEST-ERROR=cpu0's level did not rise to $guaranteed under the spin within 10 s"
say PERF-STATUS0 "$(hwpload rdmsr 0 0x198)"
kill $load; wait $load 2>/dev/null
phase turbo-on
hwpload wrmsr 0 0x1a0 $((misc & ~(1 << 38))) || echo "GUEST-ERROR=wrmsr MISC_ENABLE failed"

# ---- 10 s of the guest's clock between two markers (the host's in the record)
phase wall-start
say UPTIME-START "$(cut -d' ' -f1 /proc/uptime)"
sleep 10
say UPTIME-END "$(cut -d' ' -f1 /proc/uptime)"
phase wall-end

# ---- guaranteed level 14 and back to 18 over QMP, then one QEMU must refuse
guar_low
phase guar-back
set_guar 0 18; set_guar 1 18
wait_guar 18 18
# (the refusal is in the transcript); in order: once vCPU 1 shows 17, vCPU 0 must show 18
echo "HWP-MONITOR-REFUSE: {\"execute\": \"qom-set\", \"arguments\": {\"path\": \"@cpu0\", \"property\": \"hwp-guaranteed-now\", \"value\": 31}}"
set_guar 1 17
wait_guar 18 17
set_guar 1 18
wait_guar 18 18
say GUAR-BACK "$(guar 0) $(guar 1)"
phase end
splats
