#!/bin/bash
# make deb-check: does the kernel package that 'make deb' built steer HWP
# like the test kernel? Unpacks the linux-image package (dpkg-deb -x, no
# installation on this machine), boots its vmlinuz on the emulated HWP
# machine with intel_pstate=passive and schedutil, loading its msr module
# in the guest when it is a module, and boots the x86 test kernel
# (tools/test-kernel.sh: the series with the test configuration; its test
# modules are not loaded) the same way (tools/hwp-steer.sh for both). Passes when both pass
# tools/hwp-steer.sh (intel_cpufreq; CPU 1's request written under load,
# and every request in effect through the load with a DESIRED, some above
# MIN: ->adjust_perf in use) and report the same
# driver, intel_pstate status, governor and HWP state. Every figure is
# simulated.
#
# Environment: REPO BUILD KSRC, DEB_DIR (where make deb left the packages).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
DEB_DIR=${DEB_DIR:-$BUILD/deb}

die() { echo "deb-check: error: $*" >&2; exit 1; }
log() { echo "deb-check: $*" >&2; }

[ -d "$DEB_DIR" ] || die "no $DEB_DIR: run 'make deb' first"
# the package of the release make deb built last (build/deb/build-stats)
krel=$(sed -n 's/^release=\([^ ]*\) .*/\1/p' "$DEB_DIR/build-stats" 2>/dev/null || true)
[ -n "$krel" ] || die "no finished build recorded in $DEB_DIR/build-stats: run 'make deb' first"
pkg=$(find "$DEB_DIR" -maxdepth 1 -name "linux-image-${krel}_*.deb" -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
[ -n "$pkg" ] || die "no linux-image-${krel}_*.deb in $DEB_DIR: run 'make deb' first"
root=$DEB_DIR/root
rm -rf "$root"
dpkg-deb -x "$pkg" "$root"
kernel=$root/boot/vmlinuz-$krel
[ -f "$kernel" ] || die "$pkg has no boot/vmlinuz-$krel"
msr=""
[ ! -d "$root/lib/modules/$krel" ] || msr=$(find "$root/lib/modules/$krel" -name msr.ko | head -n 1)
if [ -z "$msr" ]; then
	grep -q '^CONFIG_X86_MSR=y' "$root/boot/config-$krel" ||
		die "$pkg has neither a built-in msr driver nor msr.ko (the guest reads HWP_REQUEST through /dev/cpu/N/msr)"
fi
log "package: $(basename "$pkg") ($(du -h "$pkg" | cut -f1)), kernel $krel$([ -z "$msr" ] || echo ", msr.ko from the package")"

"$here/build-qemu.sh" >/dev/null || die "the emulated HWP machine did not build (tools/build-qemu.sh)"
himg=$("$here/test-kernel.sh") || die "the x86 test kernel did not build (tools/test-kernel.sh)"

rc=0
rm -f "$BUILD/logs/deb-hwp-boot.log" "$BUILD/logs/deb-hwp-test-boot.log"
log "booting the package's kernel on the HWP machine"
deb_out=$("$here/hwp-steer.sh" deb-hwp "$kernel" ${msr:+"$msr"}) || rc=1
log "booting the x86 test kernel ($himg) the same way"
test_out=$("$here/hwp-steer.sh" deb-hwp-test "$himg") || rc=1
guest() { tr -d '\r' <"$BUILD/logs/$1-boot.log" 2>/dev/null | sed -n "s/^$2=//p" | head -n 1; }
echo "Debian-config package, kernel $(guest deb-hwp KERNEL) (emulated HWP machine; figures simulated):"
echo "$deb_out" | sed 's/^/  /'
echo "The x86 test kernel (tools/test-kernel.sh), kernel $(guest deb-hwp-test KERNEL) (the same machine and load):"
echo "$test_out" | sed 's/^/  /'
# the same driver, mode, governor and HWP state
if [ "$(echo "$deb_out" | head -n 1)" != "$(echo "$test_out" | head -n 1)" ]; then
	echo "deb-check: the two kernels differ in driver, mode, governor or HWP (first lines above)"
	rc=1
fi
if [ "$rc" = 0 ]; then
	echo "deb-check: PASS: the package's kernel steers HWP_REQUEST through ->adjust_perf like the x86 test kernel"
else
	echo "deb-check: FAIL (logs: $BUILD/logs/deb-hwp-boot.log, $BUILD/logs/deb-hwp-test-boot.log)"
fi
exit "$rc"
