#!/bin/bash
# The kernels declared in configs/kernels, the one place that says how each is configured.
#   tools/kernel.sh build NAME      configure and build NAME (tools/build-kernel.sh, with
#                                   its environment); prints what build-kernel.sh prints
#   tools/kernel.sh get NAME FIELD  one field: out arch cc tree fragments tree-dir
#   tools/kernel.sh names           the declared names
#   tools/kernel.sh table           the table of Documentation/project/kernels.md
# Environment: REPO BUILD KSRC.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
export REPO BUILD KSRC
decl=$REPO/configs/kernels
# a line that is not a comment must have the eight fields
bad=$(awk -F ' [|] ' '!/^#/ && NF && NF != 8 { printf "line %d has %d fields, want 8; ", NR, NF }' "$decl")
[ -z "$bad" ] || die "$decl: $bad"

# line NAME: the declaration's fields, one per line (name out arch cc tree
# fragments used-by proves)
line() {
	awk -F ' [|] ' -v n="$1" '!/^#/ && NF == 8 && $1 == n { for (i = 1; i <= NF; i++) print $i; found = 1 }
		END { exit !found }' "$decl" || die "no kernel '$1' in $decl"
}
field() { # NAME FIELD
	local f
	mapfile -t f < <(line "$1")
	case $2 in
	out) echo "${f[1]}" ;;
	arch) echo "${f[2]}" ;;
	cc) echo "${f[3]}" ;;
	tree) echo "${f[4]}" ;;
	fragments) echo "${f[5]}" ;;
	tree-dir)
		case ${f[4]} in
		harness) "$here/harness-tree.sh" ;;
		series) echo "$KSRC" ;;
		walk) echo "$BUILD/wt/bisect" ;;
		base) echo "$BUILD/wt/warn-base" ;;
		m73) echo "$BUILD/wt/m73" ;;
		*) die "$1: unknown tree '${f[4]}'" ;;
		esac ;;
	*) die "unknown field $2" ;;
	esac
}

# config NAME TREE-DIR FILE: the fragments in order; on the kernel trees (not the
# harness's) only the symbols the tree defines; a "# drop: REGEX" line of a
# fragment drops what the fragments before it say about those symbols
config() {
	local name=$1 dir=$2 file=$3 tree f drop tmp
	tree=$(field "$name" tree)
	tmp=$(mktemp)
	: >"$file"
	for f in $(field "$name" fragments); do
		[ -f "$REPO/$f" ] || die "$name: no fragment $f"
		drop=$(sed -n 's/^# drop: //p' "$REPO/$f")
		if [ -n "$drop" ]; then
			grep -v -E "^(# )?CONFIG_($drop)[= ]" "$file" >"$tmp" || true
			cp "$tmp" "$file"
		fi
		case $tree in
		walk | base | m73 | series)
			"$here/filter-fragments.sh" "$dir" "$tmp" "$REPO/$f"
			cat "$tmp" >>"$file" ;;
		*) cat "$REPO/$f" >>"$file" ;;
		esac
	done
	rm -f "$tmp"
}

case ${1:-} in
build)
	[ $# = 2 ] || die "usage: $0 build NAME"
	dir=$(field "$2" tree-dir)
	[ -e "$dir/Makefile" ] || die "$2: no kernel tree in $dir"
	mkdir -p "$BUILD/state"
	cfg=$BUILD/state/kernel-$2.config
	config "$2" "$dir" "$cfg"
	KSRC=$dir TOOLCHAIN=$(field "$2" cc) exec "$here/build-kernel.sh" "$(field "$2" out)" "$(field "$2" arch)" "$cfg"
	;;
get)
	[ $# = 3 ] || die "usage: $0 get NAME FIELD"
	field "$2" "$3"
	;;
names)
	awk -F ' [|] ' '!/^#/ && NF == 8 { print $1 }' "$decl"
	;;
table)
	echo "| kernel | build directory | arch | compiler | tree | fragments | used by | proves (what no other kernel here does) |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F ' [|] ' '!/^#/ && NF == 8 {
		n = split($6, fr, " "); s = ""
		for (i = 1; i <= n; i++) { f = fr[i]; sub(/^configs\//, "", f); sub(/\.config$/, "", f); s = s (i > 1 ? ", " : "") "`" f "`" }
		printf "| `%s` | `%s` | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, s, $7, $8 }' "$decl"
	;;
*)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
	;;
esac
