#!/bin/bash
# Boot a KUnit kernel once under QEMU TCG; report the named suites' cases as one
# KTAP document, for ktap_sub. harness.md, "Tool reference".
#   tools/kunit-boot.sh ARCH IMAGE SUITE...
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
export REPO BUILD KSRC
TIMEOUT=${KUNIT_BOOT_TIMEOUT:-900}

[ $# -ge 3 ] || { echo "usage: $0 ARCH IMAGE SUITE..." >&2; exit 2; }
arch=$1 image=$2
shift 2
suites=("$@")
. "$REPO/tools/lib/ktap.sh"
ktap_plan $((3 + ${#suites[@]}))
# before the boot: the boot and everything after it fail with WHY
fail_all() { ktap_fail boot "$1"; ktap_fail_rest "not booted: $1"; exit 1; }
[ -f "$image" ] || fail_all "no kernel image $image"
# the build directory: bzImage/Image live in arch/*/boot below it
out=$(cd "$(dirname "$image")/../../.." && pwd)

# --- initramfs: busybox, tools/kunit-init.sh and the modules ----------------
case "$arch" in
x86_64) ;;
arm64)
	BUSYBOX=$("$here/fetch-base.sh" busybox-arm64 2>"$out/kunit-busybox.err") ||
		fail_all "no arm64 busybox: $(tail -n 1 "$out/kunit-busybox.err")"
	export BUSYBOX
	;;
*) fail_all "unsupported ARCH $arch" ;;
esac
initrd=$out/kunit-initrd.cpio.gz
modules=()
for ko in "$out"/kunit-modules/*.ko; do
	[ -f "$ko" ] && modules+=("$ko:/kunit-modules/${ko##*/}")
done
# made each time (deterministic: the boot below is keyed on its hash),
# under a name of its own, then renamed
if ! "$here/mkinitramfs.sh" "$initrd.$$" "$here/kunit-init.sh" "${modules[@]}" 2>"$out/kunit-initrd.err" ||
	! mv -f "$initrd.$$" "$initrd"; then
	rm -f "$initrd.$$"
	fail_all "cannot build the KUnit initramfs: $(tail -n 1 "$out/kunit-initrd.err")"
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
splat=$(grep -m1 -E -f "$here/lib/splats.ere" "$log" | tr -d '\r' | cut -c1-160)
ktap_check console "kernel crash or warning during the run: $splat" [ -z "$splat" ]

# --- parse with the tree's kunit.py ------------------------------------------
# 5.10's kunit.py parses one TAP document: split the log at each "TAP version"
# line (the built-in suites', and one per module from kunit-init.sh), parse each
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
    # a module that did not load says why (tools/kunit-init.sh, or the
    # module's own refusal)
    why = [re.sub(r"^.*?\] ", "", l).strip() for l in console if ": not loaded" in l]
    sys.exit("suite missing from the console log" + (" (%s)" % "; ".join(why)[:300] if why else ""))
if not g["test_cases"]:
    sys.exit("suite ran zero cases")
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
	ktap_check "$s" "$(head -c 400 "$parts/why")" [ $rc = 0 ]
done
[ "$KTAP_FAILED" = 0 ]
