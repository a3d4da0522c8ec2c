#!/bin/bash
# Suite 20: the style of the series, with the kernel's own tools.
#  - scripts/checkpatch.pl --strict on every patch in patches/: zero errors,
#    warnings and checks, except those listed in tests/checkpatch-exceptions,
#    each of which the cover letter must name and justify.
#  - scripts/kernel-doc -none on the new interfaces: no warning.
#  - every patch carries the project identity as author and a Signed-off-by.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
PATCHES=${PATCHES:-$REPO/patches}
SERIES_AUTHOR=${SERIES_AUTHOR:-Schedutil Perf Hints <perf-hints@example.org>}
# checkpatch runs scripts/spdxcheck.py with `python` (and silently skips the
# SPDX check where there is none), which needs ply: give it Debian's python3,
# for which python3-ply is installed.
pybin=$BUILD/tmp/suite20-bin
mkdir -p "$pybin"
ln -sf /usr/bin/python3 "$pybin/python"
export PATH=$pybin:/usr/bin:$PATH
if ! python -c 'import ply' 2>/dev/null; then
	echo "FAIL: checkpatch SPDX check: python3-ply is not installed (make deps)"
fi

[ -x "$KSRC/scripts/checkpatch.pl" ] || { echo "FAIL: checkpatch: no kernel tree in $KSRC"; exit 0; }
exceptions=$REPO/tests/checkpatch-exceptions
cover=$PATCHES/0000-cover-letter.patch
# allowed TYPEs for patch file NAME, from the exceptions file
allowed() {
	[ -f "$exceptions" ] || return 0
	awk -v n="$1" '$1 !~ /^#/ && NF >= 2 && index(n, $1) { print $2 }' "$exceptions"
}
if [ -f "$exceptions" ]; then
	while read -r pat type _; do
		case "$pat" in ''|'#'*) continue ;; esac
		if grep -q -- "$type" "$cover" 2>/dev/null; then
			echo "PASS: checkpatch exception $type ($pat) is justified in the cover letter"
		else
			echo "FAIL: checkpatch exception $type ($pat): the cover letter does not mention it"
		fi
	done <"$exceptions"
fi
n=0
for p in "$PATCHES"/*.patch; do
	[ -f "$p" ] || continue
	name=$(basename "$p")
	[ "$name" = 0000-cover-letter.patch ] && continue
	n=$((n + 1))
	out=$(cd "$KSRC" && ./scripts/checkpatch.pl --strict --show-types "$p" 2>&1)
	total=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p')
	ok=$(allowed "$name")
	left=$(echo "$out" | grep -E '^(ERROR|WARNING|CHECK):' | while IFS=: read -r _ type _; do
		echo "$ok" | grep -qx -- "$type" || echo "$type"
	done)
	if [ -z "$total" ]; then
		echo "$out" | tail -n 5
		echo "FAIL: checkpatch --strict $name: checkpatch printed no total"
	elif [ -z "$left" ]; then
		echo "PASS: checkpatch --strict $name${ok:+ (allowed: $(echo $ok))}"
	else
		echo "$out" | grep -E '^(ERROR|WARNING|CHECK)' | head -n 5
		echo "FAIL: checkpatch --strict $name: $(echo $left) ($total errors warnings checks)"
	fi
	from=$(sed -n 's/^From: //p' "$p" | head -n 1)
	if [ "$from" = "$SERIES_AUTHOR" ] && grep -qF "Signed-off-by: $SERIES_AUTHOR" "$p"; then
		echo "PASS: identity $name"
	else
		echo "FAIL: identity $name: author '$from', expected '$SERIES_AUTHOR' with a Signed-off-by"
	fi
done
[ $n -gt 0 ] || echo "FAIL: checkpatch: no patches in $PATCHES"

# kernel-doc of the interfaces the series adds (whole files where they are new)
kdoc() { # name file [-function f ...]
	local name=$1 file=$2
	shift 2
	if [ ! -f "$KSRC/$file" ]; then
		echo "FAIL: kernel-doc $name: $file is missing"
		return
	fi
	out=$(cd "$KSRC" && ./scripts/kernel-doc -none "$@" "$file" 2>&1)
	# kernel-doc -none prints nothing for a documented function; an
	# undocumented one asked for by -function is reported as a warning
	if [ -z "$out" ]; then
		echo "PASS: kernel-doc $name"
	else
		echo "$out" | head -n 5
		echo "FAIL: kernel-doc $name: $(echo "$out" | wc -l) warning line(s)"
	fi
}
kdoc intel_pstate_perf.h drivers/cpufreq/intel_pstate_perf.h
kdoc map_util_perf include/linux/sched/cpufreq.h -function map_util_perf
kdoc cpufreq_driver_adjust_perf drivers/cpufreq/cpufreq.c \
	-function cpufreq_driver_adjust_perf -function cpufreq_driver_has_adjust_perf
kdoc arch_get_max_freq_ratio arch/x86/kernel/smpboot.c -function arch_get_max_freq_ratio
if (cd "$KSRC" && ./scripts/kernel-doc -rst -function arch_get_max_freq_ratio arch/x86/kernel/smpboot.c 2>/dev/null) |
	grep -q "^.. c:function::.*arch_get_max_freq_ratio"; then
	echo "PASS: kernel-doc present arch_get_max_freq_ratio"
else
	echo "FAIL: kernel-doc present arch_get_max_freq_ratio: no kernel-doc comment found"
fi
# kernel-doc silently says nothing about a function it cannot find: make sure
# the documented functions are really there and documented.
for f in cpufreq_driver_adjust_perf cpufreq_driver_has_adjust_perf; do
	if (cd "$KSRC" && ./scripts/kernel-doc -rst -function "$f" drivers/cpufreq/cpufreq.c 2>/dev/null) |
		grep -q "^.. c:function::.*$f"; then
		echo "PASS: kernel-doc present $f"
	else
		echo "FAIL: kernel-doc present $f: no kernel-doc comment found"
	fi
done
exit 0
