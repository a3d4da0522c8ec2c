#!/bin/bash
# Suite 20: the series' style (harness.md, "Test suites"); suite 71 runs it on the
# mainline series (PATCHES, KSRC and CHECKPATCH_EXCEPTIONS set, KDOC=7.3).
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
PATCHES=${PATCHES:-$REPO/patches}
SERIES_AUTHOR=${SERIES_AUTHOR:-Schedutil Perf Hints <perf-hints@example.org>}
# checkpatch runs spdxcheck.py with `python` (silently skipped where there is none),
# which needs ply: give it Debian's python3, for which python3-ply is installed
pybin=$BUILD/tmp/suite20-bin
mkdir -p "$pybin"
ln -sf /usr/bin/python3 "$pybin/python"
export PATH=$pybin:/usr/bin:$PATH
exceptions=${CHECKPATCH_EXCEPTIONS:-$REPO/tests/checkpatch-exceptions}
# kernel-doc: "name file [-function f ...]" of the interfaces the series adds (whole
# files where they are new), and "file:function" that must be there and documented
if [ "${KDOC:-}" = 7.3 ]; then
	kdocs=("intel_pstate_adjust_perf.h drivers/cpufreq/intel_pstate_adjust_perf.h"
		"intel_pstate_trace.h drivers/cpufreq/intel_pstate_trace.h")
	present=(drivers/cpufreq/intel_pstate_adjust_perf.h:intel_pstate_adjust_perf_levels)
else
	kdocs=("intel_pstate_perf.h drivers/cpufreq/intel_pstate_perf.h"
		"map_util_perf include/linux/sched/cpufreq.h -function map_util_perf"
		"cpufreq_driver_adjust_perf drivers/cpufreq/cpufreq.c -function cpufreq_driver_adjust_perf -function cpufreq_driver_has_adjust_perf"
		"arch_get_max_freq_ratio arch/x86/kernel/smpboot.c -function arch_get_max_freq_ratio")
	present=(arch/x86/kernel/smpboot.c:arch_get_max_freq_ratio include/linux/sched/cpufreq.h:map_util_perf
		drivers/cpufreq/cpufreq.c:cpufreq_driver_adjust_perf drivers/cpufreq/cpufreq.c:cpufreq_driver_has_adjust_perf)
fi
cover=$PATCHES/0000-cover-letter.patch
patches=()
for p in "$PATCHES"/*.patch; do
	[ -f "$p" ] && [ "$(basename "$p")" != 0000-cover-letter.patch ] && patches+=("$p")
done
# the exceptions: "part-of-patch-file-name TYPE" lines
exc=$(awk '$1 != "" && $1 !~ /^#/' "$exceptions" 2>/dev/null)
nexc=$(grep -c . <<<"$exc")
. "$REPO/tools/lib/ktap.sh"
ktap_plan $((1 + nexc + 1 + 2 * ${#patches[@]} + ${#kdocs[@]} + ${#present[@]}))
ktap_check "checkpatch SPDX check: python3-ply" "python3-ply is not installed (make deps)" \
	python -c 'import ply'

[ -x "$KSRC/scripts/checkpatch.pl" ] || ktap_stop "no kernel tree in $KSRC (no scripts/checkpatch.pl)"
while read -r pat type _; do
	[ -z "$pat" ] || ktap_check "checkpatch exception $type ($pat) is justified in the cover letter" \
		"the cover letter does not mention it" grep -q -- "$type" "$cover"
done <<<"$exc"
ktap_check "checkpatch: patches in ${PATCHES#"$REPO"/}" "no patches in $PATCHES" [ ${#patches[@]} -gt 0 ]
for p in "${patches[@]}"; do
	name=$(basename "$p")
	out=$(cd "$KSRC" && ./scripts/checkpatch.pl --strict --show-types "$p" 2>&1)
	total=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p')
	# the types it reports that the exceptions do not allow for this file
	ok=$(awk -v n="$name" 'NF >= 2 && index(n, $1) { print $2 }' <<<"$exc")
	left=$(echo "$out" | awk -F: '/^(ERROR|WARNING|CHECK):/ { print $2 }' | grep -vxF -f <(echo "$ok"))
	if [ -z "$total" ]; then
		echo "$out" | tail -n 5 | sed 's/^/  /'
		ktap_fail "checkpatch --strict $name" "checkpatch printed no total"
	elif [ -z "$left" ]; then
		ktap_ok "checkpatch --strict $name" "${ok:+allowed: ${ok//$'\n'/ }}"
	else
		echo "$out" | grep -E '^(ERROR|WARNING|CHECK)' | head -n 5 | sed 's/^/  /'
		ktap_fail "checkpatch --strict $name" "${left//$'\n'/ } ($total errors warnings checks)"
	fi
	from=$(sed -n 's/^From: //p' "$p" | head -n 1)
	[ "$from" = "$SERIES_AUTHOR" ] && grep -qF "Signed-off-by: $SERIES_AUTHOR" "$p"
	ktap_rc "identity $name" $? "author '$from', expected '$SERIES_AUTHOR' with a Signed-off-by"
done

kdoc() { # name file [-function f ...]
	local name=$1 file=$2
	shift 2
	[ -f "$KSRC/$file" ] || { ktap_fail "kernel-doc $name" "$file is missing"; return; }
	out=$(cd "$KSRC" && ./scripts/kernel-doc -none "$@" "$file" 2>&1)
	# kernel-doc -none prints nothing for a documented function; an
	# undocumented one asked for by -function is reported as a warning
	if [ -z "$out" ]; then
		ktap_ok "kernel-doc $name"
	else
		echo "$out" | head -n 5 | sed 's/^/  /'
		ktap_fail "kernel-doc $name" "$(echo "$out" | wc -l) warning line(s)"
	fi
}
for k in "${kdocs[@]}"; do
	# shellcheck disable=SC2086 # words: name, file, options
	kdoc $k
done
# kernel-doc says nothing about a function it cannot find (-none passes on it):
# each function asked for by name must be there and documented
for ff in "${present[@]}"; do
	f=${ff#*:}
	(cd "$KSRC" && ./scripts/kernel-doc -rst -function "$f" "${ff%%:*}" 2>/dev/null) |
		grep -q "^.. c:function::.*\\b$f\\b"
	ktap_rc "kernel-doc present $f" $? "no kernel-doc comment found in ${ff%%:*}"
done
exit 0
