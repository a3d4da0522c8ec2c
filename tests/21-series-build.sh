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
#    every includer as kbuild would. The base step is a full build of its
#    own, and the series tip is also built in full, from a clean directory,
#    as the test kernel (suite 10). These builds link vmlinux and stop
#    (VMLINUX_ONLY): no bootable image, which nothing here boots.
#  - The worktree is left at the series tip, with the bisect's tip build
#    in $BUILD/out/bisect: suite 24 (the configuration variants, in
#    make check-full) starts its builds from a copy of it.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/out/bisect
tmp=$BUILD/tmp/suite21
mkdir -p "$tmp"
LABEL=bisect
# shellcheck source=tools/lib/series-wt.sh
. "$REPO/tools/lib/series-wt.sh"

if out_st=$("$REPO/tools/bisect-narrow.py" --self-test 2>&1); then
	echo "PASS: bisect-narrow narrows only what it can ($(echo "$out_st" | tail -n 1))"
else
	echo "$out_st"
	echo "FAIL: bisect-narrow self-test"
fi

commits=$(git -C "$KSRC" rev-list --reverse "$base..$branch")
i=0
for c in "$base" $commits; do
	subj=$(git -C "$KSRC" log -1 --format=%s "$c")
	[ "$c" = "$base" ] && label="base" || label=$(printf 'patch %02d: %s' "$i" "$subj")
	git -C "$wt" checkout -q --detach "$c" || { echo "FAIL: bisect $label: checkout failed"; i=$((i + 1)); continue; }
	filter_frags "$wt" "$tmp/bisect.config" "${frags[@]}"
	narrowed=""
	if [ "$c" != "$base" ] && [ -f "$out/vmlinux" ]; then
		if ! "$REPO/tools/bisect-narrow.py" "$wt" "$c" "$out" >"$tmp/narrow" 2>"$tmp/narrow.err"; then
			cat "$tmp/narrow.err"
			echo "FAIL: bisect $label: tools/bisect-narrow.py failed"
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
	if KSRC=$wt VMLINUX_ONLY=1 "$build" bisect x86_64 "$tmp/bisect.config" >"$tmp/bisect.log" 2>&1; then
		echo "PASS: builds at $label${narrowed:+ ($narrowed)}"
		echo "INFO: bisect $label: build step $((SECONDS - t0))s"
	else
		tail -n 8 "$tmp/bisect.log"
		echo "FAIL: builds at $label: see $BUILD/out/bisect/build.log"
	fi
	i=$((i + 1))
done

exit 0
