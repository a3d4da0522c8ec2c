#!/bin/bash
# The series' HWP mapping compiled in user space (tools/perf-harness): the
# exhaustive property check over every capacity 1..1024 and every hint
# 0..2048, and a bounded libFuzzer run (ASan + UBSan) over the mapping and the
# request composition, both from drivers/cpufreq/intel_pstate_perf.h of KSRC,
# the tree with the series applied. The ->adjust_perf callbacks of the series
# (KSRC) and of mainline 7.3 (Debian's linux-source-7.3, tools/fetch-base.sh
# mainline-7.3) are extracted from their intel_pstate.c and compiled behind
# the harness's shims, and the differential check (diff.c) compares them over
# an exhaustive domain of driver state and hints: its own KTAP document is
# nested here, with the number of differing inputs on a "# diff:" line. It
# must also fail against a deliberately changed copy of 7.3's text.
#
# The harness installs its own prerequisites (tools/perf-harness/deps.sh):
# when that fails, it is a failure, and the checks still run and say what
# they lacked.
#
# Environment: REPO BUILD KSRC; FUZZ_SECONDS (default 60); M73_DEB (a local
# copy of the pinned linux-source-7.3 .deb instead of downloading it).
# Output: KTAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
H=$REPO/tools/perf-harness
OUT=$BUILD/perf-harness
mkdir -p "$OUT"
# shellcheck source=../tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"

ktap_plan 6

if [ ! -f "$KSRC/drivers/cpufreq/intel_pstate_perf.h" ]; then
	ktap_fail_rest "no series tree at KSRC=$KSRC (intel_pstate_perf.h missing)"
	exit 1
fi

hm() { make -s -C "$H" KSRC="$KSRC" BUILD="$BUILD" OUT="$OUT" "$@"; }

if "$H/deps.sh" > "$OUT/deps.log" 2>&1; then
	ktap_ok "perf-harness-deps"
else
	ktap_fail "perf-harness-deps" "tools/perf-harness/deps.sh could not install what is missing: $(tail -3 "$OUT/deps.log")"
fi

# The callbacks: both extracted and compiled, each object defining the
# kernel's intel_cpufreq_adjust_perf; and the extraction refuses a header
# that changed shape (a spec with one parameter renamed).
cb_fail=""
if ! hm callbacks > "$OUT/callbacks.log" 2>&1; then
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
	ktap_ok "perf-harness-callbacks" "series and 7.3 intel_cpufreq_adjust_perf() extracted and compiled: $(${CC:-gcc} --version | head -1 | sed 's/ (.*)//') ${CFLAGS:--O2 -g}"
else
	ktap_fail "perf-harness-callbacks" "$cb_fail"
fi

if hm exhaustive > "$OUT/exhaustive.log" 2>&1; then
	ktap_ok "perf-harness-exhaustive" "$(sed -n 's/^total: //p' "$OUT/exhaustive.log")"
else
	why=$(grep -m1 -E 'FAIL|error' "$OUT/exhaustive.log")
	ktap_fail "perf-harness-exhaustive" "${why:-see $OUT/exhaustive.log}"
fi

if hm fuzz FUZZ_SECONDS="$FUZZ_SECONDS" > "$OUT/fuzz-make.log" 2>&1; then
	ktap_ok "perf-harness-fuzz" "$(sed -n 's/^fuzz: \([0-9].*\), no invariant failure/\1/p' "$OUT/fuzz-make.log"), ASan+UBSan"
else
	why=$(grep -m1 -E 'invariant failed|ERROR|SUMMARY|error' "$OUT/fuzz.log" "$OUT/fuzz-make.log" 2>/dev/null | head -1)
	ktap_fail "perf-harness-fuzz" "${why:-see $OUT/fuzz-make.log}"
fi

# The differential check: a nested KTAP document.  Known deviations of the
# series (each named by its cause in the "# diff:" line) are reported, not
# failed; an unexplained difference, a broken invariant, a level above the
# usable one or an empty domain fails.  Zero differences is the series'
# target (issue 36); STRICT=1 makes any difference fail.
if ! hm "$OUT/diff" > "$OUT/diff-build.log" 2>&1; then
	ktap_fail "perf-harness-diff" "did not build: $(grep -m1 -E 'error|missing' "$OUT/diff-build.log")"
else
	"$OUT/diff" > "$OUT/diff.log" 2>&1
	rc=$?
	sed 's/^/    /' "$OUT/diff.log"
	grep '^# diff: ' "$OUT/diff.log"
	if [ "$rc" = 0 ]; then
		ktap_ok "perf-harness-diff"
	else
		ktap_fail "perf-harness-diff" "exited with status $rc"
	fi
fi

# The differential check can fail: against 7.3's text with its target
# rounded down, it must exit 1 and name unexplained differences.
if hm diff-mutant > "$OUT/diff-mutant.out" 2>&1; then
	ktap_ok "perf-harness-diff-finds-a-change" "$(sed -n 's/^# diff: //p' "$OUT/diff-mutant.out")"
else
	ktap_fail "perf-harness-diff-finds-a-change" "$(tail -2 "$OUT/diff-mutant.out")"
fi

[ "$KTAP_FAILED" = 0 ]
