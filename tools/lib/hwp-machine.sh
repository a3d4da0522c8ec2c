# shellcheck shell=bash disable=SC2034 # HWP_* are the callers'
# What the suites that boot the emulated HWP machine need (sourced); each function, its
# HWP_WHY and status: harness.md, "Tool reference".

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

# hwp_hwpload DIR: the guest's load and marker program, static, as DIR/hwpload
hwp_hwpload() {
	HWP_DIR=$1
	gcc -static -O2 -Wall -o "$1/hwpload" "$REPO/tools/hwp-guest/hwpload.c" >"$1/hwpload.log" 2>&1 &&
		return 0
	HWP_WHY="guest tools: hwpload does not build: $(tail -n 3 "$1/hwpload.log" | tr '\n' '|')"
	return 1
}

hwp_initrd() {
	local log=${1%.cpio.gz}.log
	"$REPO/tools/mkinitramfs.sh" "$1" "$2" "$HWP_DIR/hwpload:/bin/hwpload" \
		"$REPO/tests/hwp-machine/guest-lib.sh:/lib/hwp-guest-lib.sh" "${@:3}" >"$log" 2>&1 && return 0
	HWP_WHY="initramfs: $(tail -n 3 "$log" | tr '\n' '|')"
	return 1
}

hwp_boot() {
	local txt=$2 errs
	HWP_REC=$BUILD/logs/$1.record HWP_LOG=$BUILD/logs/$1.console.log HWP_WHY=""
	shift 2
	rm -f "$HWP_REC" "$HWP_LOG.monitor"
	if ! "$REPO/tools/qemu-run.sh" --arch x86_64 --hwp --hwp-log "$HWP_REC" "$@" \
		--timeout "${HWP_SUITE_TIMEOUT:-600}" --log "$HWP_LOG" >"$txt.qemu" 2>&1; then
		sed 's/^/  /' "$txt.qemu" | tail -n 20
		HWP_WHY="the guest did not finish (console: $HWP_LOG, record: $HWP_REC)"
		return 1
	fi
	tr -d '\r' <"$HWP_LOG" >"$txt"
	errs=$(grep '^GUEST-ERROR=' "$txt" | cut -d= -f2- | tr '\n' ';')
	[ -z "$errs" ] || { HWP_WHY="the guest reported: $errs"; return 2; }
}

hwp_guest_run() {
	local result=$1 rc=0
	shift
	hwp_boot "$@" || rc=$?
	case $rc in
	0) ktap_ok "$result" "$(grep -c . "$HWP_REC") events in the record" ;;
	1) ktap_fail "$result" "$HWP_WHY"; return 1 ;;
	*) ktap_fail "$result" "$HWP_WHY" ;;
	esac
}
