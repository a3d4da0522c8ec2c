# shellcheck shell=bash
# KTAP output for the shell suites (sourced): its functions, called in the suite's own
# shell, not in a pipeline or $(...): harness.md, "Tool reference"; rules: "Test suites".

KTAP_N=0
KTAP_PLAN=0
KTAP_FAILED=0

ktap_plan() {
	KTAP_PLAN=$1 KTAP_N=0 KTAP_FAILED=0
	printf 'TAP version 13\n1..%s\n' "$1"
}

_ktap_name() { printf '%s' "$*" | tr '#\n' '  '; }
_ktap_diag() { printf '# %s: %s\n' "$1" "$(printf '%s' "$2" | tr '\n' ' ' | head -c 2000)"; }
# _ktap_result STATUS NAME [DIRECTIVE]: the next numbered result line
_ktap_result() { KTAP_N=$((KTAP_N + 1)); echo "$1 $KTAP_N $(_ktap_name "$2")${3:-}"; }

ktap_ok() {
	[ -z "${2:-}" ] || _ktap_diag "$1" "$2"
	_ktap_result ok "$1"
}

ktap_fail() {
	KTAP_FAILED=$((KTAP_FAILED + 1))
	_ktap_diag "$1" "${2:-failed}"
	_ktap_result "not ok" "$1"
}

ktap_cached() { _ktap_result ok "$1" " # cached $(_ktap_name "${2:-}")"; }
ktap_skip() { _ktap_result ok "$1" " # SKIP $(_ktap_name "${2:-}")"; }

ktap_check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then ktap_ok "$name"; else ktap_fail "$name" "$why"; fi
}
ktap_rc() { if [ "$2" = 0 ]; then ktap_ok "$1" "${4:-}"; else ktap_fail "$1" "$3"; fi; }

ktap_sub() {
	local name=$1 rc doc
	shift
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

ktap_skip_rest() { while [ "$KTAP_N" -lt "$KTAP_PLAN" ]; do ktap_skip "not reached" "$1"; done; }
ktap_fail_rest() { while [ "$KTAP_N" -lt "$KTAP_PLAN" ]; do ktap_fail "not reached" "$1"; done; }
ktap_stop() { ktap_fail_rest "$1"; exit "${2:-0}"; }
