# Guest side of tests/55-hwp-machine.sh and of the stock boots of
# tests/54-emulator-hwp-machine.sh (busybox sh, run by the initramfs of
# tools/mkinitramfs.sh). Prints HWP-KEY=value lines on the console, and
# marks its phases in the host record by writing IA32_ENERGY_PERF_BIAS on
# cpu0 (logged by the HWP machine as "ev=epb val=N"; EPB does not steer the
# model): 1 idle, 2 busy loop on cpu0, 3 idle again, 4 end of those,
# 5 turbo disabled (MISC_ENABLE bit 38 set) with a short busy loop, 6 end.
#   BUSY_SECS (default 3) IDLE_SECS (default 3) may be set in /busy.env
[ -r /busy.env ] && . /busy.env
BUSY_SECS=${BUSY_SECS:-3}
IDLE_SECS=${IDLE_SECS:-3}
d=/sys/devices/system/cpu
# this script and its helpers run on cpu1, so that cpu0 is idle outside the
# busy loop (MSR reads of cpu0 are IPIs: no task, no schedutil update there)
taskset -p 2 $$ >/dev/null 2>&1 || echo "HWP-TASKSET-FAILED=1"

# msr_read CPU MSR -> 16 hex digits, or "unreadable"
msr_read() {
	v=$(dd if=/dev/cpu/$1/msr bs=8 count=1 skip=$(($2)) iflag=skip_bytes 2>/dev/null | od -A n -t x8 | tr -d ' \n')
	echo "${v:-unreadable}"
}
# marker N: EPB of cpu0 := N (0..15)
marker() {
	printf "\\$(printf %03o "$1")\\000\\000\\000\\000\\000\\000\\000" |
		dd of=/dev/cpu/0/msr bs=8 seek=$((0x1b0)) oflag=seek_bytes conv=notrunc 2>/dev/null ||
		echo "HWP-MARKER-FAILED=$1"
}

echo "HWP-ONLINE=$(cat $d/online)"
echo "HWP-DRIVER=$(cat $d/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
echo "HWP-GOVERNOR=$(cat $d/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)"
echo "HWP-STATUS=$(cat $d/intel_pstate/status 2>/dev/null || echo absent)"
for c in 0 1; do
	echo "HWP-CPU$c-FREQ=$(cat $d/cpu$c/cpufreq/cpuinfo_min_freq 2>/dev/null || echo -) $(cat $d/cpu$c/cpufreq/cpuinfo_max_freq 2>/dev/null || echo -) $(cat $d/cpu$c/cpufreq/base_frequency 2>/dev/null || echo -)"
done
echo "HWP-FLAGS=$(grep -m1 '^flags' /proc/cpuinfo | sed 's/^flags[[:space:]]*: //')"
[ -e /dev/cpu/0/msr ] || echo "HWP-NO-MSR-DEVICE=1"
echo "HWP-MSR-PM-ENABLE0=$(msr_read 0 0x770)"
echo "HWP-MSR-CAP0=$(msr_read 0 0x771)"
echo "HWP-MSR-CAP1=$(msr_read 1 0x771)"
echo "HWP-MSR-REQ0=$(msr_read 0 0x774)"

# The kernel is the HWP machine's (tools/hwp-kernel.sh): no KUnit suite and
# no test driver, so nothing but the kernel itself can turn x86 invariance
# off, and it does so (with its "went wobbly" warning) if APERF/MPERF do not
# advance as they should.

if [ "$(cat $d/cpu0/cpufreq/scaling_driver 2>/dev/null)" = intel_cpufreq ]; then
	marker 1
	sleep "$IDLE_SECS"
	a0=$(msr_read 0 0xe8) m0=$(msr_read 0 0xe7) e0=$(msr_read 0 0x611)
	marker 2
	taskset 1 sh -c 'while :; do :; done' &
	busy=$!
	sleep "$BUSY_SECS"
	echo "HWP-MSR-REQ0-BUSY=$(msr_read 0 0x774)"
	a1=$(msr_read 0 0xe8) m1=$(msr_read 0 0xe7) e1=$(msr_read 0 0x611)
	kill $busy
	wait $busy 2>/dev/null
	marker 3
	sleep "$IDLE_SECS"
	# a short task on cpu0: schedutil's next update there sees the decayed
	# utilization (an idle CPU with its tick stopped gets no update)
	taskset 1 sh -c 'sleep 0.2; true'
	sleep 1
	echo "HWP-MSR-REQ0-IDLE=$(msr_read 0 0x774)"
	marker 4
	# turbo off: MISC_ENABLE[38] := 1 on cpu0 (package-wide on the machine)
	m=$(msr_read 0 0x1a0)
	case "$m" in
	????????????????)
		n=$(printf '%016x' $((0x$m | (1 << 38))))
		le="" i=14
		while [ $i -ge 0 ]; do
			le="$le\\$(printf %03o $((0x$(echo "$n" | cut -c$((i + 1))-$((i + 2))))))"
			i=$((i - 2))
		done
		marker 5
		printf "$le" | dd of=/dev/cpu/0/msr bs=8 seek=$((0x1a0)) oflag=seek_bytes conv=notrunc 2>/dev/null ||
			echo "HWP-TURBO-WRITE-FAILED=1"
		echo "HWP-MISC-ENABLE1=$(msr_read 1 0x1a0)"
		echo "HWP-NO-TURBO=$(cat $d/intel_pstate/no_turbo 2>/dev/null)"
		taskset 1 sh -c 'while :; do :; done' &
		busy=$!
		sleep 1
		echo "HWP-PERF-STATUS0-NO-TURBO=$(msr_read 0 0x198)"
		kill $busy
		wait $busy 2>/dev/null
		marker 6
		;;
	*) echo "HWP-MISC-ENABLE-UNREADABLE=$m" ;;
	esac
	echo "HWP-APERF-MPERF-BUSY=$a0 $a1 $m0 $m1"
	echo "HWP-PKG-ENERGY-BUSY=$e0 $e1 $(msr_read 0 0x606)"
fi

echo "HWP-DMESG-HWP-ENABLED=$(dmesg | grep -c 'HWP enabled')"
echo "HWP-DMESG-WOBBLY=$(dmesg | grep -c 'frequency invariance went wobbly')"
echo "HWP-DMESG-UNCHECKED-MSR=$(dmesg | grep -c 'unchecked MSR access')"
dmesg | grep -E 'intel_pstate|HWP|invarian|unchecked MSR|MSR access' | sed 's/^/HWP-DMESG: /'
