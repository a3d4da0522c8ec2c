#!/bin/bash
# shellcheck disable=SC2317 # compare() runs under ktap_sub
# Suite 25: no new warning in the objects the series touches. harness.md "Test suites".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
tmp=$BUILD/tmp/suite25
mkdir -p "$tmp"
. "$REPO/tools/lib/series-wt.sh"
wt=$BUILD/wt/warn-base # its own worktree, at the base
. "$REPO/tools/lib/ktap.sh"
ktap_plan $((1 + ${WARN_CLANG:-1})) # suite 71 runs it on the 7.3 series with WARN_CLANG=0

{ series_wt && walk_at "$base"; } || ktap_stop "$SERIES_WT_WHY"

files=$(git -C "$KSRC" diff --name-only --diff-filter=AM "$base..$branch" -- '*.c' | grep -v '^tools/' || true)
[ -n "$files" ] || ktap_stop "the series touches no .c file ($base..$branch in $KSRC)?"

# prepare O=$BUILD/out/NAME, then compile the touched objects it builds, W=1 and sparse
warnings() { # name tree toolchain -> $tmp/NAME.warn
	local name=$1 tree=$2 tc=$3 out=$BUILD/out/$1 objs=() f o dir check=(C=2 CHECK="$SPARSE")
	[ "$tc" = gcc ] || check=()
	KMAKE_TARGETS=prepare "$REPO/tools/kernel.sh" build "$name" >"$tmp/$name.log" 2>&1 || return 1
	for f in $files; do
		[ -f "$tree/$f" ] || continue
		o=${f%.c}.o
		dir=$(dirname "$f")
		# a .c file no Makefile builds is #included by one: its warnings come with that object's
		grep -qE "\\b$(basename "$o")\\b" "$tree/$dir/Makefile" || continue
		# built by this config? look for obj-y/obj-$(CONFIG_X) += name.o in the Makefile
		sym=$(grep -hE "^obj-\\\$\\(CONFIG_[A-Z0-9_]+\\)[[:space:]]*\\+=.*\\b$(basename "$o")\\b" "$tree/$dir/Makefile" |
			sed -n 's/^obj-\$(\(CONFIG_[A-Z0-9_]*\)).*/\1/p' | head -n 1)
		if [ -n "$sym" ] && ! grep -qE "^$sym=[ym]" "$out/.config"; then
			continue
		fi
		objs+=("$o")
	done
	echo "${objs[@]}" >"$tmp/$name.objs"
	[ ${#objs[@]} -gt 0 ] || { : >"$tmp/$name.warn"; return 0; }
	# kbuild compiles an object again when its command line changes: once
	# without W=1 (a ccache hit after the first run), then with it, so
	# that this run's build.log has the objects' W=1 warnings
	KMAKE_TARGETS="${objs[*]}" "$REPO/tools/kernel.sh" build "$name" >>"$tmp/$name.log" 2>&1 || return 1
	KMAKE_TARGETS="${objs[*]}" KMAKE_ARGS="W=1 ${check[*]}" \
		"$REPO/tools/kernel.sh" build "$name" >>"$tmp/$name.log" 2>&1
	local rc=$?
	cp "$out/build.log" "$tmp/$name.raw" 2>/dev/null
	[ $rc = 0 ] || return 1
	# 7.3's kbuild drops C=2, with a message, for a sparse it finds too old
	! grep 'specified, but .* not available or not up to date' "$tmp/$name.raw" >>"$tmp/$name.log" || return 1
	# warnings about the touched files and headers, without directories, lines, columns
	{ grep -E '(warning|error):' "$tmp/$name.raw" || true; } |
		sed -E 's#^.*/##; s#^([^:]+):[0-9]+(:[0-9]+)?:#\1:#' | sort >"$tmp/$name.warn"
}

# no_compile WHY [NAME]: NAME's logs, and a document of one failed result
no_compile() {
	[ -z "${2:-}" ] || tail -n 10 "$tmp/$2.log" "$tmp/$2.raw" 2>/dev/null
	ktap_plan 1; ktap_fail "compiles the touched files" "$1"
}
no_new() {
	if [ -z "$2" ]; then ktap_ok "$1"; return; fi
	echo "$2" | head -n 10; ktap_fail "$1" "$(echo "$2" | wc -l) new"
}
# a nested KTAP document (run by ktap_sub, in a subshell: its counters
# are its own); exit 1 if anything failed
compare() { # toolchain: gcc (W=1, sparse) or llvm (W=1)
	local tc=$1 sfx what objs o src
	KTAP_N=0 KTAP_FAILED=0
	case $tc in
	gcc) sfx="" what=W=1/sparse ;;
	llvm) sfx="-llvm" what="clang W=1" ;;
	esac
	warnings "warn-base$sfx" "$wt" "$tc" || { no_compile "cannot compile them at the base" "warn-base$sfx"; return 1; }
	warnings "warn-series$sfx" "$KSRC" "$tc" || { no_compile "cannot compile them with the series" "warn-series$sfx"; return 1; }
	objs=$(cat "$tmp/warn-series$sfx.objs")
	[ -n "$objs" ] || { no_compile "no touched file is built by the test config"; return 1; }
	# shellcheck disable=SC2086 # one word per object
	ktap_plan $(($(echo $objs | wc -w) + 1))
	echo "INFO: compiled with $what ($tc): $objs"
	[ "$tc" = llvm ] || echo "INFO: sparse is $SPARSE"
	for o in $objs; do
		src=$(basename "${o%.o}")
		# warnings that belong to this object's compile: lines naming the file
		no_new "no new $what warnings in $o" \
			"$(comm -13 <(grep "^$src\\." "$tmp/warn-base$sfx.warn" || true) <(grep "^$src\\." "$tmp/warn-series$sfx.warn" || true))"
	done
	# and none in files they include (touched headers, #included test files); as sets of
	# messages: an added object includes headers that already warn at the base (mmzone.h)
	no_new "no new $what warnings anywhere in these compiles (headers and included files too)" \
		"$(comm -13 <(sort -u "$tmp/warn-base$sfx.warn") <(sort -u "$tmp/warn-series$sfx.warn"))"
	[ "$KTAP_FAILED" = 0 ]
}

SPARSE=${SPARSE:-sparse} # suite 71: a sparse built from sid's source (7.3 refuses bookworm's 0.6.4)
if command -v "$SPARSE" >/dev/null; then
	ktap_sub "gcc W=1 and sparse" compare gcc
else
	ktap_fail "gcc W=1 and sparse" "no $SPARSE (make deps)"
fi
[ "${WARN_CLANG:-1}" = 0 ] || ktap_sub "clang W=1" compare llvm
exit 0
