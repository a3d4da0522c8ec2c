#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the HWP selftest BIN on an emulated HWP machine (hwp-emu.py) in a private
# mount namespace with fake sysfs, msr and cpuinfo files (suite 60).
#   run-emu.sh BIN MODE [term-max|term-gov]
# MODEs, environment and output: harness.md, "Tool reference".
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 mode=$2 term=${3:-}
ncpu=$(nproc)
[ "$ncpu" -gt 2 ] && ncpu=2
root=$(mktemp -d)
emu=
cleanup() {
	[ -n "$emu" ] && kill "$emu" 2>/dev/null && wait "$emu" 2>/dev/null
	rm -rf "$root"
}
trap cleanup EXIT
for ((c = 0; c < ncpu; c++)); do
	d=$root/sys/cpu$c/cpufreq
	mkdir -p "$d" "$root/dev/cpu/$c"
	echo 1 >"$root/sys/cpu$c/online"
	echo intel_cpufreq >"$d/scaling_driver"
	echo "${HWKIT_GOV:-schedutil}" >"$d/scaling_governor"
	echo "performance schedutil" >"$d/scaling_available_governors"
	echo 4000000 >"$d/scaling_max_freq"
	echo 800000 >"$d/scaling_min_freq"
	echo 800000 >"$d/cpuinfo_min_freq"
	echo 4000000 >"$d/cpuinfo_max_freq"
	echo "$c" >"$d/related_cpus"
	echo balance_performance >"$d/energy_performance_preference"
	mkdir -p "$root/sys/cpu$c/topology"
	echo "$c" >"$root/sys/cpu$c/topology/physical_package_id"
	m=$root/dev/cpu/$c/msr
	truncate -s 4096 "$m"
	wb() { printf "\\$(printf %o "$2")" | dd of="$m" bs=1 seek=$(($1)) conv=notrunc status=none; }
	wb 0x770 1	# MSR_PM_ENABLE: HWP enabled
	wb 0x771 40	# HWP_CAPABILITIES: highest 40 (the emulator's CAP)
	# MSR_ATOM_CORE_RATIOS (0x66a) bits 21:16 (base) and
	# MSR_ATOM_CORE_TURBO_RATIOS (0x66c) bits 5:0 (turbo), the first MSRs
	# the kernel's invariance setup reads: in this flat file both are the
	# byte at 0x66c, so base = turbo = 20, a ratio the kernel takes
	wb 0x66c 20
	case $mode in dec*) wb $((0x1fc + 3)) 8 ;; esac	# MSR_IA32_POWER_CTL bit 27: DEC
done
for f in possible present online; do
	echo "0-$((ncpu - 1))" >"$root/sys/$f"
done
mkdir -p "$root/sys/intel_pstate"
echo passive >"$root/sys/intel_pstate/status"
echo 0 >"$root/sys/intel_pstate/no_turbo"
echo 100 >"$root/sys/intel_pstate/max_perf_pct"
echo 20 >"$root/sys/intel_pstate/min_perf_pct"
printf 'processor\t: 0\nflags\t\t: fpu tsc msr constant_tsc aperfmperf hwp hwp_epp\n' >"$root/cpuinfo"
python3 "$here/hwp-emu.py" "$root" "$ncpu" "$mode" &
emu=$!
for ((i = 0; i < 200; i++)); do	# until the emulator has written HWP_REQUEST
	v=$(od -An -tx8 -j $((0x774)) -N 8 "$root/dev/cpu/$((ncpu - 1))/msr" | tr -d ' 0')
	[ -n "$v" ] && break
	sleep 0.05
done
if [ -n "$term" ]; then
	(
		f=$root/sys/cpu0/cpufreq/scaling_max_freq orig=4000000
		[ "$term" != term-gov ] || f=$root/sys/cpu0/cpufreq/scaling_governor orig=schedutil
		for ((i = 0; i < 3000; i++)); do
			if [ "$(cat "$f")" != "$orig" ]; then
				pkill -TERM -x "$(basename "$bin")"
				echo "# sent SIGTERM with $(basename "$f") at $(cat "$f")"
				break
			fi
			sleep 0.01
		done
	) &
fi
unshare -m --propagation private sh -c '
	mount --bind "$1/sys" /sys/devices/system/cpu &&
	mkdir -p /dev/cpu && mount --bind "$1/dev/cpu" /dev/cpu &&
	mount --bind "$1/cpuinfo" /proc/cpuinfo &&
	exec "$2"' sh "$root" "$bin"
echo "rc=$?"
echo "status: $(cat "$root/sys/intel_pstate/status")"
for ((c = 0; c < ncpu; c++)); do
	echo "cpu$c: $(cat "$root/sys/cpu$c/cpufreq/scaling_governor") $(cat "$root/sys/cpu$c/cpufreq/scaling_max_freq")"
done
