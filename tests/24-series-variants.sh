#!/bin/bash
# Suite 24 (make check-full, not make check): the whole series builds in the
# configurations its headers touch. Variants, with the whole series:
# CONFIG_X86_INTEL_PSTATE=n with CONFIG_UCLAMP_TASK=n, CONFIG_CPU_FREQ=n,
# and CONFIG_SMP=n with CONFIG_ACPI=n (intel_pstate includes some headers
# only with ACPI; an include of ours once sat there). Each variant's first
# build starts from a copy of suite 21's bisect build at the series tip
# (CPU_FREQ=n: of X86_INTEL_PSTATE=n's) when there is one, and rebuilds
# what its option changes (kbuild's per-option dependencies); without it,
# from scratch. Split from suite 21 on 2026-12-02: with them, a cold make
# check took longer than CI's 90 minutes (README, "Measured times").
# KTAP, plan 3 (one per variant); without the worktree at the series tip,
# every variant fails with the reason.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
tmp=$BUILD/tmp/suite24
mkdir -p "$tmp"
# shellcheck source=tools/lib/series-wt.sh
. "$REPO/tools/lib/series-wt.sh"
# shellcheck source=tools/lib/ktap.sh
. "$REPO/tools/lib/ktap.sh"
ktap_plan 3
if ! series_wt; then
	ktap_fail_rest "$SERIES_WT_WHY"
	exit 0
fi

# variants of the full series, in the worktree at the series tip: drop the
# lines naming DROP (regex), add EXTRA. A first build starts from a copy of
# the bisect's tip build (SEED), so that kbuild rebuilds only what the
# option changes.
# (building whatever else is checked out there would not test the series)
if ! git -C "$wt" checkout -q --detach "$branch"; then
	ktap_fail_rest "cannot check out $branch in $wt"
	exit 0
fi
variant() { # seed name drop-regex extra-line...
	local seed=$1 name=$2 drop=$3
	shift 3
	filter_frags "$wt" "$tmp/$name.all" "${frags[@]}"
	grep -v -E "^(# )?CONFIG_($drop)[= ]" "$tmp/$name.all" >"$tmp/$name.config"
	printf '%s\n' "$@" >>"$tmp/$name.config"
	local t0=$SECONDS
	if KSRC=$wt SEED=$seed VMLINUX_ONLY=1 "$build" "variant-$name" x86_64 "$tmp/$name.config" >"$tmp/$name.log" 2>&1; then
		ktap_ok "builds with the series and $name"
		echo "INFO: variant $name: build step $((SECONDS - t0))s$(grep -q '(SEED)' "$tmp/$name.log" && echo ", started from a copy of $seed")"
	else
		tail -n 8 "$tmp/$name.log" | sed 's/^/  /'
		ktap_fail "builds with the series and $name" "see $BUILD/out/variant-$name/build.log"
	fi
}
# SCHED_MC_PRIO (default y with SMP) selects both CPU_FREQ and X86_INTEL_PSTATE;
# UCLAMP_TASK depends on schedutil, so it goes wherever schedutil goes.
# X86_INTEL_PSTATE=n comes first: CPU_FREQ=n starts from its build, which
# has already rebuilt what SCHED_MC_PRIO=n changes (asm/topology.h, included
# by most of the kernel), so it rebuilds only what CPU_FREQ=n adds.
# It also drops UCLAMP_TASK, which every other configuration here sets
# (the test kernels need it) and Debian's does not: the series' code for
# !CONFIG_UCLAMP_TASK (schedutil's bounds without uclamp) is compiled
# there, with schedutil.
# Nothing boots a variant, and the series' code in these configurations
# does not depend on ACPI or PCI (intel_pstate, which does, is not in
# them), so they also drop ACPI and PCI: a quarter of the test kernel's
# objects (drivers/acpi, pnp, pci), which each of these builds would
# otherwise compile again.
noacpi=('# CONFIG_ACPI is not set' '# CONFIG_PCI is not set')
variant bisect X86_INTEL_PSTATE+UCLAMP_TASK=n 'X86_INTEL_PSTATE[A-Z0-9_]*|SCHED_MC_PRIO|UCLAMP[A-Z0-9_]*|ACPI|PCI' \
	'# CONFIG_X86_INTEL_PSTATE is not set' '# CONFIG_SCHED_MC_PRIO is not set' '# CONFIG_UCLAMP_TASK is not set' "${noacpi[@]}"
variant variant-X86_INTEL_PSTATE+UCLAMP_TASK=n CPU_FREQ=n 'CPU_FREQ[A-Z0-9_]*|X86_INTEL_PSTATE[A-Z0-9_]*|CPUFREQ[A-Z0-9_]*|SCHED_MC_PRIO|UCLAMP[A-Z0-9_]*|ACPI|PCI' \
	'# CONFIG_CPU_FREQ is not set' '# CONFIG_SCHED_MC_PRIO is not set' "${noacpi[@]}"
# schedutil (and the KUnit suites with it) needs SMP: drop them and the KUnit
# suites. ACPI=n goes with it: intel_pstate includes some headers only with
# ACPI (an include of ours once sat there), which any ACPI=n build of it
# shows; the series has no code of its own under CONFIG_SMP or CONFIG_ACPI,
# so one build for both saves a rebuild of most of the kernel (280-300 s
# cold) and misses only what needs SMP=y and ACPI=n, or SMP=n and ACPI=y,
# together. PCI goes too, as above.
variant bisect SMP+ACPI=n 'SMP|HOTPLUG_CPU|ACPI|PCI|CPU_FREQ_GOV_SCHEDUTIL|CPU_FREQ_DEFAULT_GOV_SCHEDUTIL|UCLAMP[A-Z0-9_]*|[A-Z0-9_]*KUNIT[A-Z0-9_]*|[A-Z0-9_]*_TEST' \
	'# CONFIG_SMP is not set' "${noacpi[@]}" 'CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE=y'
exit 0
