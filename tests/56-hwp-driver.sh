#!/bin/bash
# Suite 56: the real intel_pstate on the emulated HWP machine (guest.sh, check.py driver),
# then the kselftest in five short boots (selftest-paths.sh). harness.md, hwp-machine.md.
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
out=$BUILD/state/56-hwp-driver
logs=$BUILD/logs
mkdir -p "$out" "$logs"

. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
# machine and kernel, kselftest build, guest run, check.py's document, the
# trace reader, and the kselftest's five paths below
ktap_plan 10

hwp_prepare "$out" || { ktap_fail "kernel and machine build" "$HWP_WHY"; ktap_stop "$HWP_WHY"; }
img=$HWP_IMG
ktap_ok "kernel and machine build" "$HWP_QEMU, $img"

# guest programs: the loads and the markers, and the series' kselftest
extra=()
selftest=$KSRC/tools/testing/selftests/intel_pstate
if MAKEFLAGS='' MAKELEVEL='' make -s -C "$selftest" OUTPUT="$out" ARCH=x86_64 \
	LDFLAGS=-static >"$out/selftest.log" 2>&1 && [ -x "$out/hwp_request" ]; then
	extra=("$out/hwp_request:/bin/hwp_request")
	ktap_ok "kselftest intel_pstate/hwp_request builds"
else
	ktap_fail "kselftest intel_pstate/hwp_request builds" "$(tail -n 3 "$out/selftest.log" | tr '\n' '|')"
fi

hwp_initrd "$out/initrd.cpio.gz" "$REPO/tests/hwp-machine/guest.sh" "${extra[@]}" || ktap_stop "$HWP_WHY"

hwp_guest_run "guest run" 56-hwp-driver "$out/console.txt" \
	--hwp-opts hwp-highest=30:24 --kernel "$img" --initrd "$out/initrd.cpio.gz" \
	--append "intel_pstate=passive cpufreq.default_governor=schedutil" || ktap_stop "the guest did not finish"
ktap_sub "checks" python3 "$REPO/tests/hwp-machine/check.py" driver "$out/console.txt" "$HWP_REC"
# tools/hwp-trace.py on the trace the guest printed: a row for CPU 1, a plot
name="tools/hwp-trace.py tabulates and plots the guest's adjust_perf trace"
sed -n 's/^TRACE: //p' "$out/console.txt" >"$out/trace.txt"
python3 "$REPO/tools/hwp-trace.py" "$out/trace.txt" --svg "$out/trace.svg" >"$out/trace-table.txt" 2>&1 &&
	awk '$1 == 1 && $2 > 0 { ok = 1 } END { exit !ok }' "$out/trace-table.txt" && grep -q '<svg' "$out/trace.svg"
ktap_rc "$name" $? "$(tr '\n' '|' <"$out/trace-table.txt")" "$(tr '\n' '|' <"$out/trace-table.txt") (simulated)"

# The kselftest's own paths, one short boot each (selftest-paths.sh,
# hwp-machine.md); each run must leave the settings as it found them.
paths_boot() { # NAME HWP-OPTS APPEND: the console, without CRs, in $out/paths-NAME.txt
	local hwp=()
	[ -z "$2" ] || hwp=(--hwp --hwp-opts "$2")  # no HWP-OPTS: the system's QEMU
	"$REPO/tools/qemu-run.sh" --arch x86_64 "${hwp[@]}" --kernel "$img" \
		--initrd "$out/initrd-paths.cpio.gz" --append "cpufreq.default_governor=schedutil $3" \
		--timeout "${HWP_SUITE_TIMEOUT:-600}" --log "$logs/56-paths-$1.log" >"$out/qemu-paths-$1.out" 2>&1 &&
		tr -d '\r' <"$logs/56-paths-$1.log" >"$out/paths-$1.txt"
}
pval() { sed -n "s/^$2=//p" "$out/paths-$1.txt" | head -n 1; }
# what the guest itself reported as wrong, and kernel warnings
perr() { grep -E '^(GUEST-ERROR=|DMESG: )' "$out/paths-$1.txt" | head -n 3 | tr '\n' ';'; }
{ [ -x "$out/hwp_request" ] && hwp_initrd "$out/initrd-paths.cpio.gz" "$REPO/tests/hwp-machine/selftest-paths.sh" "${extra[@]}"; } ||
	ktap_stop "no kselftest or no initramfs for its paths ($out/initrd-paths.log)"
if paths_boot active hwp-highest=30:24 "intel_pstate=adjust_perf_floor"; then
	seen="adjust_perf_mode at boot $(pval active BEFORE-adjust_perf_mode); rc $(pval active KSELFTEST-RC), switched $(pval active KSELFTEST-SWITCHED), restored $(pval active RESTORED); killed by SIGTERM in passive mode: rc $(pval active TERM-RC), restored $(pval active TERM-RESTORED); DESIRED $(pval active DESIRED0)/$(pval active DESIRED1); $(perr active)"
	# on SIGTERM the test restores, says so and fails; booted in floor, it restores floor
	[ "$(pval active KSELFTEST-RC)" = 0 ] && [ "$(pval active KSELFTEST-SWITCHED)" = 1 ] &&
		[ "$(pval active BEFORE-adjust_perf_mode)" = floor ] &&
		[ "$(pval active RESTORED)" = yes ] && [ "$(pval active TERM-RC)" = 1 ] &&
		grep -q '^KSELFTEST-TERM: Bail out! interrupted by signal 15' "$out/paths-active.txt" &&
		[ "$(pval active TERM-RESTORED)" = yes ] && [ -z "$(perr active)" ]
	ktap_rc "kselftest from the active mode: switches to passive, passes, restores (also on SIGTERM)" $? "$seen (simulated)" "$seen (simulated)"
else
	ktap_fail "kselftest from the active mode: switches to passive, passes, restores (also on SIGTERM)" "the guest did not finish ($logs/56-paths-active.log)"
fi
# a clean skip (ksft_exit_skip before any result): exit code 4, its reason,
# exactly one "# SKIP" line and no ok, not ok or Bail out line
for p in "noninvariant|hwp-highest=30:24|intel_pstate=passive clearcpuid=124|no frequency invariance" \
	"broadwell|hwp-highest=30:24,model=79|intel_pstate=passive|Broadwell-style HWP" \
	"hybrid|hwp-highest=30:24,hwp-hybrid=on|intel_pstate=passive|hybrid CPU" \
	"nohwp||intel_pstate=passive|no HWP"; do
	IFS='|' read -r name opts args why <<<"$p"
	t="kselftest on a $name machine: skips ($why), changes nothing"
	if paths_boot "$name" "$opts" "$args"; then
		f=$out/paths-$name.txt
		seen="rc $(pval "$name" KSELFTEST-RC), skip '$(pval "$name" KSELFTEST-SKIP)', restored $(pval "$name" RESTORED) $(perr "$name")"
		[ "$(pval "$name" KSELFTEST-RC)" = 4 ] && pval "$name" KSELFTEST-SKIP | grep -qF "$why" &&
			[ "$(grep -c '^KSELFTEST: .*# SKIP ' "$f")" = 1 ] &&
			! grep -qE '^KSELFTEST: (ok|not ok|Bail out)' "$f" &&
			[ "$(pval "$name" RESTORED)" = yes ] && [ -z "$(perr "$name")" ]
		ktap_rc "$t" $? "$seen; kselftest: $(sed -n 's/^KSELFTEST: //p' "$f" | tr '\n' '|')" "$seen${opts:+(simulated)}"
	else
		ktap_fail "$t" "the guest did not finish ($logs/56-paths-$name.log)"
	fi
done
exit 0
