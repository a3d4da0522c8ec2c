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
# one TAP document per "TAP version" line: the built-in suites' and each
# test module's (see tools/kunit-boot.sh); their totals are added up
parts=$(mktemp -d "${TMPDIR:-/tmp}/kunit-summary.XXXXXX")
trap 'rm -rf "$parts"' EXIT
awk -v d="$parts" '/TAP version [0-9]+\r?$/ { n++ } n { print > (d "/part" n ".log") }' "$log"
lines=$(for p in "$parts"/part*.log; do
	[ -f "$p" ] || continue
	python3 "$parser" parse <"$p" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' |
		grep -E 'Testing complete|tests? run' | tail -n 1 | sed 's/^\[[0-9:]*\] *//'
done)
if [ "$(echo "$lines" | grep -c 'Testing complete')" -gt 1 ]; then
	echo "$lines" | awk '{ for (i = 1; i < NF; i++) { if ($(i + 1) == "tests") t += $i; if ($(i + 1) ~ /^failed/) f += $i; if ($(i + 1) ~ /^crashed/) c += $i } }
		END { printf "Testing complete. %d tests run. %d failed. %d crashed. (%d TAP documents)\n", t, f, c, NR }'
else
	echo "${lines:-no KUnit results in the log}"
fi
