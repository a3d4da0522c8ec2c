#!/bin/bash
# A gzip'd initramfs around Debian's busybox-static whose /init runs SCRIPT, then
# prints QEMU-TEST-RC=<status> and QEMU-TEST-END. harness.md, "Tool reference".
#   tools/mkinitramfs.sh OUT.cpio.gz SCRIPT [FILE:DEST ...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
BUSYBOX=${BUSYBOX:-/bin/busybox}

[ $# -ge 2 ] || die "usage: $0 OUT.cpio.gz SCRIPT [FILE:DEST ...]"
out=$1 script=$2
shift 2
set -- "$here/lib/splats.ere:/lib/splats.ere" "$@"
[ -f "$script" ] || die "no such script: $script"
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found: install busybox-static ('make deps')"
if readelf -l "$BUSYBOX" 2>/dev/null | grep -q 'Requesting program interpreter'; then
	die "$BUSYBOX is dynamically linked; install busybox-static ('make deps')"
fi

gen=$BUILD/tools/gen_init_cpio
if [ ! -x "$gen" ] || [ "$KSRC/usr/gen_init_cpio.c" -nt "$gen" ]; then
	[ -f "$KSRC/usr/gen_init_cpio.c" ] || die "no $KSRC/usr/gen_init_cpio.c: run 'make base' first"
	mkdir -p "$BUILD/tools"
	cc -O2 -o "$gen.tmp" "$KSRC/usr/gen_init_cpio.c" && mv "$gen.tmp" "$gen"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mkinitramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/init" <<'EOS'
#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /tmp /run /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
echo QEMU-TEST-BEGIN
sh /test.sh
echo "QEMU-TEST-RC=$?"
echo QEMU-TEST-END
poweroff -f
EOS

{
	echo "dir /bin 755 0 0"
	echo "dir /dev 755 0 0"
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "nod /dev/null 666 0 0 c 1 3"
	echo "dir /proc 755 0 0"
	echo "dir /sys 755 0 0"
	echo "dir /tmp 1777 0 0"
	echo "file /bin/busybox $BUSYBOX 755 0 0"
	echo "file /init $tmp/init 755 0 0"
	echo "file /test.sh $(cd "$(dirname "$script")" && pwd)/$(basename "$script") 755 0 0"
	declare -A dirs=()
	for spec in "$@"; do
		src=${spec%%:*} dest=${spec#*:}
		[ -f "$src" ] || die "no such file: $src"
		case "$dest" in /*) ;; *) die "DEST must be absolute: $spec" ;; esac
		d=$(dirname "$dest")
		parts=""
		IFS=/ read -ra comps <<<"${d#/}"
		for c in "${comps[@]}"; do
			[ -n "$c" ] || continue
			parts=$parts/$c
			case "$parts" in /bin | /dev | /proc | /sys | /tmp) continue ;; esac
			if [ -z "${dirs[$parts]:-}" ]; then
				echo "dir $parts 755 0 0"
				dirs[$parts]=1
			fi
		done
		mode=$(stat -c %a "$src")
		echo "file $dest $(cd "$(dirname "$src")" && pwd)/$(basename "$src") $mode 0 0"
	done
} >"$tmp/list"

mkdir -p "$(dirname "$out")"
"$gen" -t 0 "$tmp/list" | gzip -n -9 >"$out.tmp"
mv "$out.tmp" "$out"
