#!/bin/bash
# Suite 01's results for the fixes at the front alone (with the patches the cover letter
# says they need) and the series without each deviation. harness.md, "Tool reference".
#   BASE_VERSION=5.10.262-1 tools/series-alone.sh
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
KSRC=${KSRC:-$REPO/build/linux}
PATCHES=${PATCHES:-$REPO/patches}
BASE_TAG=${BASE_TAG:-base-${BASE_VERSION:?}}
numbers=(1 2 3 4 5 6 7)

# git without the user's configuration, and a committer for `git am`
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_COMMITTER_NAME=series-alone GIT_COMMITTER_EMAIL=series-alone@localhost

# shellcheck source=tools/lib/ktap.sh
. "$here/lib/ktap.sh"
# the deviations: the patches whose subject starts with [5.10-only] or [RFC]
deviations=()
for p in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
	! grep -qE '^Subject: \[PATCH [0-9]+/[0-9]+\] \[(5\.10-only|RFC)\]' "$p" ||
		deviations+=($((10#$(basename "$p" | cut -c1-4))))
done
ktap_plan $((${#numbers[@]} + 1 + ${#deviations[@]}))

{ [ -d "$KSRC/.git" ] && git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null; } ||
	ktap_stop "no kernel tree with tag $BASE_TAG in $KSRC" 1

patch_file() {
	local f=("$PATCHES/$(printf '%04d' "$1")"-*.patch)
	[ ! -f "${f[0]}" ] || echo "${f[0]}"
}

# the patches N needs, directly or not, in series order (N excluded), from
# the "Patch N needs patch M" lines of the cover letter
needs() {
	{ sed -n 's/^Patch \([0-9][0-9]*\) needs patch \([0-9][0-9]*\)\.\{0,1\}$/\1 \2/p' \
		"$PATCHES/0000-cover-letter.patch" 2>/dev/null || true; } |
		awk -v n="$1" '
			{ d[$1] = d[$1] " " $2 }
			END {
				q[t = 1] = n; seen[n]
				for (h = 1; h <= t; h++)
					for (i = split(d[q[h]], m, " "); i > 0; i--)
						if (!(m[i] in seen)) { seen[m[i]]; q[++t] = m[i]; print m[i] }
			}' | sort -n
}

wt=$(mktemp -d "${TMPDIR:-/tmp}/series-alone.XXXXXX")
log=$wt.log
cleanup() {
	git -C "$KSRC" worktree remove --force "$wt" >/dev/null 2>&1 || true
	rm -rf "$wt" "$log"
	git -C "$KSRC" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT
git -C "$KSRC" worktree add -q --detach "$wt" "$BASE_TAG" >"$log" 2>&1 || ktap_stop "cannot add a worktree of $KSRC at $BASE_TAG: $(head -n 1 "$log")" 1

w() { git -C "$wt" "$@"; }
am() { w am -q -3 --keep-non-patch "$1" >"$log" 2>&1; }
why() { grep -m 1 -E 'error|fatal|conflict' "$log" || true; }

# check_one N: one KTAP result for patch N on the bare base after the patches it needs
check_one() {
	local n=$1 p m mp deps name err
	name="patch $n applies to $BASE_TAG"
	p=$(patch_file "$n")
	if [ -z "$p" ]; then
		ktap_fail "$name" "no patch $n in ${PATCHES#"$REPO"/}"
		return 0
	fi
	w am --abort >/dev/null 2>&1 || true
	w reset -q --hard "$BASE_TAG"
	w clean -q -fd
	deps=$(needs "$n")
	[ -z "$deps" ] || name="$name after patch $(paste -sd, <<<"$deps" | sed 's/,/, /g')"
	for m in $deps; do
		mp=$(patch_file "$m")
		if [ -z "$mp" ] || ! am "$mp"; then
			ktap_fail "$name" "patch $m, which it needs, does not apply: $(why)"
			return 0
		fi
	done
	if ! w apply --check "$p" >"$log" 2>&1; then
		err=$(why)
		if am "$p"; then
			ktap_fail "$name" "applies only by a three-way merge with the series' own blobs, which a 5.10 tree lacks ($err)"
		else
			ktap_fail "$name" "does not apply ($err)"
		fi
	elif am "$p"; then
		ktap_ok "$name" "$(basename "$p")"
	else
		ktap_fail "$name" "git am -3 failed: $(why)"
	fi
}

# drop_one D: every patch but D and those that need it, in order, plain git am
drop_one() {
	local d=$1 p n name="the series applies to $BASE_TAG without patch $1"
	w am --abort >/dev/null 2>&1 || true
	w reset -q --hard "$BASE_TAG"
	w clean -q -fd
	for p in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
		n=$((10#$(basename "$p" | cut -c1-4)))
		case "$n" in 0 | "$d") continue ;; esac
		if grep -qx "$d" <<<"$(needs "$n")"; then
			case " ${deviations[*]} " in
			*" $n "*) name="$name and patch $n, which needs it"; continue ;;
			*) ktap_fail "$name" "patch $n, not a deviation, needs it"; return 0 ;;
			esac
		fi
		w am -q --no-3way --keep-non-patch "$p" >"$log" 2>&1 ||
			{ ktap_fail "$name" "patch $n does not apply: $(why)"; return 0; }
	done
	ktap_ok "$name"
}

for n in "${numbers[@]}"; do
	check_one "$n"
done
ktap_check "deviations found" "no patch subject starts with [5.10-only] or [RFC]" [ ${#deviations[@]} -gt 0 ]
for d in "${deviations[@]}"; do
	drop_one "$d"
done
[ "$KTAP_FAILED" -eq 0 ]
