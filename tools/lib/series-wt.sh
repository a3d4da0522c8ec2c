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

# walk KERNEL SUITE PREFIX: KERNEL built in $wt at $base (bzImage) and after each commit
# (vmlinux; bzImage at the tip with WALK_TIP_IMAGE=1), a result "PREFIXbuilds at ..." each;
# the caller's walk_keep COMMIT IMAGE keeps what a step leaves. The inputs of a walk that
# passed (walk_key KERNEL SUITE) give its results as cached (CHECK_FRESH=1 builds).
walk() {
	local key record tip when name c i=0 only t0 img steps failed0=$KTAP_FAILED
	key=$(walk_key "$1" "$2") tip=$(git -C "$KSRC" rev-parse "$branch")
	record=$BUILD/state/$1-$key.pass steps=$BUILD/state/$1.$$
	if [ "${CHECK_FRESH:-0}" != 1 ] && [ -f "$record" ] && walk_at "$tip"; then
		when=$(date -u -r "$record" '+%Y-%m-%d %H:%M UTC')
		echo "# the walk with these inputs (key $key) passed on $when: its results, not built again (CHECK_FRESH=1 builds)"
		while IFS= read -r name; do ktap_cached "$name" "$when $key"; done <"$record"
		return 0
	fi
	rm -f "$BUILD/state/$1"-*.pass
	: >"$steps"
	for c in "$base" $(git -C "$KSRC" rev-list --reverse "$base..$branch"); do
		[ "$c" = "$base" ] && name=base || name=$(printf 'patch %02d: %s' "$i" "$(git -C "$KSRC" log -1 --format=%s "$c" | tr "#" " ")")
		name="$3builds at $name" i=$((i + 1)) only=1
		walk_at "$c" || { ktap_fail "$name" "$SERIES_WT_WHY"; continue; }
		[ "$c" != "$base" ] && { [ "$c" != "$tip" ] || [ "${WALK_TIP_IMAGE:-0}" != 1 ]; } || only=0
		t0=$SECONDS
		if img=$(VMLINUX_ONLY=$only "$REPO/tools/kernel.sh" build "$1" 2>"$BUILD/state/$1.log") && walk_keep "$c" "$img"; then
			echo "$name" >>"$steps"
			ktap_ok "$name" "$((SECONDS - t0)) s"
		else
			tail -n 8 "$BUILD/state/$1.log" | sed 's/^/  /'
			ktap_fail "$name" "see $BUILD/out/$1/build.log"
		fi
	done
	walk_at "$tip" || echo "# $SERIES_WT_WHY"
	[ "$KTAP_FAILED" != "$failed0" ] || [ "$(wc -l <"$steps")" != "$i" ] || mv "$steps" "$record"
	rm -f "$steps"
}
