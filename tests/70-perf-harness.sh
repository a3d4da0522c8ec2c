#!/bin/bash
# The series' HWP mapping compiled in user space (tools/perf-harness, issue 6):
# the exhaustive property check over every capacity 1..1024 and every hint
# 0..2048, and a bounded libFuzzer run (ASan + UBSan) over the mapping and the
# request composition. Both compile drivers/cpufreq/intel_pstate_perf.h from
# KSRC, the tree with the series applied.
#
# Environment: REPO BUILD KSRC; FUZZ_SECONDS (default 60).
# Prints PASS:/FAIL:/SKIP: lines; exit 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
H=$REPO/tools/perf-harness
OUT=$BUILD/perf-harness
mkdir -p "$OUT"
fail=0

if [ ! -f "$KSRC/drivers/cpufreq/intel_pstate_perf.h" ]; then
	echo "FAIL: perf-harness-exhaustive: no series tree at KSRC=$KSRC (intel_pstate_perf.h missing)"
	echo "FAIL: perf-harness-fuzz: no series tree at KSRC=$KSRC"
	exit 1
fi

if ! "$H/deps.sh" > "$OUT/deps.log" 2>&1; then
	echo "SKIP: perf-harness-exhaustive: could not install the toolchain (see $OUT/deps.log)"
	echo "SKIP: perf-harness-fuzz: could not install clang/libFuzzer (see $OUT/deps.log)"
	exit 0
fi

if make -s -C "$H" exhaustive KSRC="$KSRC" OUT="$OUT" > "$OUT/exhaustive.log" 2>&1; then
	echo "PASS: perf-harness-exhaustive ($(sed -n 's/^total: //p' "$OUT/exhaustive.log"))"
else
	why=$(grep -m1 -E 'FAIL|error' "$OUT/exhaustive.log")
	echo "FAIL: perf-harness-exhaustive: ${why:-see $OUT/exhaustive.log}"
	fail=1
fi

if make -s -C "$H" fuzz KSRC="$KSRC" OUT="$OUT" FUZZ_SECONDS="$FUZZ_SECONDS" > "$OUT/fuzz-make.log" 2>&1; then
	echo "PASS: perf-harness-fuzz ($(sed -n 's/^fuzz: \([0-9].*\), no invariant failure/\1/p' "$OUT/fuzz-make.log"), ASan+UBSan)"
else
	why=$(grep -m1 -E 'invariant failed|ERROR|SUMMARY|error' "$OUT/fuzz.log" "$OUT/fuzz-make.log" 2>/dev/null | head -1)
	echo "FAIL: perf-harness-fuzz: ${why:-see $OUT/fuzz-make.log}"
	fail=1
fi

exit $fail
