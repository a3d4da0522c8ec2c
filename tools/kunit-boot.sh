#!/bin/bash
# Boot a KUnit kernel once under QEMU TCG; report the named suites' cases
# (the tree's kunit.py parses them) as one KTAP document, for ktap_sub.
#   tools/kunit-boot.sh ARCH IMAGE SUITE...
# ARCH x86_64 or arm64. IMAGE a kernel of configs/kernels: its built-in suites
# run at boot, those of OUT/kunit-modules/*.ko (OUT: IMAGE's build directory)
# when /init (tools/kunit-init.c) loads them. SUITE: the caller's suites.
# Plan 3 + SUITEs: boot, cpus-online (2), console (no crash or warning), then
# per SUITE its cases nested (it fails when missing or with no case). The
# console is cached next to IMAGE per CHECK_RUN_ID: callers share one boot.
# Exit 0 if nothing failed, 1 otherwise, 2 on usage.
# Environment: REPO BUILD KSRC CHECK_RUN_ID; KUNIT_BOOT_TIMEOUT (900 s).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
export REPO BUILD KSRC
TIMEOUT=${KUNIT_BOOT_TIMEOUT:-900}

[ $# -ge 3 ] || { echo "usage: $0 ARCH IMAGE SUITE..." >&2; exit 2; }
arch=$1 image=$2
shift 2
suites=("$@")
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
ktap_plan $((3 + ${#suites[@]}))
# before the boot: the boot and everything after it fail with WHY
fail_all() { ktap_fail boot "$1"; ktap_fail_rest "not booted: $1"; exit 1; }
[ -f "$image" ] || fail_all "no kernel image $image"
# the build directory: bzImage/Image live in arch/*/boot below it
out=$(cd "$(dirname "$image")/../../.." && pwd)

# --- initramfs: a static /init --------------------------------------------
case "$arch" in
x86_64) cc=gcc ;;
arm64) cc=aarch64-linux-gnu-gcc ;;
*) fail_all "unsupported ARCH $arch" ;;
esac
command -v "$cc" >/dev/null || fail_all "$cc not found (run 'make deps')"
gen=$BUILD/tools/gen_init_cpio
if [ ! -x "$gen" ]; then
	mkdir -p "$BUILD/tools"
	cc -O2 -o "$gen.tmp" "$KSRC/usr/gen_init_cpio.c" 2> >(sed "s/^/  /" >&2) && mv "$gen.tmp" "$gen" ||
		fail_all "cannot build usr/gen_init_cpio"
fi
initrd=$out/kunit-initrd.cpio.gz
modules=()
for ko in "$out"/kunit-modules/*.ko; do
	[ -f "$ko" ] && modules+=("$ko")
done
newer=0
for f in "$0" "$here/kunit-init.c" "${modules[@]}"; do
	[ "$f" -nt "$initrd" ] && newer=1
done
# the list of modules: a module taken away must rebuild the initramfs too
mods_list=$(printf '%s\n' "${modules[@]}" | sha256sum | cut -c1-64)
if [ ! -s "$initrd" ] || [ $newer = 1 ] || [ "$(cat "$initrd.modules" 2>/dev/null)" != "$mods_list" ]; then
	tmp=$(mktemp -d)
	if ! "$cc" -static -Os -o "$tmp/init" "$here/kunit-init.c" 2>"$tmp/cc.log"; then
		sed "s/^/  /" "$tmp/cc.log" >&2
		rm -rf "$tmp"
		fail_all "cannot build the KUnit initramfs /init"
	fi
	printf '%s\n' "dir /dev 755 0 0" "nod /dev/console 600 0 0 c 5 1" \
		"nod /dev/kmsg 644 0 0 c 1 11" "dir /sys 755 0 0" \
		"file /init $tmp/init 755 0 0" >"$tmp/list"
	if [ ${#modules[@]} -gt 0 ]; then
		echo "dir /kunit-modules 755 0 0" >>"$tmp/list"
		for ko in "${modules[@]}"; do
			echo "file /kunit-modules/$(basename "$ko") $ko 644 0 0" >>"$tmp/list"
		done
	fi
	"$gen" -t 0 "$tmp/list" | gzip -n -9 >"$initrd.tmp" && mv "$initrd.tmp" "$initrd"
	echo "$mods_list" >"$initrd.modules"
	rm -rf "$tmp"
fi
[ ${#modules[@]} -eq 0 ] || echo "INFO: $arch KUnit initramfs loads $(printf '%s ' "${modules[@]##*/}")"

# --- boot, once per image -------------------------------------------------
log=$out/kunit-console.log
# the boot is shared by the suites of one run (CHECK_RUN_ID), never
# replayed from an earlier run as if it had run again
key=$( (sha256sum "$image" "$initrd" | cut -c1-64; echo "${CHECK_RUN_ID:-$$}") | sha256sum | cut -c1-64)
if [ ! -s "$log" ] || [ "$(cat "$log.key" 2>/dev/null)" != "$key" ]; then
	rm -f "$log.key"
	t0=$(date +%s)
	"$here/qemu-run.sh" --arch "$arch" --kernel "$image" --initrd "$initrd" \
		--timeout "$TIMEOUT" --log "$log" 2>"$log.qemu-run"
	rc_run=$?
	echo "$(($(date +%s) - t0)) $rc_run" >"$log.run"
	echo "$key" >"$log.key"
fi
read -r run_secs run_rc <"$log.run"
echo "INFO: $arch KUnit kernel: boot, built-in suites and test modules took ${run_secs}s (log $log)"

# --- the kernel must have reached the end ------------------------------------
why=$(grep -m1 'qemu-run: FAILED' "$log.qemu-run" | cut -c1-200)
ktap_check boot "the kernel did not reach the end of the tests: ${why:-qemu-run status $run_rc}" \
	[ "$run_rc" = 0 ]
online=$(tr -d '\r' <"$log" | sed -n 's/^kunit-init: cpus online //p' | head -n 1)
ktap_check cpus-online "/init saw CPUs '${online:-none}' online, want 0-1" [ "$online" = 0-1 ]
splat=$(grep -m1 -E 'Kernel panic|Oops|BUG:|Call Trace|WARNING:' "$log" | tr -d '\r' | cut -c1-160)
ktap_check console "kernel crash or warning during the run: $splat" [ -z "$splat" ]

# --- parse with the tree's kunit.py ------------------------------------------
# 5.10's kunit.py parses one TAP document: the built-in suites' (TAP header
# at boot) and each module's (tools/kunit-init.c writes a header before it
# loads one) are separate ones. So split the log at each
# "TAP version" line and parse every part on its own.
parts=$(mktemp -d "${TMPDIR:-/tmp}/kunit-parts.XXXXXX")
trap 'rm -rf "$parts"' EXIT
awk -v d="$parts" '/TAP version [0-9]+\r?$/ { n++ } n { print > (d "/part" n ".log") }' "$log"
: >"$out/kunit-parse.txt"
jsons=()
for p in "$parts"/part*.log; do
	[ -f "$p" ] || continue
	python3 "$KSRC/tools/testing/kunit/kunit.py" parse --json="$p.json" "$p" >>"$out/kunit-parse.txt" 2>&1
	[ -s "$p.json" ] && jsons+=("$p.json")
done
# one suite's cases as a KTAP document; exit 1 if a case failed, 2 (with
# no document, and why on stderr) if the suite is missing or ran zero cases
suite_doc() {
	python3 - "$REPO/tools" "$log" "$1" "${jsons[@]}" <<'EOF'
import json, re, sys
sys.path.insert(0, sys.argv[1])
import ktap
console = open(sys.argv[2], errors="replace").read().splitlines()
suite = sys.argv[3]
groups = {}
for j in sys.argv[4:]:
    for g in json.load(open(j)).get("sub_groups", []):
        groups.setdefault(g["name"], g)


def why(case):
    # KUnit prints "# <case>: EXPECTATION FAILED at <file>:<line>" and the
    # expectation on the next lines.
    for i, line in enumerate(console):
        if re.search(r"# %s: (EXPECTATION|ASSERTION) FAILED" % re.escape(case), line):
            detail = " ".join(l.strip() for l in console[i + 1:i + 3])
            return line.split("# ", 1)[1].strip() + " " + re.sub(r"\[[ 0-9.]+\] ", "", detail)
    return ""


g = groups.get(suite)
if g is None:
    # a module that did not load says why (tools/kunit-init.c, or the
    # module's own refusal)
    why = [re.sub(r"^.*?\] ", "", l).strip() for l in console if ": not loaded" in l]
    print("suite missing from the console log" + (" (%s)" % "; ".join(why)[:300] if why else ""),
          file=sys.stderr)
    sys.exit(2)
if not g["test_cases"]:
    print("suite ran zero cases", file=sys.stderr)
    sys.exit(2)
t = ktap.Ktap(len(g["test_cases"]))
for k, c in enumerate(g["test_cases"], 1):
    if c["status"] == "PASS":
        t.ok(c["name"])
    elif c["name"]:
        t.not_ok(c["name"], ("kunit status %s %s" % (c["status"], why(c["name"]))).strip())
    else:
        # kunit.py names no case that the kernel did not get to
        t.not_ok("case %d" % k, "a case did not complete (kunit status %s)" % c["status"])
if t.failed:
    print("%d of %d cases failed" % (t.failed, t.n), file=sys.stderr)
    sys.exit(1)
EOF
}
for s in "${suites[@]}"; do
	if [ ${#jsons[@]} -eq 0 ]; then
		ktap_fail "$s" "kunit.py parse produced no results (see $out/kunit-parse.txt)"
		continue
	fi
	doc=$(suite_doc "$s" 2>"$parts/why")
	rc=$?
	[ -z "$doc" ] || printf '%s\n' "$doc" | sed 's/^/    /'
	if [ $rc = 0 ]; then
		ktap_ok "$s"
	else
		ktap_fail "$s" "$(head -c 400 "$parts/why")"
	fi
done
[ "$KTAP_FAILED" = 0 ]
