#!/bin/bash
# Suite 24: the whole series builds in the configurations its headers
# touch: the variant-* kernels of configs/kernels (no intel_pstate and no
# uclamp; no cpufreq; no SMP and no ACPI), vmlinux only, at the series tip
# in the walk's worktree and build directory (tools/lib/series-wt.sh),
# after suite 21: kbuild reconfigures and rebuilds what each variant's
# options touch, in the order of configs/kernels. Results whose every input
# is that of a run that passed here before are reported as
# "ok ... # cached <date> <key>", never as passes; CHECK_FRESH=1 builds.
# KTAP, plan 3 (one per variant).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
# shellcheck source=tools/lib/series-wt.sh
. "$REPO/tools/lib/series-wt.sh"
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
variants=$("$REPO/tools/kernel.sh" names | grep '^variant-')
# shellcheck disable=SC2086 # one word per variant
ktap_plan "$(echo $variants | wc -w)"
if ! series_wt; then
	ktap_fail_rest "$SERIES_WT_WHY"
	exit 0
fi
key=$(walk_key variants tests/24-series-variants.sh)
record=$BUILD/state/variants-$key.pass
if [ "${CHECK_FRESH:-0}" != 1 ] && [ -f "$record" ]; then
	when=$(date -u -r "$record" '+%Y-%m-%d %H:%M UTC')
	echo "# the variants with these inputs (key $key) built on $when: their results, not built again (CHECK_FRESH=1 builds)"
	while IFS= read -r name; do
		ktap_cached "$name" "$when $key"
	done <"$record"
	exit 0
fi
rm -f "$BUILD"/state/variants-*.pass
if ! walk_at "$branch"; then
	ktap_fail_rest "$SERIES_WT_WHY"
	exit 0
fi
done_=$BUILD/state/variants.$$
: >"$done_"
failed0=$KTAP_FAILED
for v in $variants; do
	name="builds with the series: $v"
	t0=$SECONDS
	if VMLINUX_ONLY=1 "$REPO/tools/kernel.sh" build "$v" >/dev/null 2>"$BUILD/state/$v.log"; then
		ktap_ok "$name" "$((SECONDS - t0)) s"
		echo "$name" >>"$done_"
	else
		tail -n 8 "$BUILD/state/$v.log" | sed 's/^/  /'
		ktap_fail "$name" "see $BUILD/out/walk/build.log"
	fi
done
if [ "$KTAP_FAILED" = "$failed0" ]; then
	mv "$done_" "$record"
fi
rm -f "$done_"
exit 0
