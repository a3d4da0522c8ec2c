# Shell functions of the HWP machine's guest scripts (tests/hwp-machine/*.sh),
# copied into their initramfs as /lib/hwp-guest-lib.sh and sourced by them.
# Each phase starts with `hwpload mark N`, which leaves "ev=gp ... msr=0x4f4d00NN"
# in the host record, so that the host can cut the record into phases, and
# prints "PHASE N name" on the console. A phase starts before the change it
# is named after, so that every write the change causes falls into it.
# Guest-side observations are printed as KEY=value lines; the host asserts.
c=/sys/devices/system/cpu
n=0
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
