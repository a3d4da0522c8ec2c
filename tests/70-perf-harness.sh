#!/bin/bash
# The series' HWP mapping compiled in user space (tools/perf-harness, issue 6):
# the exhaustive property check over every capacity 1..1024 and every hint
# 0..2048, and a bounded libFuzzer run (ASan + UBSan) over the mapping and the
# request composition. Both compile drivers/cpufreq/intel_pstate_perf.h from
# KSRC, the tree with the series applied. perf-harness-callbacks extracts the
# ->adjust_perf callbacks of the series (KSRC) and of mainline 7.3 (Debian's
# linux-source-7.3, tools/fetch-base.sh mainline-7.3) from their
# intel_pstate.c and compiles both behind the harness's shims (no timing).
#
# Environment: REPO BUILD KSRC; FUZZ_SECONDS (default 60); M73_DEB (a local
# copy of the pinned linux-source-7.3 .deb instead of downloading it).
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

# The callbacks: both extracted and compiled, each object defining the
# kernel's intel_cpufreq_adjust_perf; and the extraction refuses a header
# that changed shape (a spec with one parameter renamed).
cb_fail=""
if ! make -s -C "$H" callbacks KSRC="$KSRC" BUILD="$BUILD" OUT="$OUT" > "$OUT/callbacks.log" 2>&1; then
	cb_fail=$(grep -m1 -E 'extract:|error|missing|fetch-base' "$OUT/callbacks.log")
	cb_fail=${cb_fail:-see $OUT/callbacks.log}
else
	for cb in series m73; do
		nm "$OUT/cb-$cb.o" | grep -q ' t intel_cpufreq_adjust_perf$' ||
			cb_fail="cb-$cb.o has no intel_cpufreq_adjust_perf"
	done
	sed 's/unsigned long capacity)$/unsigned long cap)/' "$H/series.fns" > "$OUT/shape.fns"
	if awk -f "$H/extract.awk" -v spec="$OUT/shape.fns" -v label=shape \
		"$KSRC/drivers/cpufreq/intel_pstate.c" > /dev/null 2> "$OUT/shape.log" ||
		! grep -q 'changed shape' "$OUT/shape.log"; then
		cb_fail="extract.awk accepted a changed header"
	fi
fi
if [ -z "$cb_fail" ]; then
	echo "PASS: perf-harness-callbacks (series and 7.3 intel_cpufreq_adjust_perf() extracted and compiled: $(${CC:-gcc} --version | head -1 | sed 's/ (.*)//') ${CFLAGS:--O2 -g})"
else
	echo "FAIL: perf-harness-callbacks: $cb_fail"
	fail=1
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
