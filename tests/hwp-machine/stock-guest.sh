# Guest of suite 54's stock boots (Debian's QEMU, the patched one with hwp=off):
# what drives cpufreq and the CPU flags, which must be the same on both.
d=/sys/devices/system/cpu
# no kernel message may split a line below (the TSC calibration comes late, async)
dmesg -n 1
echo "HWP-DRIVER=$(cat $d/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
echo "HWP-STATUS=$(cat $d/intel_pstate/status 2>/dev/null || echo absent)"
echo "HWP-FLAGS=$(grep -m1 '^flags' /proc/cpuinfo | sed 's/^flags[[:space:]]*: //')"
