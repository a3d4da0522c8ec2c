#!/bin/bash
# Does tools/deps.sh alone make a bare Debian 12 machine ready for `make
# check`? Checked in a minimal chroot, without building a kernel.
#
#   tools/fresh-machine-check.sh ROOT      (as root; ROOT must not exist)
#
# 1. debootstrap --variant=minbase bookworm ROOT, from the system's mirror
#    (tools/fetch-base.sh mirrors: MIRROR / SECURITY_MIRROR, from /etc/apt
#    unless given); the chroot's own apt sources get bookworm,
#    bookworm-updates and bookworm-security on the same mirrors.
# 2. In the chroot, by hand, only: apt-get install --no-install-recommends
#    git make; then git clone of this repository's HEAD (FRESH_WORKTREE=1:
#    plus the uncommitted changes to tracked files) into /root/ws.
# 3. tools/deps.sh there, as root: it must install everything.
# 4. The steps of `make check` that depend on installed packages: `make
#    tree`, suites 00 01 02 20 25 61 70 (25 only prepares the kernel and
#    compiles a few objects), plus 40 45 60 if a prebuilt x86_64 test
#    kernel is given; the static /init of suites 40-46 for x86_64 and arm64,
#    both kernels' configuration (tinyconfig + merge_config.sh +
#    olddefconfig) and `make prepare`, the SPDX check of checkpatch, QEMU
#    and its firmware, the emulated HWP machine's build tools, every
#    command the scripts call.
#
# Environment:
#   KTREE         kernel tree with branch `series` (default $REPO/build/linux;
#                 bind-mounted read-only and cloned with --shared, never
#                 written); absent: `make tree` downloads and unpacks the base
#   BZIMAGE       prebuilt x86_64 test kernel (default: the one in
#                 $REPO/build/out/x86_64-test, if built) for suites 40 45 60
#   FUZZ_SECONDS  libFuzzer time of suite 70 (default here 10)
#   FRESH_WORKTREE=1  test HEAD plus the uncommitted changes to tracked files
#   MIRROR SECURITY_MIRROR   as for tools/fetch-base.sh
# Output: CHECK-PASS:/CHECK-FAIL: lines and the suites' own lines; exit 1 if
# anything failed. Everything is unmounted on exit; ROOT is left for a look.
set -euo pipefail

if [ "${1:-}" = --inside ]; then
	inside=1
else
	inside=""
fi

# ---------------------------------------------------------------- host side
if [ -z "$inside" ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	REPO=$(dirname "$here")
	die() { echo "fresh-machine: error: $*" >&2; exit 1; }
	log() { echo "fresh-machine: $*" >&2; }
	[ $# -eq 1 ] || die "usage: $0 ROOT   (a directory that does not exist yet)"
	root=$1
	[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
	[ ! -e "$root" ] || die "$root exists: remove it (rm -rf $root) or choose another"
	command -v debootstrap >/dev/null || die "no debootstrap: apt-get install debootstrap"
	KTREE=${KTREE:-$REPO/build/linux}
	BZIMAGE=${BZIMAGE:-$REPO/build/out/x86_64-test/arch/x86/boot/bzImage}
	tmp=$(mktemp -d)
	eval "$(BUILD=$tmp "$REPO/tools/fetch-base.sh" mirrors)"
	rm -rf "$tmp"

	mounts=()
	cleanup() {
		local i
		for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
			umount "${mounts[$i]}" 2>/dev/null || umount -l "${mounts[$i]}" || true
		done
	}
	trap cleanup EXIT
	mnt() { # mount ARGS... TARGET
		mount "$@"
		mounts+=("${!#}")
	}

	log "debootstrap --variant=minbase bookworm $root $MIRROR"
	mkdir -p "$(dirname "$root")"
	debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$root.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$root.debootstrap.log" >&2; die "debootstrap failed (log: $root.debootstrap.log)"; }
	rm -f "$root/etc/apt/sources.list"
	cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOS
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $SECURITY_MIRROR
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	# the chroot's / a mount point of its own, as on a real machine (unshare
	# -m --propagation private in tests/hwkit/run-emu.sh needs one)
	mnt --bind "$root" "$root"
	mount --make-private "$root"
	mnt -t proc proc "$root/proc"
	mnt -t sysfs sysfs "$root/sys"
	mnt --bind /dev "$root/dev"
	mnt --bind /dev/pts "$root/dev/pts"
	mkdir -p "$root/mnt/repo" "$root/mnt/linux"
	mnt --bind -o ro "$REPO" "$root/mnt/repo"
	if git -C "$KTREE" rev-parse -q --verify refs/heads/series >/dev/null 2>&1; then
		mnt --bind -o ro "$KTREE" "$root/mnt/linux"
	else
		log "no kernel tree with a series branch at $KTREE: make tree will download the base"
	fi
	# the cached base .deb, for suite 00's checks of a corrupted download
	for f in "$REPO"/build/dl/linux-source-5.10_*_all.deb; do
		[ -f "$f" ] || continue
		mkdir -p "$root/root/ws-dl"
		cp "$f" "$root/root/ws-dl/"
	done
	if [ -f "$BZIMAGE" ]; then
		mkdir -p "$root/root/prebuilt"
		cp "$BZIMAGE" "$root/root/prebuilt/bzImage"
		cp "$(dirname "$BZIMAGE")/../../../.config" "$root/root/prebuilt/config" 2>/dev/null || true
		cp -r "$(dirname "$BZIMAGE")/../../../kunit-modules" "$root/root/prebuilt/" 2>/dev/null || true
	fi
	: >"$root/root/worktree.diff"
	if [ -n "${FRESH_WORKTREE:-}" ]; then
		git -C "$REPO" diff --binary HEAD >"$root/root/worktree.diff"
	fi
	install -m 755 "$0" "$root/root/fresh-machine-check.sh"
	rc=0
	chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root TERM=dumb LANG=C.UTF-8 FUZZ_SECONDS="${FUZZ_SECONDS:-10}" \
		nice -n 19 bash /root/fresh-machine-check.sh --inside || rc=$?
	exit $rc
fi

# ------------------------------------------------------------ chroot side
export DEBIAN_FRONTEND=noninteractive
nfail=0
pass() { echo "CHECK-PASS: $1"; }
fail() { echo "CHECK-FAIL: $1: $2"; nfail=$((nfail + 1)); }
step() { echo "==> $*"; }

step "by hand: apt-get install --no-install-recommends git make"
apt-get -q update >/root/apt-update.log 2>&1 || { tail /root/apt-update.log; exit 1; }
apt-get -q install -y --no-install-recommends git make >/root/apt-hand.log 2>&1 ||
	{ tail /root/apt-hand.log; exit 1; }
echo "packages before deps.sh: $(dpkg-query -W | wc -l)"

step "git clone /mnt/repo /root/ws"
git clone -q /mnt/repo /root/ws
cd /root/ws
echo "HEAD $(git log -1 --format='%h %s')"
if [ -s /root/worktree.diff ]; then
	git apply /root/worktree.diff
	echo "with the uncommitted changes: $(git status --short | tr '\n' ' ')"
fi
export REPO=/root/ws BUILD=/root/ws/build KSRC=/root/ws/build/linux JOBS=1
if [ -d /mnt/linux/.git ]; then
	step "kernel tree: git clone --shared -b series /mnt/linux $KSRC"
	mkdir -p "$BUILD"
	git clone -q --shared -b series /mnt/linux "$KSRC"
	if [ -d /root/ws-dl ]; then
		mkdir -p "$BUILD/dl"
		mv /root/ws-dl/* "$BUILD/dl/"
	fi
fi

step "tools/deps.sh"
rc=0
tools/deps.sh >/root/deps.log 2>&1 || rc=$?
if [ $rc = 0 ]; then
	pass "deps.sh installs"
else
	tail -n 20 /root/deps.log
	fail "deps.sh installs" "exit status $rc (log /root/deps.log)"
fi
grep '^deps:' /root/deps.log || true
echo "packages after deps.sh: $(dpkg-query -W | wc -l)"
if out=$(tools/deps.sh --check); then pass "deps.sh --check: $out"; else fail "deps.sh --check" "$out"; fi

step "commands the scripts call"
missing=()
for c in awk basename bash bc bison busybox cat cc ccache chmod clang cmp comm cp cpio cut \
	date dd df diff dirname dpkg-deb dpkg-query dpkg-source env find flex flock gcc git \
	grep gzip head id ld ldd ln ls make meson mkdir mktemp mount mv ninja nproc \
	objdump od paste patch perl pkg-config pkill python3 qemu-system-aarch64 \
	qemu-system-x86_64 readelf readlink rm rmdir sed seq setpriv sh sha256sum sleep sort \
	sparse stat tail tar tee timeout touch tr truncate uname uniq unshare valgrind \
	callgrind_annotate wc xz aarch64-linux-gnu-gcc aarch64-linux-gnu-ld; do
	command -v "$c" >/dev/null || missing+=("$c")
done
if [ ${#missing[@]} -eq 0 ]; then pass "every command found"; else fail "commands" "missing: ${missing[*]}"; fi

step "python modules"
for m in ply git argparse json csv statistics struct; do
	python3 -c "import $m" 2>/dev/null && pass "python3: import $m" || fail "python3: import $m" "not importable"
done

t=/root/checks
mkdir -p "$t"
step "static /init (tools/kunit-init.c), as tools/kunit-boot.sh builds it"
for a in x86_64:gcc:X86-64 arm64:aarch64-linux-gnu-gcc:AArch64; do
	IFS=: read -r arch cc machine <<<"$a"
	if "$cc" -static -Os -o "$t/init-$arch" tools/kunit-init.c 2>"$t/init-$arch.log" &&
		readelf -h "$t/init-$arch" | grep -q "Machine:.*$machine" &&
		! readelf -l "$t/init-$arch" | grep -q INTERP; then
		pass "$cc -static -Os tools/kunit-init.c ($arch, static)"
	else
		fail "$cc -static tools/kunit-init.c" "$(head -c 300 "$t/init-$arch.log")"
	fi
done

step "busybox-static and tools/mkinitramfs.sh"
if [ -f "$KSRC/usr/gen_init_cpio.c" ]; then
	echo 'echo hello' >"$t/guest.sh"
	if tools/mkinitramfs.sh "$t/initrd.cpio.gz" "$t/guest.sh" "$t/init-x86_64:/kunit-init" 2>"$t/mkinitramfs.log" &&
		gzip -t "$t/initrd.cpio.gz"; then
		pass "mkinitramfs.sh with /bin/busybox (static) and gen_init_cpio"
	else
		fail "mkinitramfs.sh" "$(tail -n 3 "$t/mkinitramfs.log" | tr '\n' '|')"
	fi
else
	fail "mkinitramfs.sh" "no kernel tree (gen_init_cpio.c)"
fi

step "QEMU and its firmware"
for q in qemu-system-x86_64 qemu-system-aarch64; do
	v=$("$q" --version 2>&1 | head -n 1) && pass "$q --version: $v" || fail "$q --version" "$v"
done
qemu-system-x86_64 -cpu help | grep -qw Skylake-Client && pass "qemu x86_64: -cpu Skylake-Client" ||
	fail "qemu x86_64" "no Skylake-Client CPU model"
qemu-system-aarch64 -machine virt -cpu help | grep -qw cortex-a57 && pass "qemu aarch64: -machine virt -cpu cortex-a57" ||
	fail "qemu aarch64" "no cortex-a57 CPU model"
# no kernel: SeaBIOS runs, then iPXE's ROM of the default NIC; both print
timeout 15 qemu-system-x86_64 -accel tcg -cpu Skylake-Client -smp 2 -m 512M -nographic \
	-no-reboot -monitor none -serial stdio </dev/null >"$t/qemu-x86.log" 2>&1 || true
if grep -q SeaBIOS "$t/qemu-x86.log" && grep -q iPXE "$t/qemu-x86.log"; then
	pass "qemu x86_64 (as qemu-run.sh): SeaBIOS and the NIC's iPXE ROM load"
else
	fail "qemu x86_64 firmware" "$(tr -d '\r' <"$t/qemu-x86.log" | head -c 300)"
fi
rc=0
timeout 5 qemu-system-aarch64 -accel tcg -machine virt -cpu cortex-a57 -smp 2 -m 512M -nographic \
	-no-reboot -monitor none -serial stdio </dev/null >"$t/qemu-arm.log" 2>&1 || rc=$?
if [ $rc = 124 ] && ! grep -qv 'terminating on signal' "$t/qemu-arm.log"; then
	pass "qemu aarch64 (as qemu-run.sh): the machine starts, its NIC ROM found"
else
	fail "qemu aarch64 machine" "status $rc: $(head -c 300 "$t/qemu-arm.log")"
fi

step "kernel configuration and prepare, as build-kernel.sh and suite 25 do"
if [ -f "$KSRC/Makefile" ]; then
	for a in x86_64:x86::Kconfig.fragment,configs/x86_64-test.config,configs/kunit-x86.config,configs/kunit-e2e.config \
		arm64:arm64:aarch64-linux-gnu-:configs/arm64-test.config,configs/kunit-e2e.config; do
		IFS=: read -r arch karch cross frags <<<"$a"
		o=$t/out-$arch
		mkdir -p "$o"
		IFS=, read -ra fl <<<"$frags"
		if make -s -C "$KSRC" O="$o" ARCH="$karch" CROSS_COMPILE="$cross" tinyconfig >"$o.log" 2>&1 &&
			KCONFIG_CONFIG=$o/.config "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" \
				"${fl[@]/#/$REPO/}" >>"$o.log" 2>&1 &&
			make -s -C "$KSRC" O="$o" ARCH="$karch" CROSS_COMPILE="$cross" olddefconfig >>"$o.log" 2>&1; then
			pass "$arch: tinyconfig + merge_config.sh ($frags) + olddefconfig"
		else
			fail "$arch configuration" "$(tail -n 5 "$o.log" | tr '\n' '|')"
			continue
		fi
		if make -s -C "$KSRC" O="$o" ARCH="$karch" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" \
			-j1 prepare >>"$o.log" 2>&1; then
			pass "$arch: make prepare (host programs, ${cross:-native }gcc via ccache)"
		else
			fail "$arch make prepare" "$(grep -m3 -iE 'error|not found' "$o.log" | tr '\n' '|')"
		fi
	done
else
	fail "kernel configuration" "no kernel tree"
fi
printf '#include <openssl/ssl.h>\n#include <gelf.h>\nint main(void) { return !OPENSSL_init_ssl(0, 0) || elf_version(EV_CURRENT) == EV_NONE; }\n' >"$t/libs.c"
if gcc -o "$t/libs" "$t/libs.c" -lssl -lcrypto -lelf 2>"$t/libs.log" && "$t/libs"; then
	pass "libssl-dev and libelf-dev: headers and libraries (sign-file, extract-cert, objtool)"
else
	fail "libssl-dev/libelf-dev" "$(head -c 300 "$t/libs.log")"
fi

step "checkpatch's SPDX check (scripts/spdxcheck.py: ply and GitPython, run as python)"
if [ -f "$KSRC/scripts/spdxcheck.py" ]; then
	mkdir -p "$t/bin" && ln -sf /usr/bin/python3 "$t/bin/python"
	# what checkpatch.pl does for each SPDX line: a valid ID prints nothing
	spdx() { (cd "$KSRC" && echo "SPDX-License-Identifier: $1" | PATH=$t/bin:$PATH python scripts/spdxcheck.py - 2>&1) || true; }
	good=$(spdx GPL-2.0)
	bad=$(spdx GPL-2.0-but-not-really)
	if [ -z "$good" ] && echo "$bad" | grep -q 'Invalid License ID'; then
		pass "spdxcheck.py accepts GPL-2.0 and rejects a bogus license ID"
	else
		fail "spdxcheck.py" "good: '$(echo "$good" | tail -n 1)' bad: '$(echo "$bad" | tail -n 1)'"
	fi
fi

step "the emulated HWP machine's build tools (meson, ninja, pkg-config, dpkg-source)"
# (Debian's libfdt-dev has no .pc file: QEMU's meson.build finds it with
# find_library, as here)
for p in glib-2.0 pixman-1 zlib; do
	pkg-config --exists "$p" && pass "pkg-config $p $(pkg-config --modversion "$p")" || fail "pkg-config $p" "not found"
done
mkdir -p "$t/meson"
printf "project('p', 'c')\nexecutable('p', 'p.c', dependencies: [dependency('glib-2.0'), dependency('pixman-1'), dependency('zlib'), meson.get_compiler('c').find_library('fdt')])\n" >"$t/meson/meson.build"
printf '#include <glib.h>\n#include <pixman.h>\n#include <libfdt.h>\n#include <zlib.h>\nint main(void) { return !(glib_check_version(2, 56, 0) == NULL && pixman_version() && fdt_check_header && zlibVersion()); }\n' >"$t/meson/p.c"
if (cd "$t/meson" && meson setup obj && ninja -C obj && obj/p) >"$t/meson.log" 2>&1; then
	pass "meson setup + ninja: a program with glib-2.0, pixman-1, zlib (pkg-config) and libfdt (find_library)"
else
	fail "meson/ninja" "$(tail -n 5 "$t/meson.log" | tr '\n' '|')"
fi
# apt-get source as tools/build-qemu.sh does it (private config, deb-src),
# with a small package; dpkg-source unpacks and applies Debian's patches
a=$t/apt-src
mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
awk '/^URIs:/ { u = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) print "deb-src " u " " $i " main" }' \
	/etc/apt/sources.list.d/debian.sources >"$a/sources.list"
cat >"$a/apt.conf" <<EOS
Dir::Etc::SourceList "$a/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$a/lists";
Dir::Cache "$a/cache";
Dir::State::status "/dev/null";
APT::Sandbox::User "root";
Acquire::Languages "none";
EOS
if (cd "$a" && APT_CONFIG=$a/apt.conf apt-get -q update && APT_CONFIG=$a/apt.conf apt-get -q source hello) >"$a.log" 2>&1 &&
	[ -f "$(ls -d "$a"/hello-*/debian/changelog 2>/dev/null | head -n 1)" ]; then
	pass "apt-get source hello (deb-src, dpkg-source -x)"
else
	fail "apt-get source" "$(tail -n 5 "$a.log" | tr '\n' '|')"
fi

if [ -x tools/build-qemu.sh ]; then
	# the real thing, up to its configure: tools/build-qemu.sh fetch (apt-get
	# source --download-only, verified), dpkg-source -x, our patches, the
	# device list, and QEMU's configure (meson) with tools/build-qemu.sh's
	# arguments
	q=$t/qemu
	mkdir -p "$q/obj"
	eval "$(sed -n '/^devices_mak=/p; /^devices=(/p; /^configure_args=(/,/^)/p' tools/build-qemu.sh)"
	if tools/build-qemu.sh fetch >"$q.log" 2>&1 &&
		dpkg-source --no-check -x "$(ls "$BUILD"/dl/qemu/*.dsc | head -n 1)" "$q/src" >>"$q.log" 2>&1 &&
		for p in tools/qemu-hwp/[0-9][0-9][0-9][0-9]-*.patch; do
			[ ! -f "$p" ] || patch -d "$q/src" -p1 --no-backup-if-mismatch -F0 <"$p" >>"$q.log" 2>&1 || exit 1
		done &&
		printf 'CONFIG_%s=y\n' "${devices[@]}" >"$q/src/$devices_mak" &&
		(cd "$q/obj" && ../src/configure --cc="ccache gcc" --host-cc=gcc "${configure_args[@]}") >>"$q.log" 2>&1 &&
		ninja -C "$q/obj" -n qemu-system-x86_64 >>"$q.log" 2>&1; then
		pass "tools/build-qemu.sh fetch, dpkg-source -x, patches, configure ($(grep -c '^applying\|^patching file' "$q.log") patch lines)"
	else
		fail "QEMU source and configure" "$(tail -n 5 "$q.log" | tr '\n' '|')"
	fi
	rm -rf "$q/src" "$q/obj"
fi

step "tools like sparse, clang, ccache, valgrind"
printf 'int f(int *p) { return *p; }\n' >"$t/s.c"
sparse "$t/s.c" 2>"$t/sparse.log" && pass "sparse $(sparse --version 2>&1)" || fail sparse "$(head -c 200 "$t/sparse.log")"
clang -fsanitize=fuzzer,address,undefined -o "$t/fz" -x c - <<<'#include <stdint.h>
#include <stddef.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' 2>"$t/clang.log" &&
	pass "clang -fsanitize=fuzzer,address,undefined (libclang-rt)" || fail clang "$(head -c 300 "$t/clang.log")"
ccache -s >/dev/null 2>&1 && pass "ccache $(ccache --version | head -n 1)" || fail ccache "ccache -s failed"
valgrind --tool=callgrind --callgrind-out-file="$t/cg.out" /bin/true 2>"$t/vg.log" &&
	callgrind_annotate "$t/cg.out" >/dev/null && pass "valgrind --tool=callgrind + callgrind_annotate" ||
	fail valgrind "$(tail -n 3 "$t/vg.log" | tr '\n' '|')"

if [ -d /root/ws/tools/perf-harness ] && [ -f "$KSRC/drivers/cpufreq/intel_pstate_perf.h" ]; then
	step "perf harness: make bench"
	if make -s -C tools/perf-harness bench KSRC="$KSRC" OUT="$t/bench" >"$t/bench.log" 2>&1; then
		pass "perf-harness make bench"
	else
		fail "perf-harness make bench" "$(tail -n 5 "$t/bench.log" | tr '\n' '|')"
	fi
fi

step "the host part of suite 60: the emulated HWP machine (unshare -m, mount, pkill)"
if [ -f "$KSRC/tools/testing/selftests/intel_pstate/hwp_request.c" ]; then
	gcc -O2 -Wall -Itests/hwkit -o "$t/hwp_request" "$KSRC/tools/testing/selftests/intel_pstate/hwp_request.c" 2>"$t/hwp.log" &&
		out=$(tests/hwkit/run-emu.sh "$t/hwp_request" good term-max 2>&1) &&
		echo "$out" | grep -q '^# sent SIGTERM' && echo "$out" | grep -q '^rc=1$' &&
		echo "$out" | grep -q '^Bail out! interrupted by signal 15' &&
		pass "tests/hwkit/run-emu.sh good term-max" ||
		fail "tests/hwkit/run-emu.sh" "$(echo "$out" | grep -E '^#|^rc|^Bail|not found' | head -n 5 | tr '\n' '|')"
fi

step "make tree, then the suites that need no kernel build"
# (FORCE=1: the clone's branch series may be ahead of patches/ at HEAD)
make tree FORCE=1 >"$t/tree.log" 2>&1 && pass "make tree: $(tail -n 1 "$t/tree.log")" ||
	fail "make tree" "$(tail -n 5 "$t/tree.log" | tr '\n' '|')"
suites="00 01 02 20 25 61 70"
if [ -f /root/prebuilt/bzImage ]; then
	# tools/test-kernel.sh returns the kernel of this run instead of building it
	export CHECK_RUN_ID=fresh-machine
	img=$BUILD/out/x86_64-test/arch/x86/boot/bzImage
	mkdir -p "$(dirname "$img")" "$BUILD/state"
	cp /root/prebuilt/bzImage "$img"
	cp /root/prebuilt/config "$BUILD/out/x86_64-test/.config" 2>/dev/null || true
	cp -r /root/prebuilt/kunit-modules "$BUILD/out/x86_64-test/" 2>/dev/null || true
	printf '%s\n%s\n' "$CHECK_RUN_ID" "$img" >"$BUILD/state/x86_64-test.run"
	suites="$suites 40 45 60"
else
	echo "no prebuilt x86_64 test kernel: suites 40 45 60 not run"
fi
if TESTS=$suites tools/check.sh >"$t/check.log" 2>&1; then
	pass "tools/check.sh TESTS='$suites': $(tail -n 1 "$t/check.log")"
else
	sed -n '/^Failed:/,$p' "$t/check.log"
	fail "tools/check.sh TESTS='$suites'" "$(tail -n 1 "$t/check.log")"
fi
# the skips, as tools/check.sh lists them (its failures are printed above)
awk '/^Skipped:$/ { p = 1; print; next } p && /^  / { print; next } { p = 0 }' "$t/check.log"

echo
if [ $nfail -eq 0 ]; then
	echo "fresh-machine: all checks passed"
else
	echo "fresh-machine: $nfail check(s) failed"
fi
[ $nfail -eq 0 ]
