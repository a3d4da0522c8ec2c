#!/bin/bash
# The series round trip between patches/ and a git branch in the kernel tree.
#
#   tools/series.sh tree          branch $SERIES_BRANCH = base tag + git am patches/*.patch
#                                 (--keep-non-patch: a label such as "[RFC]" in a
#                                 subject after "[PATCH n/m]" stays in the commit)
#   tools/series.sh export [DIR]  git format-patch the branch into DIR (default patches/);
#                                 with the default (the repository's patches/), also
#                                 write the kernel files (below)
#   tools/series.sh status        say whether the branch and patches/ agree
#   tools/series.sh files-status  say whether the kernel files in the repository
#                                 are the branch tip's
#
# Kernel files: every file the series changes or adds is also kept in the
# repository at its kernel path (drivers/..., include/..., kernel/...,
# arch/..., tools/testing/..., Documentation/admin-guide/..., MAINTAINERS),
# as the branch tip has it, so that a reader can browse the series' end
# state. They are written by `export` and listed in KERNEL-FILES; never edit
# them by hand (edit the branch or patches/, then `make tree export`).
#
# Environment (the Makefile passes these):
#   REPO BUILD KSRC BASE_VERSION  repository, build dir, kernel tree, base version
#   PATCHES                       the series directory (default $REPO/patches)
#   SERIES_AUTHOR                 "Name <email>", committer of the applied series
#                                 and From: of the cover letter
#   SERIES_BRANCH                 default: series
#   SUBJECT_PREFIX                default: PATCH
#   FORCE=1                       let `tree` discard unexported work on the branch
#
# Reproducibility: git runs without the user's global/system config, commits
# get the fixed committer identity with --committer-date-is-author-date, the
# cover letter's subject and text live in the branch description and its Date
# is the last commit's author date (which a rebase in the tree keeps);
# format-patch uses --zero-commit, --no-signature and a fixed --abbrev. So `tree` then `export` reproduces patches/ byte for
# byte, as long as patches/ itself was written by `export`.
set -euo pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
PATCHES=${PATCHES:-$REPO/patches}
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
BASE_TAG=${BASE_TAG:-base-$BASE_VERSION}
SERIES_AUTHOR=${SERIES_AUTHOR:-Schedutil Perf Hints <perf-hints@example.org>}
SERIES_BRANCH=${SERIES_BRANCH:-series}
SUBJECT_PREFIX=${SUBJECT_PREFIX:-PATCH}
STATE=${SERIES_STATE:-$BUILD/state/series-$(echo "$KSRC" | sha256sum | cut -c1-8).stamp}

die() { echo "series: error: $*" >&2; exit 1; }
log() { echo "series: $*" >&2; }

ident_name=${SERIES_AUTHOR% <*}
ident_email=${SERIES_AUTHOR##*<}
ident_email=${ident_email%>}
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_COMMITTER_NAME="$ident_name" GIT_COMMITTER_EMAIL="$ident_email"
export GIT_AUTHOR_NAME="$ident_name" GIT_AUTHOR_EMAIL="$ident_email"
g() { git -C "$KSRC" "$@"; }

mkdir -p "$BUILD"
[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC: run 'make base' first"
g rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null || die "$KSRC has no tag $BASE_TAG: run 'make base'"

patch_list() {
	local p
	for p in "$PATCHES"/*.patch; do
		[ -f "$p" ] || continue
		case "$(basename "$p")" in 0000-cover-letter.patch) continue ;; esac
		echo "$p"
	done | LC_ALL=C sort
}

patches_hash() {
	local p
	for p in "$PATCHES"/*.patch; do
		[ -f "$p" ] || continue
		basename "$p"
		sha256sum <"$p"
	done | sha256sum | cut -c1-64
}

branch_tip() { g rev-parse -q --verify "refs/heads/$SERIES_BRANCH" 2>/dev/null || true; }

# Subject and text of the cover letter: "subject\n\nbody" (empty if none).
cover_description() {
	local cl=$PATCHES/0000-cover-letter.patch subject
	[ -f "$cl" ] || return 0
	subject=$(git mailinfo /dev/null /dev/null <"$cl" | sed -n 's/^Subject: //p')
	printf '%s\n\n' "$subject"
	# body: after the mail headers, up to the shortlog ("Name (N):")
	awk '
		!inbody { if ($0 == "") inbody = 1; next }
		/^[^ \t].* \([0-9]+\):$/ { exit }
		{ buf[n++] = $0 }
		END {
			while (n > 0 && buf[n - 1] == "") n--
			for (i = 0; i < n; i++) print buf[i]
		}' "$cl"
}

export_to() {
	local out=$1 tmp date n
	n=$(g rev-list --count "$BASE_TAG..$SERIES_BRANCH")
	mkdir -p "$out"
	tmp=$(mktemp -d "$BUILD/.export.XXXXXX")
	if [ "$n" -gt 0 ]; then
		date=$(g log -1 --format=%aI "$SERIES_BRANCH")
		GIT_COMMITTER_DATE="$date" g format-patch -q --zero-commit --no-signature \
			--no-thread --no-attach --abbrev=12 --no-base --cover-letter \
			--cover-from-description=subject --subject-prefix="$SUBJECT_PREFIX" \
			-o "$tmp" "$BASE_TAG..$SERIES_BRANCH" >/dev/null
	fi
	rm -f "$out"/*.patch
	if [ "$n" -gt 0 ]; then
		mv "$tmp"/*.patch "$out"/
	fi
	rmdir "$tmp"
	echo "$n"
}

KFILES=$REPO/KERNEL-FILES

# the files the series changes or adds, as paths in the kernel tree
series_files() { g diff --name-only --diff-filter=d "$BASE_TAG" "$SERIES_BRANCH"; }

kfiles_header() {
	cat <<-EOF
	# The kernel files the series changes or adds, as its last patch leaves
	# them: generated by \`make export\` from branch $SERIES_BRANCH ($BASE_TAG + patches/).
	# Never edit them (or this list) by hand; \`make check\` fails when they
	# differ from the series tip. One path per line:
	EOF
}

# Write the branch tip's version of every series file into the repository
# and drop the files an earlier export wrote that the series no longer has.
export_files() {
	local f mode tmp
	# a kernel path that is one of the project's own files would overwrite it
	while read -r f; do
		if git -C "$REPO" ls-files --error-unmatch -- "$f" >/dev/null 2>&1 &&
			! grep -qxF -- "$f" "$KFILES" 2>/dev/null; then
			die "the series changes $f, which is one of the project's own files
  here (tracked, not listed in KERNEL-FILES): not overwriting it"
		fi
	done < <(series_files)
	tmp=$(mktemp "$BUILD/.kfiles.XXXXXX")
	{ kfiles_header; series_files; } >"$tmp"
	if [ -f "$KFILES" ]; then
		{ grep -v '^#' "$KFILES" || true; } | while read -r f; do
			[ -n "$f" ] || continue
			grep -qxF -- "$f" "$tmp" || { rm -f "$REPO/$f"; rmdir -p --ignore-fail-on-non-empty "$(dirname "$REPO/$f")" 2>/dev/null || true; }
		done
	fi
	series_files | while read -r f; do
		mkdir -p "$(dirname "$REPO/$f")"
		g show "$SERIES_BRANCH:$f" >"$REPO/$f.tmp"
		mode=$(g ls-tree "$SERIES_BRANCH" -- "$f" | cut -d' ' -f1)
		if [ "$mode" = 100755 ]; then chmod 755 "$REPO/$f.tmp"; else chmod 644 "$REPO/$f.tmp"; fi
		mv "$REPO/$f.tmp" "$REPO/$f"
	done
	mv "$tmp" "$KFILES"
	series_files | wc -l
}

# Do KERNEL-FILES and the files it lists match the branch tip? (differences
# on stdout)
files_match() {
	local f rc=0
	if ! diff <(grep -v '^#' "$KFILES" 2>/dev/null) <(series_files) >/dev/null; then
		echo "KERNEL-FILES does not list the files the series changes or adds:"
		diff <(grep -v '^#' "$KFILES" 2>/dev/null) <(series_files) | sed -n 's/^[<>]/ &/p'
		rc=1
	fi
	while read -r f; do
		if [ ! -f "$REPO/$f" ]; then
			echo "missing: $f"
			rc=1
		elif [ "$(g ls-tree "$SERIES_BRANCH" -- "$f" | cut -d' ' -f1)" != "$(if [ -x "$REPO/$f" ]; then echo 100755; else echo 100644; fi)" ]; then
			echo "mode differs from the series tip: $f"
			rc=1
		elif ! g show "$SERIES_BRANCH:$f" | cmp -s - "$REPO/$f"; then
			echo "differs from the series tip: $f"
			g show "$SERIES_BRANCH:$f" | diff -u --label "series:$f" --label "$f" - "$REPO/$f" | head -n 20
			rc=1
		fi
	done < <(series_files)
	return $rc
}

write_stamp() { mkdir -p "$(dirname "$STATE")"; echo "$1 $2" >"$STATE.tmp"; mv "$STATE.tmp" "$STATE"; }

# same_patches A B: the same *.patch files, byte for byte (differences on stderr)
same_patches() {
	local a=$1 b=$2 f rc=0
	diff <(cd "$a" && ls -- *.patch 2>/dev/null) <(cd "$b" && ls -- *.patch 2>/dev/null) >&2 || rc=1
	for f in "$a"/*.patch; do
		[ -f "$f" ] && [ -f "$b/$(basename "$f")" ] || continue
		diff -u "$f" "$b/$(basename "$f")" >&2 || rc=1
	done
	return $rc
}

# Does the branch, exported, equal patches/ byte for byte?
branch_matches_patches() {
	local tmp rc=0
	tmp=$(mktemp -d "$BUILD/.cmp.XXXXXX")
	export_to "$tmp" >/dev/null
	same_patches "$PATCHES" "$tmp" 2>"$tmp.diff" || rc=1
	[ $rc -eq 0 ] || [ -z "${SHOW_DIFF:-}" ] || cat "$tmp.diff" >&2
	rm -rf "$tmp" "$tmp.diff"
	return $rc
}

do_tree() {
	local phash tip base stamp_hash="" stamp_tip="" p n
	mkdir -p "$BUILD"
	if [ -d "$KSRC/.git/rebase-apply" ]; then
		log "an earlier git am was interrupted: aborting it"
		g am --abort >/dev/null 2>&1 || rm -rf "$KSRC/.git/rebase-apply"
	fi
	phash=$(patches_hash)
	tip=$(branch_tip)
	base=$(g rev-parse "$BASE_TAG^{commit}")
	[ -f "$STATE" ] && read -r stamp_hash stamp_tip <"$STATE" || true

	if [ -n "$tip" ] && [ "$tip" = "$stamp_tip" ] && [ "$phash" = "$stamp_hash" ]; then
		[ "$(g symbolic-ref -q --short HEAD || true)" = "$SERIES_BRANCH" ] || g checkout -q "$SERIES_BRANCH"
		log "branch $SERIES_BRANCH is up to date with patches/ ($(g rev-list --count "$BASE_TAG..$tip") patches)"
		return 0
	fi
	# The branch holds work that is not in patches/ unless it is what we
	# applied last time, the bare base, or an apply that was interrupted.
	if [ -n "$tip" ] && [ "$tip" != "$stamp_tip" ] && [ "$tip" != "$base" ] &&
		[ "$stamp_tip" != PENDING ] && [ -z "${FORCE:-}" ]; then
		if branch_matches_patches; then
			write_stamp "$phash" "$tip"
			[ "$(g symbolic-ref -q --short HEAD || true)" = "$SERIES_BRANCH" ] || g checkout -q "$SERIES_BRANCH"
			log "branch $SERIES_BRANCH already matches patches/"
			return 0
		fi
		die "branch $SERIES_BRANCH in $KSRC has commits that are not in patches/.
  Save them with 'make export' (then commit patches/), or discard them with
  'make tree FORCE=1'."
	fi
	if [ -n "$(g status --porcelain --untracked-files=no)" ] && [ -z "${FORCE:-}" ]; then
		die "uncommitted changes in $KSRC; commit them (then 'make export') or
  discard them with 'make tree FORCE=1'."
	fi
	write_stamp "$phash" PENDING
	g checkout -q -f -B "$SERIES_BRANCH" "$BASE_TAG"
	g clean -q -fd >/dev/null 2>&1 || true
	local desc
	desc=$(cover_description)
	if [ -n "$desc" ]; then
		g config "branch.$SERIES_BRANCH.description" "$desc"
	else
		g config --unset "branch.$SERIES_BRANCH.description" || true
	fi
	n=0
	while read -r p; do
		[ -n "$p" ] || continue
		if ! g am -q --keep-non-patch --committer-date-is-author-date "$p" >"$BUILD/.am.log" 2>&1; then
			local files
			files=$(sed -n 's/^error: patch failed: \(.*\):[0-9]*$/\1/p; s/^error: \(.*\): \(does not exist in index\|already exists in index\|No such file or directory\)$/\1/p' "$BUILD/.am.log" | sort -u | tr '\n' ' ')
			sed 's/^/  /' "$BUILD/.am.log" >&2
			g am --abort >/dev/null 2>&1 || true
			g checkout -q -f -B "$SERIES_BRANCH" "$BASE_TAG"
			rm -f "$STATE"
			die "patch $(basename "$p") does not apply to $BASE_TAG${files:+ (file: ${files% })}.
  $SERIES_BRANCH was reset to $BASE_TAG; fix the patch and run 'make tree' again."
		fi
		n=$((n + 1))
	done < <(patch_list)
	rm -f "$BUILD/.am.log"
	write_stamp "$phash" "$(g rev-parse HEAD)"
	log "applied $n patches on $BASE_TAG (branch $SERIES_BRANCH, $(g rev-parse --short=12 HEAD))"
}

case "${1:-}" in
tree) do_tree ;;
export)
	[ -n "$(branch_tip)" ] || die "no branch $SERIES_BRANCH in $KSRC: run 'make tree' first"
	out=${2:-$PATCHES}
	n=$(export_to "$out")
	if [ "$out" = "$PATCHES" ] && [ "$(branch_tip)" ]; then
		write_stamp "$(patches_hash)" "$(branch_tip)"
	fi
	log "exported $n patches (+ cover letter) from $SERIES_BRANCH to $out"
	# the kernel files belong to the repository's own series only (suite 01
	# exports scratch series with PATCHES elsewhere)
	if [ "$out" = "$PATCHES" ] && [ "$PATCHES" -ef "$REPO/patches" ]; then
		n=$(export_files)
		log "wrote the series tip's $n kernel files into $REPO (listed in KERNEL-FILES)"
	fi
	;;
files-status)
	if files_match; then
		echo "the $(series_files | wc -l) kernel files in the repository are branch $SERIES_BRANCH's tip"
	else
		echo "the kernel files in the repository differ from branch $SERIES_BRANCH's tip: run 'make export' (or 'make tree export')"
		exit 1
	fi
	;;
status)
	# exit 0 if exporting the branch reproduces patches/ byte for byte;
	# otherwise show the differences (patches/ on the left) and exit 1
	if [ -f "$STATE" ] && read -r h t <"$STATE" && [ "$t" = "$(branch_tip)" ] && [ "$h" != "$(patches_hash)" ]; then
		echo "patches/ changed since the last 'make tree': run 'make tree' to update branch $SERIES_BRANCH"
		exit 1
	fi
	if SHOW_DIFF=1 branch_matches_patches; then
		echo "branch $SERIES_BRANCH and patches/ are in sync"
	else
		echo "branch $SERIES_BRANCH differs from patches/ (diff above: - patches/, + export)"
		exit 1
	fi
	;;
*) die "usage: $0 tree | export [DIR] | status | files-status" ;;
esac
