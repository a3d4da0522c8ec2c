#!/bin/bash
# Suite 21: bisectability, the walk kernel built at the base and after every patch
# in $BUILD/wt/bisect; cached results (CHECK_FRESH=1 builds). harness.md, kernels.md.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
. "$REPO/tools/lib/series-wt.sh"
. "$REPO/tools/lib/ktap.sh"

commits=$(git -C "$KSRC" rev-list --reverse "$base..$branch" 2>/dev/null)
# shellcheck disable=SC2086 # one word per commit
set -- $commits
ktap_plan $((1 + $#))
series_wt || ktap_stop "$SERIES_WT_WHY"

# the base step's bzImage is suite 57's A side
walk_keep() {
	[ "$1" != "$base" ] && return
	mkdir -p "$BUILD/out/walk-base" && cp "$2" "$BUILD/out/walk-base/bzImage" && base_key >"$BUILD/out/walk-base/key"
}
walk walk tests/21-series-build.sh ""
