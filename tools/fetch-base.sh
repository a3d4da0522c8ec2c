#!/bin/bash
# Fetch pinned Debian packages (base.sha256), verified, through a private apt
# configuration (harness.md, "How the base is fetched"); all but source print a path.
#   tools/fetch-base.sh [source]      linux-source-5.10 unpacked into $KSRC (git, tag base-VERSION)
#   tools/fetch-base.sh source-deb    the linux-source-5.10 .deb, not unpacked
#   tools/fetch-base.sh config        the linux-config-5.10 .deb
#   tools/fetch-base.sh busybox-arm64 Debian's arm64 busybox-static binary
#   tools/fetch-base.sh mainline-7.3  linux-source-7.3's M73_FILES -> $BUILD/mainline-7.3
# Environment: REPO BUILD KSRC BASE_VERSION; BASE_SHA256 (a version not in
#   base.sha256); MIRROR SECURITY_MIRROR (default: the system's apt sources);
#   LOCAL_TARBALL (a local .tar.xz or .deb instead of a download); MIN_FREE_MB
#   (3000); BUSYBOX_ARM64_VERSION; M73_VERSION M73_FILES M73_DEB (a local .deb).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
MIN_FREE_MB=${MIN_FREE_MB:-3000}
BASE_DATE=${BASE_DATE:-2000-01-01T00:00:00Z}
BASE_IDENT_NAME=${BASE_IDENT_NAME:-Debian linux-source-5.10}
BASE_IDENT_EMAIL=${BASE_IDENT_EMAIL:-base@localhost}
KSRC=${KSRC:-$BUILD/linux}
DL=$BUILD/dl
APT_ARCH=amd64
APTDIR=$BUILD/apt

die() { echo "fetch-base: error: $*" >&2; exit 1; }
log() { echo "fetch-base: $*" >&2; }
# shellcheck source=tools/lib/apt.sh
. "$here/lib/apt.sh"

src_deb=linux-source-5.10_${BASE_VERSION}_all.deb
cfg_deb=linux-config-5.10_${BASE_VERSION}_amd64.deb
tarball=linux-source-5.10_${BASE_VERSION}.tar.xz
tag=base-$BASE_VERSION

# ---- pins and the private apt configuration under $BUILD/apt (tools/lib/apt.sh)
PIN=$REPO/base.sha256
PIN_NAME=$src_deb
PIN_SUM=${BASE_SHA256:-}
PIN_HINT="To use another version: make BASE_VERSION=<version> BASE_SHA256=<sha256 of its source .deb>
  (check the checksum against Debian's published Packages/changelog first),
  or add the line '<sha256>  <file>' to base.sha256."
APT_HOW="make MIRROR=<uri>/debian SECURITY_MIRROR=<uri>/debian-security
  or use a local copy: make LOCAL_TARBALL=/path/to/linux-source-5.10.tar.xz (or the .deb)"
# The suites; mainline-7.3 replaces this with trixie-backports.
apt_sources() {
	echo "deb $MIRROR bullseye main"
	echo "deb $SECURITY_MIRROR bullseye-security main"
}

# download PKG VERSION FILENAME -> $DL/FILENAME, verified
download() {
	local pkg=$1 ver=$2 name=$3 tmp
	need_pin "$name" >/dev/null
	if [ -f "$DL/$name" ]; then
		if verify "$DL/$name" "$name"; then
			return 0
		fi
		log "deleting the corrupted cached $DL/$name"
		rm -f "$DL/$name"
	fi
	apt_update
	mkdir -p "$DL"
	tmp=$(mktemp -d "$DL/.download.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	log "downloading $pkg=$ver"
	if ! (cd "$tmp" && apt-get -q download "$pkg=$ver") >"$tmp/log" 2>&1; then
		sed 's/^/  /' "$tmp/log" >&2
		if grep -q "Version '$ver' for '$pkg' was not found\|Unable to locate package\|Can't select" "$tmp/log"; then
			log "versions of $pkg served by the mirror now:"
			apt-cache madison "$pkg" 2>/dev/null | sed 's/^/  /' >&2 || true
			die "$pkg version $ver is not served any more.
  Choose a served version: make BASE_VERSION=<version> BASE_SHA256=<sha256 of its .deb>
  (or add '<sha256>  ${pkg}_<version>_<arch>.deb' to base.sha256);
  or use a local copy of the pinned one: make LOCAL_TARBALL=/path/to/$name"
		fi
		die "download of $pkg=$ver failed (see above)"
	fi
	if ! verify "$tmp/$name" "$name"; then
		rm -rf "$tmp"
		die "refusing $name: its sha256 does not match base.sha256 (deleted)"
	fi
	mv "$tmp/$name" "$DL/$name"
	rm -rf "$tmp"
	trap - EXIT
	log "downloaded and verified $DL/$name"
}

check_space() {
	local dir=$1 avail
	avail=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
	if [ "${avail:-0}" -lt "$MIN_FREE_MB" ]; then
		die "not enough free disk space in $dir: ${avail} MB free, ${MIN_FREE_MB} MB needed
  to unpack the kernel source and build it. Free some space (or point BUILD=
  at a larger disk) and run again; nothing was unpacked."
	fi
}

base_ready() {
	[ -d "$KSRC/.git" ] && git -C "$KSRC" rev-parse -q --verify "refs/tags/$tag" >/dev/null
}

do_source() {
	if base_ready; then
		log "base $tag ready in $KSRC"
		return 0
	fi
	[ ! -e "$KSRC" ] || die "$KSRC exists but has no tag $tag (a different BASE_VERSION?).
  Move it away or remove it (rm -rf $KSRC) and run again."
	mkdir -p "$BUILD"
	local input kind
	if [ -n "${LOCAL_TARBALL:-}" ]; then
		[ -r "$LOCAL_TARBALL" ] || die "LOCAL_TARBALL=$LOCAL_TARBALL is not a readable file"
		input=$LOCAL_TARBALL
		case "$input" in
		*.deb) kind=deb ;;
		*.tar.xz) kind=tar ;;
		*) die "LOCAL_TARBALL must be a .deb or a .tar.xz: $input" ;;
		esac
		local name=$src_deb
		[ $kind = deb ] || name=$tarball
		verify "$input" "$name" || die "refusing LOCAL_TARBALL=$input: not the pinned $name"
		log "using verified local $input"
	else
		download linux-source-5.10 "$BASE_VERSION" "$src_deb"
		input=$DL/$src_deb
		kind=deb
	fi
	check_space "$BUILD"
	local tmp
	tmp=$(mktemp -d "$BUILD/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	if [ $kind = deb ]; then
		log "extracting the tarball from $(basename "$input")"
		dpkg-deb --fsys-tarfile "$input" | tar -xO ./usr/src/linux-source-5.10.tar.xz >"$tmp/src.tar.xz"
		if [ -n "$(pinned "$tarball")" ]; then
			verify "$tmp/src.tar.xz" "$tarball" || die "the tarball inside $(basename "$input") does not match base.sha256"
		fi
		input=$tmp/src.tar.xz
	fi
	log "unpacking into $KSRC"
	mkdir "$tmp/x"
	tar -xJf "$input" -C "$tmp/x" || die "unpacking failed (disk full?); nothing was kept"
	rm -f "$tmp/src.tar.xz"
	[ -d "$tmp/x/linux-source-5.10" ] || die "unexpected tarball layout (no linux-source-5.10/)"
	log "creating the base commit"
	(
		cd "$tmp/x/linux-source-5.10"
		export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
		export GIT_AUTHOR_NAME="$BASE_IDENT_NAME" GIT_AUTHOR_EMAIL="$BASE_IDENT_EMAIL"
		export GIT_COMMITTER_NAME="$BASE_IDENT_NAME" GIT_COMMITTER_EMAIL="$BASE_IDENT_EMAIL"
		export GIT_AUTHOR_DATE="$BASE_DATE" GIT_COMMITTER_DATE="$BASE_DATE"
		git init -q -b base
		git config core.autocrlf false
		git config gc.auto 0
		git config core.looseCompression 1
		# Debian's top-level .gitignore ignores everything: force-add.
		git add -A -f
		git commit -q --no-verify -m "Debian linux-source-5.10 $BASE_VERSION" \
			-m "Unpacked from $src_deb (sha256 pinned in base.sha256)."
		git tag "$tag"
	) || die "creating the base git repository failed (disk full?); nothing was kept"
	mv "$tmp/x/linux-source-5.10" "$KSRC"
	rm -rf "$tmp"
	trap - EXIT
	log "base $tag ready in $KSRC ($(git -C "$KSRC" rev-parse --short=12 "$tag"))"
}

# One fetch at a time per build dir; leftovers of an interrupted run (killed
# before its cleanup could run) are removed once we hold the lock.
mkdir -p "$BUILD"
exec 9>"$BUILD/.fetch.lock"
if ! flock -n 9; then
	log "waiting for another fetch-base in $BUILD"
	flock 9
fi
rm -rf "$BUILD"/.unpack.* "$BUILD"/.busybox.* "$DL"/.download.* 2>/dev/null || true
trap 'exit 130' INT
trap 'exit 143' TERM

case "${1:-source}" in
source) do_source ;;
config)
	download linux-config-5.10 "$BASE_VERSION" "$cfg_deb"
	echo "$DL/$cfg_deb"
	;;
source-deb)
	download linux-source-5.10 "$BASE_VERSION" "$src_deb"
	echo "$DL/$src_deb"
	;;
busybox-arm64)
	bb=$BUILD/tools/busybox-arm64
	if [ ! -x "$bb" ]; then
		APT_ARCH=arm64 APTDIR=$BUILD/apt-arm64
		bbdeb=busybox-static_${BUSYBOX_ARM64_VERSION:-1:1.30.1-6+b3}_arm64.deb
		download busybox-static "${BUSYBOX_ARM64_VERSION:-1:1.30.1-6+b3}" "${bbdeb/1:/1%3a}"
		tmp=$(mktemp -d "$BUILD/.busybox.XXXXXX")
		dpkg-deb -x "$DL/${bbdeb/1:/1%3a}" "$tmp"
		mkdir -p "$BUILD/tools"
		mv "$tmp/bin/busybox" "$bb"
		rm -rf "$tmp"
	fi
	echo "$bb"
	;;
mainline-7.3)
	# The comparison subject of the perf harness (tools/perf-harness,
	# Documentation/project/perf-harness.md): mainline 7.3's own
	# drivers/cpufreq/intel_pstate.c and schedutil's perf path (with the
	# helpers it calls), compiled in user space next to the series'.
	# Debian ships 7.3 in trixie-backports; its Packages index is fetched
	# for amd64 (Documentation/project/mainline-history.md, 7).
	M73_VERSION=${M73_VERSION:-7.3.4-1~bpo13+1}
	M73_FILES=${M73_FILES:-drivers/cpufreq/intel_pstate.c kernel/sched/cpufreq_schedutil.c kernel/sched/fair.c kernel/sched/sched.h include/linux/sched/cpufreq.h}
	m73_deb=linux-source-7.3_${M73_VERSION}_all.deb
	m73_dir=$BUILD/mainline-7.3
	stamp="$M73_VERSION $M73_FILES"
	if [ -f "$m73_dir/.stamp" ] && [ "$(cat "$m73_dir/.stamp")" = "$stamp" ]; then
		echo "$m73_dir"
		exit 0
	fi
	if [ -n "${M73_DEB:-}" ]; then
		[ -r "$M73_DEB" ] || die "M73_DEB=$M73_DEB is not a readable file"
		verify "$M73_DEB" "$m73_deb" || die "refusing M73_DEB=$M73_DEB: not the pinned $m73_deb"
		deb=$M73_DEB
	else
		APTDIR=$BUILD/apt-mainline-7.3
		apt_sources() { echo "deb $MIRROR trixie-backports main"; }
		download linux-source-7.3 "$M73_VERSION" "$m73_deb"
		deb=$DL/$m73_deb
	fi
	tmp=$(mktemp -d "$BUILD/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	log "extracting $M73_FILES from $(basename "$deb")"
	members=""
	for f in $M73_FILES; do
		need_pin "linux-source-7.3_$M73_VERSION:$f" >/dev/null
		members="$members linux-source-7.3/$f"
	done
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-7.3.tar.xz |
		tar -xJ -C "$tmp" $members || die "extracting$members from $deb failed"
	for f in $M73_FILES; do
		verify "$tmp/linux-source-7.3/$f" "linux-source-7.3_$M73_VERSION:$f" ||
			die "$f in $(basename "$deb") does not match base.sha256"
	done
	echo "$stamp" >"$tmp/linux-source-7.3/.stamp"
	rm -rf "$m73_dir"
	mv "$tmp/linux-source-7.3" "$m73_dir"
	rm -rf "$tmp"
	trap - EXIT
	log "mainline 7.3 files ready in $m73_dir"
	echo "$m73_dir"
	;;
*) die "usage: $0 [source|source-deb|config|busybox-arm64|mainline-7.3]" ;;
esac
