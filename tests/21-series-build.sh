#!/bin/bash
# Suite 21: the series is bisectable and survives the configs its headers
# touch.
#  - Bisect: in a worktree of the kernel tree, the x86_64 test kernel builds
#    after each patch (base first), incrementally in one output directory.
#    The test fragments are filtered, at each commit, to the symbols that
#    exist there, so a patch that adds a Kconfig symbol is built with it from
#    that patch on. A patch that changes a header only in functions, function
#    pointers and macros rebuilds only the includers that can break: those
#    whose sources or headers name one of them, where a name in the body of
#    another header's inline stands for that inline's name, plus one
#    includer of each such header and of the changed one, which compiles
#    their bodies (tools/bisect-narrow.py); the
#    header is dated back so that kbuild leaves the other includers alone,
#    and they stay as built before it, also at the tip. Any other header
#    change (types, members, variables, #include or #if lines) rebuilds
#    every includer as kbuild would. The base step is a full build of its
#    own, and the series tip is also built in full, from a clean directory,
#    as the test kernel (suite 10). These builds link vmlinux and stop
#    (VMLINUX_ONLY): no bootable image, which nothing here boots.
#  - Variants, with the whole series: CONFIG_X86_INTEL_PSTATE=n with
#    CONFIG_UCLAMP_TASK=n, CONFIG_CPU_FREQ=n, and CONFIG_SMP=n with
#    CONFIG_ACPI=n (intel_pstate includes some headers only with ACPI; an
#    include of ours once sat there).
#    Each variant's first build starts from a copy of the bisect's tip build
#    (CPU_FREQ=n: of X86_INTEL_PSTATE=n's) and rebuilds what its option
#    changes (kbuild's per-option dependencies).
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
base=base-$BASE_VERSION
branch=${SERIES_BRANCH:-series}
build=$REPO/tools/build-kernel.sh
wt=$BUILD/wt/bisect
out=$BUILD/out/bisect
tmp=$BUILD/tmp/suite21
mkdir -p "$tmp" "$BUILD/wt"

frags=("$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config")
for f in "$REPO"/configs/kunit*.config; do [ -f "$f" ] && frags+=("$f"); done

filter_frags() { "$REPO/tools/filter-fragments.sh" "$@"; }

if ! git -C "$KSRC" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
	echo "FAIL: bisect: no branch $branch in $KSRC (make tree)"
	exit 0
fi
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" "$base" || { echo "FAIL: bisect: cannot create worktree $wt"; exit 0; }
fi

if out_st=$("$REPO/tools/bisect-narrow.py" --self-test 2>&1); then
	echo "PASS: bisect-narrow narrows only what it can ($(echo "$out_st" | tail -n 1))"
else
	echo "$out_st"
	echo "FAIL: bisect-narrow self-test"
fi

commits=$(git -C "$KSRC" rev-list --reverse "$base..$branch")
i=0
for c in "$base" $commits; do
	subj=$(git -C "$KSRC" log -1 --format=%s "$c")
	[ "$c" = "$base" ] && label="base" || label=$(printf 'patch %02d: %s' "$i" "$subj")
	git -C "$wt" checkout -q --detach "$c" || { echo "FAIL: bisect $label: checkout failed"; i=$((i + 1)); continue; }
	filter_frags "$wt" "$tmp/bisect.config" "${frags[@]}"
	narrowed=""
	if [ "$c" != "$base" ] && [ -f "$out/vmlinux" ]; then
		if ! "$REPO/tools/bisect-narrow.py" "$wt" "$c" "$out" >"$tmp/narrow" 2>"$tmp/narrow.err"; then
			cat "$tmp/narrow.err"
			echo "FAIL: bisect $label: tools/bisect-narrow.py failed"
			i=$((i + 1))
			continue
		fi
		while read -r kind path _; do
			case $kind in
			# 2000-01-01: older than every object in $out
			header) touch -c -d @946684800 "$path" ;;
			object) rm -f "$out/$path" ;;
			esac
		done <"$tmp/narrow"
		narrowed=$(awk -v wt="$wt/" '
			$1 == "header" { if (h != "") printf "%s; ", s; h = substr($2, length(wt) + 1); n = $3; k = 0; s = "" }
			$1 == "object" { k++ }
			h != "" { s = sprintf("%s: %d of %d includers rebuilt", h, k, n) }
			END { if (h != "") printf "%s", s }' "$tmp/narrow")
	fi
	t0=$SECONDS
	if KSRC=$wt VMLINUX_ONLY=1 "$build" bisect x86_64 "$tmp/bisect.config" >"$tmp/bisect.log" 2>&1; then
		echo "PASS: builds at $label${narrowed:+ ($narrowed)}"
		echo "INFO: bisect $label: build step $((SECONDS - t0))s"
	else
		tail -n 8 "$tmp/bisect.log"
		echo "FAIL: builds at $label: see $BUILD/out/bisect/build.log"
	fi
	i=$((i + 1))
done

# variants of the full series, in the worktree at the series tip: drop the
# lines naming DROP (regex), add EXTRA. A first build starts from a copy of
# the bisect's tip build (SEED), so that kbuild rebuilds only what the
# option changes.
git -C "$wt" checkout -q --detach "$branch" || echo "FAIL: variants: cannot check out $branch in $wt"
variant() { # seed name drop-regex extra-line...
	local seed=$1 name=$2 drop=$3
	shift 3
	filter_frags "$wt" "$tmp/$name.all" "${frags[@]}"
	grep -v -E "^(# )?CONFIG_($drop)[= ]" "$tmp/$name.all" >"$tmp/$name.config"
	printf '%s\n' "$@" >>"$tmp/$name.config"
	local t0=$SECONDS
	if KSRC=$wt SEED=$seed VMLINUX_ONLY=1 "$build" "variant-$name" x86_64 "$tmp/$name.config" >"$tmp/$name.log" 2>&1; then
		echo "PASS: builds with the series and $name"
		echo "INFO: variant $name: build step $((SECONDS - t0))s$(grep -q '(SEED)' "$tmp/$name.log" && echo ", started from a copy of $seed")"
	else
		tail -n 8 "$tmp/$name.log"
		echo "FAIL: builds with the series and $name: see $BUILD/out/variant-$name/build.log"
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
# there, with schedutil and the test-only driver.
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
# schedutil, and so the test-only driver, need SMP: drop them and the KUnit
# suites. ACPI=n goes with it: intel_pstate includes some headers only with
# ACPI (an include of ours once sat there), which any ACPI=n build of it
# shows; the series has no code of its own under CONFIG_SMP or CONFIG_ACPI,
# so one build for both saves a rebuild of most of the kernel (280-300 s
# cold) and misses only what needs SMP=y and ACPI=n, or SMP=n and ACPI=y,
# together. PCI goes too, as above.
variant bisect SMP+ACPI=n 'SMP|HOTPLUG_CPU|ACPI|PCI|CPU_FREQ_GOV_SCHEDUTIL|CPU_FREQ_DEFAULT_GOV_SCHEDUTIL|UCLAMP[A-Z0-9_]*|[A-Z0-9_]*KUNIT[A-Z0-9_]*|[A-Z0-9_]*_TEST' \
	'# CONFIG_SMP is not set' "${noacpi[@]}" 'CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE=y'
git -C "$wt" checkout -q --detach "$base"
exit 0
