#!/bin/bash
# Keep, of Kconfig fragments, only the lines about symbols TREE defines (an
# older tree: the walk's commits, the base); written to OUT.
#   tools/filter-fragments.sh TREE OUT FRAGMENT...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 TREE OUT FRAGMENT..." >&2; exit 2; }
tree=$1 out=$2
shift 2
syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
git -C "$tree" grep -h -E '^[[:space:]]*(menu)?config [A-Z0-9_]+' -- '*Kconfig*' |
	awk '{ print "CONFIG_" $2 }' | sort -u >"$syms"
cat "$@" | awk '
	FNR == NR { ok[$0] = 1; next }
	/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s); if (s in ok) print; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { if ($2 in ok) print; next }' "$syms" - >"$out"
