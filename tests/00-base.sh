#!/bin/bash
# Suite 00: the pinned bases and fetch-base.sh's refusals, those in a scratch build dir
# (never the real cache). harness.md, "Test suites".
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}" "${BASE_VERSION:?}" "${M73_VERSION:?}" "${M73_KSRC:?}"
fetch=$REPO/tools/fetch-base.sh
. "$REPO/tools/lib/ktap.sh"
if [ $# = 0 ]; then
	ktap_plan 2
	ktap_sub "linux-source-5.10 $BASE_VERSION" "$0" 5.10
	ktap_sub "linux-source-7.3 $M73_VERSION" "$0" 7.3
	exit 0
fi
# per base: the package, version, tree, the variables that choose another version
# (VV_VERSION, VV_SHA256) or a local copy, the fetch command, the apt lists
if [ "$1" = 5.10 ]; then
	pkg=linux-source-5.10 ver=$BASE_VERSION dir=$KSRC vv=BASE lv=LOCAL_TARBALL arg=source lists=$BUILD/apt/lists
else
	pkg=linux-source-7.3 ver=$M73_VERSION dir=$M73_KSRC vv=M73 lv=M73_DEB arg=source-7.3 lists=$BUILD/apt-mainline-7.3/lists
	mkdir -p "$BUILD/state"
	"$fetch" source-7.3 >"$BUILD/state/00-base-7.3.log" 2>&1 || cat "$BUILD/state/00-base-7.3.log"
fi
deb=${pkg}_${ver}_all.deb
tag=base-${ver//\~/_}
local_copy=$(eval echo "\${$lv:-}")
ktap_plan 10

# --- the real base --------------------------------------------------------------
got=$(git -C "$dir" rev-parse -q --verify "refs/tags/$tag^{commit}" 2>/dev/null)
want=$(awk -v v="$ver" '$1 == "#" && $2 == "base-commit" && $3 == v { print $4 }' "$REPO/base.sha256")
if [ -z "$got" ]; then
	ktap_fail base-commit-reproducible "$dir has no tag $tag"
elif [ -z "$want" ]; then
	ktap_fail base-commit-reproducible "no '# base-commit $ver' line in base.sha256"
else
	ktap_check base-commit-reproducible "tag $tag is $got, base.sha256 pins $want" [ "$got" = "$want" ]
fi
# the .deb the base came from: the cached download, else a local .deb
src=$BUILD/dl/$deb
[ -f "$src" ] || src=$local_copy
[ "${src%.deb}" != "$src" ] || src=""
if [ -z "$src" ]; then
	ktap_skip base-checksum "the .deb is not cached (base came from $lv=$local_copy)"
else
	ktap_check base-checksum "$src does not match base.sha256" [ "$(sha256sum <"$src" | cut -c1-64)" = \
		"$(awk -v f="$deb" '$1 !~ /^#/ && $2 == f { print $1 }' "$REPO/base.sha256")" ]
fi

# --- refusals, in a scratch build dir ------------------------------------------------
scratch=$(mktemp -d "$BUILD/.test-base.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# run fetch-base against the scratch dir; output in $scratch/out, status in $rc
run() {
	rc=0
	env BUILD="$scratch/b" KSRC="$scratch/b/linux" M73_KSRC="$scratch/b/linux" REPO="$REPO" \
		"${vv}_VERSION=$ver" "$lv=" "${vv}_SHA256=" "$@" "$fetch" "$arg" >"$scratch/out" 2>&1 || rc=$?
}
nothing_unpacked() { [ ! -e "$scratch/b/linux" ] && [ -z "$(ls -d "$scratch"/b/.unpack.* "$scratch"/b/dl/.download.* 2>/dev/null)" ]; }
expect() { # NAME PATTERN: fetch failed, said PATTERN, left nothing behind
	[ $rc -ne 0 ] && grep -q "$2" "$scratch/out" && nothing_unpacked
	ktap_rc "$1" $? "status $rc, output: $(tr '\n' ' ' <"$scratch/out" | cut -c1-300)"
}

if [ -n "$src" ]; then
	mkdir -p "$scratch/b/dl"
	cp "$src" "$scratch/b/dl/$deb"
	printf 'X' | dd of="$scratch/b/dl/$deb" bs=1 seek=4096 conv=notrunc status=none
	cp "$scratch/b/dl/$deb" "$scratch/corrupt.deb"
	# a corrupted cached download: refused and deleted; the re-download's dead mirror said clearly
	run MIRROR=http://127.0.0.1:9/debian SECURITY_MIRROR=http://127.0.0.1:9/debian-security
	expect corrupted-download-refused "checksum mismatch"
	ktap_check corrupted-download-deleted "$deb is still in the cache" [ ! -e "$scratch/b/dl/$deb" ]
	expect mirror-unreachable-error "cannot reach the Debian mirror"
	# a corrupted local copy: refused, and the user's file is left alone
	rm -rf "$scratch/b"
	run "$lv=$scratch/corrupt.deb"
	expect corrupted-local-copy-refused "refusing $lv"
	ktap_check corrupted-local-copy-kept "the user's file was deleted" [ -f "$scratch/corrupt.deb" ]
	rm -f "$scratch/corrupt.deb"
	rm -rf "$scratch/b"
	run "$lv=$src" MIN_FREE_MB=999999999
	expect disk-full-refused "not enough free disk space"
else
	for c in corrupted-download-refused corrupted-download-deleted mirror-unreachable-error \
		corrupted-local-copy-refused corrupted-local-copy-kept disk-full-refused; do
		ktap_skip "$c" "no cached .deb to corrupt (the base came from $lv)"
	done
fi

rm -rf "$scratch/b"
run "${vv}_VERSION=${pkg#linux-source-}.0-0"
expect unpinned-version-refused "no pinned sha256"
# a version the mirror does not serve: the served ones are listed
rm -rf "$scratch/b"
# start from the real apt lists, if any, so the update is a quick revalidation
if [ -d "$lists" ]; then
	mkdir -p "$scratch/b/${lists#"$BUILD"/}" && cp -a "$lists/." "$scratch/b/${lists#"$BUILD"/}"
fi
run "${vv}_VERSION=${pkg#linux-source-}.0-0" "${vv}_SHA256=0000000000000000000000000000000000000000000000000000000000000000"
if grep -q "cannot reach the Debian mirror" "$scratch/out"; then
	ktap_skip unserved-version-lists-versions "the mirror is unreachable from here"
else
	expect unserved-version-lists-versions "versions of $pkg served"
fi
