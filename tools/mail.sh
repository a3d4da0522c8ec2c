#!/bin/bash
# tools/mail.sh 5.10|7.3 [OUTDIR]: the series re-signed by the user's git identity, as mails
# in OUTDIR (default $BUILD/mail-SERIES); sends nothing. harness.md, "Editing the series".
set -euo pipefail
shopt -s inherit_errexit
# shellcheck source=tools/lib/env.sh
. "$(dirname "$0")/lib/env.sh"
SERIES_AUTHOR=${SERIES_AUTHOR:-Schedutil Perf Hints <perf-hints@example.org>}
VERSION=${VERSION:-1} series=${1:-5.10}
case $series in
5.10) export PATCHES=${PATCHES:-$REPO/patches} BASE_TAG=base-$BASE_VERSION
	prefix="PATCH 5.10" deb="linux-source-5.10 $BASE_VERSION" tree=tree exc=tests/checkpatch-exceptions ;;
7.3) export PATCHES=$REPO/patches/mainline-7.3 KSRC=$M73_KSRC BASE_TAG=base-${M73_VERSION//\~/_}
	prefix=PATCH deb="linux-source-7.3 $M73_VERSION" tree=tree-7.3 exc=tests/checkpatch-exceptions-7.3 ;;
*) die "usage: $0 5.10|7.3 [OUTDIR]" ;;
esac
out=${2:-$BUILD/mail-$series} vopt=()
[[ $VERSION =~ ^[1-9][0-9]*$ ]] || die "VERSION is 1, 2, ..., not '$VERSION'"
[ "$VERSION" = 1 ] || { [ -r "${CHANGES:-}" ] || die "VERSION=$VERSION needs CHANGES=<file>: what changed since v$((VERSION - 1))"; vopt=(-v "$VERSION"); }
[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC: run 'make $tree'"
g() { git -C "$KSRC" "$@"; }
name=$(g config user.name || true) email=$(g config user.email || true)
[ -n "$name" ] && [ -n "$email" ] && [[ $SERIES_AUTHOR != "$name <"* && $SERIES_AUTHOR != *"<$email>" ]] ||
	die "the mails need your identity, not '${name:-(no user.name)} <${email:-(no user.email)}>'. Set it:
  git config --global user.name 'Your Name'; git config --global user.email you@example.com"
from="$name <$email>"
ls "$PATCHES"/0*.patch >/dev/null 2>&1 || die "no patches in $PATCHES"
st=$("$REPO/tools/series.sh" status 2>&1) || { head -n 20 <<<"$st" >&2; die "branch series of $KSRC is not $PATCHES: run 'make $tree'"; }
base=$(g rev-parse "$BASE_TAG^{commit}") tip=$base
tmp=$(mktemp -d "$BUILD/.mail.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/objects" && export GIT_OBJECT_DIRECTORY=$tmp/objects GIT_ALTERNATE_OBJECT_DIRECTORIES=$KSRC/.git/objects
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
for c in $(g rev-list --reverse "$base..series"); do
	msg=$(g log -1 --format=%B "$c" | awk -v old="Signed-off-by: $SERIES_AUTHOR" -v new="Signed-off-by: $from" \
		'$0 == old || $0 == new { if (seen++) next; $0 = new } 1' |
		g interpret-trailers --if-exists addIfDifferent --trailer "Signed-off-by: $from")
	tip=$(g commit-tree -p "$tip" -m "$msg" "$c^{tree}")
done
fp() { g format-patch -q --base="$base" --thread --subject-prefix="$prefix" "${vopt[@]}" "$@" "$base..$tip"; }
fp -o "$tmp/p"

gm() { (cd "$KSRC" && ./scripts/get_maintainer.pl --no-rolestats --no-git --no-git-fallback --no-fixes "$@" "$tmp"/p/*.patch); }
to=$(gm --no-l)
cc=$(gm --no-m --no-r)
[ -n "$to" ] || die "get_maintainer.pl names no maintainer"
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; } # for the shell, in single quotes
args=() cmd=" --from=$(q "$from")"
while read -r a; do args+=(--to="$a") cmd+=" \\"$'\n'"    --to=$(q "$a")"; done <<<"$to"
while read -r a; do [ -z "$a" ] || args+=(--cc="$a"); done <<<"$cc"

cl=$PATCHES/0000-cover-letter.patch
{
	printf '%s\n\n' "$(awk '!inbody { inbody = ($0 == ""); next } /^[^ \t].* \([0-9]+\):$/ { exit } 1' "$cl")"
	printf "Based on Debian's %s (the base-commit: below\nis that source, unpacked).\n" "$deb"
	[ "$VERSION" = 1 ] || { printf '\nChanges since v%s:\n\n' $((VERSION - 1)); cat "$CHANGES"; }
} >"$tmp/blurb"
mkdir -p "$out"
rm -f "$out"/*.patch
fp -o "$out" --cover-letter --from="$from" "${args[@]}"
c=$(ls "$out"/*0000-cover-letter.patch)
S=$(git mailinfo /dev/null /dev/null <"$cl" | sed -n 's/^Subject: //p') awk 'FNR == NR { b = b $0 "\n"; next }
	(i = index($0, "*** SUBJECT HERE ***")) { $0 = substr($0, 1, i - 1) ENVIRON["S"] substr($0, i + 20) }
	$0 == "*** BLURB HERE ***" { printf "%s", b; next } 1' "$tmp/blurb" "$c" >"$tmp/c" && mv "$tmp/c" "$c"
echo "To:" && sed 's/^/  /' <<<"$to" && echo "Cc:" && sed 's/^/  /' <<<"$cc"
log "wrote $(ls "$out"/*.patch | wc -l) mails in $out (From: $from)"

accepted=$(grep -sv '^#' "$REPO/$exc" || true)
bad=0
for p in "$out"/*.patch; do
	[ "$p" != "$c" ] || continue
	r=$(cd "$KSRC" && ./scripts/checkpatch.pl --strict --show-types "$p" 2>&1 || true)
	ok=$(awk -v n="${p##*/}" 'NF >= 2 && index(n, $1) { print $2 }' <<<"$accepted")
	left=$(awk -F: '/^(ERROR|WARNING|CHECK):/ { print $2 }' <<<"$r" | grep -vxF -f <(echo "$ok") || true)
	echo "checkpatch ${p##*/}: $(sed -n 's/^total: //p' <<<"$r")${ok:+ (accepted: ${ok//$'\n'/ })}"
	[ -n "$left" ] || ! grep -q '^total: ' <<<"$r" || continue
	bad=$((bad + 1))
	grep -E '^(ERROR|WARNING|CHECK):' <<<"$r" | sed 's/^/  /' || true
done
[ "$bad" = 0 ] || die "checkpatch --strict: $bad patches with findings not in $exc (mails kept in $out)"
log "checkpatch --strict: no finding beyond $exc; nothing was sent. Check, then send:"
printf 'git send-email%s \\\n    %s\n\n' " --dry-run$cmd" "$out/*.patch" "$cmd" "$out/*.patch"
