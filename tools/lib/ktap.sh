# shellcheck shell=bash
# KTAP output for the harness's shell suites (sourced, not run).
#
#   ktap_plan N              "TAP version 13" and the plan "1..N"; first
#   ktap_ok NAME [NOTE]      ok K NAME (a NOTE goes on a diagnostic line
#                            "# NAME: NOTE" before it)
#   ktap_fail NAME WHY       # WHY, then not ok K NAME
#   ktap_skip NAME WHY       ok K NAME # SKIP WHY
#   ktap_cached NAME NOTE    ok K NAME # cached NOTE (a result reused from
#                            an earlier run with the same inputs)
#   ktap_check NAME WHY CMD...  ok when CMD succeeds, else not ok with WHY
#   ktap_sub NAME CMD...     runs CMD, whose stdout is a KTAP document of its
#                            own (a nested test), indented by four spaces;
#                            then ok K NAME when CMD exited 0 and printed a
#                            document, else not ok
#   ktap_skip_rest WHY       every result not yet reported, as a skip
#   ktap_fail_rest WHY       every result not yet reported, as a failure
#
# Results are numbered in the order reported: call these in the suite's own
# shell (not in a pipeline or a $(...)). Names should not contain '#';
# KTAP_FAILED counts the not-ok results. Rules: tools/ktap.py, harness.md.

KTAP_N=0
KTAP_PLAN=0
KTAP_FAILED=0

ktap_plan() {
	KTAP_PLAN=$1 KTAP_N=0 KTAP_FAILED=0
	echo "TAP version 13"
	echo "1..$1"
}

_ktap_name() { printf '%s' "$*" | tr '#\n' '  '; }

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	[ -z "${2:-}" ] || printf '# %s: %s\n' "$1" "$(printf '%s' "$2" | tr '\n' ' ' | head -c 2000)"
	echo "ok $KTAP_N $(_ktap_name "$1")"
}

ktap_cached() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $(_ktap_name "$1") # cached $(_ktap_name "${2:-}")"
}

ktap_fail() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	printf '# %s: %s\n' "$1" "$(printf '%s' "${2:-failed}" | tr '\n' ' ' | head -c 2000)"
	echo "not ok $KTAP_N $(_ktap_name "$1")"
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $(_ktap_name "$1") # SKIP $(_ktap_name "${2:-}")"
}

ktap_check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then ktap_ok "$name"; else ktap_fail "$name" "$why"; fi
}

ktap_sub() {
	local name=$1 rc
	shift
	local doc
	doc=$(mktemp)
	"$@" | tee "$doc" | sed -u 's/^/    /'
	rc=${PIPESTATUS[0]}
	if ! grep -q '^TAP version' "$doc"; then
		ktap_fail "$name" "printed no KTAP document (exit status $rc)"
	elif [ "$rc" = 0 ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "exited with status $rc"
	fi
	rm -f "$doc"
}

ktap_skip_rest() {
	while [ "$KTAP_N" -lt "$KTAP_PLAN" ]; do ktap_skip "not reached" "$1"; done
}

ktap_fail_rest() {
	while [ "$KTAP_N" -lt "$KTAP_PLAN" ]; do ktap_fail "not reached" "$1"; done
}
