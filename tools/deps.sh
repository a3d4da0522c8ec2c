#!/bin/bash
# Install the Debian packages the workspace needs that are missing (apt-get).
#   tools/deps.sh [--deb | --perf]   --deb: also what make deb needs;
#   --perf: only what tools/perf-harness needs (make bench, suite 70)
set -euo pipefail
deb=0 perf=0
case "${1:-}" in
'') ;; --deb) deb=1 ;; --perf) perf=1 ;;
*) echo "deps: error: unknown argument '$1' (use --deb or --perf)" >&2; exit 2 ;;
esac
PKGS=(build-essential git ca-certificates xz-utils ccache flex bison bc
	libelf-dev libssl-dev cpio python3 sparse clang acpica-tools
	busybox-static qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu
	libc6-dev-arm64-cross python3-ply libc6-dev util-linux binutils valgrind
	libclang-rt-14-dev
	# the clang builds (make LLVM=1 LLVM_IAS=1): ld.lld, and llvm-ar,
	# llvm-nm, llvm-objcopy, llvm-readelf, ... (suites 25 and 46)
	lld llvm
	# checkpatch's SPDX check: scripts/spdxcheck.py imports ply and git
	# (GitPython); without git it fails and checkpatch accepts any license
	python3-git
	# pkill, for tests/hwkit/run-emu.sh (not in minimal installs, containers)
	procps
	# the emulated HWP machine: apt-get source qemu, and its x86_64 build
	dpkg-dev meson ninja-build pkg-config libglib2.0-dev libpixman-1-dev
	libfdt-dev zlib1g-dev)
# bindeb-pkg and its build of Debian's config: rsync (headers_install), depmod (kmod),
# fakeroot (dpkg-buildpackage: above); pahole (dwarves) for make deb DEB_DEBUG_INFO=1
[ "$deb" = 0 ] || PKGS+=(rsync kmod fakeroot dwarves)
[ "$perf" = 0 ] || PKGS=(build-essential clang valgrind binutils libclang-rt-14-dev)
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi
echo "deps: missing: ${missing[*]}"
sudo=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "deps: error: not root and no sudo; install them by hand: apt-get install ${missing[*]}" >&2; exit 1; }
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -q update
$sudo apt-get -q install -y --no-install-recommends "${missing[@]}"
