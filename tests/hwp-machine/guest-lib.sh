# Shell functions of the HWP machine's guest scripts (tests/hwp-machine/*.sh),
# copied into their initramfs as /lib/hwp-guest-lib.sh and sourced by them.
# Each phase starts with `hwpload mark N`, which leaves "ev=gp ... msr=0x4f4d00NN"
# in the host record, so that the host can cut the record into phases, and
# prints "PHASE N name" on the console. A phase starts before the change it
# is named after, so that every write the change causes falls into it.
# Guest-side observations are printed as KEY=value lines; the host asserts.
c=/sys/devices/system/cpu
n=0
# a kernel whose msr driver is a module (Debian's, tools/deb-check.sh) gets
# it from /msr.ko: hwpload reads and writes MSRs through /dev/cpu/N/msr
if [ -f /msr.ko ] && [ ! -e /dev/cpu/0/msr ]; then
	insmod /msr.ko || echo "GUEST-ERROR=msr.ko not loaded"
fi
phase() {
	n=$((n + 1))
	hwpload mark $n || echo "GUEST-ERROR=mark $n failed"
	echo "PHASE $n $1"
}
# a phase that lasts as long as its load: NAME, then the load's command
load_phase() {
	name=$1
	shift
	phase "$name"
	"$@"
	phase "$name-done"
}
say() { echo "$1=$2"; }
desired() { # CPU -> DESIRED field as seen by the guest
	v=$(hwpload rdmsr "$1" 0x774) || { echo "?"; return; }
	echo $(((v >> 16) & 255))
}
# pin CPU LEVEL: the CPU's policy limited to LEVEL (scaling_min_freq =
# scaling_max_freq = LEVEL x 100 MHz); unpin CPU MIN_KHZ MAX_KHZ restores it
pin() {
	f=$c/cpu$1/cpufreq
	cat $f/cpuinfo_min_freq >$f/scaling_min_freq
	echo $(($2 * 100000)) >$f/scaling_max_freq
	echo $(($2 * 100000)) >$f/scaling_min_freq
}
unpin() {
	f=$c/cpu$1/cpufreq
	cat $f/cpuinfo_min_freq >$f/scaling_min_freq
	echo "$3" >$f/scaling_max_freq
	echo "$2" >$f/scaling_min_freq
}
# wait_request CPU MIN MAX DESIRED: until the CPU's HWP_REQUEST holds these
# fields, at most 10 s (then a GUEST-ERROR line, and status 1)
wait_request() {
	i=0
	while :; do
		v=$(hwpload rdmsr "$1" 0x774) || v=0
		[ "$((v & 255)) $(((v >> 8) & 255)) $(((v >> 16) & 255))" != "$2 $3 $4" ] || return 0
		i=$((i + 1))
		[ $i -le 100 ] || { echo "GUEST-ERROR=cpu$1's HWP_REQUEST did not become $2/$3/$4 within 10 s"; return 1; }
		sleep 0.1
	done
}
