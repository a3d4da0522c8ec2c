#!/bin/sh
# Install what the perf harness needs, from Debian, only where missing.
set -e
need=""
command -v gcc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
command -v callgrind_annotate >/dev/null 2>&1 || need="$need valgrind"
command -v objdump >/dev/null 2>&1 || need="$need binutils"
if command -v clang >/dev/null 2>&1; then
	rt=$(clang -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-x86_64.a
	[ -f "$rt" ] || need="$need libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
else
	need="$need libclang-rt-14-dev"
fi
[ -z "$need" ] && exit 0
echo "perf-harness: installing$need" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq $need >/dev/null
