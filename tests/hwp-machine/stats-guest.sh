# Guest of suite 71's stats boots (the 7.3 base and tip, intel_pstate=disable,
# pstates.asl as an SSDT): acpi-cpufreq unloaded while a read of policy0's
# time_in_state is inside its callback. The reader and rmmod share CPU 1 and
# rmmod is SCHED_FIFO: the reader queues on policy->rwsem while rmmod sleeps in
# schedutil's stop, and rmmod preempts it as soon as the reader lets the lock
# go, before it leaves the file. Up to 3 unloads, until lockdep reports.
set -u
. /lib/hwp-guest-lib.sh
f=$c/cpufreq/policy0/stats/time_in_state
say STATS-DEBUG-LOCKS "$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats)"
for try in 1 2 3; do
	insmod /lib/acpi-cpufreq.ko || { say STATS-INSMOD-RC $?; break; }
	say STATS-DRIVER "$(cat $c/cpu0/cpufreq/scaling_driver) $(wc -l <"$f")"
	rm -f /tmp/read
	taskset -c 1 sh -c "while read -r l <$f; do : >/tmp/read; done 2>/dev/null" & rd=$!
	wait_until 10 [ -e /tmp/read ] || say STATS-NO-READ "$try"
	hwpload fifo 1 50 rmmod acpi_cpufreq & rm=$!
	wait_until 60 sh -c "! kill -0 $rm 2>/dev/null" || { say STATS-HUNG "$try"; break; }
	wait $rm
	say STATS-RMMOD-RC $?
	kill $rd 2>/dev/null
	! dmesg | grep -q 'possible circular locking dependency' || break
done
say STATS-TRIES "$try"
say STATS-CYCLE "$(dmesg | grep -c 'possible circular locking dependency detected')"
dmesg | grep -oE '\((&policy->rwsem|kn->active(#[0-9]+)?)\)' | sort -u | sed 's/^/LOCKDEP: /'
splats
