#!/bin/bash
# Build a kernel of $KSRC out of tree with ccache (called by tools/kernel.sh only);
# prints the image path. Environment and options: harness.md, "Tool reference".
#   tools/build-kernel.sh NAME ARCH FRAGMENT...
set -euo pipefail

# shellcheck source=tools/lib/env.sh
. "$(dirname "$0")/lib/env.sh"
JOBS=${JOBS:-$(nproc)}

[ $# -ge 3 ] || die "usage: $0 NAME ARCH FRAGMENT..."
name=$1 arch=$2
shift 2
frags=()
for f in "$@"; do
	[ -f "$f" ] || die "no such fragment: $f"
	frags+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
done
[ -f "$KSRC/Makefile" ] || die "no kernel tree in $KSRC: run 'make tree' first"

case "$arch" in
x86_64) karch=x86; cross=""; image=arch/x86/boot/bzImage; target=bzImage ;;
arm64) karch=arm64; cross=aarch64-linux-gnu-; image=arch/arm64/boot/Image; target=Image ;;
*) die "unsupported ARCH $arch (x86_64 or arm64)" ;;
esac
# VMLINUX_ONLY=1: link vmlinux and stop (the image's compression costs
# seconds per build and shows nothing more)
if [ "${VMLINUX_ONLY:-0}" = 1 ]; then
	image=vmlinux target=vmlinux
fi
# KMAKE_TARGETS='prepare' or 'dir/file.o ...': make these instead of an image,
# with KMAKE_ARGS (W=1 C=2 ..., split at blanks), log in build.log, print the
# output directory; unset, so that the kernel's make does not see them
targets=${KMAKE_TARGETS:-}
read -r -a make_args <<<"${KMAKE_ARGS:-}"
unset KMAKE_TARGETS KMAKE_ARGS
TOOLCHAIN=${TOOLCHAIN:-gcc}
case "$TOOLCHAIN" in
gcc)
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not found (run 'make deps')"
	ccbin=${cross}gcc toolchain=(LLVM= LLVM_IAS=) ;;
llvm)
	for t in clang ld.lld llvm-ar llvm-nm llvm-objcopy llvm-objdump llvm-readelf llvm-strip; do
		command -v "$t" >/dev/null || die "$t not found (run 'make deps')"
	done
	ccbin=clang toolchain=(LLVM=1 LLVM_IAS=1) ;;
*) die "unsupported TOOLCHAIN $TOOLCHAIN (gcc or llvm)" ;;
esac

# The build directory: .build-NAME in a tree under $BUILD (one ccache entry
# per file across trees, kernels.md), linked from $BUILD/out/NAME; else that.
out=$BUILD/out/$name
mkdir -p "$BUILD/out"
real=$(cd "$KSRC" && pwd -P)
case $real/ in
"$(cd "$BUILD" && pwd -P)"/*)
	real=$real/.build-$name
	mkdir -p "$real"
	# a build directory of the earlier layout: its objects name the
	# sources by their absolute paths and would all be compiled again
	[ -L "$out" ] || [ ! -e "$out" ] || rm -rf "$out"
	ln -sfn "$real" "$out"
	out=$real ;;
*)
	[ ! -L "$out" ] || rm -f "$out"
	mkdir -p "$out" ;;
esac
# .build-stats: the last finished build's time and size (the main job)
rm -f "$out/.build-stats"
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2000-01-01}
export KBUILD_BUILD_USER=${KBUILD_BUILD_USER:-build} KBUILD_BUILD_HOST=${KBUILD_BUILD_HOST:-localhost}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD}
cc=$ccbin
command -v ccache >/dev/null && cc="ccache $ccbin"
kmake() { make -s -C "$KSRC" O="$out" ARCH="$karch" CROSS_COMPILE="$cross" CC="$cc" "${toolchain[@]}" "$@"; }
# build_failed WHAT: the log's errors and tail on stderr, then die
build_failed() { { grep -E 'error|Error' "$out/build.log" | head -n 20 || true; tail -n 20 "$out/build.log"; } >&2; die "$1 (log: $out/build.log)"; }

# --- config: regenerate only when the inputs change -------------------------
inputs=$( {
	echo "$arch $TOOLCHAIN"
	"$ccbin" --version | head -n 1
	cat "${frags[@]}"
	# what the configuration is made of: Kconfig files and tinyconfig's
	# fragments (not the whole tree: a step of the walk that changes no
	# Kconfig file keeps its configuration)
	git -C "$KSRC" ls-files -s -- '*Kconfig*' 'kernel/configs/tiny*.config' "arch/$karch/configs/tiny.config" 2>/dev/null || true
	git -C "$KSRC" diff HEAD -- '*Kconfig*' 'kernel/configs/tiny*.config' "arch/$karch/configs/tiny.config" 2>/dev/null || true
} | sha256sum | cut -c1-64)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.config.inputs" 2>/dev/null)" != "$inputs" ]; then
	log "configuring $name ($arch, $TOOLCHAIN): tinyconfig + ${*}"
	rm -f "$out/.config.inputs"
	{
		kmake tinyconfig
		KCONFIG_CONFIG=$out/.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}"
		kmake olddefconfig
	} >"$out/config.log" 2>&1 || { tail -n 30 "$out/config.log" >&2; die "configuration failed (log: $out/config.log)"; }
	# every requested value must have stuck
	bad=$(awk '
		FNR == 1 { fileidx++ }
		fileidx < nfr {
			if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) {
				sym = substr($0, 1, RLENGTH - 1); want[sym] = substr($0, RLENGTH + 1)
			} else if (match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) {
				sym = $2; want[sym] = "n"
			}
			next
		}
		{
			if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) {
				have[substr($0, 1, RLENGTH - 1)] = substr($0, RLENGTH + 1)
			}
		}
		END {
			for (s in want) {
				h = (s in have) ? have[s] : "n"
				if (h != want[s]) printf "  %s: requested %s, got %s\n", s, want[s], h
			}
		}' nfr=$((${#frags[@]} + 1)) "${frags[@]}" "$out/.config" | sort)
	if [ -n "$bad" ]; then
		echo "$bad" >&2
		die "options requested by the fragments did not end up set in $out/.config
  (a dependency is missing or the symbol does not exist in this tree);
  fix the fragment(s): ${*}"
	fi
	echo "$inputs" >"$out/.config.inputs"
fi

# --- build ------------------------------------------------------------------
if [ -n "$targets" ]; then
	log "making $name ($arch, $TOOLCHAIN, -j$JOBS): $targets${make_args[*]:+ (${make_args[*]})}"
	# shellcheck disable=SC2086
	kmake -j"$JOBS" "${make_args[@]}" $targets >"$out/build.log" 2>&1 || build_failed "make $targets failed"
	echo "$out"
	exit 0
fi
log "building $name ($arch, $TOOLCHAIN, -j$JOBS)"
# CPU seconds of the make and its children: a cost independent of the machine's
# other load. `times` must run in this shell: a $(...) subshell has no children.
cpu_mark() { times >"$out/.times.$1"; }
cpu_secs() { awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }' "$out/.times.$1"; }
start=$(date +%s)
cpu_mark 0
# the modules too, where configured (the KUnit suites): they must compile as well
mods=()
! grep -qx 'CONFIG_MODULES=y' "$out/.config" || mods=(modules)
kmake -j"$JOBS" "$target" "${mods[@]}" >"$out/build.log" 2>&1 || build_failed "kernel build failed"
secs=$(($(date +%s) - start))
cpu_mark 1
cpu=$(($(cpu_secs 1) - $(cpu_secs 0)))
rm -f "$out/.times.0" "$out/.times.1"
size=$(stat -c %s "$out/$image")
printf '%s %s\n' "$secs" "$size" >"$out/.build-stats"
log "built $out/$image ($((size / 1024)) KiB) in ${secs}s (CPU ${cpu}s, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "$out/$image"
