#!/bin/bash
# Suite 10: the x86_64 test kernel with the series boots under QEMU TCG
# (-cpu Skylake-Client -smp 2) to the end marker, with both CPUs online.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
if ! img=$("$REPO/tools/test-kernel.sh"); then
	echo "FAIL: test-kernel-builds: see the build-kernel error above"
	exit 0
fi
echo "PASS: test-kernel-builds"
mkdir -p "$BUILD/logs" "$BUILD/state"
script=$BUILD/state/10-boot-guest.sh
cat >"$script" <<'EOS'
echo "BOOT-ONLINE=$(cat /sys/devices/system/cpu/online)"
echo "BOOT-NPROC=$(nproc)"
echo "BOOT-RELEASE=$(uname -r)"
EOS
initrd=$BUILD/state/10-boot.cpio.gz
"$REPO/tools/mkinitramfs.sh" "$initrd" "$script" || { echo "FAIL: initramfs: mkinitramfs.sh failed"; exit 0; }
log=$BUILD/logs/10-boot.log
if "$REPO/tools/qemu-run.sh" --arch x86_64 --kernel "$img" --initrd "$initrd" \
	--append "intel_pstate=passive cpufreq.default_governor=schedutil" --timeout 300 --log "$log"; then
	echo "PASS: boot-reaches-end-marker"
else
	echo "FAIL: boot-reaches-end-marker: see the qemu-run message above (log: $log)"
	exit 0
fi
con=$(tr -d '\r' <"$log")
online=$(echo "$con" | sed -n 's/^BOOT-ONLINE=//p')
nproc=$(echo "$con" | sed -n 's/^BOOT-NPROC=//p')
if [ "$online" = "0-1" ] && [ "$nproc" = 2 ]; then
	echo "PASS: two-cpus-online"
else
	echo "FAIL: two-cpus-online: online='$online' nproc='$nproc' (log: $log)"
fi
if echo "$con" | grep -q '^QEMU-TEST-RC=0$'; then
	echo "PASS: guest-script-status"
else
	echo "FAIL: guest-script-status: $(echo "$con" | grep '^QEMU-TEST-RC=')"
fi
