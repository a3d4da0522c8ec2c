#!/bin/bash
# Build the emulated HWP machine (Documentation/project/hwp-machine.md):
# Debian 12's qemu source with tools/qemu-hwp/*.patch, x86_64 TCG only, once
# (reused while its stamp is current). Logs: $BUILD/logs/qemu-*.log.
#   tools/build-qemu.sh [build]   prints $BUILD/qemu-hwp/bin/qemu-system-x86_64
# Environment: REPO BUILD; JOBS (nproc); MIRROR SECURITY_MIRROR (default: the
#   system's apt sources); QEMU_VERSION (1:7.2+dfsg-7+deb12u18; its files
#   pinned in qemu.sha256).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
QEMU_VERSION=${QEMU_VERSION:-1:7.2+dfsg-7+deb12u18}
JOBS=${JOBS:-$(nproc)}
APTDIR=$BUILD/apt-qemu
DL=$BUILD/dl/qemu
OUT=$BUILD/qemu-hwp
WORK=$OUT/work
LOGS=$BUILD/logs
PIN=$REPO/qemu.sha256
SUITES="bookworm bookworm-updates"
SEC_SUITES="bookworm-security"

die() { echo "build-qemu: error: $*" >&2; exit 1; }
log() { echo "build-qemu: $*" >&2; }
# shellcheck source=tools/lib/apt.sh
. "$here/lib/apt.sh"

uver=${QEMU_VERSION#*:}                 # 7.2+dfsg-7+deb12u18
upstream=${uver%-*}                     # 7.2+dfsg
dsc=qemu_${uver}.dsc
orig=qemu_${upstream}.orig.tar.xz
debtar=qemu_${uver}.debian.tar.xz
files=("$dsc" "$orig" "$debtar")

# ---- pins and the private apt configuration under $BUILD/apt-qemu (tools/lib/apt.sh)
PIN_HINT="To use another version: add the lines '<sha256>  <file>' for its .dsc, .orig
  and .debian tarballs to qemu.sha256 (check them against Debian's published
  .dsc first), then QEMU_VERSION=<version> tools/build-qemu.sh"
APT_ARCH=amd64
APT_HOW="MIRROR=<uri>/debian SECURITY_MIRROR=<uri>/debian-security tools/build-qemu.sh"
apt_sources() {
	local s
	for s in $SUITES; do echo "deb-src $MIRROR $s main"; done
	for s in $SEC_SUITES; do echo "deb-src $SECURITY_MIRROR $s main"; done
}

have_source() {
	local f
	for f in "${files[@]}"; do
		[ -f "$DL/$f" ] || return 1
		if ! verify "$DL/$f" "$f"; then
			log "deleting the corrupted cached $DL/$f"
			rm -f "$DL/$f"
			return 1
		fi
	done
}

do_fetch() {
	local f tmp
	for f in "${files[@]}"; do need_pin "$f" >/dev/null; done
	have_source && return 0
	apt_update
	mkdir -p "$DL"
	tmp=$(mktemp -d "$DL/.download.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	log "downloading the qemu=$QEMU_VERSION source"
	if ! (cd "$tmp" && apt-get -q source --download-only "qemu=$QEMU_VERSION") >"$tmp/log" 2>&1; then
		sed 's/^/  /' "$tmp/log" >&2
		if grep -qi "Can not find version\|Unable to find a source package\|Unable to locate" "$tmp/log"; then
			log "versions of the qemu source served by the mirrors now:"
			apt-cache madison qemu 2>/dev/null | grep Sources | sed 's/^/  /' >&2 || true
			die "qemu source version $QEMU_VERSION is not served any more.
  Choose a served version: pin its .dsc, .orig and .debian tarballs in
  qemu.sha256 and run QEMU_VERSION=<version> tools/build-qemu.sh"
		fi
		die "download of the qemu=$QEMU_VERSION source failed (see above)"
	fi
	for f in "${files[@]}"; do
		[ -f "$tmp/$f" ] || die "the download has no $f (files: $(cd "$tmp" && ls | paste -sd' '))"
		if ! verify "$tmp/$f" "$f"; then
			rm -rf "$tmp"
			die "refusing $f: its sha256 does not match qemu.sha256 (deleted)"
		fi
	done
	for f in "${files[@]}"; do mv "$tmp/$f" "$DL/$f"; done
	rm -rf "$tmp"
	trap - EXIT
	log "downloaded and verified ${files[*]} in $DL"
}

# ---- build ----------------------------------------------------------------
patches() { ls "$here"/qemu-hwp/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null || true; }

# The devices: only those of the machine the guests boot, `-M pc` (i440FX,
# PIIX3; QEMU's default x86 machine), each of which that machine creates by
# default in a full build (HPET, vmport and vmmouse, the parallel port, the
# e1000 NIC that -nic none leaves out, standard VGA), so that a guest sees
# the same machine as with a full build; no q35, microvm or isapc, no
# device that only -device adds (USB, virtio, SCSI, sound, ...). About a
# fifth fewer files to compile (925 of 1136 compile commands for
# x86_64-softmmu, counted with ninja -t commands).
devices_mak=configs/devices/x86_64-softmmu/hwp-machine.mak
devices=(I440FX HPET VMPORT VMMOUSE PARALLEL E1000_PCI VGA_PCI)

configure_args=(
	--target-list=x86_64-softmmu --without-default-features
	--without-default-devices --with-devices-x86_64=hwp-machine
	--enable-tcg --enable-system --disable-user --disable-linux-user
	--disable-docs --disable-tools --disable-guest-agent --disable-install-blobs
	--disable-debug-info --disable-werror --disable-kvm --disable-xen
	--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
)

stamp_key() {
	{
		echo "qemu $QEMU_VERSION"
		for p in $(patches); do sha256sum <"$p" | sed "s|-\$|$(basename "$p")|"; done
		sha256sum <"$0" | sed 's|-$|build-qemu.sh|'
		sha256sum <"$PIN" | sed 's|-$|qemu.sha256|'
	} | sha256sum | awk '{print $1}'
}

bin=$OUT/bin/qemu-system-x86_64

is_current() {
	[ -x "$bin" ] && [ -f "$OUT/stamp" ] && [ "$(cat "$OUT/stamp")" = "$(stamp_key)" ]
}

# sync_tree NEW OLD: make OLD equal to NEW, touching only files that differ
# (so an incremental build recompiles only what our patch changed)
sync_tree() {
	local new=$1 old=$2 line a b
	if [ ! -d "$old" ]; then
		mv "$new" "$old"
		return 0
	fi
	while IFS= read -r line; do
		case "$line" in
		"Files "*" differ")
			a=${line#Files }; a=${a%% and *}
			b=${line#* and }; b=${b% differ}
			cp -a "$a" "$b"
			;;
		"Only in $new"*)
			a=${line#Only in }; b=${a#*: }; a=${a%%: *}
			cp -a "$a/$b" "$old${a#"$new"}/"
			;;
		"Only in $old"*)
			a=${line#Only in }; b=${a#*: }; a=${a%%: *}
			rm -rf "${a:?}/$b"
			;;
		*) log "sync: unexpected diff output: $line" ;;
		esac
	done < <(LC_ALL=C diff -rq "$new" "$old" || true)
	rm -rf "$new"
}

step() {
	local name=$1
	shift
	local lf=$LOGS/qemu-$name.log
	log "$name (log: $lf)"
	if ! "$@" >"$lf" 2>&1; then
		if grep -qE 'error:|FAILED:' "$lf"; then
			log "$name FAILED; errors in $lf:"
			grep -E -A3 'error:|FAILED:' "$lf" | grep -v '^ccache gcc \|^gcc ' | head -n 30 | sed 's/^/  | /' >&2
		else
			log "$name FAILED; last lines of $lf:"
			tail -n 25 "$lf" | sed 's/^/  | /' >&2
		fi
		die "the QEMU build failed at '$name'; nothing was installed (previous binary, if any, left as it was but not current)"
	fi
}

unpack_and_patch() {
	local tmp=$1 p
	# --no-check: the three files were checked against qemu.sha256 already
	# (dpkg-source has no Debian uploader keyring to check the signature)
	# (called under `if`, where set -e does not apply: every step returns)
	dpkg-source --no-check -x "$DL/$dsc" "$tmp/src" || return 1
	for p in $(patches); do
		echo "applying $(basename "$p")"
		patch -d "$tmp/src" -p1 --no-backup-if-mismatch -F0 <"$p" || {
			echo "error: $(basename "$p") does not apply"
			return 1
		}
	done
	echo "# written by tools/build-qemu.sh: the devices of the emulated HWP machine" >"$tmp/src/$devices_mak"
	printf 'CONFIG_%s=y\n' "${devices[@]}" >>"$tmp/src/$devices_mak"
}

do_build() {
	local key t0 tmp
	if is_current; then
		log "up to date: $bin"
		echo "$bin"
		return 0
	fi
	if ! command -v meson >/dev/null || ! command -v ninja >/dev/null; then
		die "meson/ninja not installed (run 'make deps')"
	fi
	command -v dpkg-source >/dev/null || die "dpkg-source not installed (dpkg-dev; run 'make deps')"
	do_fetch
	key=$(stamp_key)
	t0=$(date +%s)
	mkdir -p "$OUT" "$LOGS" "$WORK"
	rm -f "$OUT/stamp"
	rm -rf "$OUT"/.tmp.*
	tmp=$(mktemp -d "$OUT/.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	step unpack unpack_and_patch "$tmp"
	sync_tree "$tmp/src" "$WORK/src"
	printf '%s\n' "${configure_args[@]}" "${devices[@]}" >"$tmp/config"
	if [ ! -f "$WORK/obj/build.ninja" ] || ! cmp -s "$tmp/config" "$WORK/obj/.config-args"; then
		rm -rf "$WORK/obj"
		mkdir -p "$WORK/obj"
		local cc="gcc"
		if command -v ccache >/dev/null; then
			cc="ccache gcc"
		else
			log "warning: ccache not found, building without it"
		fi
		step configure bash -c 'cd "$1" && shift && exec "$@"' _ "$WORK/obj" \
			"$WORK/src/configure" --cc="$cc" --host-cc=gcc "${configure_args[@]}"
		cp "$tmp/config" "$WORK/obj/.config-args"
	fi
	export CCACHE_BASEDIR=$WORK
	step ninja ninja -C "$WORK/obj" -j "$JOBS" qemu-system-x86_64
	mkdir -p "$OUT/bin"
	cp "$WORK/obj/qemu-system-x86_64" "$tmp/qemu-system-x86_64"
	"$tmp/qemu-system-x86_64" -cpu help >/dev/null 2>&1 || die "the built binary does not run ($tmp/qemu-system-x86_64)"
	"$tmp/qemu-system-x86_64" -machine help 2>/dev/null | grep -q '^pc ' ||
		die "the built binary has no 'pc' machine (device list $devices_mak: ${devices[*]})"
	mv "$tmp/qemu-system-x86_64" "$bin"
	echo "$key" >"$OUT/stamp.tmp"
	mv "$OUT/stamp.tmp" "$OUT/stamp"
	rm -rf "$tmp"
	trap - EXIT
	log "built $bin in $(($(date +%s) - t0))s"
	echo "$bin"
}

# One build at a time per build dir.
mkdir -p "$BUILD"
exec 9>"$BUILD/.qemu-build.lock"
if ! flock -n 9; then
	log "waiting for another build-qemu in $BUILD"
	flock 9
fi
rm -rf "$DL"/.download.* 2>/dev/null || true
trap 'exit 130' INT
trap 'exit 143' TERM

case "${1:-build}" in
build) do_build ;;
*) die "usage: $0 [build]" ;;
esac
