#!/bin/bash
# Suite 21: bisectability, the walk kernel built at the base and after every patch
# in $BUILD/wt/bisect; cached results (CHECK_FRESH=1 builds). harness.md, kernels.md.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/out/walk
. "$REPO/tools/lib/series-wt.sh"
. "$REPO/tools/lib/ktap.sh"

commits=$(git -C "$KSRC" rev-list --reverse "$base..$branch" 2>/dev/null)
# shellcheck disable=SC2086 # one word per commit
set -- $commits
ktap_plan $((1 + $#))
series_wt || ktap_stop "$SERIES_WT_WHY"

key=$(walk_key walk tests/21-series-build.sh)
record=$BUILD/state/walk-$key.pass
tip=$(git -C "$KSRC" rev-parse "$branch")
if [ "${CHECK_FRESH:-0}" != 1 ] && [ -f "$record" ] && walk_at "$tip"; then
	when=$(date -u -r "$record" '+%Y-%m-%d %H:%M UTC')
	echo "# the walk with these inputs (key $key) passed on $when: its results, not built again (CHECK_FRESH=1 builds)"
	while IFS= read -r name; do
		ktap_cached "$name" "$when $key"
	done <"$record"
	exit 0
fi
rm -f "$BUILD"/state/walk-*.pass
mkdir -p "$BUILD/state"
walk=$BUILD/state/walk.$$
: >"$walk"
i=0
failed0=$KTAP_FAILED
for c in "$base" $commits; do
	subj=$(git -C "$KSRC" log -1 --format=%s "$c" | tr "#" " ")
	[ "$c" = "$base" ] && label="base" || label=$(printf 'patch %02d: %s' "$i" "$subj")
	name="builds at $label"
	i=$((i + 1))
	if ! walk_at "$c"; then
		ktap_fail "$name" "$SERIES_WT_WHY"
		continue
	fi
	t0=$SECONDS
	only=1
	[ "$c" != "$base" ] || only=0
	if img=$(VMLINUX_ONLY=$only "$REPO/tools/kernel.sh" build walk 2>"$BUILD/state/walk.log"); then
		echo "$name" >>"$walk"
		ktap_ok "$name" "$((SECONDS - t0)) s"
		if [ "$c" = "$base" ]; then
			mkdir -p "$BUILD/out/walk-base"
			cp "$img" "$BUILD/out/walk-base/bzImage"
			base_key >"$BUILD/out/walk-base/key"
		fi
	else
		tail -n 8 "$BUILD/state/walk.log" | sed 's/^/  /'
		ktap_fail "$name" "see $out/build.log"
	fi
done
walk_at "$tip" || echo "# $SERIES_WT_WHY"
if [ "$KTAP_FAILED" = "$failed0" ] && [ "$(wc -l <"$walk")" = "$i" ]; then
	mv "$walk" "$record"
fi
rm -f "$walk"
exit 0
