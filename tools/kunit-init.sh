# shellcheck shell=sh
# Guest script of tools/kunit-boot.sh: reports the online CPUs and loads every
# module of /kunit-modules in name order (one KUnit suite each, run at load).
# 5.10's KUnit prints a TAP header for the built-in suites only: one goes into
# the kernel log before each module, for kunit.py parse. say(): stty sets the
# console's settings again with TCSADRAIN, which waits until the line is out,
# so that the next kernel message cannot interleave with it.
say() {
	echo "kunit-init: $*"
	stty "$(stty -g)"
}
say "cpus online $(cat /sys/devices/system/cpu/online 2>&1)"
for ko in /kunit-modules/*.ko; do
	[ -f "$ko" ] || continue
	say "loading ${ko##*/}"
	echo '<6>TAP version 14' >/dev/kmsg
	echo '<6>1..1' >/dev/kmsg
	if err=$(insmod "$ko" 2>&1); then
		say "${ko##*/}: loaded"
	else
		say "${ko##*/}: not loaded: ${err##*: }"
	fi
done
say "suites done"
