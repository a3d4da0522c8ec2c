#!/bin/bash
# Build the harness-only test module (tools/testing/cpufreq-perf-test) against the
# finished kernel build OUT; prints the .ko path. harness.md, "Tool reference".
#   tools/build-test-module.sh OUT ARCH
set -euo pipefail
# shellcheck source=tools/lib/env.sh
. "$(dirname "$0")/lib/env.sh"
[ $# -eq 2 ] || die "usage: $0 OUT ARCH"
out=$(cd "$1" && pwd) arch=$2
case "$arch" in
x86_64) karch=x86 cross= ;;
arm64) karch=arm64 cross=aarch64-linux-gnu- ;;
*) die "unsupported ARCH $arch" ;;
esac
[ -f "$out/.config" ] && [ -f "$out/vmlinux.symvers" ] || die "$out is not a finished kernel build (with CONFIG_MODULES=y)"
grep -qx 'CONFIG_MODULES=y' "$out/.config" || die "$out/.config lacks CONFIG_MODULES=y (configs/kunit-e2e.config)"
case "${TOOLCHAIN:-gcc}" in
gcc) ccbin=${cross}gcc toolchain=(LLVM= LLVM_IAS=) ;;
llvm) ccbin=clang toolchain=(LLVM=1 LLVM_IAS=1) ;;
*) die "unsupported TOOLCHAIN $TOOLCHAIN" ;;
esac
cc=$ccbin
command -v ccache >/dev/null && cc="ccache $ccbin"
src=$REPO/tools/testing/cpufreq-perf-test
m=$out/cpufreq-perf-test-module
mkdir -p "$m" "$out/kunit-modules"
# -p keeps the times, so an unchanged source is not rebuilt
cp -p "$src/Kbuild" "$src/cpufreq-perf-test.c" "$m/"
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2000-01-01}
export KBUILD_BUILD_USER=${KBUILD_BUILD_USER:-build} KBUILD_BUILD_HOST=${KBUILD_BUILD_HOST:-localhost}
kmake() { make -s -C "$out" ARCH="$karch" CROSS_COMPILE="$cross" CC="$cc" "${toolchain[@]}" "$@"; }
# the kernel's `make modules` (for Module.symvers, the exports it is checked against)
if ! { kmake -j"${JOBS:-$(nproc)}" modules && kmake M="$m" modules; } >"$m/build.log" 2>&1; then
	tail -n 20 "$m/build.log" >&2
	die "the test module did not build (log: $m/build.log)"
fi
if grep -q 'undefined!' "$m/build.log"; then
	grep 'undefined!' "$m/build.log" >&2
	die "the test module uses symbols the kernel does not export (harness-exports.patch applied?)"
fi
# this one and the kernel's own (modules.order), copied only when changed (the initramfs)
want=("$m/cpufreq-perf-test.ko")
while read -r ko; do
	ko=${ko#kernel/} ko=${ko%.o} ko=${ko%.ko}.ko
	[ -f "$out/$ko" ] || die "$ko is in modules.order but was not built"
	want+=("$out/$ko")
done <"$out/modules.order"
for ko in "${want[@]}"; do
	cmp -s "$ko" "$out/kunit-modules/${ko##*/}" || cp "$ko" "$out/kunit-modules/${ko##*/}"
done
for ko in "$out"/kunit-modules/*.ko; do
	case " ${want[*]##*/} " in *" ${ko##*/} "*) ;; *) rm -f "$ko" ;; esac
done
echo "$out/kunit-modules/cpufreq-perf-test.ko"
