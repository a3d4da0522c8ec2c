#!/bin/bash
# The intel_pstate KUnit suite (issue 4, section 1; a module since issue 21,
# item 9): the mapping of schedutil's performance hints onto HWP levels and
# the HWP_REQUEST values composed from them, on the pure functions of
# drivers/cpufreq/intel_pstate_perf.h, by drivers/cpufreq/intel_pstate_perf_test.c
# (CONFIG_X86_INTEL_PSTATE_PERF_KUNIT_TEST, tristate; =y from
# configs/kunit-x86.config). It is built into the one x86 test kernel of
# make check (tools/test-kernel.sh), booted once for all x86 KUnit suites
# by tools/kunit-boot.sh and parsed with the tree's kunit.py. The suite must
# report every KUNIT_CASE() of the file. It is also built as a module, with
# W=1, in a tree of its own (build/out/x86_64-pstate-perf-module:
# the test kernel's fragments plus configs/pstate-perf-test-module.config;
# only `make drivers/cpufreq/intel_pstate_perf_test.ko`, no image).
#
# Environment: REPO BUILD KSRC (kernel tree with the full series applied).
# Prints one line per KUnit case, `PASS: kunit intel_pstate_perf <case>` or
# `FAIL: kunit intel_pstate_perf <case>: <why>`, and `FAIL: kunit
# intel_pstate_perf: <why>` for a kernel that did not build, crashed, or did
# not reach the end of the tests, for a suite that is missing or ran other
# than the file's cases, and for a module that does not build or warns.
# Exit status: 0 if every case passed, 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
export REPO BUILD
suite=intel_pstate_perf
symbol=CONFIG_X86_INTEL_PSTATE_PERF_KUNIT_TEST
src=drivers/cpufreq/intel_pstate_perf_test.c
KSRC=${KSRC:-$BUILD/linux}

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
# Every case of the file must have run: a case that the suite lost would
# otherwise go unnoticed.
want=$(grep -c '^[[:space:]]*KUNIT_CASE(' "$KSRC/$src")
if [ "$cases" -ne "$want" ]; then
	echo "FAIL: kunit $suite: $cases cases reported, $src has $want"
	rc=1
else
	echo "PASS: kunit $suite all $want cases of $src reported"
fi

# The same file as a module (tristate), with W=1: configure and prepare a
# tree of its own once, then make only the .ko.
mod=drivers/cpufreq/intel_pstate_perf_test.ko
if ! mout=$(KMAKE_TARGETS=$mod KMAKE_ARGS=W=1 "$REPO/tools/build-kernel.sh" x86_64-pstate-perf-module x86_64 \
	"$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config" \
	"$REPO/configs/kunit-x86.config" "$REPO/configs/pstate-perf-test-module.config" \
	2>"$BUILD/40-module.err"); then
	sed 's/^/  /' "$BUILD/40-module.err" | tail -n 20
	echo "FAIL: kunit $suite: $mod does not build as a module"
	rc=1
elif [ ! -s "$mout/$mod" ]; then
	echo "FAIL: kunit $suite: no $mod in $mout"
	rc=1
elif w=$(grep -E "intel_pstate_perf(_test)?\.[ch]:[0-9]+:[0-9]+: (warning|error)" "$mout/build.log"); [ -n "$w" ]; then
	echo "$w" | head -n 5 | sed 's/^/  /'
	echo "FAIL: kunit $suite: W=1 warnings in the module build"
	rc=1
else
	echo "PASS: kunit $suite builds as a module with W=1, no warning ($mout/$mod, $(stat -c %s "$mout/$mod") bytes)"
fi
exit "$rc"
