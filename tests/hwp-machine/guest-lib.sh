# Shell functions of the HWP machine's guests, /lib/hwp-guest-lib.sh in their
# initramfs. A phase (`hwpload mark N` and "PHASE N name") starts before the
# change it is named after; KEY=value lines are observations (hwp-machine.md).
c=/sys/devices/system/cpu
# (With nomark=1, on a machine without HWP, phases are only printed.)
n=0
phase() {
	n=$((n + 1))
	[ -n "${nomark:-}" ] || hwpload mark $n || echo "GUEST-ERROR=mark $n failed"
	echo "PHASE $n $1"
}
# load_phase NAME CPU TEST SECS LOAD...: phase NAME runs LOAD until TEST holds on CPU's
# request (at most 30 s), then SECS s more: the hold the host judges (from_first())
load_phase() {
	name=$1 lcpu=$2 ltest=$3 lsecs=$4
	shift 4
	phase "$name"
	"$@" &
	lp=$!
	wait_for "$lcpu" 30 "$ltest" && sleep "$lsecs"
	phase "$name-done"
	kill $lp; wait $lp 2>/dev/null
}
say() { echo "$1=$2"; }
desired() { # CPU -> DESIRED field as seen by the guest
	v=$(hwpload rdmsr "$1" 0x774) || { echo "?"; return; }
	echo $(((v >> 16) & 255))
}
# HWP_CAPABILITIES of CPU $1: sets highest, guaranteed and lowest
caps() {
	v=$(hwpload rdmsr "$1" 0x771) || v=0
	highest=$((v & 255)) guaranteed=$(((v >> 8) & 255)) lowest=$(((v >> 24) & 255))
}
# req_is CPU TEST: TEST ("des == 24 && max == 24") holds on its HWP_REQUEST now
req_is() {
	v=$(hwpload rdmsr "$1" 0x774) || v=0
	min=$((v & 255)) max=$(((v >> 8) & 255)) des=$(((v >> 16) & 255))
	[ $(($2)) = 1 ]
}
# wake_until CPU TEST: an idle (NOHZ) CPU sends no update: wake it (100 us of work
# every 100 ms for 1 s) until TEST holds, at most 20 times
wake_until() {
	wakes=0
	while [ $wakes -lt 20 ] && ! req_is "$1" "$2"; do
		hwpload duty "$1" 100 100000 1
		wakes=$((wakes + 1))
	done
}
# wait_until SECONDS COMMAND...: poll every 0.1 s, status 1 if never true (counter "tries": callers use "i")
wait_until() {
	tries=0 secs=$1
	shift
	until "$@"; do
		tries=$((tries + 1))
		[ $tries -le $((secs * 10)) ] || return 1
		sleep 0.1
	done
}
# wait_for CPU SECONDS TEST: wait_until req_is, then 0.1 s more (past
# hwp_record.py's GRACE); or a GUEST-ERROR line and status 1
wait_for() {
	wait_until "$2" req_is "$1" "$3" || {
		echo "GUEST-ERROR=cpu$1: '$3' not reached in $2 s (MIN/MAX/DESIRED $min/$max/$des)"
		return 1
	}
	sleep 0.1
}
# hold NAME BODY: each vCPU held at levels 12 and 24 (scaling_min = max_freq) under
# a 15 s spin (pid $load), phase NAME-CPU-LEVEL; BODY runs once the request holds
# the level (at most 10 s); the limits are restored
hold() {
	for cpu in 0 1; do
		f=$c/cpu$cpu/cpufreq
		omin=$(cat $f/scaling_min_freq) omax=$(cat $f/scaling_max_freq)
		for lvl in 12 24; do
			cat $f/cpuinfo_min_freq >$f/scaling_min_freq
			echo $((lvl * 100000)) >$f/scaling_max_freq
			echo $((lvl * 100000)) >$f/scaling_min_freq
			hwpload spin $cpu 15 &
			load=$!
			phase $1-$cpu-$lvl
			wait_for $cpu 10 "min == $lvl && max == $lvl && des == $lvl"
			$2
			kill $load
			wait $load
			phase $1-$cpu-$lvl-done
		done
		cat $f/cpuinfo_min_freq >$f/scaling_min_freq
		echo "$omax" >$f/scaling_max_freq
		echo "$omin" >$f/scaling_min_freq
	done
}
# the guaranteed level of CPU $1 (IA32_HWP_CAPABILITIES bits 15:8)
guar() { v=$(hwpload rdmsr "$1" 0x771) && echo $(((v >> 8) & 255)); }
# set_guar CPU LEVEL: tools/hwp-monitor.py sets vCPU CPU's guaranteed level
set_guar() {
	echo "HWP-MONITOR: {\"execute\": \"qom-set\", \"arguments\": {\"path\": \"@cpu$1\", \"property\": \"hwp-guaranteed-now\", \"value\": $2}}"
}
guars_are() { [ "$(guar 0)" = "$1" ] && [ "$(guar 1)" = "$2" ]; }
# wait_guar LEVEL0 LEVEL1: vCPU 0 shows LEVEL0 and vCPU 1 LEVEL1, within 10 s
wait_guar() {
	wait_until 10 guars_are "$1" "$2" ||
		echo "GUEST-ERROR=the guaranteed levels did not become $1 $2 within 10 s"
}
# guar_low: phase guar-low, both guaranteed levels set to 14 over QMP, read, HWP_STATUS cleared
guar_low() {
	phase guar-low
	set_guar 0 14; set_guar 1 14
	wait_guar 14 14
	say GUAR-CAPS "$(guar 0) $(guar 1)"
	say GUAR-STATUS "$(hwpload rdmsr 0 0x777) $(hwpload rdmsr 1 0x777)"
	hwpload wrmsr 0 0x777 0 && hwpload wrmsr 1 0x777 0
	say GUAR-STATUS-CLEARED "$(hwpload rdmsr 0 0x777) $(hwpload rdmsr 1 0x777)"
}
# the kernel's warnings, one "DMESG: " line each, for the host's checker
splats() { dmesg | grep -E -f /lib/splats.ere | sed 's/^/DMESG: /'; }
