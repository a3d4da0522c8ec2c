#!/bin/bash
# Suite 01: `make tree`, the real series, its fixes alone. harness.md, "Test suites".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
: "${BASE_VERSION:?}"
SERIES_AUTHOR=${SERIES_AUTHOR:-Schedutil Perf Hints <perf-hints@example.org>}
series=$REPO/tools/series.sh
. "$REPO/tools/lib/ktap.sh"
ktap_plan 11 # 6 on the scratch repository, 4 on the real series, 1 nested

scratch=$(mktemp -d "$BUILD/.test-series.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# a tiny "kernel": tag base-T, and a branch with two commits exported as patches
k=$scratch/k
(
	export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
	export GIT_AUTHOR_NAME=Base GIT_AUTHOR_EMAIL=base@localhost GIT_COMMITTER_NAME=Base GIT_COMMITTER_EMAIL=base@localhost
	export GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z
	git init -q -b base "$k" && cd "$k" &&
		mkdir -p drivers/cpufreq && printf 'one\ntwo\nthree\n' >drivers/cpufreq/cpufreq.c &&
		git add -A && git commit -q -m base && git tag base-T &&
		git checkout -q -b series &&
		export GIT_AUTHOR_NAME="${SERIES_AUTHOR% <*}" GIT_AUTHOR_EMAIL=x@y &&
		sed -i 's/two/TWO/' drivers/cpufreq/cpufreq.c &&
		GIT_AUTHOR_DATE=2020-12-01T10:00:00+01:00 git commit -q -am "cpufreq: change two" -m "Why." &&
		echo new >drivers/cpufreq/new.c && git add drivers/cpufreq/new.c &&
		GIT_AUTHOR_DATE=2020-12-02T10:00:00+01:00 git commit -q -m "cpufreq: add new.c" &&
		git config branch.series.description "$(printf 'cpufreq: a scratch series\n\nCover text, kept.\n\nSecond paragraph.')"
) >"$scratch/setup.log" 2>&1 || { ktap_fail_rest "scratch repository not set up: $(tail -n3 "$scratch/setup.log")"; exit 1; }
s() { env KSRC="$k" BUILD="$scratch/b" BASE_VERSION=T SERIES_STATE="$scratch/stamp" "$@"; }

s PATCHES="$scratch/p1" "$series" export 2>/dev/null
git -C "$k" checkout -q base-T && git -C "$k" branch -q -D series
s PATCHES="$scratch/p1" "$series" tree >"$scratch/out" 2>&1 &&
	s PATCHES="$scratch/p1" "$series" export "$scratch/p2" 2>/dev/null &&
	s PATCHES="$scratch/p2" "$series" tree >/dev/null 2>&1 &&
	s PATCHES="$scratch/p2" "$series" export "$scratch/p3" 2>/dev/null &&
	diff -r "$scratch/p2" "$scratch/p3" >"$scratch/diff"
ktap_rc "scratch-round-trip" $? "$(head -c 400 "$scratch/diff" "$scratch/out" | tr '\n' ' ')"
grep -q '^Cover text, kept.$' "$scratch/p3/0000-cover-letter.patch" &&
	grep -q '^Subject: \[PATCH 0/2\] cpufreq: a scratch series$' "$scratch/p3/0000-cover-letter.patch"
ktap_rc "scratch-cover-letter-kept" $? "subject or text of the cover letter lost"

# unchanged patches/: nothing to do
s PATCHES="$scratch/p3" "$series" tree 2>&1 | grep -q "up to date"
ktap_rc "tree-reuses-existing-branch" $? "did not recognise the applied series"

(cd "$k" && echo more >>drivers/cpufreq/new.c && GIT_CONFIG_GLOBAL=/dev/null git -c user.name=a -c user.email=a@b commit -q -am "wip") >/dev/null
tip=$(git -C "$k" rev-parse HEAD)
cp -r "$scratch/p3" "$scratch/p4" && echo >>"$scratch/p4/0002-cpufreq-add-new.c.patch"
! s PATCHES="$scratch/p4" "$series" tree >"$scratch/out" 2>&1 &&
	grep -q "not in patches/" "$scratch/out" && [ "$(git -C "$k" rev-parse HEAD)" = "$tip" ]
ktap_rc "tree-keeps-unexported-work" $? "$(tr '\n' ' ' <"$scratch/out")"

mkdir "$scratch/bad"
cp "$scratch/p3"/*.patch "$scratch/bad/"
sed -i 's/^-two$/-zwei/' "$scratch/bad/0001-cpufreq-change-two.patch"
! s PATCHES="$scratch/bad" FORCE=1 "$series" tree >"$scratch/out" 2>&1 &&
	grep -q "patch 0001-cpufreq-change-two.patch does not apply" "$scratch/out" &&
	grep -q "file: drivers/cpufreq/cpufreq.c" "$scratch/out" &&
	[ ! -d "$k/.git/rebase-apply" ] &&
	[ "$(git -C "$k" rev-parse HEAD)" = "$(git -C "$k" rev-parse base-T)" ] &&
	[ -z "$(git -C "$k" status --porcelain)" ]
ktap_rc "bad-patch-named-and-tree-sane" $? "$(tr '\n' ' ' <"$scratch/out" | cut -c1-400)"

# an interrupted apply (git am stopped half-way) is recovered without FORCE
echo "x PENDING" >"$scratch/stamp"
git -C "$k" checkout -q -B series base-T
git -C "$k" am -q "$scratch/p3/0001-cpufreq-change-two.patch" "$scratch/p4/0002-cpufreq-add-new.c.patch" >/dev/null 2>&1
git -C "$k" am --abort >/dev/null 2>&1 # back to base-T, as after an interrupt
git -C "$k" am -q "$scratch/p3/0001-cpufreq-change-two.patch" >/dev/null 2>&1
s PATCHES="$scratch/p3" "$series" tree >"$scratch/out" 2>&1 &&
	[ "$(git -C "$k" rev-list --count base-T..HEAD)" = 2 ]
ktap_rc "tree-recovers-interrupted-apply" $? "$(tr '\n' ' ' <"$scratch/out")"

# --- the real series ---------------------------------------------------------
mapfile -t pl < <(ls "$REPO"/patches/*.patch 2>/dev/null | grep -v '/0000-cover-letter.patch$')
if [ ${#pl[@]} -eq 0 ]; then
	ktap_skip_rest "patches/ has no patches yet"
	exit 0
fi
tag=base-$BASE_VERSION
n=$(git -C "$KSRC" rev-list --count "$tag..series" 2>/dev/null || echo 0)
branch=$(git -C "$KSRC" symbolic-ref -q --short HEAD || true)
[ "$n" = "${#pl[@]}" ] && [ "$branch" = series ]
ktap_rc "series-applies" $? "branch series has $n commits on $tag (HEAD: ${branch:-detached}), patches/ has ${#pl[@]}" "${#pl[@]} patches on $tag"
want=$(for p in "${pl[@]}"; do git mailinfo -b /dev/null /dev/null <"$p" | sed -n 's/^Subject: //p'; done)
got=$(git -C "$KSRC" log --reverse --format=%s "$tag..series")
ktap_check "series-subjects-in-order" "branch subjects differ from patches/" [ "$want" = "$got" ]
others=$(git -C "$KSRC" log --format='%an <%ae>' "$tag..series" | sort -u | grep -vxF "$SERIES_AUTHOR" || true)
ktap_check "series-author-is-project-identity" \
	"patches authored by $(echo "$others" | tr '\n' ';') instead of SERIES_AUTHOR ($SERIES_AUTHOR)" [ -z "$others" ]
cl=$(wc -c <"$REPO/patches/0000-cover-letter.patch")
ktap_check "cover-letter-at-most-12-KiB" "patches/0000-cover-letter.patch has $cl bytes, more than 12288" [ "$cl" -le 12288 ]
ktap_sub "apply-alone-and-without-each-deviation" "$REPO/tools/series-alone.sh"
