# Guest of suite 71's stats boots: acpi-cpufreq unloaded (SCHED_FIFO rmmod) while a task on
# the same CPU reads policy0's time_in_state in a loop, up to 3 times until lockdep
# reports (what the boots show: Documentation/project/mainline-stats.md, at its top).
set -u
. /lib/hwp-guest-lib.sh
f=$c/cpufreq/policy0/stats/time_in_state
locks() { sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats; }
say STATS-DEBUG-LOCKS "$(locks)"
for try in 1 2 3; do
	insmod /lib/acpi-cpufreq.ko || { say STATS-INSMOD-RC $?; break; }
	say STATS-DRIVER "$(cat $c/cpu0/cpufreq/scaling_driver) $(wc -l <"$f")"
	taskset -c 1 sh -c "while cat $f >/dev/null; do : >/tmp/read$try; done 2>/tmp/rderr$try" & rd=$!
	wait_until 10 [ -e /tmp/read$try ] || say STATS-NO-READ "$try"
	hwpload fifo 1 50 rmmod acpi_cpufreq & rm=$!
	wait_until 60 sh -c "! kill -0 $rm 2>/dev/null" || { say STATS-HUNG "$try"; break; }
	wait $rm
	say STATS-RMMOD-RC $?
	# the reader stops at its first failed read: ENODEV when the file was removed while it
	# had it open (kernfs_seq_start()), not ENOENT from an open after the removal
	wait_until 10 sh -c "! kill -0 $rd 2>/dev/null" || kill $rd
	say STATS-READ-END "$(sed -n 's/^cat: //p' /tmp/rderr$try | head -n 1)"
	! dmesg | grep -q 'possible circular locking dependency' || break
done
say STATS-TRIES "$try"
say STATS-DEBUG-LOCKS-END "$(locks)"
say STATS-CYCLE "$(dmesg | grep -c 'possible circular locking dependency detected')"
dmesg | grep -oE '\((&policy->rwsem|kn->active(#[0-9]+)?)\)|cpufreq_stats_free_table' | sort -u | sed 's/^/LOCKDEP: /'
splats
