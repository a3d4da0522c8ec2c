#!/bin/bash
# The KUnit totals of a console log, as parsed by the tree's own
# tools/testing/kunit/kunit.py (the main job's "kunit:" line).
#   tools/kunit-summary.sh LOG
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
KSRC=${KSRC:-${BUILD:-$REPO/build}/linux}
log=${1:?usage: $0 LOG}
parser=$KSRC/tools/testing/kunit/kunit.py
[ -f "$parser" ] || { echo "no kunit.py in $KSRC"; exit 0; }
out=$(python3 "$parser" parse <"$log" 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
line=$(echo "$out" | grep -E 'Testing complete|tests? run' | tail -n 1 | sed 's/^\[[0-9:]*\] *//')
echo "${line:-no KUnit results in the log}"
