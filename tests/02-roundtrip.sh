#!/bin/bash
# Suite 02: on the untouched tree, `make export` reproduces patches/ byte for
# byte (exported to a scratch directory; patches/ is not written).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
if ! ls "$REPO"/patches/*.patch >/dev/null 2>&1; then
	echo "SKIP: round-trip: patches/ has no patches yet"
	exit 0
fi
out=$(mktemp -d "$BUILD/.test-roundtrip.XXXXXX")
trap 'rm -rf "$out"' EXIT
if ! "$REPO/tools/series.sh" export "$out/p" 2>"$out/err"; then
	echo "FAIL: round-trip: export failed: $(tr '\n' ' ' <"$out/err")"
	exit 0
fi
if diff -r "$REPO/patches" "$out/p" >"$out/diff"; then
	echo "PASS: round-trip-byte-for-byte ($(ls "$out"/p/*.patch | wc -l) files)"
else
	echo "FAIL: round-trip-byte-for-byte: export differs from patches/ (run 'make tree export' and commit patches/): $(head -c 600 "$out/diff" | tr '\n' ' ')"
fi
if [ -f "$REPO/patches/0000-cover-letter.patch" ] &&
	! grep -q '\*\*\* SUBJECT HERE \*\*\*\|\*\*\* BLURB HERE \*\*\*' "$REPO/patches/0000-cover-letter.patch"; then
	echo "PASS: cover-letter-has-text"
else
	echo "FAIL: cover-letter-has-text: patches/0000-cover-letter.patch missing or still a template"
fi
