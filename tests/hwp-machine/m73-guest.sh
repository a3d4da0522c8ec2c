# Guest of suite 71 (7.3 base and tip alike): the driver steering, then each input
# a patch refuses or clamps, written, read back (KEY=value) and restored.
set -u
. /lib/hwp-guest-lib.sh
p=$c/cpu0/cpufreq pst=$c/intel_pstate tr=/sys/kernel/tracing
say DRIVER "$(cat $p/scaling_driver 2>/dev/null || echo none)"
say STATUS "$(cat $pst/status 2>/dev/null || echo absent)"
say GOVERNOR "$(cat $p/scaling_governor 2>/dev/null)"
say HWP "$(dmesg | grep -c 'intel_pstate: HWP enabled')"
# schedutil steers DESIRED under a full load on CPU 1
caps 1
hwpload spin 1 600 &
load=$!
wait_for 1 30 "des == $highest && min < des" && say STEER "$min/$max/$des"
kill $load; wait $load 2>/dev/null
# write FILE VALUE NAME: NAME-RC (the write's status) and NAME (the file after it)
write() {
	echo "$2" 2>/dev/null >"$1"
	say "$3-RC" $?
	say "$3" "$(cat "$1")"
}
say CPU-MIN "$(cat $p/cpuinfo_min_freq)"
old=$(cat $p/scaling_max_freq)
say MAXFREQ-BEFORE "$old"
write $p/scaling_max_freq 4294967296 MAXFREQ-2P32
echo "$old" >$p/scaling_max_freq
say MINPCT "$(cat $pst/min_perf_pct)"
write $pst/max_perf_pct 4294967295 MAXPCT-UINTMAX
echo 100 >$pst/max_perf_pct
write $pst/max_perf_pct 4294967296 MAXPCT-2P32
echo 100 >$pst/max_perf_pct
echo 1 >$pst/no_turbo
write $pst/no_turbo 2147483648 NOTURBO-2P31
echo 0 >$pst/no_turbo
# the series' own tests where the kernel has them (the tip): KUnit, the trace
# event under a load (the host compares it with the record), the kselftest
if [ -f /lib/adjust-perf-test.ko ]; then
	insmod /lib/adjust-perf-test.ko
	say KUNIT-RC $?
	dmesg | sed 's/^\[[ 0-9.]*\] //' | grep -E '^ *(KTAP|1\.\.|(not )?ok |# Subtest)' | sed 's/^ */KUNIT: /'
fi
ev=$tr/events/intel_pstate/intel_pstate_adjust_perf
mount -t tracefs nodev $tr 2>/dev/null
if [ -d $ev ]; then
	caps 1
	wake_until 1 "des <= $highest / 2"
	echo 1 >$ev/enable
	phase trace-on
	hwpload spin 1 600 & load=$!
	wait_for 1 30 "des == $highest && min < des"
	kill $load; wait $load 2>/dev/null
	wake_until 1 "des <= $highest / 2"  # the fall too: more than one write or two
	phase trace-off
	echo 0 >$ev/enable
	say TRACE-EVENTS "$(grep -c ': intel_pstate_adjust_perf: ' $tr/trace)"
	grep ': intel_pstate_adjust_perf: ' $tr/trace | sed 's/^/TRACE: /'
fi
if [ -x /bin/hwp_request ]; then
	hwp_request >/tmp/kselftest 2>&1
	say KSELFTEST-RC $?
	sed 's/^/KSELFTEST: /' /tmp/kselftest
fi
say MAXFREQ-END "$(cat $p/scaling_max_freq)"
say MAXPCT-END "$(cat $pst/max_perf_pct)"
say NOTURBO-END "$(cat $pst/no_turbo)"
phase end
splats
