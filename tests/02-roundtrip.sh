#!/bin/bash
# Suite 02: on the untouched tree, `make export` reproduces patches/ byte for
# byte (exported to a scratch directory; patches/ is not written).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
if ! ls "$REPO"/patches/*.patch >/dev/null 2>&1; then
	echo "SKIP: round-trip: patches/ has no patches yet"
	exit 0
fi
if "$REPO/tools/series.sh" status >"$BUILD/.roundtrip.out" 2>&1; then
	echo "PASS: round-trip-byte-for-byte ($(ls "$REPO"/patches/*.patch | wc -l) files)"
else
	head -n 60 "$BUILD/.roundtrip.out"
	echo "FAIL: round-trip-byte-for-byte: exporting the untouched branch does not reproduce patches/ (run 'make tree FORCE=1 export' and commit patches/ if the branch is right)"
fi
rm -f "$BUILD/.roundtrip.out"
if [ -f "$REPO/patches/0000-cover-letter.patch" ] &&
	! grep -q '\*\*\* SUBJECT HERE \*\*\*\|\*\*\* BLURB HERE \*\*\*' "$REPO/patches/0000-cover-letter.patch"; then
	echo "PASS: cover-letter-has-text"
else
	echo "FAIL: cover-letter-has-text: patches/0000-cover-letter.patch missing or still a template"
fi
