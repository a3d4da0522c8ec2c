#!/bin/bash
# Suite 71: patches/mainline-7.3 on Debian's 7.3 base, built at every patch, each bug it
# fixes shown in the booted base and tip. harness.md, "Test suites".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${M73_VERSION:?}" "${M73_KSRC:?}"
. "$REPO/tools/lib/ktap.sh"
. "$REPO/tools/lib/hwp-machine.sh"
export PATCHES=$REPO/patches/mainline-7.3 KSRC=$M73_KSRC BASE_VERSION=${M73_VERSION//\~/_}
. "$REPO/tools/lib/series-wt.sh"
wt=$BUILD/wt/m73 out=$BUILD/state/71-mainline
mkdir -p "$out" "$BUILD/out/m73-base" "$BUILD/out/m73-tip"
n=$(find "$PATCHES" -name '*.patch' ! -name '0000-*' 2>/dev/null | wc -l)
# base, tree, builds, suites 20 and 25, tests built, 2 boots, 7 checks, check.py m73, hwp-trace.py,
# the stats boots: SSDT, 2 boots, 2 checks
ktap_plan $((2 + 1 + n + 2 + 1 + 2 + 7 + 2 + 5))

"$REPO/tools/fetch-base.sh" source-7.3 >"$out/base.log" 2>&1 || ktap_stop "no 7.3 base: $(tail -n 3 "$out/base.log")"
ktap_ok "the 7.3 base, $base"
"$REPO/tools/series.sh" tree >"$out/tree.log" 2>&1 ||
	ktap_stop "patches/mainline-7.3 does not apply: $(tail -n 5 "$out/tree.log" | tr '\n' ' ')"
ktap_ok "patches/mainline-7.3 applies to the 7.3 base ($n patches)"
series_wt || ktap_stop "$SERIES_WT_WHY"

# --- the builds: bzImages at the base and the tip (with the KUnit module), kept for the boots
walk_keep() {
	local d=$BUILD/out/m73-test/drivers/cpufreq
	{ [ "$1" != "$base" ] || cp "$2" "$d/acpi-cpufreq.ko" "$BUILD/out/m73-base/"; } && { [ "$1" != "$tip" ] ||
		cp "$2" "$d/tests/intel_pstate_adjust_perf_kunit.ko" "$d/acpi-cpufreq.ko" "$BUILD/out/m73-tip/"; }
}
tip=$(git -C "$KSRC" rev-parse "$branch")
[ -f "$BUILD/out/m73-base/acpi-cpufreq.ko" ] && [ -f "$BUILD/out/m73-tip/acpi-cpufreq.ko" ] || CHECK_FRESH=1
WALK_TIP_IMAGE=1 walk m73-test tests/71-mainline.sh "7.3 "
ktap_sub "checkpatch --strict, identity and kernel-doc (suite 20)" env PATCHES="$PATCHES" KSRC="$wt" KDOC=7.3 \
	CHECKPATCH_EXCEPTIONS="$REPO/tests/checkpatch-exceptions-7.3" "$REPO/tests/20-series-style.sh"
sparse=$("$REPO/tools/fetch-base.sh" sparse 2>"$out/sparse.log") || sparse="$out/no-sparse (tools/fetch-base.sh sparse: $(tail -n 1 "$out/sparse.log"))"
ktap_sub "no new W=1 or sparse warning in the files the series touches (suite 25, gcc)" env BUILD="$BUILD/m73" WARN_CLANG=0 SPARSE="$sparse" "$REPO/tests/25-series-warnings.sh"

# --- the boots -----------------------------------------------------------------
HWP_QEMU=$("$REPO/tools/build-qemu.sh" 2>"$out/qemu-build.err") ||
	ktap_stop "the emulated HWP machine did not build (tools/build-qemu.sh, logs: $BUILD/logs/qemu-*.log)"
hwp_hwpload "$out" || ktap_stop "$HWP_WHY"
# the tip's KUnit module (built with it) and kselftest (built here)
MAKEFLAGS='' MAKELEVEL='' make -s -C "$wt/tools/testing/selftests/intel_pstate" OUTPUT="$out" ARCH=x86_64 \
	LDFLAGS=-static >"$out/selftest.log" 2>&1 && [ -x "$out/hwp_request" ] && [ -f "$BUILD/out/m73-tip/intel_pstate_adjust_perf_kunit.ko" ]
ktap_rc "the tip's KUnit module and kselftest intel_pstate/hwp_request build" $? "$(tail -n 3 "$out/selftest.log" | tr '\n' '|')"
hwp_initrd "$out/initrd-base.cpio.gz" "$REPO/tests/hwp-machine/m73-guest.sh" || ktap_stop "$HWP_WHY"
hwp_initrd "$out/initrd-tip.cpio.gz" "$REPO/tests/hwp-machine/m73-guest.sh" "$out/hwp_request:/bin/hwp_request" \
	"$BUILD/out/m73-tip/intel_pstate_adjust_perf_kunit.ko:/lib/adjust-perf-test.ko" || ktap_stop "$HWP_WHY"
for k in base tip; do
	hwp_guest_run "the 7.3 $k boots on the HWP machine and runs the guest" "71-m73-$k" "$out/$k.txt" \
		--hwp-opts hwp-highest=30:24 --kernel "$BUILD/out/m73-$k/bzImage" --initrd "$out/initrd-$k.cpio.gz" \
		--append "intel_pstate=passive cpufreq.default_governor=schedutil" || : >"$out/$k.txt"
done

# --- what the boots show ---------------------------------------------------------
kv() { sed -n "s/^$2=//p" "$out/$1.txt" | tail -n 1; }
for k in base tip; do
	ktap_check "the 7.3 $k: intel_cpufreq in passive mode with HWP, schedutil steers DESIRED under load" \
		"driver $(kv $k DRIVER), status $(kv $k STATUS), HWP $(kv $k HWP), governor $(kv $k GOVERNOR), MIN/MAX/DESIRED $(kv $k STEER)" \
		[ "$(kv $k DRIVER) $(kv $k STATUS) $(kv $k HWP) $(kv $k GOVERNOR)" = "intel_cpufreq passive 1 schedutil" -a -n "$(kv $k STEER)" ]
done
cmin=$(kv base CPU-MIN) old=$(kv base MAXFREQ-BEFORE) minpct=$(kv base MINPCT)
ktap_check "scaling_max_freq 4294967296: the base takes it as 0 (the lowest frequency, $cmin), the tip refuses it" \
	"base: status $(kv base MAXFREQ-2P32-RC), reads $(kv base MAXFREQ-2P32); tip: status $(kv tip MAXFREQ-2P32-RC), reads $(kv tip MAXFREQ-2P32) (before $old)" \
	[ "$(kv base MAXFREQ-2P32-RC) $(kv base MAXFREQ-2P32)" = "0 $cmin" -a "$(kv tip MAXFREQ-2P32-RC)" != 0 -a "$(kv tip MAXFREQ-2P32)" = "$old" -a -n "$old" ]
ktap_check "max_perf_pct 4294967295: the base sets min_perf_pct ($minpct), the tip 100" \
	"base: status $(kv base MAXPCT-UINTMAX-RC), reads $(kv base MAXPCT-UINTMAX); tip: status $(kv tip MAXPCT-UINTMAX-RC), reads $(kv tip MAXPCT-UINTMAX)" \
	[ "$(kv base MAXPCT-UINTMAX-RC) $(kv base MAXPCT-UINTMAX) $(kv tip MAXPCT-UINTMAX-RC) $(kv tip MAXPCT-UINTMAX)" = "0 $minpct 0 100" ]
ktap_check "max_perf_pct 4294967296: the base wraps it to 0 (min_perf_pct, $minpct), the tip refuses it" \
	"base: status $(kv base MAXPCT-2P32-RC), reads $(kv base MAXPCT-2P32); tip: status $(kv tip MAXPCT-2P32-RC), reads $(kv tip MAXPCT-2P32)" \
	[ "$(kv base MAXPCT-2P32-RC) $(kv base MAXPCT-2P32)" = "0 $minpct" -a "$(kv tip MAXPCT-2P32-RC)" != 0 -a "$(kv tip MAXPCT-2P32)" = 100 ]
ktap_check "no_turbo 2147483648 with turbo off: the base turns turbo on, the tip keeps it off" \
	"base: status $(kv base NOTURBO-2P31-RC), reads $(kv base NOTURBO-2P31); tip: status $(kv tip NOTURBO-2P31-RC), reads $(kv tip NOTURBO-2P31)" \
	[ "$(kv base NOTURBO-2P31-RC) $(kv base NOTURBO-2P31) $(kv tip NOTURBO-2P31-RC) $(kv tip NOTURBO-2P31)" = "0 0 0 1" ]
ktap_check "both: every setting restored, no kernel warning" \
	"end: base $(kv base MAXFREQ-END) $(kv base MAXPCT-END) $(kv base NOTURBO-END), tip $(kv tip MAXFREQ-END) $(kv tip MAXPCT-END) $(kv tip NOTURBO-END) (want $old 100 0); $(grep -h '^DMESG: ' "$out/base.txt" "$out/tip.txt" | head -n 3)" \
	[ "$(kv base MAXFREQ-END) $(kv base MAXPCT-END) $(kv base NOTURBO-END)" = "$old 100 0" -a \
	"$(kv tip MAXFREQ-END) $(kv tip MAXPCT-END) $(kv tip NOTURBO-END)" = "$old 100 0" -a -z "$(grep -h '^DMESG: ' "$out/base.txt" "$out/tip.txt")" ]
ktap_sub "the tip's own tests on the HWP machine" python3 "$REPO/tests/hwp-machine/check.py" m73 "$out/tip.txt" "$BUILD/logs/71-m73-tip.record"
# one reader for the 5.10 and the 7.3 event: a row for CPU 1
sed -n 's/^TRACE: //p' "$out/tip.txt" >"$out/trace.txt"
ktap_check "tools/hwp-trace.py reads the 7.3 trace" "$(python3 "$REPO/tools/hwp-trace.py" "$out/trace.txt" 2>&1 | tee "$out/trace-table.txt" | tr '\n' '|')" \
	awk '$1 == 1 && $3 > 0 { ok = 1 } END { exit !ok }' "$out/trace-table.txt"

# --- the stats boots: acpi-cpufreq (pstates.asl) unloaded while a task reads a stats file
iasl -p "$out/pstates" "$REPO/tests/hwp-machine/pstates.asl" >"$out/iasl.log" 2>&1 &&
	ktap_ok "tests/hwp-machine/pstates.asl compiles (iasl)" || ktap_stop "iasl: $(tail -n 3 "$out/iasl.log" | tr '\n' ' ')"
for k in base tip; do
	hwp_initrd "$out/initrd-stats-$k.cpio.gz" "$REPO/tests/hwp-machine/stats-guest.sh" \
		"$BUILD/out/m73-$k/acpi-cpufreq.ko:/lib/acpi-cpufreq.ko" || ktap_stop "$HWP_WHY"
	HWP_SUITE_TIMEOUT=300 hwp_guest_run "the 7.3 $k boots with the SSDT and unloads acpi-cpufreq" "71-stats-$k" \
		"$out/stats-$k.txt" --kernel "$BUILD/out/m73-$k/bzImage" --initrd "$out/initrd-stats-$k.cpio.gz" \
		--acpitable "$out/pstates.aml" --append "intel_pstate=disable" || : >"$out/stats-$k.txt"
done
# stats K: driver, states, lockdep on, unloads, those that returned 0, hung or without a read, reads ended ENODEV
stats() {
	echo "$(kv stats-$1 STATS-DRIVER) $(kv stats-$1 STATS-DEBUG-LOCKS) $(kv stats-$1 STATS-TRIES) $(grep -c '^STATS-RMMOD-RC=0$' "$out/stats-$1.txt")" \
		"$(grep -c '^STATS-\(HUNG\|NO-READ\|INSMOD-RC\)=' "$out/stats-$1.txt") $(grep -c '^STATS-READ-END=read error: No such device$' "$out/stats-$1.txt")"
}
stats_ok() { stats "$1" | awk -v t="$2" '$1 == "acpi-cpufreq" && $2 == 3 && $3 == 1 && $4 == $5 && $6 == 0 && $7 >= 1 && (t == "" || $4 == t) { ok = 1 } END { exit !ok }'; }
ktap_check "both: acpi-cpufreq with statistics on the SSDT's 3 P-states, lockdep on, each rmmod returns 0, a reader had the file open" \
	"driver, states, lockdep, unloads, returned 0, hung or no read, ENODEV: base $(stats base); tip $(stats tip)" eval 'stats_ok base "" && stats_ok tip 3'
ktap_check "a stats file read at rmmod: the base's lockdep reports kn->active against policy->rwsem, the tip's nothing in 3" \
	"base: $(kv stats-base STATS-CYCLE) report(s), $(sed -n 's/^LOCKDEP: //p' "$out/stats-base.txt" | tr '\n' ' '); tip: $(kv stats-tip STATS-CYCLE), lockdep $(kv stats-tip STATS-DEBUG-LOCKS-END) at the end, $(grep -c '^DMESG: ' "$out/stats-tip.txt") DMESG lines" \
	[ "$(kv stats-base STATS-CYCLE) $(sed -n 's/^LOCKDEP: //p' "$out/stats-base.txt" | sed 's/#[0-9]*//' | tr '\n' ' ')$(kv stats-tip STATS-CYCLE) $(kv stats-tip STATS-DEBUG-LOCKS-END)" = "1 (&policy->rwsem) (kn->active) cpufreq_stats_free_table 0 1" -a \
	-z "$(grep '^DMESG: ' "$out/stats-tip.txt")" ]
