#!/bin/bash
# Do the fixes at the front of the series apply to the base alone, each with
# the patches the cover letter says it needs ("Patch 4 needs patch 3", followed
# to the end)? One KTAP result per patch (harness.md, suite 01).
#   tools/series-alone.sh
# Environment: REPO KSRC PATCHES BASE_VERSION BASE_TAG; ALONE_PATCHES (default
#   "1 2 3 4 5 6 7"); TMPDIR (the detached worktree, removed on exit).
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
KSRC=${KSRC:-$REPO/build/linux}
PATCHES=${PATCHES:-$REPO/patches}
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
BASE_TAG=${BASE_TAG:-base-$BASE_VERSION}
ALONE_PATCHES=${ALONE_PATCHES:-1 2 3 4 5 6 7}
COVER=$PATCHES/0000-cover-letter.patch

# git without the user's configuration, and an identity for `git am`
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=series-alone GIT_AUTHOR_EMAIL=series-alone@localhost
export GIT_COMMITTER_NAME=series-alone GIT_COMMITTER_EMAIL=series-alone@localhost

# shellcheck source=tools/lib/ktap.sh
. "$here/lib/ktap.sh"

read -r -a numbers <<<"$ALONE_PATCHES"
ktap_plan "${#numbers[@]}"

if [ ! -d "$KSRC/.git" ] ||
	! git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null; then
	ktap_fail_rest "no kernel tree with tag $BASE_TAG in $KSRC"
	exit 1
fi

# the file of patch N, or nothing
patch_file() {
	local f
	for f in "$PATCHES"/"$(printf '%04d' "$1")"-*.patch; do
		[ -f "$f" ] && echo "$f" && return 0
	done
	return 0
}

# "N M" for every "Patch N needs patch M" line of the cover letter
declared=$(sed -n 's/^Patch \([0-9][0-9]*\) needs patch \([0-9][0-9]*\)\.\{0,1\}$/\1 \2/p' \
	"$COVER" 2>/dev/null || true)

# the patches N needs, directly or not, in series order (N excluded)
needs() {
	local todo=("$1") seen=" $1 " n m out=()
	while [ "${#todo[@]}" -gt 0 ]; do
		n=${todo[0]}
		todo=("${todo[@]:1}")
		while read -r m; do
			[ -n "$m" ] || continue
			case "$seen" in *" $m "*) continue ;; esac
			seen="$seen$m "
			todo+=("$m")
			out+=("$m")
		done < <(awk -v n="$n" '$1 == n { print $2 }' <<<"$declared")
	done
	[ "${#out[@]}" -eq 0 ] || printf '%s\n' "${out[@]}" | sort -n
}

wt=$(mktemp -d "${TMPDIR:-/tmp}/series-alone.XXXXXX")
cleanup() {
	git -C "$KSRC" worktree remove --force "$wt" >/dev/null 2>&1 || true
	rm -rf "$wt"
	git -C "$KSRC" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT
if ! git -C "$KSRC" worktree add -q --detach "$wt" "$BASE_TAG" >"$wt.log" 2>&1; then
	ktap_fail_rest "cannot add a worktree of $KSRC at $BASE_TAG: $(head -n 1 "$wt.log")"
	rm -f "$wt.log"
	exit 1
fi
rm -f "$wt.log"

w() { git -C "$wt" "$@"; }

# back to the bare base, whatever the previous check left
reset_base() {
	w am --abort >/dev/null 2>&1 || true
	w reset -q --hard "$BASE_TAG"
	w clean -q -fd
}

# check_one N: one KTAP result for patch N
check_one() {
	local n=$1 p m mp deps log name why
	name="patch $n applies to $BASE_TAG"
	p=$(patch_file "$n")
	if [ -z "$p" ]; then
		ktap_fail "$name" "no patch $n in ${PATCHES#"$REPO"/}"
		return 0
	fi
	reset_base
	deps=$(needs "$n")
	[ -z "$deps" ] || name="$name after patch $(paste -sd, <<<"$deps" | sed 's/,/, /g')"
	log=$(mktemp)
	for m in $deps; do
		mp=$(patch_file "$m")
		if [ -z "$mp" ] ||
			! w am -q -3 --keep-non-patch "$mp" >"$log" 2>&1; then
			ktap_fail "$name" "patch $m, which it needs, does not apply: $(grep -m 1 -E 'error|fatal|conflict' "$log" || true)"
			rm -f "$log"
			return 0
		fi
	done
	if ! w apply --check "$p" >"$log" 2>&1; then
		why=$(grep -m 1 -E 'error|fatal' "$log" || true)
		if w am -q -3 --keep-non-patch "$p" >/dev/null 2>&1; then
			ktap_fail "$name" "applies only by a three-way merge with the series' own blobs, which a 5.10 tree lacks ($why)"
		else
			ktap_fail "$name" "does not apply ($why)"
		fi
		rm -f "$log"
		return 0
	fi
	if w am -q -3 --keep-non-patch "$p" >"$log" 2>&1; then
		ktap_ok "$name" "$(basename "$p")"
	else
		ktap_fail "$name" "git am -3 failed: $(grep -m 1 -E 'error|fatal|conflict' "$log" || true)"
	fi
	rm -f "$log"
}

for n in "${numbers[@]}"; do
	check_one "$n"
done
[ "$KTAP_FAILED" -eq 0 ]
