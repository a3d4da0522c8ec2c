# shellcheck shell=bash
# Sourced by suites 23 and 46: build a test kernel with Debian's clang and
# LLVM (make LLVM=1 LLVM_IAS=1) from tools/harness-tree.sh's tree, check
# that clang and ld.lld made it and that no file the series touches has a
# warning, and boot it under QEMU TCG with its KUnit suites
# (tools/kunit-boot.sh). Needs REPO BUILD KSRC; sets touched and htree, or
# prints a FAIL and the suite exits.
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
base=base-$BASE_VERSION
branch=${SERIES_BRANCH:-series}

touched=$(git -C "$KSRC" diff --name-only "$base..$branch" -- '*.c' '*.h' | grep -v '^tools/')
[ -n "$touched" ] || { echo "FAIL: clang: the series touches no .c or .h file?"; exit 0; }
if ! htree=$("$REPO/tools/harness-tree.sh" 2>"$BUILD/clang-harness-tree.err"); then
	sed 's/^/  /' "$BUILD/clang-harness-tree.err"
	echo "FAIL: clang: no harness tree (tools/harness-tree.sh)"
	exit 0
fi

clang_kernel() { # NAME ARCH "SUITE..." FRAGMENT...
	local name=$1 arch=$2 suites=$3 img out ver w line
	shift 3
	out=$BUILD/out/$name
	# the objects of the touched .c files are compiled in every run, so that
	# their warnings are in this run's build log (make leaves up-to-date
	# objects alone, and their warnings with them)
	for f in $touched; do
		case $f in *.c) rm -f "$out/${f%.c}.o" ;; esac
	done
	# from the harness tree: the test module (configs/kunit-e2e.config) is
	# built against it and loaded by kunit-boot.sh's /init
	if ! img=$(KSRC=$htree TOOLCHAIN=llvm "$REPO/tools/build-kernel.sh" "$name" "$arch" "$@" 2>"$BUILD/clang-$name.err") ||
		! TOOLCHAIN=llvm "$REPO/tools/build-test-module.sh" "$out" "$arch" >/dev/null 2>>"$BUILD/clang-$name.err"; then
		tail -n 20 "$BUILD/clang-$name.err" | sed 's/^/  /'
		echo "FAIL: clang $arch: the test kernel does not build with LLVM=1 LLVM_IAS=1 (log: $out/build.log)"
		return
	fi
	echo "PASS: clang $arch: the test kernel builds with LLVM=1 LLVM_IAS=1"
	grep -h 'built .* in' "$BUILD/clang-$name.err" | sed 's/^build-kernel: /INFO: /'
	ver=$(llvm-readelf -p .comment "$out/vmlinux" 2>/dev/null | grep -o 'clang version [0-9.]*' | head -n 1)
	if grep -qx CONFIG_CC_IS_CLANG=y "$out/.config" && grep -qx CONFIG_LD_IS_LLD=y "$out/.config" &&
		[ -n "$ver" ] && ! llvm-readelf -p .comment "$out/vmlinux" | grep -q 'GCC:'; then
		echo "PASS: clang $arch: made by clang and linked by ld.lld ($ver; CONFIG_CC_IS_CLANG, CONFIG_LD_IS_LLD)"
	else
		echo "FAIL: clang $arch: $out is not a clang/ld.lld build (.config: $(grep -E '^CONFIG_(CC|LD)_IS_' "$out/.config" | tr '\n' ' '); .comment: ${ver:-no clang})"
	fi
	# warnings of the whole build that name a file the series touches: the
	# compiler's (with the source path), objtool's and the linker's (with
	# the object, relative to the output directory), modpost's
	pats=$( { echo "$touched" | sed 's#^#/#'; echo "$touched" | sed -n 's#\.c$#.o#p'; } )
	w=$(grep -iE '(warning|error)' "$out/build.log" | grep -F "$pats" || true)
	if [ -z "$w" ]; then
		echo "PASS: clang $arch: no warning in the files the series touches (their objects compiled in this run; $(grep -c 'warning:' "$out/build.log") warnings elsewhere in this run's log)"
	else
		echo "$w" | head -n 10 | sed 's/^/  /'
		echo "FAIL: clang $arch: $(echo "$w" | wc -l) warnings in the files the series touches"
	fi
	# every case line of kunit-boot.sh, renamed; a non-zero exit of it
	# without a FAIL of its own, or no case at all, is a FAIL here
	local cases=0 failed=0 rc
	while IFS= read -r line; do
		case $line in
		PASS:* | FAIL:*)
			cases=$((cases + 1))
			case $line in FAIL:*) failed=$((failed + 1)) ;; esac
			echo "${line%%:*}: clang $arch kunit ${line#*: }"
			;;
		__KUNIT_RC__=*) rc=${line#__KUNIT_RC__=} ;;
		*) echo "$line" ;;
		esac
	done < <(
		# shellcheck disable=SC2086
		"$REPO/tools/kunit-boot.sh" "$arch" "$img" $suites
		echo "__KUNIT_RC__=$?"
	)
	if [ "${rc:-1}" != 0 ] && [ $failed = 0 ]; then
		echo "FAIL: clang $arch kunit: tools/kunit-boot.sh exited ${rc:-without a status} without a FAIL of its own"
	fi
	if [ $cases = 0 ]; then
		echo "FAIL: clang $arch kunit: no KUnit case reported (suites: $suites)"
		return
	fi
	if grep -qE 'test not run|callbacks not called' "$out/kunit-console.log" 2>/dev/null; then
		grep -E 'test not run|callbacks not called' "$out/kunit-console.log" | head -n 3
		echo "FAIL: clang $arch kunit: a case did not exercise the code it tests in the guest"
	elif [ -f "$out/kunit-console.log" ]; then
		echo "PASS: clang $arch kunit: every case exercised its code (no 'not run' in the log)"
	else
		echo "FAIL: clang $arch kunit: no console log $out/kunit-console.log"
	fi
}

