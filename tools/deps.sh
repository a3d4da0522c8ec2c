#!/bin/bash
# Install the Debian packages the workspace needs, if any is missing.
#   tools/deps.sh [--check]     (--check: only report, exit 1 if missing)
set -euo pipefail
PKGS=(build-essential git ca-certificates xz-utils ccache flex bison bc
	libelf-dev libssl-dev cpio python3 gnuplot-nox sparse clang
	busybox-static qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu
	python3-ply libc6-dev util-linux binutils valgrind libclang-rt-14-dev)
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi
echo "deps: missing: ${missing[*]}"
[ "${1:-}" != --check ] || exit 1
sudo=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "deps: error: not root and no sudo; install them by hand: apt-get install ${missing[*]}" >&2; exit 1; }
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -q update
$sudo apt-get -q install -y --no-install-recommends "${missing[@]}"
