#!/bin/bash
# Suite 10: the x86_64 test kernel with the series boots under QEMU TCG
# (-cpu Skylake-Client -smp 2) to the end marker, with both CPUs online.
# KTAP, plan 5; a failure before the boot's end fails every result after it.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
ktap_plan 5
# the build's messages, indented: none of them may pass for a result
if ! img=$("$REPO/tools/test-kernel.sh" 2> >(sed 's/^/  /' >&2)); then
	ktap_fail test-kernel-builds "see the build-kernel error above"
	ktap_fail_rest "the test kernel did not build"
	exit 0
fi
ktap_ok test-kernel-builds
mkdir -p "$BUILD/logs" "$BUILD/state"
script=$BUILD/state/10-boot-guest.sh
cat >"$script" <<'EOS'
echo "BOOT-ONLINE=$(cat /sys/devices/system/cpu/online)"
echo "BOOT-NPROC=$(nproc)"
echo "BOOT-RELEASE=$(uname -r)"
EOS
initrd=$BUILD/state/10-boot.cpio.gz
if ! "$REPO/tools/mkinitramfs.sh" "$initrd" "$script"; then
	ktap_fail initramfs "mkinitramfs.sh failed"
	ktap_fail_rest "no initramfs"
	exit 0
fi
ktap_ok initramfs
log=$BUILD/logs/10-boot.log
if ! "$REPO/tools/qemu-run.sh" --arch x86_64 --kernel "$img" --initrd "$initrd" \
	--append "intel_pstate=passive cpufreq.default_governor=schedutil" --timeout 300 --log "$log"; then
	ktap_fail boot-reaches-end-marker "see the qemu-run message above (log: $log)"
	ktap_fail_rest "the boot did not reach the end marker"
	exit 0
fi
ktap_ok boot-reaches-end-marker
con=$(tr -d '\r' <"$log")
online=$(echo "$con" | sed -n 's/^BOOT-ONLINE=//p')
nproc=$(echo "$con" | sed -n 's/^BOOT-NPROC=//p')
if [ "$online" = "0-1" ] && [ "$nproc" = 2 ]; then
	ktap_ok two-cpus-online
else
	ktap_fail two-cpus-online "online='$online' nproc='$nproc' (log: $log)"
fi
if echo "$con" | grep -q '^QEMU-TEST-RC=0$'; then
	ktap_ok guest-script-status
else
	ktap_fail guest-script-status "$(echo "$con" | grep '^QEMU-TEST-RC=')"
fi
