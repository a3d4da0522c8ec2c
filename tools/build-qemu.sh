#!/bin/bash
# Build the emulated HWP machine once (reused while its stamp is current); prints
# the binary. Environment: harness.md, "Tool reference".
#   tools/build-qemu.sh [build]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
# shellcheck source=tools/lib/apt.sh
. "$here/lib/apt.sh"
QEMU_VERSION=${QEMU_VERSION:-1:7.2+dfsg-7+deb12u18}
JOBS=${JOBS:-$(nproc)}
APTDIR=$BUILD/apt-qemu
DL=$BUILD/dl/qemu
OUT=$BUILD/qemu-hwp
WORK=$OUT/work
LOGS=$BUILD/logs
PIN=$REPO/qemu.sha256

uver=${QEMU_VERSION#*:}                 # 7.2+dfsg-7+deb12u18
upstream=${uver%-*}                     # 7.2+dfsg
dsc=qemu_${uver}.dsc
orig=qemu_${upstream}.orig.tar.xz
debtar=qemu_${uver}.debian.tar.xz

PIN_HINT="To use another version: add the lines '<sha256>  <file>' for its .dsc, .orig
  and .debian tarballs to qemu.sha256 (check them against Debian's published
  .dsc first), then QEMU_VERSION=<version> tools/build-qemu.sh"
APT_ARCH=amd64
APT_HOW="MIRROR=<uri>/debian SECURITY_MIRROR=<uri>/debian-security tools/build-qemu.sh"
apt_sources() {
	echo "deb-src $MIRROR bookworm main"
	echo "deb-src $MIRROR bookworm-updates main"
	echo "deb-src $SECURITY_MIRROR bookworm-security main"
}

patches() { ls "$here"/qemu-hwp/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null || true; }

# The devices: `-M pc` (i440FX, PIIX3) and those it creates by default in a
# full build, so guests see the same machine (hwp-machine.md, "Build").
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

# sync_tree NEW OLD: OLD = NEW, touching only files that differ (an incremental build)
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
		log "$name FAILED; errors (else the last lines) of $lf:"
		{ grep -E -A3 'error:|FAILED:' "$lf" | grep -v '^ccache gcc \|^gcc ' || tail -n 25 "$lf"; } |
			head -n 30 | sed 's/^/  | /' >&2 || true
		die "the QEMU build failed at '$name'; nothing was installed (previous binary, if any, left as it was but not current)"
	fi
}

unpack_and_patch() {
	local tmp=$1 p
	# --no-check: the files were checked against qemu.sha256 (no uploader keyring);
	# called under `if`, where set -e does not apply: every step returns
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
	local key t0 t
	if is_current; then
		log "up to date: $bin"
		echo "$bin"
		return 0
	fi
	for t in meson ninja dpkg-source; do
		command -v $t >/dev/null || die "$t not installed (run 'make deps')"
	done
	apt_fetch "$DL" qemu "$QEMU_VERSION" "Choose a served version: pin its .dsc, .orig and .debian tarballs in
  qemu.sha256 and run QEMU_VERSION=<version> tools/build-qemu.sh" "source --download-only" "$dsc" "$orig" "$debtar"
	key=$(stamp_key)
	t0=$(date +%s)
	mkdir -p "$OUT" "$LOGS" "$WORK"
	rm -f "$OUT/stamp"
	rm -rf "$OUT"/.tmp.*
	tmp=$(mktemp -d "$OUT/.tmp.XXXXXX")
	step unpack unpack_and_patch "$tmp"
	sync_tree "$tmp/src" "$WORK/src"
	printf '%s\n' "${configure_args[@]}" "${devices[@]}" >"$tmp/config"
	if [ ! -f "$WORK/obj/build.ninja" ] || ! cmp -s "$tmp/config" "$WORK/obj/.config-args"; then
		rm -rf "$WORK/obj"
		mkdir -p "$WORK/obj"
		local cc="ccache gcc"
		command -v ccache >/dev/null || { cc=gcc; log "warning: ccache not found, building without it"; }
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
	log "built $bin in $(($(date +%s) - t0))s"
	echo "$bin"
}

apt_lock .qemu-build.lock
rm -rf "$DL"/.download.* 2>/dev/null || true
[ "${1:-build}" = build ] || die "usage: $0 [build]"
do_build
