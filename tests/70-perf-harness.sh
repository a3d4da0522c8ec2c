#!/bin/bash
# Suite 70: the series' HWP mapping in user space (tools/perf-harness);
# FUZZ_SECONDS (20), M73_DEB. perf-harness.md, differential.md.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
SERIES_BRANCH=${SERIES_BRANCH:-series}
BASE_TAG=${BASE_TAG:-base-${BASE_VERSION:?}}
H=$REPO/tools/perf-harness
OUT=$BUILD/perf-harness
mkdir -p "$OUT"
. "$REPO/tools/lib/ktap.sh"

ktap_plan 9

[ -f "$KSRC/drivers/cpufreq/intel_pstate_perf.h" ] ||
	ktap_stop "no series tree at KSRC=$KSRC (intel_pstate_perf.h missing)" 1

hm() { make -s -C "$H" KSRC="$KSRC" BUILD="$BUILD" OUT="$OUT" "$@"; }

# result NAME STATUS NOTE WHY: ok NAME with NOTE if STATUS is 0, else not ok with WHY
result() {
	if [ "$2" = 0 ]; then ktap_ok "$1" "$3"; else ktap_fail "$1" "$4"; fi
	[ "$2" != 0 ] || [ -z "$3" ] || keep "$1" "# $1: $3"
}

# Every result but deps and fuzz is cached under a key of its inputs (harness.md): a
# passed run records the lines they printed (keep NAME LINE), which a cached run repeats.
key=$({
	cd "$REPO" && find tools/perf-harness tests/70-perf-harness.sh base.sha256 -type f | sort | xargs sha256sum
	git -C "$KSRC" rev-parse "$BASE_TAG" "$SERIES_BRANCH" 2>&1
	gcc --version | head -n 1; clang --version 2>&1 | head -n 1
	dpkg-query -W -f='${Package} ${Version}\n' gcc-12 clang-14 libclang-rt-14-dev binutils make 2>&1
} | sha256sum | cut -c1-16)
record=$BUILD/state/perf-harness-$key.pass
kept=$OUT/kept.$$
: >"$kept"
when=
[ -n "${CHECK_FRESH:-}" ] || [ ! -f "$record" ] || when=$(date -r "$record" '+%F %R')
keep() { echo "$1 $2" >>"$kept"; }
# cached NAME: with a record, its lines and "ok NAME # cached"; else false
cached() {
	[ -n "$when" ] || return 1
	sed -n "s/^$1 //p" "$record"
	ktap_cached "$1" "$when $key"
}

"$REPO/tools/deps.sh" --perf > "$OUT/deps.log" 2>&1
result perf-harness-deps $? "" "tools/deps.sh --perf could not install what is missing: $(tail -3 "$OUT/deps.log")"

# The callbacks: both extracted and compiled, each defining intel_cpufreq_adjust_perf;
# and the extraction refuses a header that changed shape (one parameter renamed).
cached perf-harness-callbacks || {
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
	[ -z "$cb_fail" ]
	result perf-harness-callbacks $? "series and 7.3 intel_cpufreq_adjust_perf() extracted and compiled: $(${CC:-gcc} --version | head -1 | sed 's/ (.*)//') ${CFLAGS:--O2 -g}" "$cb_fail"
}

cached perf-harness-exhaustive || {
	hm exhaustive > "$OUT/exhaustive.log" 2>&1
	result perf-harness-exhaustive $? "$(sed -n 's/^total: //p' "$OUT/exhaustive.log")" \
		"$(grep -m1 -E 'FAIL|error' "$OUT/exhaustive.log" || echo "see $OUT/exhaustive.log")"
}

hm fuzz FUZZ_SECONDS="$FUZZ_SECONDS" > "$OUT/fuzz-make.log" 2>&1
result perf-harness-fuzz $? "$(sed -n 's/^fuzz: \([0-9].*\), no invariant failure/\1/p' "$OUT/fuzz-make.log"), ASan+UBSan" \
	"$(grep -m1 -E 'invariant failed|ERROR|SUMMARY|error' "$OUT/fuzz.log" "$OUT/fuzz-make.log" 2>/dev/null | head -1 | grep . || echo "see $OUT/fuzz-make.log")"

# The differential checks, each a nested KTAP document (perf-harness.md).
# check_run TREE DIR PROG [ARG...]: build tools/perf-harness's PROG from the
# series tree TREE into DIR and run it with ARGs, output in DIR/PROG.log and
# its status in rc; fails, with the reason in why, if it did not build.
check_run() {
	local tree=$1 dir=$2 prog=$3
	shift 3
	mkdir -p "$dir"
	if ! make -s -C "$H" KSRC="$tree" BUILD="$BUILD" OUT="$dir" "$dir/$prog" > "$dir/$prog-build.log" 2>&1; then
		why=$(grep -m1 -E 'extract:|error|missing' "$dir/$prog-build.log")
		return 1
	fi
	"$dir/$prog" "$@" > "$dir/$prog.log" 2>&1
	rc=$?
}

# diff_result NAME PROG: run PROG on KSRC, nest its KTAP document, repeat its
# "# diff:" line, and report NAME from its exit status
diff_result() {
	cached "$1" && return
	if ! check_run "$KSRC" "$OUT" "$2"; then
		ktap_fail "$1" "did not build: $why"
		return
	fi
	sed 's/^/    /' "$OUT/$2.log"
	keep "$1" "$(grep '^# diff: ' "$OUT/$2.log")"
	grep '^# diff: ' "$OUT/$2.log"
	result "$1" "$rc" "" "exited with status $rc"
}
diff_result perf-harness-diff diff

# The files of the series at commit $1 that the harness reads, into dir $2.
harness_files() {
	local f
	rm -rf "$2"
	for f in drivers/cpufreq/intel_pstate.c drivers/cpufreq/intel_pstate_perf.h \
		include/linux/sched/cpufreq.h arch/x86/include/asm/msr-index.h; do
		mkdir -p "$2/$(dirname "$f")"
		git -C "$KSRC" show "$1:$f" > "$2/$f" || return 1
	done
}

diff_n() { sed -n 's/^# diff: \([0-9]*\) of .*/\1/p' "$1" 2> /dev/null; }

# The feature tip: the parent of the first commit with a deviation label.
first_dev=$(git -C "$KSRC" log --reverse --format='%H %s' "$BASE_TAG..$SERIES_BRANCH" 2>/dev/null |
	awk '$2 ~ /^\[(RFC|5\.10-only)\]$/ { print $1; exit }')
if cached perf-harness-diff-strict-feature; then
	:
elif ! git -C "$KSRC" rev-parse -q --verify "$SERIES_BRANCH^{commit}" > /dev/null; then
	ktap_fail "perf-harness-diff-strict-feature" "no branch $SERIES_BRANCH in $KSRC"
else
	feature=${first_dev:+$first_dev^}
	feature=$(git -C "$KSRC" rev-parse --short=12 "${feature:-$SERIES_BRANCH}")
	fl=$OUT/feature/diff.log
	if ! harness_files "$feature" "$OUT/feature-tree" 2> "$OUT/feature-tree.log"; then
		ktap_fail "perf-harness-diff-strict-feature" "cannot extract $feature: $(head -1 "$OUT/feature-tree.log")"
	elif ! check_run "$OUT/feature-tree" "$OUT/feature" diff --strict; then
		ktap_fail "perf-harness-diff-strict-feature" "did not build at $feature: $why"
	else
		sed 's/^/    /' "$fl"
		note="feature tip $feature ($(git -C "$KSRC" log -1 --format=%s "$feature")): $(sed -n 's/^# diff: //p' "$fl")"
		result perf-harness-diff-strict-feature "$rc" "$note" "$note; exited with status $rc"
	fi
	# Per deviation: the differing inputs before it and with it.
	if [ -n "$first_dev" ]; then
		prev=$(diff_n "$fl")
		git -C "$KSRC" log --reverse --format='%H' "$first_dev^..$SERIES_BRANCH" |
			while read -r c; do
				git -C "$KSRC" diff --quiet "$c^" "$c" -- drivers/cpufreq/intel_pstate.c \
					drivers/cpufreq/intel_pstate_perf.h && continue
				d=$OUT/dev-$(git -C "$KSRC" rev-parse --short=12 "$c")
				harness_files "$c" "$d-tree" 2> /dev/null || { echo "# deviation $c: cannot extract"; continue; }
				n=$(check_run "$d-tree" "$d" diff && diff_n "$d/diff.log")
				keep perf-harness-diff-strict-feature "# deviation \"$(git -C "$KSRC" log -1 --format=%s "$c")\": ${prev:-?} inputs differ from 7.3 without it, ${n:-?} with it"
				tail -n 1 "$kept" | cut -d' ' -f2-
				prev=$n
			done
	fi
fi

# mutant_result NAME TARGET: the check of make TARGET, run on a changed copy
# of kernel text, must fail and name the differences.
mutant_result() {
	cached "$1" && return
	hm "$2" > "$OUT/$2.out" 2>&1
	result "$1" $? "$(sed -n 's/^# diff: //p' "$OUT/$2.out")" "$(tail -2 "$OUT/$2.out")"
}
# Against 7.3's text with its target rounded down: unexplained differences.
mutant_result perf-harness-diff-finds-a-change diff-mutant

# schedutil's perf path against 7.3's: no difference at all.
diff_result perf-harness-sugov-diff sugov-diff

# Against the series' text with sugov_hold_perf() ignoring the uclamp
# maximum: differences.
mutant_result perf-harness-sugov-diff-finds-a-change sugov-diff-mutant

if [ "$KTAP_FAILED" = 0 ] && [ -z "$when" ]; then
	mkdir -p "$BUILD/state" && mv "$kept" "$record"
fi
rm -f "$kept"
[ "$KTAP_FAILED" = 0 ]
