# Sourced by suites 21 and 24: the x86_64 test fragments (frags) and the
# kernel tree's worktree they build in ($BUILD/wt/bisect, created at the
# base when missing). Needs REPO BUILD KSRC and LABEL (for FAIL lines);
# sets base branch build wt frags; on a missing branch or worktree it
# prints a FAIL and the suite exits.
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
base=base-$BASE_VERSION
branch=${SERIES_BRANCH:-series}
build=$REPO/tools/build-kernel.sh
wt=$BUILD/wt/bisect
mkdir -p "$BUILD/wt"

frags=("$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config")
for f in "$REPO"/configs/kunit*.config; do [ -f "$f" ] && frags+=("$f"); done

filter_frags() { "$REPO/tools/filter-fragments.sh" "$@"; }

if ! git -C "$KSRC" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
	echo "FAIL: $LABEL: no branch $branch in $KSRC (make tree)"
	exit 0
fi
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" "$base" || { echo "FAIL: $LABEL: cannot create worktree $wt"; exit 0; }
fi
