#!/bin/bash
# Suite 21: the series is bisectable and survives the configs its headers
# touch.
#  - Bisect: in a worktree of the kernel tree, the x86_64 test kernel builds
#    (compile and link, bzImage) after each patch (base first), whatever the
#    number of patches. The test fragments are filtered, at each commit, to
#    the symbols that exist there, so a patch that adds a Kconfig symbol is
#    built with it from that patch on.
#  - Variants, with the whole series: CONFIG_CPU_FREQ=n,
#    CONFIG_X86_INTEL_PSTATE=n, CONFIG_SMP=n and CONFIG_ACPI=n (intel_pstate
#    includes some headers only with ACPI; an include of ours once sat there).
#
# What is built, and why nothing is left out (issue: "spend build time where
# a failure can hide"):
#  - Every state is a complete kbuild `make bzImage`: every object the config
#    builds, then the link, so an undefined symbol (a patch calling what only
#    a later patch defines) fails at that patch. Nothing is built by hand-made
#    target lists; what gets recompiled is decided by kbuild's own
#    dependencies (sources, every header each object included, the CONFIG_
#    symbols each object reads, the command line).
#  - The bisect builds one commit after the other in one out dir, so each
#    patch recompiles only the objects of the files it touches and of the
#    objects that include the headers it touches, then relinks.
#  - The bisect's worktree and out dir are laid out like the kernel tree and
#    the test kernel's out dir ($BUILD/linux and $BUILD/out/x86_64-test, i.e.
#    ../../linux seen from the out dir), so with CCACHE_BASEDIR=$BUILD the
#    compiler gets the same relative command lines, and ccache returns the
#    test kernel's object wherever a state's inputs are the tip's: at the
#    base, every object that includes no file the series changes; from the
#    patch that gives a header its final content on, that header's includers
#    (include/linux/sched/cpufreq.h, which patch 5 changes, is included by
#    about half of the test kernel's objects). That is ccache's ordinary
#    contract (the same input and options give the same object); every
#    other object is compiled for real.
#  - A patch that touches no file the kernel build reads (only MAINTAINERS,
#    Documentation/*.rst, tools/testing/) gives the same build inputs as the
#    commit before it: it gets that commit's result, stated as such, and no
#    second identical build.
#  - Each variant starts, the first time, from a copy of the test kernel's out
#    dir (the same tree, built by tools/test-kernel.sh once per `make check`,
#    suite 10 already did), then its changed config is built as an ordinary
#    incremental kbuild build: syncconfig marks the CONFIG_ symbols whose
#    value changed and kbuild recompiles every object that reads one of them
#    (fixdep), builds the objects the config newly enables, rebuilds the
#    archives from the new object lists and relinks. That is exactly "what
#    the option changes", and it is what a full build of that config gives.
#    How much that is depends on the option: SMP and, through
#    SCHED_MC_PRIO (asm/topology.h), CPU_FREQ are read by nearly every
#    object; X86_INTEL_PSTATE=n then gets the objects that do not read
#    CPU_FREQ from ccache (CPU_FREQ=n compiled them with the same inputs).
#    Later runs build each variant incrementally in its own out dir.
#  - The variants build (one after the other) while the bisect builds: other
#    source tree, other out dirs; see below.
# A build failure at any state is a FAIL naming that state and its log.
set -uo pipefail
: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
BASE_VERSION=${BASE_VERSION:-5.10.262-1}
base=base-$BASE_VERSION
branch=${SERIES_BRANCH:-series}
build=$REPO/tools/build-kernel.sh
# bisect worktree and objects: $root/linux and $root/out/bisect (see above)
root=$BUILD/wt/bisect21
wt=$root/linux
tmp=$BUILD/tmp/suite21
mkdir -p "$tmp" "$root"
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD}

frags=("$REPO/Kconfig.fragment" "$REPO/configs/x86_64-test.config")
for f in "$REPO"/configs/kunit*.config; do [ -f "$f" ] && frags+=("$f"); done

filter_frags() { "$REPO/tools/filter-fragments.sh" "$@"; }
# build-kernel.sh's summary: image size, make's wall and CPU time, load
built() { sed -n 's/^build-kernel: built [^ ]* //p' "$1"; }

if ! git -C "$KSRC" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
	echo "FAIL: bisect: no branch $branch in $KSRC (make tree)"
	exit 0
fi
# the worktree of earlier versions of this suite ($BUILD/wt/bisect)
if [ -e "$BUILD/wt/bisect/.git" ]; then
	git -C "$KSRC" worktree remove --force "$BUILD/wt/bisect" 2>/dev/null || rm -rf "$BUILD/wt/bisect"
fi
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" "$base" || { echo "FAIL: bisect: cannot create worktree $wt"; exit 0; }
fi

# paths a patch may touch without changing what the kernel build reads
# (Documentation/Kconfig is sourced by lib/Kconfig.debug: only .rst counts)
no_build_input() { # commit: true if every path it touches is outside the build
	git -C "$KSRC" diff-tree --no-commit-id --name-only -r "$1" |
		grep -v -E '^(MAINTAINERS$|Documentation/.*\.rst$|tools/testing/)' | grep -q . && return 1
	return 0
}

# The test kernel (the tree with the series, the same fragments), built once
# per `make check` (suite 10 did): its objects are in ccache for the bisect's
# base build, and its out dir is the seed of the variants' out dirs.
seed=""
if "$REPO/tools/test-kernel.sh" >"$tmp/test-kernel.out" 2>"$tmp/test-kernel.err"; then
	seed=$BUILD/out/x86_64-test
else
	# not a result of this suite (suite 10 reports it): everything here
	# is then built from scratch, which only takes longer
	echo "INFO: the test kernel did not build (tools/test-kernel.sh): building the variants from scratch"
fi

# variants of the full series: drop the lines naming DROP (regex), add EXTRA
variant() { # name drop-regex extra-line...
	local name=$1 drop=$2 out=$BUILD/out/variant-$1 t0 how
	shift 2
	filter_frags "$KSRC" "$tmp/$name.all" "${frags[@]}"
	grep -v -E "^(# )?CONFIG_($drop)[= ]" "$tmp/$name.all" >"$tmp/$name.config"
	printf '%s\n' "$@" >>"$tmp/$name.config"
	how=incremental
	if [ ! -f "$out/.config" ] && [ -n "$seed" ]; then
		rm -rf "$out" "$out.seed"
		cp -a "$seed" "$out.seed" && rm -f "$out.seed/.config.inputs" && mv "$out.seed" "$out" ||
			{ rm -rf "$out" "$out.seed"; echo "INFO: variant $name: could not copy $seed, building from scratch"; }
		how="from the test kernel's objects"
	fi
	t0=$(date +%s)
	if "$build" "variant-$name" x86_64 "$tmp/$name.config" >"$tmp/$name.log" 2>&1; then
		echo "INFO: variant $name, $how: $(($(date +%s) - t0))s with the configuration; $(built "$tmp/$name.log")"
		echo "PASS: builds with the series and $name"
	else
		tail -n 8 "$tmp/$name.log"
		echo "FAIL: builds with the series and $name: see $out/build.log"
	fi
}
variants() {
	# SCHED_MC_PRIO (default y with SMP) selects both CPU_FREQ and X86_INTEL_PSTATE
	variant CPU_FREQ=n 'CPU_FREQ[A-Z0-9_]*|X86_INTEL_PSTATE[A-Z0-9_]*|CPUFREQ[A-Z0-9_]*|SCHED_MC_PRIO' \
		'# CONFIG_CPU_FREQ is not set' '# CONFIG_SCHED_MC_PRIO is not set'
	variant X86_INTEL_PSTATE=n 'X86_INTEL_PSTATE[A-Z0-9_]*|SCHED_MC_PRIO' \
		'# CONFIG_X86_INTEL_PSTATE is not set' '# CONFIG_SCHED_MC_PRIO is not set'
	# schedutil, and so the test-only driver, need SMP: drop them and the KUnit suites
	variant SMP=n 'SMP|HOTPLUG_CPU|CPU_FREQ_GOV_SCHEDUTIL|CPU_FREQ_DEFAULT_GOV_SCHEDUTIL|[A-Z0-9_]*KUNIT[A-Z0-9_]*|[A-Z0-9_]*_TEST' \
		'# CONFIG_SMP is not set' 'CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE=y'
	variant ACPI=n 'ACPI' '# CONFIG_ACPI is not set'
}

# The variants build from $KSRC into their own out dirs while the bisect
# builds from its worktree into its own: two trees, no out dir shared. The
# bisect leaves a CPU idle most of the time (configuration, kbuild's walk
# through the tree and the three links of each state are single-threaded),
# and the variants fill it. Their results are printed after the bisect's.
variants >"$tmp/variants.out" 2>&1 &
vpid=$!

commits=$(git -C "$KSRC" rev-list --reverse "$base..$branch")
i=0 prev_ok=""
for c in "$base" $commits; do
	subj=$(git -C "$KSRC" log -1 --format=%s "$c")
	[ "$c" = "$base" ] && label="base" || label=$(printf 'patch %02d: %s' "$i" "$subj")
	i=$((i + 1))
	git -C "$wt" checkout -q --detach "$c" || { echo "FAIL: bisect $label: checkout failed"; prev_ok=""; continue; }
	if [ "$c" != "$base" ] && [ -n "$prev_ok" ] && no_build_input "$c"; then
		# same build inputs as the commit before, whose result stands
		if [ "$prev_ok" = yes ]; then
			echo "PASS: builds at $label (touches only MAINTAINERS, Documentation/*.rst or tools/testing/: the same build as the commit before)"
		else
			echo "FAIL: builds at $label: it changes no build input, and the commit before did not build (see $root/out/bisect/build.log)"
		fi
		continue
	fi
	filter_frags "$wt" "$tmp/bisect.config" "${frags[@]}"
	t0=$(date +%s)
	if BUILD=$root KSRC=$wt "$build" bisect x86_64 "$tmp/bisect.config" >"$tmp/bisect.log" 2>&1; then
		echo "INFO: bisect $label: $(($(date +%s) - t0))s with the configuration; $(built "$tmp/bisect.log")"
		echo "PASS: builds at $label"
		prev_ok=yes
	else
		tail -n 8 "$tmp/bisect.log"
		echo "FAIL: builds at $label: see $root/out/bisect/build.log"
		prev_ok=no
	fi
done
git -C "$wt" checkout -q --detach "$base"

wait "$vpid"
cat "$tmp/variants.out"
n=$(grep -c -E '^(PASS|FAIL): builds with the series and ' "$tmp/variants.out")
[ "$n" -eq 4 ] || echo "FAIL: variants: $n of 4 variant builds reported a result (log: $tmp/variants.out)"
exit 0
