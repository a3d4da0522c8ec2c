#!/bin/bash
# Suite 70: the series' HWP mapping in user space (tools/perf-harness): the
# exhaustive check and a libFuzzer run of intel_pstate_perf.h; both
# ->adjust_perf callbacks (series, mainline 7.3) and schedutil's perf path
# extracted from kernel text and compared (zero differences at the feature
# tip; each comparison must fail on a changed copy). Environment: REPO BUILD
# KSRC; FUZZ_SECONDS (20), M73_DEB. KTAP, plan 9.
# Documentation/project/perf-harness.md, differential.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
SERIES_BRANCH=${SERIES_BRANCH:-series}
BASE_TAG=${BASE_TAG:-base-${BASE_VERSION:-5.10.262-1}}
H=$REPO/tools/perf-harness
OUT=$BUILD/perf-harness
mkdir -p "$OUT"
# shellcheck source=../tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"

ktap_plan 9

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
# target at the feature tip; STRICT=1 makes any difference fail.
# diff_result NAME PROGRAM: build and run a differential check of
# tools/perf-harness, nest its KTAP document, repeat its "# diff:" line, and
# report NAME from its exit status
diff_result() {
	local prog=$OUT/$2 rc
	if ! hm "$prog" > "$prog-build.log" 2>&1; then
		ktap_fail "$1" "did not build: $(grep -m1 -E 'extract:|error|missing' "$prog-build.log")"
		return
	fi
	"$prog" > "$prog.log" 2>&1
	rc=$?
	sed 's/^/    /' "$prog.log"
	grep '^# diff: ' "$prog.log"
	if [ "$rc" = 0 ]; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "exited with status $rc"
	fi
}
diff_result perf-harness-diff diff

# The files of the series at commit $1 that the harness reads, into dir $2.
harness_files() {
	local f
	for f in drivers/cpufreq/intel_pstate.c drivers/cpufreq/intel_pstate_perf.h \
		include/linux/sched/cpufreq.h arch/x86/include/asm/msr-index.h; do
		mkdir -p "$2/$(dirname "$f")"
		git -C "$KSRC" show "$1:$f" > "$2/$f" || return 1
	done
}

# "N of M" differing inputs of the differential check on the tree in $1
diff_count() {
	make -s -C "$H" KSRC="$1" BUILD="$BUILD" OUT="$2" "$2/diff" > "$2.build.log" 2>&1 &&
		{ "$2/diff" > "$2.log" 2>&1; sed -n 's/^# diff: \([0-9]*\) of .*/\1/p' "$2.log"; }
}

# The feature tip: the parent of the first commit with a deviation label.
first_dev=$(git -C "$KSRC" log --reverse --format='%H %s' "$BASE_TAG..$SERIES_BRANCH" 2>/dev/null |
	awk '$2 ~ /^\[(RFC|5\.10-only)\]$/ { print $1; exit }')
if ! git -C "$KSRC" rev-parse -q --verify "$SERIES_BRANCH^{commit}" > /dev/null; then
	ktap_fail "perf-harness-diff-strict-feature" "no branch $SERIES_BRANCH in $KSRC"
else
	feature=${first_dev:+$first_dev^}
	feature=$(git -C "$KSRC" rev-parse --short=12 "${feature:-$SERIES_BRANCH}")
	ft=$OUT/feature-tree
	rm -rf "$ft" && mkdir -p "$ft"
	if ! harness_files "$feature" "$ft" 2> "$OUT/feature-tree.log"; then
		ktap_fail "perf-harness-diff-strict-feature" "cannot extract $feature: $(head -1 "$OUT/feature-tree.log")"
	elif ! make -s -C "$H" KSRC="$ft" BUILD="$BUILD" OUT="$OUT/feature" "$OUT/feature/diff" > "$OUT/feature-build.log" 2>&1; then
		ktap_fail "perf-harness-diff-strict-feature" "did not build at $feature: $(grep -m1 -E 'error|missing|extract' "$OUT/feature-build.log")"
	else
		"$OUT/feature/diff" --strict > "$OUT/feature-diff.log" 2>&1
		rc=$?
		sed 's/^/    /' "$OUT/feature-diff.log"
		note="feature tip $feature ($(git -C "$KSRC" log -1 --format=%s "$feature")): $(sed -n 's/^# diff: //p' "$OUT/feature-diff.log")"
		if [ "$rc" = 0 ]; then
			ktap_ok "perf-harness-diff-strict-feature" "$note"
		else
			ktap_fail "perf-harness-diff-strict-feature" "$note; exited with status $rc"
		fi
	fi
	# Per deviation: the differing inputs before it and with it.
	if [ -n "$first_dev" ]; then
		prev=$(sed -n 's/^# diff: \([0-9]*\) of .*/\1/p' "$OUT/feature-diff.log" 2> /dev/null)
		git -C "$KSRC" log --reverse --format='%H' "$first_dev^..$SERIES_BRANCH" |
			while read -r c; do
				git -C "$KSRC" diff --quiet "$c^" "$c" -- drivers/cpufreq/intel_pstate.c \
					drivers/cpufreq/intel_pstate_perf.h && continue
				d=$OUT/dev-$(git -C "$KSRC" rev-parse --short=12 "$c")
				rm -rf "$d-tree" && mkdir -p "$d-tree"
				harness_files "$c" "$d-tree" 2> /dev/null || { echo "# deviation $c: cannot extract"; continue; }
				n=$(diff_count "$d-tree" "$d")
				echo "# deviation \"$(git -C "$KSRC" log -1 --format=%s "$c")\": ${prev:-?} inputs differ from 7.3 without it, ${n:-?} with it"
				prev=$n
			done
	fi
fi

# The differential check can fail: against 7.3's text with its target
# rounded down, it must exit 1 and name unexplained differences.
if hm diff-mutant > "$OUT/diff-mutant.out" 2>&1; then
	ktap_ok "perf-harness-diff-finds-a-change" "$(sed -n 's/^# diff: //p' "$OUT/diff-mutant.out")"
else
	ktap_fail "perf-harness-diff-finds-a-change" "$(tail -2 "$OUT/diff-mutant.out")"
fi

# schedutil's perf path against 7.3's: no difference at all.
diff_result perf-harness-sugov-diff sugov-diff

# It can fail: against the series' text with sugov_hold_perf() ignoring the
# uclamp maximum, it must exit 1 with differences.
if hm sugov-diff-mutant > "$OUT/sugov-diff-mutant.out" 2>&1; then
	ktap_ok "perf-harness-sugov-diff-finds-a-change" "$(sed -n 's/^# diff: //p' "$OUT/sugov-diff-mutant.out")"
else
	ktap_fail "perf-harness-sugov-diff-finds-a-change" "$(tail -2 "$OUT/sugov-diff-mutant.out")"
fi

[ "$KTAP_FAILED" = 0 ]
