#!/bin/bash
# The intel_pstate KUnit suite (issue 4, section 1): the mapping of
# schedutil's performance hints onto HWP levels and the HWP_REQUEST values
# composed from them, tested on the driver's own static functions by
# drivers/cpufreq/intel_pstate_test.c (CONFIG_X86_INTEL_PSTATE_KUNIT_TEST,
# from configs/kunit-x86.config). It is built into the one x86 test kernel
# of make check (tools/test-kernel.sh), booted once for all x86 KUnit suites
# by tools/kunit-boot.sh and parsed with the tree's kunit.py.
#
# Environment: REPO BUILD KSRC (kernel tree with the full series applied).
# Prints one line per KUnit case, `PASS: kunit intel_pstate <case>` or
# `FAIL: kunit intel_pstate <case>: <why>`, and `FAIL: kunit intel_pstate:
# <why>` for a kernel that did not build, crashed, or did not reach the end
# of the tests, and for a suite that is missing or ran zero cases.
# Exit status: 0 if every case passed, 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
export REPO BUILD
suite=intel_pstate
symbol=CONFIG_X86_INTEL_PSTATE_KUNIT_TEST

fail() { echo "FAIL: kunit $suite: $*"; exit 1; }

mkdir -p "$BUILD"
if ! image=$("$REPO/tools/test-kernel.sh" 2>"$BUILD/40-test-kernel.err"); then
	sed 's/^/  /' "$BUILD/40-test-kernel.err"
	fail "the x86 test kernel did not build"
fi
config=$(cd "$(dirname "$image")/../../.." && pwd)/.config
grep -qx "$symbol=y" "$config" ||
	fail "the x86 test kernel lacks $symbol=y (configs/kunit-x86.config not among tools/test-kernel.sh's fragments, or the series lacks the KUnit patch)"

# kunit-boot.sh prints `PASS: <suite>.<case>`, `FAIL: <suite>.<case>: <why>`
# and `FAIL: <suite>: <why>`; keep INFO lines, rename the others.
out=$("$REPO/tools/kunit-boot.sh" x86_64 "$image" "$suite")
rc=$?
cases=0
while IFS= read -r line; do
	case "$line" in
	"PASS: $suite."*)
		echo "PASS: kunit $suite ${line#"PASS: $suite."}"
		cases=$((cases + 1)) ;;
	"FAIL: $suite.:"*)
		# kunit.py names no case that the kernel did not get to
		echo "FAIL: kunit $suite: a case did not complete:${line#"FAIL: $suite.:"}" ;;
	"FAIL: $suite."*)
		echo "FAIL: kunit $suite ${line#"FAIL: $suite."}"
		cases=$((cases + 1)) ;;
	"FAIL: $suite: "*)
		echo "FAIL: kunit $suite: ${line#"FAIL: $suite: "}" ;;
	FAIL:*)
		echo "FAIL: kunit $suite: ${line#FAIL: }" ;;
	*)
		[ -z "$line" ] || echo "$line" ;;
	esac
done <<<"$out"
if [ "$cases" -eq 0 ] && [ "$rc" -eq 0 ]; then
	fail "no case reported"
fi
# Some cases pass without checking anything where they cannot run (HWP_REQUEST
# unreadable, intel_pstate running, real HWP); they say so in the log. In
# this QEMU guest every case must really run, or its PASS would be hollow.
log=$(cd "$(dirname "$image")/../../.." && pwd)/kunit-console.log
if [ -f "$log" ] && grep -qE 'test not run|callbacks not called' "$log"; then
	grep -E 'test not run|callbacks not called' "$log" | head -n 3
	echo "FAIL: kunit $suite: a case did not exercise the code it tests in the guest"
	rc=1
elif [ -f "$log" ]; then
	echo "PASS: kunit $suite every case exercised its code (no 'not run' in the log)"
else
	echo "FAIL: kunit $suite: no console log at $log"
	rc=1
fi
exit "$rc"
