#!/bin/sh
# Robustness scenarios of suite 58 (busybox sh): R-PASS/R-FAIL/R-SKIP/R-INFO
# and R-MARK lines; knobs robust.* on the command line. robustness.md.

CF=/sys/devices/system/cpu/cpufreq
IP=/sys/devices/system/cpu/intel_pstate
# knob NAME DEFAULT: robust.NAME=<digits> of the kernel command line
knob() { v=$(sed -n "s/.*robust\.$1=\([0-9]*\).*/\1/p" /proc/cmdline); echo "${v:-$2}"; }
SCALE=$(knob iter 1) STWAIT=$(knob stwait 600) STTIMEOUT=$(knob sttimeout 900)
failures=0
. /lib/hwp-guest-lib.sh # wait_for, on the CPUs' HWP_REQUEST

pass() { echo "R-PASS: $1"; }
fail() { echo "R-FAIL: $1: $2"; failures=$((failures + 1)); }
check() { name=$1 what=$2; shift 2; if "$@"; then pass "$name"; else fail "$name" "$what"; fi; } # NAME WHY-NOT COMMAND...

# a marker in the host's record: the writes up to the next one are scenario NAME's
marks=0
mark() {
	marks=$((marks + 1))
	hwpload mark $marks || fail "mark.$1" "hwpload mark $marks failed"
	echo "R-MARK $marks $1"
}

# kernel log since the last call: splats fail the scenario
splat_check() {
	log=$(dmesg -c 2>/dev/null)
	hit=$(echo "$log" | grep -m1 -E -f /lib/splats.ere)
	[ -z "$hit" ] && { pass "$1.splats"; return; }
	fail "$1.splats" "$hit"
	echo "$log" | grep -E -A12 -f /lib/splats.ere | head -40 | sed 's/^/  | /'
}

both_eq() { [ "$1" = "$2" ] && [ "$3" = "$4" ]; }
policies() { ls -d $CF/policy* 2>/dev/null; }
npolicies() { policies | wc -l; }
# rd FILE prints, rdv FILE sets v to, its first line (no fork: tens of ms under TCG+KASAN)
rd() { local v=; IFS= read -r v 2>/dev/null <"$1"; printf '%s\n' "$v"; }
rdv() { v=; IFS= read -r v 2>/dev/null <"$1"; }
# write, returning the status of the write(2) itself
wr() { printf '%s' "$2" >"$1" 2>/dev/null; }
# wr_rb FILE VALUE: write and read back; each failure counts in bad
wr_rb() {
	wr "$1" "$2" || bad=$((bad + 1))
	[ "$(rd "$1")" = "$2" ] || bad=$((bad + 1))
}
# every_cpu TEST: wait_for TEST on every CPU, 10 s each; false if one did not
every_cpu() { local cpu st=0; for cpu in $(seq 0 $((ncpu - 1))); do wait_for $cpu 10 "$1" || st=1; done; return $st; }
# steers NAME: the perf path steers every CPU (DESIRED above MIN; the frequency path: = MIN)
steers() { every_cpu "des > min" || fail $1.steers "schedutil wrote no DESIRED above MIN on every CPU within 10 s"; }
# a policy's hardware range (the CPUs differ: vCPU 1 is an efficiency core)
pmin() { rd $1/cpuinfo_min_freq; }
pmax() { rd $1/cpuinfo_max_freq; }
# every policy on schedutil, with its full range
governors_back() {
	for p in $(policies); do
		wr $p/scaling_governor schedutil
		wr $p/scaling_min_freq "$(pmin $p)"
		wr $p/scaling_max_freq "$(pmax $p)"
	done
}

# a busy loop per online CPU
hogs=""
start_load() { for k in $(seq 1 "$(grep -c ^processor /proc/cpuinfo)"); do (while :; do :; done) & hogs="$hogs $!"; done; }
stop_load() { [ -n "$hogs" ] && kill $hogs 2>/dev/null; wait 2>/dev/null; hogs=""; }

# a scenario: a marker, a clock and N = ROUNDS x robust.iter; at its end the kernel log
scenario_start() { # NAME [ROUNDS]
	mark "$1"
	t_s=$(date +%s)
	bad=0
	N=$((${2:-0} * SCALE))
}
scenario_end() { # NAME
	splat_check "$1"
	echo "R-INFO: $1 took $(($(date +%s) - t_s))s"
}
schedutil_everywhere() { # NAME
	for p in $(policies); do
		check "$1.${p##*/}.schedutil" "governor is $(rd $p/scaling_governor)" [ "$(rd $p/scaling_governor)" = schedutil ]
	done
}

hwp_on=$(dmesg | grep -c 'intel_pstate: HWP enabled')
dmesg -c >/dev/null 2>&1

# ---- setup -------------------------------------------------------------------
mark setup
ncpu=$(grep -c ^processor /proc/cpuinfo)
npol=$(npolicies)
p0=$(policies | head -n1)
nl='
'
check setup.driver "scaling_driver is '$(rd $p0/scaling_driver)', expected intel_cpufreq (intel_pstate=passive on the HWP machine)" [ "$(rd $p0/scaling_driver)" = intel_cpufreq ]
check setup.status "intel_pstate/status is '$(rd $IP/status)'" [ "$(rd $IP/status)" = passive ]
check setup.hwp "no 'intel_pstate: HWP enabled' in the kernel log" [ "$hwp_on" -gt 0 ]
check setup.policies "expected $ncpu per-CPU policies, got $npol" [ "$npol" -eq "$ncpu" ]
schedutil_everywhere setup
# the harness-only test module (tools/testing/cpufreq-perf-test) must
# refuse to load over intel_pstate, with a clear error, changing nothing
ko=/kunit-modules/cpufreq-perf-test.ko
if [ ! -f $ko ]; then
	fail setup.test_module_refused "no $ko in the initramfs"
else
	if insmod $ko 2>/tmp/insmod.err; then
		fail setup.test_module_refused "insmod $ko succeeded on the HWP machine"
		rmmod cpufreq_perf_test 2>/dev/null
	else
		err=$(tr '\n' ' ' </tmp/insmod.err)
		msg=$(dmesg | grep -m1 'cpufreq-perf-test: not loaded: another cpufreq driver' | sed 's/^\[[ 0-9.]*\] //')
		if [ -n "$msg" ] && ! grep -q '^cpufreq_perf_test ' /proc/modules &&
			[ "$(rd $p0/scaling_driver)" = intel_cpufreq ] && ! dmesg | grep -q 'Subtest: cpufreq-perf-test'; then
			pass setup.test_module_refused
			echo "R-INFO: setup.test_module_refused: $err/ $msg"
		else
			fail setup.test_module_refused "insmod failed without the refusal ('$err', log '$msg'), or the driver is now '$(rd $p0/scaling_driver)'"
		fi
	fi
	schedutil_everywhere setup.after_test_module
fi
# the series' KUnit suite of pure functions loads over the real driver (the host checks its cases)
ko=/kunit-modules/intel_pstate_perf_test.ko
if [ ! -f $ko ]; then
	fail setup.kunit_module_loads "no $ko in the initramfs"
elif insmod $ko 2>/tmp/insmod.err; then
	pass setup.kunit_module_loads
else
	fail setup.kunit_module_loads "insmod $ko: $(tr '\n' ' ' </tmp/insmod.err)"
fi
for p in $(policies); do echo "R-INFO: ${p##*/}: cpuinfo $(pmin $p)-$(pmax $p) kHz"; done
splat_check setup

# ---- scenario: rapid governor switching under load ------------------------
# 20 rounds: 100 switches per policy, 40 starts of schedutil
scenario_start governors 20
start_load
for i in $(seq 1 $N); do
	for g in schedutil performance powersave userspace schedutil; do
		for p in $(policies); do wr_rb $p/scaling_governor $g; done
	done
done
steers governors
stop_load
check "governors.switch_x$((N * 5))" "$bad writes failed or did not read back" [ $bad -eq 0 ]
scenario_end governors

# ---- scenario: CPU hotplug loop under load ----------------------------------
scenario_start hotplug 20
start_load
for i in $(seq 1 $N); do
	for c in /sys/devices/system/cpu/cpu[1-9]*; do
		[ -f $c/online ] && { wr_rb $c/online 0; wr_rb $c/online 1; }
	done
done
steers hotplug
stop_load
check "hotplug.offline_online_x$N" "$bad hotplug steps failed" [ $bad -eq 0 ]
schedutil_everywhere hotplug.after
scenario_end hotplug

# ---- scenario: min/max writes racing with updates, max below min ------------
# 40 rounds: each of the 4 patterns 10 times per policy
scenario_start limits 40
start_load
for i in $(seq 0 $((N - 1))); do
	for p in $(policies); do
		lo=$(pmin $p) hi=$(pmax $p)
		case $((i % 4)) in
		0) wr $p/scaling_min_freq $hi; wr $p/scaling_max_freq $lo ;;   # max below min
		1) wr $p/scaling_max_freq $hi; wr $p/scaling_min_freq 1000000 ;;
		2) wr $p/scaling_min_freq $lo; wr $p/scaling_max_freq 900000 ;;
		3) wr $p/scaling_min_freq $lo; wr $p/scaling_max_freq $hi ;;
		esac
		mn=$(rd $p/scaling_min_freq) mx=$(rd $p/scaling_max_freq)
		[ "$mn" -le "$mx" ] && [ "$mn" -ge "$lo" ] && [ "$mx" -le "$hi" ] || bad=$((bad + 1))
	done
done
# max below the current min: the maximum wins, the minimum follows it down
for p in $(policies); do
	lo=$(pmin $p) hi=$(pmax $p)
	wr $p/scaling_min_freq $hi
	wr $p/scaling_max_freq $lo
	check "limits.${p##*/}.max_below_min" "min/max read back $(rd $p/scaling_min_freq)/$(rd $p/scaling_max_freq), expected $lo/$lo" \
		both_eq "$(rd $p/scaling_max_freq)" "$lo" "$(rd $p/scaling_min_freq)" "$lo"
	wr $p/scaling_min_freq $lo
	wr $p/scaling_max_freq $hi
done
# with the full range back (a maximum below the minimum left MIN = DESIRED)
steers limits
stop_load
check "limits.race_x$N" "$bad read-backs had min > max or out of cpuinfo range" [ $bad -eq 0 ]
scenario_end limits

# ---- scenario: operation modes switched under load ----------------------------
# passive -> active -> passive; after each switch the driver, policies,
# governor and request (active: DESIRED 0); "off" is refused with HWP
scenario_start modes 6
start_load
for i in $(seq 1 $N); do
	for m in active passive; do
		wr_rb $IP/status $m
		if [ $m = active ]; then drv=intel_pstate gov= req="des == 0"; else drv=intel_cpufreq gov=schedutil req="des > min"; fi
		[ "$(npolicies)" -eq "$ncpu" ] && [ "$(rd $p0/scaling_driver)" = $drv ] &&
			{ [ -z "$gov" ] || [ "$(rd $p0/scaling_governor)" = $gov ]; } || bad=$((bad + 1))
		every_cpu "$req" || bad=$((bad + 1))
	done
done
stop_load
check "modes.switch_x$((N * 2))" "$bad mode switches failed or did not leave the expected driver, policies, governor and request" [ $bad -eq 0 ]
wr $IP/status off
rc=$?
check modes.off_refused "writing 'off' returned $rc, status now '$(rd $IP/status)', $(npolicies) policies" \
	both_eq "$rc:$(rd $IP/status)" "1:passive" "$(npolicies)" "$ncpu"
schedutil_everywhere modes.after
scenario_end modes

# ---- the upstream cpufreq selftests: each of robust.selftests=basic,... ----
t_s=$(date +%s)
SELFTESTS=$(sed -n 's/.*robust\.selftests=\([a-z0-9,]*\).*/\1/p' /proc/cmdline | tr , ' ')
# every policy there and every CPU online
settled() { [ "$(npolicies)" -eq "$ncpu" ] && ! grep -qx 0 /sys/devices/system/cpu/cpu[1-9]*/online 2>/dev/null; }
if [ -x /bin/bash ] && [ -f /selftests/cpufreq/main.sh ] && [ -n "$SELFTESTS" ]; then
	for t in $SELFTESTS; do
		governors_back
		mark selftest.$t
		t0=$(date +%s)
		(cd /selftests/cpufreq && UID=0 timeout $STTIMEOUT bash ./main.sh -t $t -o /tmp/st-$t >/tmp/st-$t.out 2>&1)
		rc=$?
		tm=$(date +%s)
		# sptest3's tee writers and sptest4's hotplug loop run on: wait, at most robust.stwait s
		end=$((tm + STWAIT))
		while [ "$(date +%s)" -lt $end ] && pidof bash tee >/dev/null 2>&1; do sleep 1; done
		if pidof bash tee >/dev/null 2>&1; then
			fail "selftest.$t.background" "its background jobs still run after $STWAIT s"
			killall bash tee 2>/dev/null
		fi
		# every CPU online, at most 10 s after the jobs ended
		if ! wait_until 10 settled && offline=$(grep -lx 0 /sys/devices/system/cpu/cpu[1-9]*/online 2>/dev/null); then
			fail "selftest.$t.online" "CPUs offline 10 s after its jobs ended: $(echo $offline)"
		fi
		t1=$(date +%s)
		echo "R-INFO: selftest $t: exit $rc in $((tm - t0))s, background jobs $((t1 - tm))s more; output $(wc -l </tmp/st-$t.txt 2>/dev/null) lines"
		# sptest4's scaling_min_freq writes during hotplug fail by design: EBUSY
		# (store()'s cpus_read_trylock()) or EINVAL (CPU offline)
		expected='special-tests\.sh: line [0-9]*: echo: write error: (Device or resource busy|Invalid argument)$'
		[ $t = sptest4 ] || expected='^$'
		n_exp=$(cat /tmp/st-$t.txt /tmp/st-$t.out 2>/dev/null | grep -cE "$expected")
		[ $t = sptest4 ] && echo "R-INFO: selftest sptest4: $n_exp limit writes refused with EBUSY or EINVAL during hotplug"
		# reads of scaling_available_frequencies fail: intel_cpufreq has no table
		noavail="^cat: can't open '/sys/devices/system/cpu/(cpufreq/policy|cpu)[0-9]+(/cpufreq)?/scaling_available_frequencies': No such file or directory$"
		for p in $(policies); do [ -e $p/scaling_available_frequencies ] && noavail=""; done
		if [ -n "$noavail" ]; then
			n_na=$(cat /tmp/st-$t.txt /tmp/st-$t.out 2>/dev/null | grep -cE "$noavail")
			[ "$n_na" -eq 0 ] || echo "R-INFO: selftest $t: $n_na reads of scaling_available_frequencies, which this driver does not have"
			expected="$expected|$noavail"
		fi
		errs=$(grep -ihE "fail|error|bad substitution|not found|No such file" /tmp/st-$t.txt /tmp/st-$t.out 2>/dev/null | grep -vE "$expected" | sort | uniq -c | head -5)
		if [ $rc -ne 0 ]; then
			fail "selftest.$t" "exit status $rc; $(tail -n 3 /tmp/st-$t.out | tr '\n' ' ')"
		elif [ -n "$errs" ]; then
			fail "selftest.$t" "reported: $(echo "$errs" | tr '\n' ' ' | cut -c1-300)"
		else
			pass "selftest.$t"
		fi
		# the tests leave other governors behind; the driver must still be there
		check "selftest.$t.policies_after" "policies: $(npolicies), expected $ncpu" [ "$(npolicies)" -eq "$ncpu" ]
		for c in /sys/devices/system/cpu/cpu[1-9]*; do [ -f $c/online ] && [ "$(rd $c/online)" = 0 ] && wr $c/online 1; done
		# sptest4's own restore may have been refused (EBUSY): the full range back
		governors_back
		splat_check "selftest.$t"
	done
	governors_back
	for t in basic sptest1 sptest2 sptest3 sptest4; do
		case " $SELFTESTS " in *" $t "*) ;; *) echo "R-SKIP: selftest.$t: not requested (robust.selftests)" ;; esac
	done
elif [ -n "$SELFTESTS" ]; then
	# tests/58-robustness.sh puts bash and the selftests in the initramfs
	fail selftest "no bash or no selftests in the initramfs"
else
	echo "R-SKIP: selftest: none requested (robust.selftests)"
fi
echo "R-INFO: selftests took $(($(date +%s) - t_s))s"

# ---- bad input to every writable attribute ------------------------------------
scenario_start badinput
long=$(head -c 5000 /dev/zero | tr '\0' '7')
junk=$(head -c 300 /dev/zero | tr '\0' 'x')
# every writable file of the policies, schedutil and intel_pstate, by mode (root passes -w)
attrs="" ids=""
for p in $(policies) $CF/schedutil $IP; do
	for f in $p/*; do
		[ -f "$f" ] || continue
		case $(stat -c %A "$f") in ??w*) attrs="$attrs $f" ids="$ids${p##*/}/${f##*/} " ;; esac
	done
done
all_attrs=$attrs
echo "R-INFO: bad input to: $ids"
# S: a "file=value" line per attribute, without a fork (forks made most of the time)
snapshot() { S=; for f_ in $all_attrs; do [ -r "$f_" ] && { rdv "$f_"; S="$S$f_=$v$nl"; }; done; }
# accepted: after a write of $val to $f (named $fn) that changed it from $old
# to $new: why if the new value is not a valid (clamped) one, else info
accepted() {
	case $fn in
	scaling_min_freq|scaling_max_freq|scaling_setspeed)
		cmin=$(pmin ${f%/*}) cmax=$(pmax ${f%/*})
		if [ "$new" -lt "$cmin" ] || [ "$new" -gt "$cmax" ]; then
			why="accepted and out of range: $new"
		elif [ "${tag#beyond}" != "$tag" ] && [ "$new" != "$cmax" ] && [ $fn != scaling_min_freq ]; then
			# a value above every frequency, clamped, is the highest
			why="accepted '$val', read back $new, not the clamp value $cmax (truncated?)"
		else
			info="accepted, clamped to $new"
		fi ;;
	max_perf_pct|min_perf_pct|no_turbo)
		# a decimal unsigned int is valid: above the top of its range (100, max_perf_pct
		# for the minimum, 1 for no_turbo) it reads back as the top
		case $fn in min_perf_pct) top=$(rd $IP/max_perf_pct) ;; no_turbo) top=1 ;; *) top=100 ;; esac
		if case $val in ''|*[!0-9]*) false ;; esac && [ ${#val} -le 10 ] && [ "$val" -le 4294967295 ] &&
		   { { [ "$val" -le "$top" ] && [ "$new" = "$((val))" ]; } ||
		     { [ "$val" -gt "$top" ] && [ "$new" = "$top" ]; }; }; then
			info="accepted '$val' as $new"
		else
			why="accepted '$val', value '$old' -> '$new'"
		fi ;;
	rate_limit_us)
		# an unsigned int: any decimal value up to 4294967295 reads back as written
		if [ "$new" = "$val" ] && [ ${#val} -le 10 ] && [ "$val" -le 4294967295 ] 2>/dev/null; then
			info="accepted, a valid value"
		else
			why="accepted '$val', value '$old' -> '$new'"
		fi ;;
	*)
		why="accepted, value '$old' -> '$new'" ;;
	esac
}
n_inputs=0
bad_input() { # NAME VALUE
	tag=$1 val=$2
	for f in $attrs; do
		snapshot; before=$S
		rdv "$f"; old=$v
		wr "$f" "$val"
		rc=$?
		snapshot; after=$S
		rdv "$f"; new=$v
		n_inputs=$((n_inputs + 1))
		d=${f%/*} fn=${f##*/} why= info=
		# the other attributes: unchanged if the whole snapshot is (no grep)
		if [ "$before" != "$after" ]; then
			# intel_pstate's global limits and no_turbo set every policy's, by design
			case $f in
			$IP/max_perf_pct|$IP/min_perf_pct|$IP/no_turbo) follow='/scaling_(min|max)_freq=' ;;
			*) follow='^$' ;;
			esac
			others_before=$(echo "$before" | grep -v "^$f=" | grep -vE "$follow")
			others_after=$(echo "$after" | grep -v "^$f=" | grep -vE "$follow")
			[ "$others_before" = "$others_after" ] ||
				why="other attributes changed: $(echo "$others_after" | grep -vxF "$others_before" | tr '\n' ' ' | cut -c1-200)"
		fi
		if [ -n "$why" ]; then
			: # that failure is the one reported
		elif [ $rc -eq 0 ] && [ "${tag#beyond}" != "$tag" ] &&
		     case $fn in scaling_min_freq|scaling_max_freq) true ;; *) false ;; esac; then
			# the limits hold s32 values: above S32_MAX is -EINVAL (or -ERANGE),
			# never clamped or truncated (patch 2)
			why="accepted '$val' (above S32_MAX), read back $new: want -EINVAL"
		elif [ $rc -ne 0 ] && [ "$old" != "$new" ]; then
			why="write rejected but value changed: '$old' -> '$new'"
		elif [ $rc -eq 0 ] && [ "$old" != "$new" ]; then
			accepted
		fi
		[ -z "$why" ] || fail "badinput.$tag.${d##*/}/$fn" "$why"
		[ -z "$info" ] || echo "R-INFO: badinput.$tag.${d##*/}/$fn: $info"
		# restore, retrying: store() gives up with EBUSY while the hotplug lock is taken
		n=0
		rdv "$f"
		while [ "$v" != "$old" ] && [ $n -lt 10 ]; do
			wr "$f" "$old"
			n=$((n + 1))
			rdv "$f"
			[ "$v" = "$old" ] || { sleep 1; rdv "$f"; }
		done
	done
}
snapshot; before_all=$S
fails_before=$failures
# the inputs, in order: TAG:VALUE, or TAG alone for those with blanks and the
# long ones (no empty write: printf '%s' "" >file makes no write(2) at all,
# so nothing would reach the kernel and such a case could not fail)
INPUTS='nonnumber:abc negative:-1 negative_big:-4294967296 beyond_s32:3000000000
	beyond32:4294967296 beyond32_plus:4294967297 beyond64:18446744073709551616
	beyond64_huge:99999999999999999999999999 newline_only long junk hex:0x1 float:1.5 spaces'
for_all_inputs() {
	for in_ in $INPUTS; do
		case $in_ in
		newline_only) bad_input $in_ "$nl" ;;
		long) bad_input $in_ "$long" ;;
		junk) bad_input $in_ "$junk" ;;
		spaces) bad_input $in_ "   " ;;
		*) bad_input "${in_%%:*}" "${in_#*:}" ;;
		esac
	done
}
for_all_inputs
# scaling_setspeed only takes writes with the userspace governor
n_attrs=$(echo $attrs | wc -w)
for p in $(policies); do wr $p/scaling_governor userspace; done
attrs=$(for p in $(policies); do echo $p/scaling_setspeed; done)
for_all_inputs
n_attrs=$((n_attrs + $(echo $attrs | wc -w)))
for p in $(policies); do wr $p/scaling_governor schedutil; done
attrs=$all_attrs
# a minimum above the maximum: rejected or clamped to the maximum
for p in $(policies); do
	cmin=$(pmin $p)
	wr $p/scaling_max_freq 1000000
	wr $p/scaling_min_freq 1200000
	mn=$(rd $p/scaling_min_freq) mx=$(rd $p/scaling_max_freq)
	check "badinput.min_above_max.${p##*/}" "min $mn max $mx, expected max 1000000 and min <= max" \
		both_eq "$mx" 1000000 "$(( mn <= mx ))" 1
	# back to the values found before the bad-input run
	old_min=$(echo "$before_all" | sed -n "s|^$p/scaling_min_freq=||p")
	old_max=$(echo "$before_all" | sed -n "s|^$p/scaling_max_freq=||p")
	wr $p/scaling_min_freq $cmin
	wr $p/scaling_max_freq "$old_max"
	wr $p/scaling_min_freq "$old_min"
done
# good input works and is put back (the policies follow through a work item: up to 5 s)
old_max=$(rd $IP/max_perf_pct) old_min=$(rd $IP/min_perf_pct)
half=$(($(pmax $p0) / 2 + 100000)) sixty=$(($(pmax $p0) * 6 / 10 - 100000))
max_follows() { rdv $p0/scaling_max_freq; [ "$v" -le $half ]; }
min_follows() { rdv $p0/scaling_min_freq; [ "$v" -ge $sixty ]; }
restored() { snapshot; [ "$S" = "$before_all" ]; }
wr $IP/max_perf_pct 50
wait_until 5 max_follows
mx=$(rd $IP/max_perf_pct) smax=$(rd $p0/scaling_max_freq)
wr $IP/max_perf_pct "$old_max"
check badinput.valid_max_perf_pct "max_perf_pct 50 read back '$mx', ${p0##*/} scaling_max_freq $smax (expected <= half of $(pmax $p0) plus a level)" \
	[ "$mx" = 50 -a "$smax" -le $half ]
wr $IP/min_perf_pct 60
wait_until 5 min_follows
mn=$(rd $IP/min_perf_pct) smin=$(rd $p0/scaling_min_freq)
wr $IP/min_perf_pct "$old_min"
wait_until 5 restored
check badinput.valid_min_perf_pct "min_perf_pct 60 read back '$mn', ${p0##*/} scaling_min_freq $smin (expected >= 60% of $(pmax $p0) minus a level)" \
	[ "$mn" = 60 -a "$smin" -ge $sixty ]
after_all=$S
check badinput.state_restored "attributes differ after the bad-input run: $(echo "$after_all" | grep -vxF "$before_all" | tr '\n' ' ' | cut -c1-200)" [ "$before_all" = "$after_all" ]
[ $failures -eq $fails_before ] && pass "badinput.all_${n_inputs}_writes"
echo "R-INFO: bad input: $n_inputs writes to $n_attrs attributes"
scenario_end badinput

# ---- scenario: suspend to idle -----------------------------------------------
# Last: a guest that never wakes is caught only by the host's timeout; pm_test
# "platform": down to noirq (cpufreq_suspend() included), a timer wakes it
scenario_start freeze 3
# configs/robustness.config sets CONFIG_SUSPEND and CONFIG_PM_DEBUG
if ! [ -w /sys/power/state ] || ! grep -qw freeze /sys/power/state; then
	fail freeze.cycle "no freeze in /sys/power/state (configs/robustness.config sets CONFIG_SUSPEND)"
	N=0
elif [ -w /sys/power/pm_test ]; then
	wr /sys/power/pm_test platform
else
	fail freeze.cycle "no /sys/power/pm_test for a timer wake-up (configs/robustness.config sets CONFIG_PM_DEBUG)"
	N=0
fi
# pm_test_delay: a busy wait at the test level, 5 s by default; the same paths run with 1
[ -w /sys/module/suspend/parameters/pm_test_delay ] && wr /sys/module/suspend/parameters/pm_test_delay 1
for i in $(seq 0 $((N - 1))); do
	start_load
	t0=$(date +%s)
	wr /sys/power/state freeze || bad=$((bad + 1))
	echo "R-INFO: freeze cycle $i took $(($(date +%s) - t0))s"
	# after resume schedutil steers again (intel_cpufreq's suspend cleared DESIRED)
	every_cpu "des > min" || bad=$((bad + 1))
	stop_load
	for p in $(policies); do
		[ "$(rd $p/scaling_governor)" = schedutil ] || bad=$((bad + 1))
	done
done
[ -w /sys/power/pm_test ] && wr /sys/power/pm_test none
[ $N -eq 0 ] || check "freeze.cycle_x$N" "$bad failed writes, CPUs not steered within 10 s or governors not schedutil after resume" [ $bad -eq 0 ]
scenario_end freeze

mark end
splat_check teardown
echo "R-DONE: $failures failure(s)"
[ $failures -eq 0 ]
