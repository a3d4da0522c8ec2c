# shellcheck shell=bash
# Sourced by suites 21 and 24: the x86_64 test fragments (frags) and the
# kernel tree's worktree they build in ($BUILD/wt/bisect, created at the
# base when missing). Needs REPO BUILD KSRC; sets base branch build wt
# frags. series_wt makes sure the branch and the worktree exist; on
# failure it returns 1 with the reason in SERIES_WT_WHY (the suite fails
# its results with it).
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
base=base-$BASE_VERSION
branch=${SERIES_BRANCH:-series}
# shellcheck disable=SC2034 # used by the suites that source this
build=$REPO/tools/build-kernel.sh
wt=$BUILD/wt/bisect
SERIES_WT_WHY=

frags=("$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config")
for f in "$REPO"/configs/kunit*.config; do [ -f "$f" ] && frags+=("$f"); done

filter_frags() { "$REPO/tools/filter-fragments.sh" "$@"; }

series_wt() {
	mkdir -p "$BUILD/wt"
	if ! git -C "$KSRC" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		SERIES_WT_WHY="no branch $branch in $KSRC (make tree)"
		return 1
	fi
	if [ ! -e "$wt/.git" ]; then
		rm -rf "$wt"
		git -C "$KSRC" worktree prune
		if ! git -C "$KSRC" worktree add -q --detach "$wt" "$base"; then
			SERIES_WT_WHY="cannot create worktree $wt"
			return 1
		fi
	fi
}
