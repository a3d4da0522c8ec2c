# shellcheck shell=bash
# shellcheck disable=SC2034 # base branch wt SERIES_WT_WHY: the callers'
# The walk's worktree (sourced by suites 21, 24, 25, 57): series_wt, walk_at COMMIT; on
# failure each returns 1 with the reason in SERIES_WT_WHY. harness.md, "Tool reference".
base=base-${BASE_VERSION:?}
branch=${SERIES_BRANCH:-series}
wt=$BUILD/wt/bisect
SERIES_WT_WHY=

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

walk_at() {
	if [ -n "$(git -C "$wt" status --porcelain)" ]; then
		SERIES_WT_WHY="the worktree $wt has local changes (git -C $wt stash, or remove it)"
		return 1
	fi
	git -C "$wt" checkout -q --detach "$1" || { SERIES_WT_WHY="checkout of $1 in $wt failed"; return 1; }
}

# walk_key NAME FILE...: a key of every input of a build in the worktree (commits,
# declaration and fragments, toolchain and its packages, the harness files given)
walk_key() {
	{
		git -C "$KSRC" rev-parse "$base" "$branch"
		git -C "$KSRC" rev-list "$base..$branch"
		echo "$1"
		shift
		cat "$REPO/configs/kernels" "$REPO"/Kconfig.fragment "$REPO"/configs/*.config
		gcc --version | head -n 1; ld --version | head -n 1; make --version | head -n 1
		dpkg-query -W -f='${Package} ${Version}\n' gcc-12 binutils make libelf-dev ccache python3 git 2>&1
		cd "$REPO" && sha256sum tools/build-kernel.sh tools/kernel.sh tools/filter-fragments.sh \
			tools/lib/series-wt.sh "$@"
	} | sha256sum | cut -c1-16
}

# base_key: the key of the walk's base step as a bzImage (suite 57's A side): base
# commit, declaration and fragments, compiler and build scripts
base_key() {
	{
		git -C "$KSRC" rev-parse "$base"
		cat "$REPO/configs/kernels" "$REPO"/Kconfig.fragment "$REPO"/configs/*.config
		gcc --version | head -n 1
		cd "$REPO" && sha256sum tools/build-kernel.sh tools/kernel.sh tools/filter-fragments.sh
	} | sha256sum | cut -c1-64
}
