#!/bin/bash
# Suite 46: the test module on the clang-built arm64 kernel kunit-arm64-llvm (a cpufreq
# driver makes utilization invariant there: the perf path runs). harness.md, kernels.md.
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/series-wt.sh"
name=kunit-arm64-llvm
ktap_plan 4

arch=$("$REPO/tools/kernel.sh" get $name arch)
out=$BUILD/out/$("$REPO/tools/kernel.sh" get $name out)
touched=$(git -C "$KSRC" diff --name-only "$base..$branch" -- '*.c' '*.h' | grep -v '^tools/')
[ -n "$touched" ] || { ktap_fail "clang $arch: builds with LLVM=1 LLVM_IAS=1" "the series touches no .c or .h file ($base..$branch in $KSRC)?"; ktap_stop "no touched files"; }
# the objects of the touched .c files are compiled in every run, so that
# their warnings are in this run's build log (make leaves up-to-date
# objects alone, and their warnings with them): those an earlier run built
# are compiled here with another command line, which the build below then
# changes back, and kbuild compiles them again (ccache hits)
again=$(for f in $touched; do case $f in *.c) [ ! -f "$out/${f%.c}.o" ] || echo "${f%.c}.o" ;; esac; done)
if [ -n "$again" ] && ! KMAKE_TARGETS="$(echo "$again" | tr '\n' ' ')" KMAKE_ARGS=KCFLAGS=-DHARNESS_AGAIN \
	"$REPO/tools/kernel.sh" build $name >/dev/null 2>"$BUILD/clang-$name.err"; then
	ktap_fail "clang $arch: builds with LLVM=1 LLVM_IAS=1" "the touched objects do not build (log: $out/build.log)"
	ktap_stop "the clang $arch kernel did not build"
fi
# from the harness tree: the test module (configs/kunit-e2e.config) is
# built against it and loaded by kunit-boot.sh's /init
if ! img=$("$REPO/tools/kernel.sh" build $name 2>"$BUILD/clang-$name.err") ||
	! TOOLCHAIN=llvm "$REPO/tools/build-test-module.sh" "$out" "$arch" >/dev/null 2>>"$BUILD/clang-$name.err"; then
	tail -n 20 "$BUILD/clang-$name.err" | sed 's/^/  /'
	ktap_fail "clang $arch: builds with LLVM=1 LLVM_IAS=1" "the test kernel or the test module does not build (log: $out/build.log)"
	ktap_stop "the clang $arch kernel did not build"
fi
ktap_ok "clang $arch: builds with LLVM=1 LLVM_IAS=1"
grep -h 'built .* in' "$BUILD/clang-$name.err" | sed 's/^build-kernel: /INFO: /'
ver=$(llvm-readelf -p .comment "$out/vmlinux" 2>/dev/null | grep -o 'clang version [0-9.]*' | head -n 1)
grep -qx CONFIG_CC_IS_CLANG=y "$out/.config" && grep -qx CONFIG_LD_IS_LLD=y "$out/.config" &&
	[ -n "$ver" ] && ! llvm-readelf -p .comment "$out/vmlinux" | grep -q 'GCC:'
ktap_rc "clang $arch: made by clang and linked by ld.lld" $? \
	"$out is not a clang/ld.lld build (.config: $(grep -E '^CONFIG_(CC|LD)_IS_' "$out/.config" | tr '\n' ' '); .comment: ${ver:-no clang})" \
	"$ver; CONFIG_CC_IS_CLANG, CONFIG_LD_IS_LLD"
# warnings naming a touched file (compiler: its source path; objtool, linker, modpost:
# its object). The touched objects there now were compiled in this run (above), and
# none at all would make the check one of nothing.
pats=$( { echo "$touched" | sed 's#^#/#'; echo "$touched" | sed -n 's#\.c$#.o#p'; } )
w=$(grep -iE '(warning|error)' "$out/build.log" | grep -F "$pats" || true)
objs=$(for f in $touched; do case $f in *.c) [ ! -f "$out/${f%.c}.o" ] || echo "${f%.c}.o" ;; esac; done)
if [ -z "$objs" ]; then
	ktap_fail "clang $arch: no warning in the files the series touches" "no object of a touched .c file was built in $out"
elif [ -z "$w" ]; then
	ktap_ok "clang $arch: no warning in the files the series touches" \
		"compiled in this run: $(echo "$objs" | paste -sd' ' -); $(grep -c 'warning:' "$out/build.log") warnings elsewhere in this run's log"
else
	echo "$w" | head -n 10 | sed 's/^/  /'
	ktap_fail "clang $arch: no warning in the files the series touches" "$(echo "$w" | wc -l) warnings in them"
fi
ktap_sub "clang $arch kunit" "$REPO/tools/kunit-boot.sh" "$arch" "$img" cpufreq-perf-test
exit 0
