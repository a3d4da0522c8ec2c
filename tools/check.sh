#!/bin/bash
# Run the test suites: every tests/[0-9][0-9]-*.sh, in order.
#
# Each suite runs with REPO, BUILD, KSRC (tree with the series applied) and
# CHECK_RUN_ID in its environment and stdin from /dev/null. Its stdout lines
#   PASS: <name>
#   FAIL: <name>: <why>
#   SKIP: <name>: <why>
# are counted; other lines are passed through as log. A suite that exits
# non-zero without printing a FAIL counts as one FAIL. The last line is
#   N passed, N failed[, N skipped]
# and the exit status is non-zero if anything failed.
# TESTS='01 10' limits the run to suites whose file name starts with those.
# Without TESTS, the suites in FULL_ONLY (default: 24, the configuration
# variants) run only with CHECK_FULL=1 (make check-full): with it a cold
# run on a slow 2-core machine does not yet fit CI's 90 minutes (issue 22). The run names the suites it left out
# before its last line.
# The run's cost is stated in T_ref, the wall time of the cold build of
# the x86_64 test kernel in this build directory (tools/test-kernel.sh
# records it in $BUILD/state/t_ref the first time it builds that kernel
# from nothing, with the ccache hits of that build): the last lines give
# each suite's time (deps and tree first, when the Makefile passes
# CHECK_START), the total, and both divided by T_ref.
# SUITE_TIMEOUT (seconds, default 2400) bounds each suite; past it the suite
# is killed and counts as a FAIL.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
export REPO=${REPO:-$(dirname "$here")}
export BUILD=${BUILD:-$REPO/build}
export KSRC=${KSRC:-$BUILD/linux}
export CHECK_RUN_ID=${CHECK_RUN_ID:-$(date +%s)-$$}

FULL_ONLY=${FULL_ONLY-24}
pass=0 fail=0 skip=0
skips=() fails=() notrun=() times=()
run_start=${CHECK_START:-}
case "$run_start" in '' | *[!0-9]*) run_start=$(date +%s) ;; esac
first=""
for t in "$REPO"/tests/[0-9][0-9]-*.sh; do
	[ -f "$t" ] || continue
	suite=$(basename "$t" .sh)
	if [ -n "${TESTS:-}" ]; then
		sel=""
		for p in $TESTS; do case "$suite" in "$p"*) sel=1 ;; esac; done
		[ -n "$sel" ] || continue
	elif [ "${CHECK_FULL:-0}" != 1 ]; then
		sel=""
		for p in $FULL_ONLY; do case "$suite" in "$p"*) sel=1 ;; esac; done
		if [ -n "$sel" ]; then
			notrun+=("$suite")
			continue
		fi
	fi
	echo "=== $suite"
	start=$(date +%s)
	[ -n "$first" ] || first=$start
	suite_fail=0
	rc=""
	while IFS= read -r line; do
		case "$line" in
		PASS:*) pass=$((pass + 1)); echo "$line" ;;
		FAIL:*) fail=$((fail + 1)); suite_fail=$((suite_fail + 1)); fails+=("$suite: ${line#FAIL: }"); echo "$line" ;;
		SKIP:*) skip=$((skip + 1)); skips+=("$suite: ${line#SKIP: }"); echo "$line" ;;
		__CHECK_RC__=*) rc=${line#__CHECK_RC__=} ;;
		*) echo "  $line" ;;
		esac
	done < <(timeout -k 30 "${SUITE_TIMEOUT:-2400}" bash "$t" </dev/null; echo "__CHECK_RC__=$?")
	if [ "${rc:-1}" != 0 ] && [ $suite_fail -eq 0 ]; then
		fail=$((fail + 1))
		why="exited with status ${rc:-?} without reporting a failure"
		[ "${rc:-}" != 124 ] || why="killed after SUITE_TIMEOUT=${SUITE_TIMEOUT:-2400}s"
		fails+=("$suite: $why")
		echo "FAIL: $suite: $why"
	fi
	secs=$(($(date +%s) - start))
	echo "=== $suite done in ${secs}s"
	times+=("$suite $secs")
done
total=$(($(date +%s) - run_start))

echo
if [ ${#skips[@]} -gt 0 ]; then
	echo "Skipped:"
	printf '  %s\n' "${skips[@]}"
fi
if [ ${#fails[@]} -gt 0 ]; then
	echo "Failed:"
	printf '  %s\n' "${fails[@]}"
fi
if [ ${#notrun[@]} -gt 0 ]; then
	echo "Not run (make check-full runs them): ${notrun[*]}"
fi
# the cost in T_ref (first field of $BUILD/state/t_ref: seconds)
tref=$(awk 'NR == 1 { print $1 }' "$BUILD/state/t_ref" 2>/dev/null)
case "$tref" in '' | *[!0-9]* | 0) tref= ;; esac
[ -z "$first" ] || times=("before-the-suites(deps,tree) $((first - run_start))" "${times[@]}")
echo "Time per suite (s${tref:+; x T_ref}):"
for t in "${times[@]}"; do
	# shellcheck disable=SC2086 # "suite seconds": no spaces or globs
	set -- $t
	if [ -n "$tref" ]; then
		awk -v n="$1" -v s="$2" -v r="$tref" 'BEGIN { printf "  %-28s %6d  %5.2f\n", n, s, s / r }'
	else
		printf '  %-28s %6d\n' "$1" "$2"
	fi
done
if [ -n "$tref" ]; then
	awk -v s="$total" -v r="$tref" -v m="$(cut -d' ' -f2- "$BUILD/state/t_ref" | head -n 1)" \
		'BEGIN { printf "Total: %d s = %.2f x T_ref (T_ref %d s: %s)\n", s, s / r, r, m }'
	if grep -q 'warm ccache' "$BUILD/state/t_ref"; then
		echo "Note: T_ref was measured with a warm ccache (above): these multiples are not against a cold T_ref"
	fi
else
	echo "Total: $total s (no T_ref: the x86_64 test kernel was not built from nothing in $BUILD; to measure it: make clean, rm -f $BUILD/state/t_ref, an empty CCACHE_DIR, make kernel)"
fi
summary="$pass passed, $fail failed"
[ $skip -eq 0 ] || summary="$summary, $skip skipped"
echo "$summary"
[ $fail -eq 0 ]
