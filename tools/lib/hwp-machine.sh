# shellcheck shell=bash disable=SC2034 # HWP_* are the callers'
# What the suites that boot the emulated HWP machine need first (sourced).
#
#   hwp_prepare DIR   builds (or finds current) the patched QEMU
#                     (tools/build-qemu.sh), the HWP machine's kernel
#                     (tools/test-kernel.sh) and the guest's load and marker
#                     program hwpload into DIR. Sets HWP_QEMU and HWP_IMG;
#                     on a failure prints the end of its log, sets HWP_WHY
#                     and returns 1.

hwp_prepare() {
	local dir=$1
	HWP_WHY=""
	if ! HWP_QEMU=$("$REPO/tools/build-qemu.sh" 2>"$dir/qemu-build.err") || [ ! -x "$HWP_QEMU" ]; then
		sed 's/^/  /' "$dir/qemu-build.err" | tail -n 20
		HWP_WHY="the emulated HWP machine did not build (tools/build-qemu.sh, logs: $BUILD/logs/qemu-*.log)"
		return 1
	fi
	if ! HWP_IMG=$("$REPO/tools/test-kernel.sh" 2>"$dir/kernel.err"); then
		sed 's/^/  /' "$dir/kernel.err" | tail -n 20
		HWP_WHY="the HWP machine's kernel did not build (tools/test-kernel.sh)"
		return 1
	fi
	hwp_hwpload "$dir"
}

# hwp_hwpload DIR: the guest's load and marker program, static, as
# DIR/hwpload; on a failure sets HWP_WHY and returns 1
hwp_hwpload() {
	gcc -static -O2 -Wall -o "$1/hwpload" "$REPO/tools/hwp-guest/hwpload.c" >"$1/hwpload.log" 2>&1 &&
		return 0
	HWP_WHY="guest tools: hwpload does not build: $(tail -n 3 "$1/hwpload.log" | tr '\n' '|')"
	return 1
}
