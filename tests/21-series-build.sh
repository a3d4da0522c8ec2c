#!/bin/bash
# Suite 21: the series is bisectable: every patch builds.
#  - Bisect: in a worktree of the kernel tree, the x86_64 test kernel builds
#    after each patch (base first), incrementally in one output directory.
#    The test fragments are filtered, at each commit, to the symbols that
#    exist there, so a patch that adds a Kconfig symbol is built with it from
#    that patch on. A patch that changes a header only in functions, function
#    pointers and macros rebuilds only the includers that can break: those
#    whose sources or headers name one of them, where a name in the body of
#    another header's inline stands for that inline's name, plus one
#    includer of each such header and of the changed one, which compiles
#    their bodies (tools/bisect-narrow.py); the
#    header is dated back so that kbuild leaves the other includers alone,
#    and they stay as built before it, also at the tip. Any other header
#    change (types, members, variables, #include or #if lines) rebuilds
#    every includer as kbuild would. The base step starts from a copy of
#    the test kernel's build (suite 10: the series tip in the kernel tree,
#    built in full from a clean directory; SEED=x86_64-test, or
#    BISECT_SEED): tools/relocate-seed.py points it at the worktree and
#    deletes every object made from a file that differs between the tip and
#    the base, but for a header change it narrows as for a patch (below),
#    so kbuild remakes those and what the base's configuration changes;
#    without that build, the base step is a full build of its own. These
#    builds link vmlinux and stop (VMLINUX_ONLY): no bootable image, which
#    nothing here boots.
#  - The worktree is left at the series tip, with the bisect's tip build
#    in $BUILD/out/bisect: suite 24 (the configuration variants, in
#    make check-full) starts its builds from a copy of it.
# KTAP; plan: the bisect-narrow self-test, then one result per step (the
# base and each commit of base..series), counted before any check.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/out/bisect
tmp=$BUILD/tmp/suite21
mkdir -p "$tmp"
# shellcheck source=tools/lib/series-wt.sh
. "$REPO/tools/lib/series-wt.sh"
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"

# no branch: no commits, and the base step fails below with the reason
commits=$(git -C "$KSRC" rev-list --reverse "$base..$branch" 2>/dev/null)
# shellcheck disable=SC2086 # one word per commit
set -- $commits
ktap_plan $((2 + $#))

if out_st=$("$REPO/tools/bisect-narrow.py" --self-test 2>&1); then
	ktap_ok "bisect-narrow narrows only what it can" "$(echo "$out_st" | tail -n 1)"
else
	echo "$out_st" | sed 's/^/  /'
	ktap_fail "bisect-narrow narrows only what it can" "its self-test failed (above)"
fi
if ! series_wt; then
	ktap_fail_rest "$SERIES_WT_WHY"
	exit 0
fi

# A walk whose every input is the same as one that passed before (the
# commits, the fragments, the toolchain and the packages it comes from,
# the seed, and this harness) has the same result: its record is shown
# instead of building again, marked as such; CHECK_FRESH=1 builds anyway.
# Only a walk where every step passed on a clean worktree is recorded, and
# it is shown only while its tip build is still in $out and the worktree
# is clean; the worktree is then checked out at the tip (suite 24 starts
# from them; suite 57 leaves it at the base).
key=$( {
	git -C "$KSRC" rev-parse "$base" && echo "$commits"
	cat "${frags[@]}"
	echo "toolchain ${TOOLCHAIN:-gcc} seed ${BISECT_SEED-x86_64-test}"
	gcc --version | head -n 1; ld --version | head -n 1; make --version | head -n 1
	dpkg-query -W -f='${Package} ${Version}\n' gcc-12 binutils make libelf-dev ccache python3 git 2>&1
	cd "$REPO" && sha256sum tools/build-kernel.sh tools/bisect-narrow.py tools/relocate-seed.py \
		tools/filter-fragments.sh tools/lib/series-wt.sh tests/21-series-build.sh
} | sha256sum | cut -c1-16)
record=$BUILD/state/bisect-$key.pass
tip=$(git -C "$KSRC" rev-parse "$branch")
if [ "${CHECK_FRESH:-0}" != 1 ] && [ -f "$record" ] && [ -f "$out/vmlinux" ] &&
	[ "$(cat "$out/.bisect-commit" 2>/dev/null)" = "$tip" ] && [ -z "$(git -C "$wt" status --porcelain)" ] &&
	git -C "$wt" checkout -q --detach "$tip"; then
	when=$(date -u -r "$record" '+%Y-%m-%d %H:%M UTC')
	echo "INFO: bisect: the walk with these inputs (key $key: commits, fragments, toolchain and its packages, harness) passed on $when; its results follow, not built again (CHECK_FRESH=1 builds)"
	# one name per step; a record that does not match the plan shows as
	# missing or extra results
	while IFS= read -r name; do
		ktap_cached "$name" "$when $key"
	done <"$record"
	exit 0
fi
rm -f "$BUILD"/state/bisect-*.pass
walk=$tmp/walk.$$
: >"$walk"

i=0
failed0=$KTAP_FAILED
for c in "$base" $commits; do
	subj=$(git -C "$KSRC" log -1 --format=%s "$c" | tr "#" " ")
	[ "$c" = "$base" ] && label="base" || label=$(printf 'patch %02d: %s' "$i" "$subj")
	# the commit $out was last built at, when that build passed: a header
	# change since then is narrowed (for the base step of a second run,
	# from the tip of the first)
	prev=$(cat "$out/.bisect-commit" 2>/dev/null || true)
	git -C "$wt" cat-file -e "$prev^{commit}" 2>/dev/null || prev=
	rm -f "$out/.bisect-commit"
	name="builds at $label"
	if ! git -C "$wt" checkout -q --detach "$c"; then
		ktap_fail "$name" "checkout of $c in $wt failed"
		i=$((i + 1))
		continue
	fi
	# local changes would ride along the checkouts: the walk would not be
	# the commits'
	if [ -n "$(git -C "$wt" status --porcelain)" ]; then
		git -C "$wt" status --short | head -n 5 | sed 's/^/  /'
		ktap_fail "$name" "the worktree $wt has local changes (git -C $wt stash, or remove it)"
		i=$((i + 1))
		continue
	fi
	filter_frags "$wt" "$tmp/bisect.config" "${frags[@]}"
	narrowed=""
	if [ -n "$prev" ] && [ "$prev" != "$c" ] && [ -f "$out/vmlinux" ]; then
		if ! "$REPO/tools/bisect-narrow.py" "$wt" "$c" "$out" "$prev" >"$tmp/narrow" 2>"$tmp/narrow.err"; then
			sed 's/^/  /' "$tmp/narrow.err"
			ktap_fail "$name" "tools/bisect-narrow.py failed"
			i=$((i + 1))
			continue
		fi
		while read -r kind path _; do
			case $kind in
			# 2000-01-01: older than every object in $out
			header) touch -c -d @946684800 "$path" ;;
			object) rm -f "$out/$path" ;;
			esac
		done <"$tmp/narrow"
		narrowed=$(awk -v wt="$wt/" '
			$1 == "header" { if (h != "") printf "%s; ", s; h = substr($2, length(wt) + 1); n = $3; k = 0; s = "" }
			$1 == "object" { k++ }
			h != "" { s = sprintf("%s: %d of %d includers rebuilt", h, k, n) }
			END { if (h != "") printf "%s", s }' "$tmp/narrow")
	fi
	t0=$SECONDS
	if KSRC=$wt SEED=${BISECT_SEED-x86_64-test} SEED_NARROW=1 VMLINUX_ONLY=1 "$build" bisect x86_64 "$tmp/bisect.config" >"$tmp/bisect.log" 2>&1; then
		echo "$c" >"$out/.bisect-commit"
		echo "$name" >>"$walk"
		ktap_ok "$name" "$narrowed"
		echo "INFO: bisect $label: build step $((SECONDS - t0))s$(sed -n 's/.*(SEED), relocated from [^:]*: / (started from a copy of the test kernel: /p' "$tmp/bisect.log" | sed 's/$/)/')"
	else
		tail -n 8 "$tmp/bisect.log" | sed 's/^/  /'
		ktap_fail "$name" "see $BUILD/out/bisect/build.log"
	fi
	i=$((i + 1))
done
if [ "$KTAP_FAILED" = "$failed0" ] && [ "$(wc -l <"$walk")" = "$i" ]; then
	mkdir -p "$BUILD/state" && mv "$walk" "$record"
fi
rm -f "$walk"
exit 0
