# Guest script of tools/hwp-steer.sh (the main job's HWP boot, make
# deb-check): what drives cpufreq on the emulated HWP machine, then 3 s of
# idle and a 4 s spin on CPU 1, between markers (hwpload mark) in the
# host's HWP_REQUEST record. The idle comes first so that the load starts
# from a decayed utilization and its requests are written under load: a
# request that the end of the boot left at the top would otherwise stay
# unchanged, and unwritten, through the whole spin. A kernel whose msr
# driver is a module (Debian's) gets it from /msr.ko: hwpload reads MSRs
# through /dev/cpu/N/msr.
if [ -f /msr.ko ] && [ ! -e /dev/cpu/0/msr ]; then
	insmod /msr.ko || echo "MSR-MODULE=failed"
fi
c=/sys/devices/system/cpu
echo "KERNEL=$(uname -r)"
echo "DRIVER=$(cat $c/cpu1/cpufreq/scaling_driver 2>/dev/null || echo none)"
echo "STATUS=$(cat $c/intel_pstate/status 2>/dev/null || echo absent)"
echo "GOVERNOR=$(cat $c/cpu1/cpufreq/scaling_governor 2>/dev/null)"
echo "HWP=$(dmesg | grep -c 'intel_pstate: HWP enabled')"
hwpload mark 1; echo "PHASE 1 before"; sleep 3
hwpload mark 2; echo "PHASE 2 load"; hwpload spin 1 4
hwpload mark 3; echo "PHASE 3 after"; sleep 3
v=$(hwpload rdmsr 1 0x774) && echo "AFTER-DESIRED1=$(((v >> 16) & 255))"
hwpload mark 4; echo "PHASE 4 end"
