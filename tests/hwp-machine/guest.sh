# Guest script of tests/56-hwp-driver.sh on the emulated HWP machine (vCPU 1 an
# efficiency core, highest 24); phases and KEY=value lines: guest-lib.sh. With
# /etc/hwp-guest-short (tools/hwp-steer.sh) it stops after the first idle phase.
set -u
. /lib/hwp-guest-lib.sh
p1=$c/cpu1/cpufreq

say KERNEL "$(uname -r)"
say DRIVER "$(cat $c/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
say STATUS "$(cat $c/intel_pstate/status 2>/dev/null || echo absent)"
say GOVERNOR0 "$(cat $c/cpu0/cpufreq/scaling_governor 2>/dev/null)"
say GOVERNOR1 "$(cat $p1/scaling_governor 2>/dev/null)"
say HWP "$(dmesg | grep -c 'intel_pstate: HWP enabled')"
say PM-ENABLE "$(hwpload rdmsr 0 0x770)"
caps 0; hi0=$highest
caps 1; hi1=$highest guar=$guaranteed lo=$lowest half=$(((hi0 + 1) / 2))

# spin CPU TEST: a full load on CPU until its request satisfies TEST (at most
# 30 s, not a fixed time: the host checks the request in effect at the phase's end)
spin() {
	hwpload spin "$1" 600 &
	spin_pid=$!
	wait_for "$1" 30 "$2"
}
unspin() { kill $spin_pid; wait $spin_pid 2>/dev/null; }

# low CPU: woken until the decayed utilization brings DESIRED to the lower half
low() { eval "wake_until $1 \"des <= \$hi$1 / 2\""; }

phase idle-start
# each spin phase starts from the lower half, so that its ramp is in it
for cpu in 0 1; do
	low $cpu
	phase spin-cpu$cpu
	eval h=\$hi$cpu
	spin $cpu "des == $h && max == $h"
	phase spin-cpu$cpu-done
	unspin
done
# idle: CPU 1 woken until DESIRED falls to the lower half
phase idle
phase idle-wake
low 1
say IDLE-DESIRED1 "$(desired 1)"
if [ -f /etc/hwp-guest-short ]; then
	phase end
	exit 0
fi
# rate_limit_us 20 ms, then 0 (the control), under 30 ms on / 30 ms off: the
# request moves at nearly every 4 ms tick (a 1 ms load moves PELT too little).
# Each run starts with a limits change: it sets need_freq_update, which
# mainline's perf path once left set, so that every update bypassed the limit.
rl=$(ls $c/cpufreq/schedutil/rate_limit_us $c/cpufreq/policy1/schedutil/rate_limit_us 2>/dev/null | head -n 1)
rl_old=$(cat "$rl")
mx_old=$(cat $p1/scaling_max_freq)
for us in 20000 0; do
	echo $us >"$rl" || say GUEST-ERROR "rate_limit_us not written"
	say RATE-LIMIT-US-$us "$(cat "$rl")"
	echo 2000000 >$p1/scaling_max_freq && echo "$mx_old" >$p1/scaling_max_freq ||
		say GUEST-ERROR "scaling_max_freq not written"
	wait_for 1 30 "max == $hi1"
	phase ratelimit-$us-cpu1  # a rate is counted over a fixed 3 s
	hwpload duty 1 30000 30000 3
	phase ratelimit-$us-cpu1-done
done
echo "$rl_old" >"$rl"
load_phase periodic-30 1 "des < $hi1" 3 hwpload duty 1 3000 7000 600
load_phase busy99-turbo-cpu0 0 "des == $hi0" 3 hwpload duty 0 10000 100 600
load_phase busy99-turbo-cpu1 1 "des == $hi1" 3 hwpload duty 1 10000 100 600
# uclamp set by hwpload on itself: a maximum of half the capacity on a full spin
# caps MAX; a minimum of half on a light load (100 us every 20 ms) is required (MIN)
load_phase uclamp-max-cpu1 1 "max == $half && des == $half" 1 hwpload uclamp 0 512 spin 1 600
load_phase uclamp-min-cpu1 1 "min >= $half" 1 hwpload uclamp 512 1024 duty 1 100 20000 600

# scaling_max_freq lowered to 2.0 GHz (level 20) under full load, then back
old=$(cat $p1/scaling_max_freq)
phase ramp; spin 1 "des == $hi1"
phase max-freq-low; echo 2000000 > $p1/scaling_max_freq
wait_for 1 30 "des == 20 && max == 20"
say MAXFREQ-LOW "$(cat $p1/scaling_max_freq)"
phase max-freq-restored; echo "$old" > $p1/scaling_max_freq
wait_for 1 30 "des == $hi1 && max == $hi1"
phase max-freq-done; unspin

# no_turbo: the guaranteed level (18) on both vCPUs, under a pure spin and
# under a 99%-busy thread (10 ms of work, 100 us of sleep)
echo 1 > $c/intel_pstate/no_turbo
say NO-TURBO "$(cat $c/intel_pstate/no_turbo)"
say CPUINFO-MAX-NOTURBO "$(cat $c/cpu0/cpufreq/cpuinfo_max_freq) $(cat $p1/cpuinfo_max_freq)"
g="des == $guar && max == $guar"
load_phase noturbo-spin-cpu0 0 "$g" 3 hwpload spin 0 600
load_phase noturbo-busy99-cpu0 0 "$g" 3 hwpload duty 0 10000 100 600
load_phase noturbo-busy99-cpu1 1 "$g" 3 hwpload duty 1 10000 100 600
echo 0 > $c/intel_pstate/no_turbo
say CPUINFO-MAX-TURBO "$(cat $c/cpu0/cpufreq/cpuinfo_max_freq) $(cat $p1/cpuinfo_max_freq)"
load_phase turbo-back-busy99-cpu1 1 "des == $hi1" 1 hwpload duty 1 10000 100 600

# governor switches under load; first to userspace, which starts at
# policy->cur: the perf path keeps it at the DESIRED level's frequency
phase gov-ramp; spin 1 "des == $hi1"
phase gov-userspace-cur; echo userspace > $p1/scaling_governor
say SETSPEED-FROM-SCHEDUTIL "$(cat $p1/scaling_setspeed)"
wait_for 1 30 "min == $hi1 && des == $hi1"
phase gov-performance; echo performance > $p1/scaling_governor
wait_for 1 30 "min == $hi1 && des == $hi1 && max == $hi1"
phase gov-powersave; echo powersave > $p1/scaling_governor
wait_for 1 30 "min == $lo && des == $lo && max == $lo"
phase gov-userspace; echo userspace > $p1/scaling_governor
echo 2000000 > $p1/scaling_setspeed
wait_for 1 30 "min == 20 && des == 20 && max == $hi1"
phase gov-schedutil; echo schedutil > $p1/scaling_governor
wait_for 1 30 "des == $hi1 && min < des"
phase gov-done; unspin

# CPU offline and online (DESIRED 0 written before "online" returns); no_turbo
# set while CPU 1 is offline must reach its cpuinfo_max_freq when it comes back
phase offline; echo 0 > $c/cpu1/online
say OFFLINE1 "$(cat $c/cpu1/online)"
# an offline CPU's register cannot be read: the write is done when "online"
# reads 0, and the host reads the end state GRACE (50 ms) before the marker
sleep 0.1
echo 1 > $c/intel_pstate/no_turbo
phase online; echo 1 > $c/cpu1/online
say CPUINFO-MAX-ONLINE-NOTURBO "$(cat $p1/cpuinfo_max_freq)"
echo 0 > $c/intel_pstate/no_turbo
spin 1 "des == $hi1"
phase online-done; unspin

# suspend to idle, pm_test devices: cpufreq suspended for the 5 s test delay
spin 1 "des == $hi1"
echo devices > /sys/power/pm_test
phase suspend
echo freeze > /sys/power/state
say SUSPEND-RC $?
phase resumed; wait_for 1 30 "des == $hi1"
phase resumed-done
echo none > /sys/power/pm_test
unspin

# passive -> active -> passive under load
spin 1 "des == $hi1"
phase active; echo active > $c/intel_pstate/status
wait_for 1 30 "des == 0"
say STATUS-ACTIVE "$(cat $c/intel_pstate/status) $(cat $p1/scaling_driver)"
phase passive-again; echo passive > $c/intel_pstate/status
wait_for 1 30 "des == $hi1"
say STATUS-PASSIVE "$(cat $c/intel_pstate/status) $(cat $p1/scaling_driver) $(cat $p1/scaling_governor)"
phase passive-again-done
unspin

# adjust_perf_mode: a bad string changes nothing; under a full load "floor"
# puts the target into MIN with DESIRED 0 and "hints" brings DESIRED back,
# each from the next update on; idle, the floor falls. The adjust_perf trace
# event is on from before trace-on to after trace-off: the guest prints what
# it says was written, which the host compares with its record.
m=$c/intel_pstate/adjust_perf_mode
tr=/sys/kernel/tracing
say MODE "$(cat $m 2>/dev/null || echo absent)"
echo bogus 2>/dev/null >$m
say MODE-BOGUS-RC $?
say MODE-AFTER-BOGUS "$(cat $m 2>/dev/null)"
mount -t tracefs nodev $tr
echo 1 >$tr/events/intel_pstate/intel_pstate_adjust_perf/enable || say GUEST-ERROR "trace event not enabled"
phase trace-on
spin 1 "des == $hi1"
phase floor; echo floor >$m
say MODE-FLOOR "$(cat $m)"
wait_for 1 30 "des == 0 && min == $hi1 && max == $hi1"
phase hints-again; echo hints >$m
wait_for 1 30 "des == $hi1 && min < des"
unspin
phase floor-idle; echo floor >$m
wake_until 1 "des == 0 && min <= $hi1 / 2"
sleep 0.1  # past hwp_record.py's GRACE, as wait_for
phase trace-off
echo 0 >$tr/events/intel_pstate/intel_pstate_adjust_perf/enable
echo hints >$m # after the event is off: its writes are not the window's
say TRACE-EVENTS "$(grep -c ': intel_pstate_adjust_perf: ' $tr/trace)"
grep ': intel_pstate_adjust_perf: .*written=1' $tr/trace | sed 's/^/TRACE: /'

# the series' HWP kselftest, on the real driver
phase kselftest
if [ -x /bin/hwp_request ]; then
	hwp_request >/tmp/kselftest 2>&1
	say KSELFTEST-RC $?
	sed 's/^/KSELFTEST: /' /tmp/kselftest
else
	say KSELFTEST-RC missing
fi
phase end
# the kselftest again without /dev/cpu/N/msr (the msr driver is built in):
# it reads the request from the adjust_perf trace event; last, as every
# phase marker needs the msr nodes
if [ -x /bin/hwp_request ]; then
	rm -f /dev/cpu/*/msr
	hwp_request >/tmp/kselftest-trace 2>&1
	say KSELFTEST-TRACE-RC $?
	sed 's/^/KSELFTEST-TRACE: /' /tmp/kselftest-trace
fi
say WOBBLY "$(dmesg | grep -c 'frequency invariance went wobbly')"
splats
