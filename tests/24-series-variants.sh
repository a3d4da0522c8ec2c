#!/bin/bash
# Suite 24: the series builds as each variant-* kernel (vmlinux), from suite
# 21's tip build; cached as in 21. harness.md "Test suites", kernels.md.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
. "$REPO/tools/lib/series-wt.sh"
. "$REPO/tools/lib/ktap.sh"
variants=$("$REPO/tools/kernel.sh" names | grep '^variant-')
# shellcheck disable=SC2086 # one word per variant
ktap_plan "$(echo $variants | wc -w)"
series_wt || ktap_stop "$SERIES_WT_WHY"
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
walk_at "$branch" || ktap_stop "$SERIES_WT_WHY"
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
[ "$KTAP_FAILED" != "$failed0" ] || mv "$done_" "$record"
rm -f "$done_"
exit 0
