# shellcheck shell=bash
# shellcheck disable=SC2034 # base branch wt SERIES_WT_WHY: the callers'
# Sourced by suites 21, 24, 25 and 57: the walk's worktree of the kernel tree
# ($BUILD/wt/bisect, created at the base when missing; suite 25 sets wt to
# its own), where the walk, variant-* kernels of configs/kernels build
# (tools/kernel.sh). Needs REPO BUILD KSRC; sets base branch wt. series_wt
# makes sure the branch and the worktree exist; walk_at COMMIT checks the
# worktree out at COMMIT, refusing local changes (they would ride along: the
# build would not be the commit's); on failure each returns 1 with the
# reason in SERIES_WT_WHY.
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

# walk_key NAME FILE...: a key of every input of a build in the worktree
# (the commits, the declaration and fragments, the toolchain and the
# packages it comes from, and the harness files given)
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

# base_key: the key of the walk kernel's base step as a bzImage (the A side
# of suite 57): the base commit, the declaration and fragments, the
# compiler and the build scripts
base_key() {
	{
		git -C "$KSRC" rev-parse "$base"
		cat "$REPO/configs/kernels" "$REPO"/Kconfig.fragment "$REPO"/configs/*.config
		gcc --version | head -n 1
		cd "$REPO" && sha256sum tools/build-kernel.sh tools/kernel.sh tools/filter-fragments.sh
	} | sha256sum | cut -c1-64
}
