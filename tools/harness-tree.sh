#!/bin/bash
# The test kernels' tree, NOT the series alone: the kernel tree's HEAD plus
# harness-exports.patch in $BUILD/linux-harness; prints its path. harness.md, "Tool reference".
set -euo pipefail
# shellcheck source=tools/lib/env.sh
. "$(dirname "$0")/lib/env.sh"
tree=$BUILD/linux-harness
patch=$REPO/tools/testing/cpufreq-perf-test/harness-exports.patch
[ -e "$KSRC/.git" ] || die "no kernel tree in $KSRC"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_COMMITTER_NAME="Schedutil Perf Hints" GIT_COMMITTER_EMAIL=perf-hints@example.org
mkdir -p "$BUILD/state"
exec 9>"$BUILD/state/linux-harness.lock"
flock 9
tip=$(git -C "$KSRC" rev-parse HEAD)
local_diff=$(git -C "$KSRC" diff --binary HEAD)
want=$(printf '%s\n%s\n%s\n' "$tip" "$(sha256sum <"$patch")" "$(printf '%s' "$local_diff" | sha256sum)")
state=$BUILD/state/linux-harness.state
if [ -f "$state" ] && [ "$(cat "$state")" = "$want" ] && [ -e "$tree/.git" ] &&
	[ "$(git -C "$tree" rev-parse HEAD~1 2>/dev/null)" = "$tip" ] &&
	{ [ -n "$local_diff" ] || git -C "$tree" diff --quiet HEAD; }; then
	echo "$tree"
	exit 0
fi
rm -f "$state"
# (a worktree whose kernel tree was made again is no worktree any more)
if ! git -C "$tree" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
	[ "$(cd "$(git -C "$tree" rev-parse --git-common-dir)" && pwd -P)" != \
	  "$(cd "$(git -C "$KSRC" rev-parse --git-common-dir)" && pwd -P)" ]; then
	rm -rf "$tree"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$tree" "$tip" >&2
else
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	# checkout rewrites only the files that differ: kbuild rebuilds only those
	git -C "$tree" checkout -q -f --detach "$tip"
fi
git -C "$tree" am -q --committer-date-is-author-date "$patch" >&2 ||
	die "the harness scaffold ($patch) does not apply on $tip"
if [ -n "$local_diff" ]; then
	printf '%s\n' "$local_diff" | git -C "$tree" apply --binary >&2 ||
		die "the kernel tree's uncommitted change does not apply in $tree"
fi
echo "$want" >"$state"
echo "$tree"
