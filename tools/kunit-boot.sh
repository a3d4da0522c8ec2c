#!/bin/bash
# Boot a KUnit test kernel once under QEMU TCG and report the cases of the
# named suites, parsed by the tree's own tools/testing/kunit/kunit.py.
#
#   tools/kunit-boot.sh ARCH IMAGE SUITE...
#
# ARCH    x86_64 or arm64
# IMAGE   the kernel (tools/test-kernel.sh's x86 kernel, or a build-kernel.sh
#         image); the suites are built in and run at boot, before init
# SUITE   KUnit suites the caller owns: one PASS:/FAIL: line per case
#
# The initramfs holds only a static /init (tools/kunit-init.c) that prints
# tools/qemu-run.sh's end marker and powers off. The console log is cached
# next to the image (kunit-console.log) with the hash of the image and the
# initramfs, so callers that own different suites of the same kernel share
# one boot.
#
# Output (stdout): `PASS: <suite>.<case>`, `FAIL: <suite>.<case>: <why>`, and
# `FAIL: <suite>: <why>` for a crash, a missing suite, a suite with zero
# cases, or a kernel that did not reach the end of the tests. `INFO:` lines
# give the run time. Exit status: 0 if nothing failed, 1 otherwise.
#
# Environment: REPO BUILD KSRC; KUNIT_BOOT_TIMEOUT (seconds, default 900).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
export REPO BUILD KSRC
TIMEOUT=${KUNIT_BOOT_TIMEOUT:-900}

[ $# -ge 3 ] || { echo "usage: $0 ARCH IMAGE SUITE..." >&2; exit 2; }
arch=$1 image=$2
shift 2
suites=("$@")
fail=0
report_fail() { echo "FAIL: $1: $2"; fail=1; }
fail_all() { for s in "${suites[@]}"; do report_fail "$s" "$1"; done; exit 1; }
[ -f "$image" ] || fail_all "no kernel image $image"
# the build directory: bzImage/Image live in arch/*/boot below it
out=$(cd "$(dirname "$image")/../../.." && pwd)

# --- initramfs: a static /init --------------------------------------------
case "$arch" in
x86_64) cc=gcc ;;
arm64) cc=aarch64-linux-gnu-gcc ;;
*) echo "unsupported ARCH $arch" >&2; exit 2 ;;
esac
command -v "$cc" >/dev/null || fail_all "$cc not found (run 'make deps')"
gen=$BUILD/tools/gen_init_cpio
if [ ! -x "$gen" ]; then
	mkdir -p "$BUILD/tools"
	cc -O2 -o "$gen.tmp" "$KSRC/usr/gen_init_cpio.c" && mv "$gen.tmp" "$gen" ||
		fail_all "cannot build usr/gen_init_cpio"
fi
initrd=$out/kunit-initrd.cpio.gz
if [ ! -s "$initrd" ] || [ "$here/kunit-init.c" -nt "$initrd" ]; then
	tmp=$(mktemp -d)
	if ! "$cc" -static -Os -o "$tmp/init" "$here/kunit-init.c" 2>"$tmp/cc.log"; then
		cat "$tmp/cc.log" >&2
		rm -rf "$tmp"
		fail_all "cannot build the KUnit initramfs /init"
	fi
	printf '%s\n' "dir /dev 755 0 0" "nod /dev/console 600 0 0 c 5 1" \
		"file /init $tmp/init 755 0 0" >"$tmp/list"
	"$gen" -t 0 "$tmp/list" | gzip -n -9 >"$initrd.tmp" && mv "$initrd.tmp" "$initrd"
	rm -rf "$tmp"
fi

# --- boot, once per image -------------------------------------------------
log=$out/kunit-console.log
key=$(sha256sum "$image" "$initrd" | cut -c1-64 | sha256sum | cut -c1-64)
if [ ! -s "$log" ] || [ "$(cat "$log.key" 2>/dev/null)" != "$key" ]; then
	rm -f "$log.key"
	t0=$(date +%s)
	"$here/qemu-run.sh" --arch "$arch" --kernel "$image" --initrd "$initrd" \
		--timeout "$TIMEOUT" --log "$log" 2>"$log.qemu-run"
	rc_run=$?
	echo "$(($(date +%s) - t0)) $rc_run" >"$log.run"
	echo "$key" >"$log.key"
fi
read -r run_secs run_rc <"$log.run"
echo "INFO: $arch KUnit kernel: boot and all built-in suites took ${run_secs}s (log $log)"

# --- the kernel must have reached the end ------------------------------------
if [ "$run_rc" != 0 ]; then
	why=$(grep -m1 'qemu-run: FAILED' "$log.qemu-run" | cut -c1-200)
	for s in "${suites[@]}"; do report_fail "$s" "the kernel did not reach the end of the tests: ${why:-qemu-run status $run_rc}"; done
fi
splat=$(grep -m1 -E 'Kernel panic|Oops|BUG:|Call Trace|WARNING:' "$log" | tr -d '\r' | cut -c1-160)
if [ -n "$splat" ]; then
	for s in "${suites[@]}"; do report_fail "$s" "kernel crash or warning during the run: $splat"; done
fi

# --- parse with the tree's kunit.py ------------------------------------------
json=$(mktemp "${TMPDIR:-/tmp}/kunit-json.XXXXXX")
rm -f "$json"
python3 "$KSRC/tools/testing/kunit/kunit.py" parse --json="$json" "$(cd "$(dirname "$log")" && pwd)/$(basename "$log")" \
	>"$out/kunit-parse.txt" 2>&1
if [ ! -s "$json" ]; then
	for s in "${suites[@]}"; do report_fail "$s" "kunit.py parse produced no results (see $out/kunit-parse.txt)"; done
	exit 1
fi
python3 - "$json" "$log" "${suites[@]}" <<'EOF' || fail=1
import json, re, sys
data = json.load(open(sys.argv[1]))
console = open(sys.argv[2], errors="replace").read().splitlines()

def why(case):
    # KUnit prints "# <case>: EXPECTATION FAILED at <file>:<line>" and the
    # expectation on the next lines.
    for i, line in enumerate(console):
        if re.search(r"# %s: (EXPECTATION|ASSERTION) FAILED" % re.escape(case), line):
            detail = " ".join(l.strip() for l in console[i + 1:i + 3])
            return line.split("# ", 1)[1].strip() + " " + re.sub(r"\[[ 0-9.]+\] ", "", detail)
    return ""

groups = {g["name"]: g for g in data.get("sub_groups", [])}
bad = False
for suite in sys.argv[3:]:
    g = groups.get(suite)
    if g is None:
        print(f"FAIL: {suite}: suite missing from the console log")
        bad = True
        continue
    if not g["test_cases"]:
        print(f"FAIL: {suite}: suite ran zero cases")
        bad = True
        continue
    for c in g["test_cases"]:
        if c["status"] == "PASS":
            print(f"PASS: {suite}.{c['name']}")
        else:
            print(f"FAIL: {suite}.{c['name']}: kunit status {c['status']} {why(c['name'])}".rstrip())
            bad = True
sys.exit(1 if bad else 0)
EOF
exit $fail
