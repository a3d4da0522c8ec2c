# Guest of tests/56-hwp-driver.sh: the HWP kselftest in one of its five
# boots (active, noninvariant, broadwell, hybrid, nohwp) and its markers:
# Documentation/project/hwp-machine.md, "The suites that boot it".
set -u
. /lib/hwp-guest-lib.sh

state() { # PREFIX: the settings, one KEY=value line each
	say "$1-STATUS" "$(cat $c/intel_pstate/status 2>/dev/null || echo absent)"
	for f in no_turbo max_perf_pct min_perf_pct adjust_perf_mode; do
		say "$1-$f" "$(cat $c/intel_pstate/$f 2>/dev/null || echo absent)"
	done
	for cpu in 0 1; do
		for f in scaling_driver scaling_governor scaling_min_freq \
			scaling_max_freq energy_performance_preference; do
			say "$1-cpu$cpu-$f" "$(cat $c/cpu$cpu/cpufreq/$f 2>/dev/null || echo absent)"
		done
	done
}

# restored FILE PREFIX: yes when FILE's settings (state PREFIX) are those of
# /tmp/before (state BEFORE), else no
restored() {
	if [ "$(sed 's/^BEFORE-//' /tmp/before)" = "$(sed "s/^$2-//" "$1")" ]; then echo yes; else echo no; fi
}

say APERFMPERF "$(grep -m1 '^flags' /proc/cpuinfo | grep -cw aperfmperf)"
hwp=$(grep -m1 '^flags' /proc/cpuinfo | grep -cw hwp)
say HWP "$hwp"
# Without HWP an unknown MSR reads 0 instead of faulting (`hwpload mark` would
# fail) and there is no HWP_REQUEST: phases are only printed, DESIRED not read
# shellcheck disable=SC2034 # nomark: read by phase (guest-lib.sh)
[ "$hwp" != 0 ] || nomark=1
say CMDLINE "$(cat /proc/cmdline)"
state BEFORE >/tmp/before
cat /tmp/before
if [ ! -x /bin/hwp_request ]; then
	say KSELFTEST-RC missing
	phase end
	exit 0
fi

phase kselftest
hwp_request >/tmp/ks.out 2>&1
rc=$?
sed 's/^/KSELFTEST: /' /tmp/ks.out
say KSELFTEST-RC "$rc"
say KSELFTEST-SKIP "$(sed -n 's/^1\.\.0 # SKIP //p' /tmp/ks.out | grep . || echo none)"
say KSELFTEST-SWITCHED "$(grep -c 'switched from active to passive' /tmp/ks.out)"
phase kselftest-done
state AFTER >/tmp/after
cat /tmp/after
say RESTORED "$(restored /tmp/after AFTER)"
if [ "$hwp" = 1 ]; then
	for cpu in 0 1; do
		say DESIRED$cpu "$(desired $cpu)"
	done
fi

# active mode: SIGTERM while the test runs in passive mode; it must put all back
if [ "$(cat $c/intel_pstate/status 2>/dev/null)" = active ] && [ "$rc" != 4 ]; then
	phase kselftest-term
	hwp_request >/tmp/term.out 2>&1 &
	pid=$!
	wait_until 10 grep -qx passive $c/intel_pstate/status ||
		echo "GUEST-ERROR=the kselftest did not switch to passive mode within 10 s"
	# at once: a kill that finds the test gone shows no restore
	if kill -TERM $pid; then
		wait $pid
		say TERM-RC $?
	else
		wait $pid
		say TERM-RC not-running
	fi
	sed 's/^/KSELFTEST-TERM: /' /tmp/term.out
	phase kselftest-term-done
	state TERM >/tmp/term
	r=$(restored /tmp/term TERM)
	say TERM-RESTORED "$r"
	[ "$r" = yes ] || cat /tmp/term
fi
phase end
say WOBBLY "$(dmesg | grep -c 'frequency invariance went wobbly')"
splats
