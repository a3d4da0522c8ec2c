#!/bin/bash
# Fetch pinned Debian packages (base.sha256), verified, through a private apt
# configuration (harness.md, "How the base is fetched"); all but source* print a path.
#   tools/fetch-base.sh [source]      linux-source-5.10 unpacked into $KSRC (git, tag base-VERSION)
#   tools/fetch-base.sh source-7.3    linux-source-7.3 unpacked into $M73_KSRC (the mainline series' base)
#   tools/fetch-base.sh source-deb    the linux-source-5.10 .deb, not unpacked
#   tools/fetch-base.sh config        the linux-config-5.10 .deb
#   tools/fetch-base.sh busybox-arm64 Debian's arm64 busybox-static binary
#   tools/fetch-base.sh mainline-7.3  five files of linux-source-7.3 -> $BUILD/mainline-7.3
#   tools/fetch-base.sh sparse        Debian's sparse source (sid), built: the binary
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
# shellcheck source=tools/lib/apt.sh
. "$here/lib/apt.sh"
MIN_FREE_MB=${MIN_FREE_MB:-3000}
DL=$BUILD/dl
APT_ARCH=amd64
APTDIR=$BUILD/apt
src_deb=linux-source-5.10_${BASE_VERSION}_all.deb
# the variables a user sets to choose another version or a local copy
vv=BASE lv=LOCAL_TARBALL

PIN=$REPO/base.sha256
PIN_NAME=$src_deb
PIN_SUM=${BASE_SHA256:-}
PIN_HINT="To use another version: make BASE_VERSION=<version> BASE_SHA256=<sha256 of its source .deb>
  (check the checksum against Debian's published Packages/changelog first),
  or add the line '<sha256>  <file>' to base.sha256."
APT_HOW="make MIRROR=<uri>/debian SECURITY_MIRROR=<uri>/debian-security
  or use a local copy: make LOCAL_TARBALL=/path/to/linux-source-5.10.tar.xz (or the .deb)"
apt_sources() {
	echo "deb $MIRROR bullseye main"
	echo "deb $SECURITY_MIRROR bullseye-security main"
}
# 7.3 comes from trixie-backports (mainline-history.md, 7)
m73_apt() {
	APTDIR=$BUILD/apt-mainline-7.3
	apt_sources() { echo "deb $MIRROR trixie-backports main"; }
}

# download PKG VERSION FILENAME -> $DL/FILENAME, verified
download() {
	apt_fetch "$DL" "$1" "$2" "Choose a served version: make ${vv}_VERSION=<version> ${vv}_SHA256=<sha256 of its .deb>
  (or add '<sha256>  ${1}_<version>_<arch>.deb' to base.sha256);
  or use a local copy of the pinned one: make $lv=/path/to/$3" download "$3"
}

# unpack PKG VERSION DIR LOCAL: Debian's PKG (linux-source-X.Y) VERSION in DIR, a git
# repository with one reproducible commit tagged base-VERSION ("~" as "_"); LOCAL: a
# local .deb or .tar.xz of it instead of a download
unpack() {
	local pkg=$1 ver=$2 dir=$3 input=$4 deb=${1}_${2}_all.deb tag=base-${2//\~/_} name avail
	local tarball=${pkg}_$ver.tar.xz
	name=$deb
	if [ -d "$dir/.git" ] && git -C "$dir" rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
		log "base $tag ready in $dir"
		return 0
	fi
	[ ! -e "$dir" ] || die "$dir exists but has no tag $tag (a different version?).
  Move it away or remove it (rm -rf $dir) and run again."
	if [ -n "$input" ]; then
		[ -r "$input" ] || die "$lv=$input is not a readable file"
		case "$input" in
		*.deb) ;;
		*.tar.xz) name=$tarball ;;
		*) die "$lv must be a .deb or a .tar.xz: $input" ;;
		esac
		verify "$input" "$name" || die "refusing $lv=$input: not the pinned $name"
		log "using verified local $input"
	else
		download "$pkg" "$ver" "$deb"
		input=$DL/$deb
	fi
	avail=$(df -Pm "$BUILD" | awk 'NR == 2 { print $4 }')
	[ "${avail:-0}" -ge "$MIN_FREE_MB" ] || die "not enough free disk space in $BUILD: ${avail} MB free, ${MIN_FREE_MB} MB needed
  to unpack the kernel source and build it. Free some space (or point BUILD=
  at a larger disk) and run again; nothing was unpacked."
	tmp=$(mktemp -d "$BUILD/.unpack.XXXXXX")
	if [ "$name" = "$deb" ]; then
		log "extracting the tarball from $(basename "$input")"
		dpkg-deb --fsys-tarfile "$input" | tar -xO "./usr/src/$pkg.tar.xz" >"$tmp/src.tar.xz"
		if [ -n "$(pinned "$tarball")" ]; then
			verify "$tmp/src.tar.xz" "$tarball" || die "the tarball inside $(basename "$input") does not match base.sha256"
		fi
		input=$tmp/src.tar.xz
	fi
	log "unpacking into $dir"
	mkdir "$tmp/x"
	tar -xJf "$input" -C "$tmp/x" || die "unpacking failed (disk full?); nothing was kept"
	rm -f "$tmp/src.tar.xz"
	[ -d "$tmp/x/$pkg" ] || die "unexpected tarball layout (no $pkg/)"
	log "creating the base commit"
	(
		# a fixed identity and date: the base commit is reproducible (suite 00)
		cd "$tmp/x/$pkg"
		export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
		export GIT_AUTHOR_NAME="Debian $pkg" GIT_AUTHOR_EMAIL=base@localhost
		export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
		export GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z
		git init -q -b base
		git config core.autocrlf false
		git config gc.auto 0
		git config core.looseCompression 1
		# Debian's top-level .gitignore ignores everything: force-add.
		git add -A -f
		git commit -q --no-verify -m "Debian $pkg $ver" -m "Unpacked from $deb (sha256 pinned in base.sha256)."
		git tag "$tag"
	) || die "creating the base git repository failed (disk full?); nothing was kept"
	mkdir -p "$(dirname "$dir")"
	mv "$tmp/x/$pkg" "$dir"
	log "base $tag ready in $dir ($(git -C "$dir" rev-parse --short=12 "$tag"))"
}

# mainline 7.3's intel_pstate.c and schedutil, the perf harness's comparison subject
# (perf-harness.md); Debian ships 7.3 in trixie-backports (mainline-history.md, 7)
do_mainline() {
	local ver=$M73_VERSION deb f dir=$BUILD/mainline-7.3
	local files="drivers/cpufreq/intel_pstate.c kernel/sched/cpufreq_schedutil.c kernel/sched/fair.c kernel/sched/sched.h include/linux/sched/cpufreq.h"
	local m73_deb=linux-source-7.3_${ver}_all.deb stamp="$ver $files"
	if [ "$(cat "$dir/.stamp" 2>/dev/null)" != "$stamp" ]; then
		if [ -n "${M73_DEB:-}" ]; then
			[ -r "$M73_DEB" ] || die "M73_DEB=$M73_DEB is not a readable file"
			verify "$M73_DEB" "$m73_deb" || die "refusing M73_DEB=$M73_DEB: not the pinned $m73_deb"
			deb=$M73_DEB
		else
			m73_apt
			download linux-source-7.3 "$ver" "$m73_deb"
			deb=$DL/$m73_deb
		fi
		tmp=$(mktemp -d "$BUILD/.unpack.XXXXXX")
		log "extracting $files from $(basename "$deb")"
		# shellcheck disable=SC2046,SC2086 # one member per file
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-7.3.tar.xz |
			tar -xJ -C "$tmp" $(printf 'linux-source-7.3/%s ' $files) || die "extracting $files from $deb failed"
		for f in $files; do
			verify "$tmp/linux-source-7.3/$f" "linux-source-7.3_$ver:$f" ||
				die "$f in $(basename "$deb") does not match base.sha256"
		done
		echo "$stamp" >"$tmp/linux-source-7.3/.stamp"
		rm -rf "$dir"
		mv "$tmp/linux-source-7.3" "$dir"
		log "mainline 7.3 files ready in $dir"
	fi
	echo "$dir"
}

# leftovers of an interrupted run (killed before its cleanup) go once we hold the lock
apt_lock .fetch.lock
rm -rf "$BUILD"/.unpack.* "$DL"/.download.* 2>/dev/null || true

case "${1:-source}" in
source) unpack linux-source-5.10 "$BASE_VERSION" "$KSRC" "${LOCAL_TARBALL:-}" ;;
source-7.3)
	m73_apt
	PIN_NAME=linux-source-7.3_${M73_VERSION}_all.deb PIN_SUM=${M73_SHA256:-}
	PIN_HINT=${PIN_HINT//BASE_/M73_} vv=M73 lv=M73_DEB
	unpack linux-source-7.3 "$M73_VERSION" "$M73_KSRC" "${M73_DEB:-}"
	;;
config)
	cfg=linux-config-5.10_${BASE_VERSION}_amd64.deb
	download linux-config-5.10 "$BASE_VERSION" "$cfg"
	echo "$DL/$cfg"
	;;
source-deb)
	download linux-source-5.10 "$BASE_VERSION" "$src_deb"
	echo "$DL/$src_deb"
	;;
busybox-arm64)
	bb=$BUILD/tools/busybox-arm64
	if [ ! -x "$bb" ]; then
		APT_ARCH=arm64 APTDIR=$BUILD/apt-arm64
		download busybox-static 1:1.30.1-6+b3 busybox-static_1%3a1.30.1-6+b3_arm64.deb
		tmp=$(mktemp -d "$BUILD/.unpack.XXXXXX")
		dpkg-deb -x "$DL/busybox-static_1%3a1.30.1-6+b3_arm64.deb" "$tmp"
		mkdir -p "$BUILD/tools"
		mv "$tmp/bin/busybox" "$bb"
	fi
	echo "$bb"
	;;
mainline-7.3) do_mainline ;;
sparse) # for 7.3's C=2, which wants __typeof_unqual__ (bookworm's 0.6.4 has not; sid's binary needs glibc 2.38)
	v=${SPARSE_VERSION:-0.6.5~rc1-2}
	dir=$BUILD/tools/sparse-$v
	if [ ! -x "$dir/sparse" ]; then
		APTDIR=$BUILD/apt-sid
		apt_sources() { echo "deb-src $MIRROR sid main"; }
		apt_fetch "$DL" sparse "$v" "Choose a served version: pin its .dsc and tarballs in base.sha256 and run
  with SPARSE_VERSION=<version>" "source --download-only" "sparse_$v.dsc" "sparse_${v%-*}.orig.tar.gz" "sparse_$v.debian.tar.xz"
		tmp=$(mktemp -d "$BUILD/.unpack.XXXXXX")
		# Debian's patches name gcc-16 (its dependency): CC=gcc, bookworm's
		{ dpkg-source --no-check -x "$DL/sparse_$v.dsc" "$tmp/src" && make -C "$tmp/src" -j"$(nproc)" CC=gcc sparse; } \
			>"$tmp/build.log" 2>&1 || { tail -n 20 "$tmp/build.log" >&2; die "sparse $v did not build"; }
		rm -rf "$dir" && mkdir -p "$BUILD/tools" && mv "$tmp/src" "$dir"
	fi
	echo "$dir/sparse"
	;;
*) die "usage: $0 [source|source-7.3|source-deb|config|busybox-arm64|mainline-7.3|sparse]" ;;
esac
