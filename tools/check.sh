#!/bin/bash
# Run every tests/[0-9][0-9]-*.sh in order and count their KTAP (tools/ktap.py);
# last line "N passed, N failed[, N skipped]". harness.md, "Tool reference".
set -uo pipefail

export REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
export BUILD=${BUILD:-$REPO/build}
export KSRC=${KSRC:-$BUILD/linux}
export CHECK_RUN_ID=${CHECK_RUN_ID:-$(date +%s)-$$}

pass=0 fail=0 skip=0
emu_pass=0 emu_fail=0 emu_skip=0
skips=() fails=() cached=() times=()
run_start=${CHECK_START:-}
case "$run_start" in '' | *[!0-9]*) run_start=$(date +%s) ;; esac
first=""
# suite_key SUITE: the key of a "cache: whole input" suite (harness.md, "Test suites")
suite_key() {
	{
		git -C "$REPO" ls-files -s; git -C "$REPO" diff HEAD; git -C "$REPO" status --porcelain
		git -C "$KSRC" show-ref; git -C "$KSRC" symbolic-ref -q HEAD; git -C "$KSRC" status --porcelain -uno
		dpkg-query -W; env | grep -E '^(REPO|BUILD|KSRC|BASE_[A-Z_]*|M73_[A-Z_]*|QEMU_[A-Z_]*|SPARSE_VERSION|PATCHES|SERIES_[A-Z_]*|LLVM|ARCH|CC)='; echo "$1"
	} 2>&1 | sha256sum | cut -c1-16
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in "$REPO"/tests/[0-9][0-9]-*.sh; do
	[ -f "$t" ] || continue
	suite=$(basename "$t" .sh)
	skip_it=${TESTS:+1}
	for p in ${TESTS:-}; do case "$suite" in "$p"*) skip_it= ;; esac; done
	[ -z "$skip_it" ] || continue
	echo "=== $suite"
	start=$(date +%s)
	[ -n "$first" ] || first=$start
	rec='' key=''
	if grep -q '^# cache: whole input' "$t"; then
		key=$(suite_key "$suite")
		rec=$BUILD/state/suite-$suite-$key.ktap
	fi
	if [ -n "$rec" ] && [ -f "$rec" ] && [ "${CHECK_FRESH:-0}" != 1 ]; then
		when=$(date -r "$rec" '+%F %R')
		sed -E "/^ *ok [0-9]+ [^#]*\$/s/\$/ # cached $when $key/" "$rec" >"$out"
		rc=0 rec=
		sed 's/^/  /' "$out"
	else
		timeout -k 30 "${SUITE_TIMEOUT:-2400}" bash "$t" </dev/null 2>&1 | tee "$out" | sed -u 's/^/  /'
		rc=${PIPESTATUS[0]}
	fi
	p=0 f=0 s=0 c=0
	while IFS= read -r line; do
		case "$line" in
		"COUNT "*) read -r p f s c <<<"${line#COUNT }" ;;
		"FAIL "*) fails+=("${line#FAIL }") ;;
		"SKIP "*) skips+=("${line#SKIP }") ;;
		"CACHED "*) cached+=("${line#CACHED }") ;;
		esac
	done < <(python3 "$REPO/tools/ktap.py" count "$suite" "$out" "$rc" ||
		printf 'FAIL %s: tools/ktap.py could not count its output\nCOUNT 0 1 0 0\n' "$suite")
	case "$suite" in [0-9][0-9]-emulator-*) emu_pass=$((emu_pass + p)) emu_fail=$((emu_fail + f)) emu_skip=$((emu_skip + s)) ;; esac
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	[ -z "$rec" ] || [ "$rc" != 0 ] || [ "$f" != 0 ] || { mkdir -p "$BUILD/state" && cp "$out" "$rec"; }
	secs=$(($(date +%s) - start))
	echo "=== $suite: $p passed, $f failed, $s skipped$([ "$c" = 0 ] || echo ", $c cached"), ${secs}s"
	times+=("$suite $secs")
done
total=$(($(date +%s) - run_start))

list() { [ $# -lt 2 ] || { echo "$1"; shift; printf '  %s\n' "$@"; }; }
echo
list "Skipped:" "${skips[@]}"
list "Cached (passed in an earlier run with the same inputs, not run again; not counted as passed):" "${cached[@]}"
list "Failed:" "${fails[@]}"
# the cost in T_ref (first field of $BUILD/state/t_ref: seconds)
tref=$(awk 'NR == 1 { print $1 }' "$BUILD/state/t_ref" 2>/dev/null)
case "$tref" in '' | *[!0-9]* | 0) tref= ;; esac
[ -z "$first" ] || times=("before-the-suites(deps,tree) $((first - run_start))" "${times[@]}")
echo "Time per suite (s${tref:+; x T_ref}):"
printf '%s\n' "${times[@]}" | awk -v r="$tref" 'NF { if (r == "") printf "  %-28s %6d\n", $1, $2; else printf "  %-28s %6d  %5.2f\n", $1, $2, $2 / r }'
if [ -n "$tref" ]; then
	awk -v s="$total" -v r="$tref" -v m="$(cut -d' ' -f2- "$BUILD/state/t_ref" | head -n 1)" \
		'BEGIN { printf "Total: %d s = %.2f x T_ref (T_ref %d s: %s)\n", s, s / r, r, m }'
	grep -q 'warm ccache' "$BUILD/state/t_ref" &&
		echo "Note: T_ref was measured with a warm ccache (above): these multiples are not against a cold T_ref"
else
	echo "Total: $total s (no T_ref: the x86_64 test kernel was not built from nothing in $BUILD; to measure it: make clean, rm -f $BUILD/state/t_ref, an empty CCACHE_DIR, make kernel)"
fi
if [ $((emu_pass + emu_fail + emu_skip)) -gt 0 ]; then
	echo "Series checks: $((pass - emu_pass)) passed, $((fail - emu_fail)) failed, $((skip - emu_skip)) skipped"
	echo "Emulator self-checks (tests/NN-emulator-*): $emu_pass passed, $emu_fail failed, $emu_skip skipped"
fi
echo "$pass passed, $fail failed$([ $skip -eq 0 ] || echo ", $skip skipped")"
[ $fail -eq 0 ]
