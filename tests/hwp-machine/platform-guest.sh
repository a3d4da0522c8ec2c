# Guest of suite 59, boot "platform": guaranteed 18 under a base ratio of 20;
# checked by check.py platform. hwp-machine.md.
set -u
. /lib/hwp-guest-lib.sh
pst=$c/intel_pstate
# only emergencies on the console: a kernel message must not split a line
# of the guest's (the HWP-MONITOR requests); dmesg keeps everything
echo 1 >/proc/sys/kernel/printk

say DRIVER "$(cat $c/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
say STATUS "$(cat $pst/status 2>/dev/null || echo absent)"
say GOVERNOR0 "$(cat $c/cpu0/cpufreq/scaling_governor 2>/dev/null)"
say GOVERNOR1 "$(cat $c/cpu1/cpufreq/scaling_governor 2>/dev/null)"
# ---- each hold (12 below the base 20, 24 above) ends 1 s after the request
# holds the level: the host checks that second
hold clk "sleep 1"
# ---- the invariance reference after a re-registration: a busy load and
# uclamp max of half the capacity on a full spin (MAX is half the reference)
# after a fresh boot, then no_turbo 1, status active -> passive (which resets
# no_turbo to 0), and the same loads again
caps 0
hi=$highest g=$guaranteed half=$(((highest + 1) / 2))
load_phase busy99-fresh 0 "des == $hi" 3 hwpload duty 0 10000 100 600
load_phase umax-fresh 0 "max == $half" 1 hwpload uclamp 0 512 spin 0 600
phase rereg
echo 1 >$pst/no_turbo
say REREG-NO-TURBO-SET "$(cat $pst/no_turbo)"
echo active >$pst/status
echo passive >$pst/status
say REREG-STATUS "$(cat $pst/status) $(cat $c/cpu0/cpufreq/scaling_driver) $(cat $c/cpu0/cpufreq/scaling_governor)"
say REREG-NO-TURBO "$(cat $pst/no_turbo)"
# the re-registered driver's first request on cpu0 (no_turbo back to 0): MAX highest
# (the unregistration left MAX at the lowest level), within 10 s
wait_for 0 10 "max == $hi"
load_phase busy99-rereg 0 "des == $hi" 3 hwpload duty 0 10000 100 600
load_phase umax-rereg 0 "max == $half" 1 hwpload uclamp 0 512 spin 0 600

# ---- turbo off by the platform (MISC_ENABLE bit 38): under uclamp min 1024, MIN, MAX <= 18
misc=$(hwpload rdmsr 0 0x1a0)
phase fw-turbo-off
hwpload wrmsr 0 0x1a0 $((misc | (1 << 38))) || echo "GUEST-ERROR=wrmsr MISC_ENABLE failed"
say FW-NO-TURBO "$(cat $pst/no_turbo)"
# the driver applies it at CPU 0's next update: the phase starts after it
wake_until 0 "max <= 18"
load_phase fw-turbo-off-umin 0 "min == $g && max == $g && des == $g" 1 hwpload uclamp 1024 1024 spin 0 600
load_phase fw-turbo-off-spin 0 "max == $g && des == $g" 1 hwpload spin 0 600
phase fw-turbo-on
hwpload wrmsr 0 0x1a0 $((misc & ~(1 << 38))) || echo "GUEST-ERROR=wrmsr MISC_ENABLE failed"
say FW-NO-TURBO-BACK "$(cat $pst/no_turbo)"
load_phase fw-turbo-on-spin 0 "des == $hi" 1 hwpload spin 0 600

# ---- guaranteed 14 over QMP: 5.10 (HWP interrupt off) sees it at its next limits
# update (no_turbo 1); then MIN and MAX stay <= 14
guar_low
phase guar-low-noturbo
echo 1 >$pst/no_turbo
say GUAR-MAXFREQ "$(cat $c/cpu0/cpufreq/scaling_max_freq) $(cat $c/cpu1/cpufreq/scaling_max_freq)"
for cpu in 0 1; do
	load_phase guar-low-umin-cpu$cpu $cpu "min == 14 && max == 14 && des == 14" 1 \
		hwpload uclamp 1024 1024 spin $cpu 600
done
phase guar-back
echo 0 >$pst/no_turbo
set_guar 0 18; set_guar 1 18
wait_guar 18 18
say GUAR-BACK "$(guar 0) $(guar 1)"
phase end
say WOBBLY "$(dmesg | grep -c 'frequency invariance went wobbly')"
splats
