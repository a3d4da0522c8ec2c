# Workspace for the schedutil -> intel_pstate performance-hints series on the
# Debian 5.10 LTS kernel. `make` fetches, applies, builds and boots; `make
# check` runs every test suite. See README.md.

# ---- knobs (override on the command line: make VAR=value) ----------------
# The Debian base: linux-source-5.10 from bullseye(-security), sha256 pinned
# in base.sha256. Another version needs BASE_SHA256 (or a base.sha256 line).
BASE_VERSION    ?= 5.10.262-1
BASE_SHA256     ?=
# apt mirrors; empty = taken from the system's apt configuration
MIRROR          ?=
SECURITY_MIRROR ?=
# a local linux-source-5.10.tar.xz (or the .deb) instead of downloading
LOCAL_TARBALL   ?=
# the mainline series' base: linux-source-7.3 from trixie-backports, pinned the
# same way (M73_SHA256 for another version, M73_DEB for a local .deb)
M73_VERSION     ?= 7.3.4-1~bpo13+1
M73_SHA256      ?=
M73_DEB         ?=
# The one project identity: committer of the applied series, From: of the
# cover letter, and the author every patch is expected to carry.
SERIES_AUTHOR   ?= Schedutil Perf Hints <perf-hints@example.org>
SUBJECT_PREFIX  ?= PATCH
# make mail: the series (5.10 or 7.3), its version and, from v2 on, a file
# with the changes since the last one; the mails go to OUT. Generic names,
# so set on the command line only (an environment VERSION is not taken).
SERIES          := 5.10
VERSION         := 1
CHANGES         :=
OUT              = $(BUILD)/mail-$(SERIES)
# build directory (absolute), kernel tree, series directory
BUILD           ?= $(CURDIR)/build
KSRC            ?= $(BUILD)/linux
M73_KSRC        ?= $(BUILD)/linux-7.3
PATCHES         ?= $(CURDIR)/patches
JOBS            ?= $(shell nproc)
# boot parameters of the main job
BOOT_ARGS       ?= intel_pstate=passive cpufreq.default_governor=schedutil
# empty: `make deps` (apt-get) runs first; set: skip it and use what is installed
NO_DEPS         ?=
# compiler of the main job's kernels (all, kernel, boot): gcc; LLVM=1 (or
# CC=clang) for Debian's clang and LLVM, built with make LLVM=1 LLVM_IAS=1
# as Android's GKI 5.10 is. `make check` builds with both, whatever is set.
LLVM            ?=
TOOLCHAIN       := $(if $(or $(LLVM),$(filter clang%,$(notdir $(CC)))),llvm,gcc)
# recipes run without a CC, LLVM or MAKEFLAGS given here (they must not reach
# the kernel's own make); RUN passes the toolchain by name
CHECK_RUN       := env -u CC -u LLVM -u LLVM_IAS -u TOOLCHAIN MAKEFLAGS=
RUN             := $(CHECK_RUN) TOOLCHAIN=$(TOOLCHAIN)
# when make started: tools/check.sh's total includes deps, base and tree
CHECK_START     := $(shell date +%s)

REPO := $(CURDIR)
export REPO BUILD KSRC PATCHES BASE_VERSION BASE_SHA256 MIRROR SECURITY_MIRROR \
       LOCAL_TARBALL SERIES_AUTHOR SUBJECT_PREFIX JOBS BOOT_ARGS M73_VERSION \
       M73_SHA256 M73_DEB M73_KSRC

.DEFAULT_GOAL := all
.NOTPARALLEL:
.PHONY: all deps base source-deb config-deb tree export series-status kernel boot check \
        clean distclean help base-7.3 tree-7.3 export-7.3 mail

## all: the main job: deps, base, tree, the x86_64 test kernel, its KUnit boot, the HWP machine (QEMU) booting it under load, summary
all:
	@$(RUN) tools/main.sh $(if $(NO_DEPS),--no-deps)

## deps: install the Debian packages that are missing (apt-get)
deps:
	@$(if $(NO_DEPS),true,tools/deps.sh)

## base: fetch, verify and unpack the pinned linux-source-5.10 into build/linux (KSRC)
base:
	@tools/fetch-base.sh source

## source-deb: fetch and verify Debian's linux-source-5.10 .deb (not unpacked); prints its path
source-deb:
	@tools/fetch-base.sh source-deb

## config-deb: fetch and verify Debian's linux-config-5.10 .deb; prints its path
config-deb:
	@tools/fetch-base.sh config

## tree: branch `series` = base + git am patches/*.patch (FORCE=1 discards local work)
tree: base
	@tools/series.sh tree

## export: write branch `series` back into patches/ (format-patch + cover letter)
export:
	@tools/series.sh export

## series-status: does branch `series` match patches/ byte for byte?
series-status:
	@tools/series.sh status

# the mainline series: patches/mainline-7.3 on branch `series` of M73_KSRC
M73 := PATCHES=$(CURDIR)/patches/mainline-7.3 KSRC=$(M73_KSRC) BASE_TAG=base-$(subst ~,_,$(M73_VERSION))

## base-7.3: fetch, verify and unpack the pinned linux-source-7.3 into build/linux-7.3 (M73_KSRC)
base-7.3:
	@tools/fetch-base.sh source-7.3

## tree-7.3, export-7.3: tree and export for the mainline series (patches/mainline-7.3 on M73_KSRC)
tree-7.3: base-7.3
	@$(M73) tools/series.sh tree
export-7.3:
	@$(M73) tools/series.sh export

## mail: SERIES (5.10, 7.3) as mails in OUT signed by your git identity, To/Cc from get_maintainer.pl, checkpatch run; prints the git send-email command, sends nothing (VERSION=2 CHANGES=file for v2)
mail:
	@VERSION='$(VERSION)' CHANGES='$(CHANGES)' tools/mail.sh '$(SERIES)' '$(OUT)'

## kernel: build the x86_64 test kernel (x86_64-test in configs/kernels)
kernel: tree
	@$(RUN) tools/test-kernel.sh

## boot: the main job without `make deps`: test kernel and its boot, HWP machine, summary
boot:
	@$(RUN) tools/main.sh --no-deps

## check: deps, base, tree, then every tests/NN-*.sh suite (TESTS='01 40' for some); ends with the time per suite, the total and its multiple of T_ref
check: deps tree
	@$(CHECK_RUN) CHECK_START=$(CHECK_START) tools/check.sh

## clean: drop kernel objects and logs (keeps the downloaded base and the tree)
clean:
	rm -rf $(BUILD)/out $(BUILD)/linux/.build-* $(BUILD)/linux-harness/.build-* $(BUILD)/wt/*/.build-* \
		$(BUILD)/logs $(BUILD)/state/*.run $(BUILD)/state/*.pass

## distclean: remove the whole build directory (tree, downloads, objects)
distclean:
	rm -rf $(BUILD)

## help: list the targets
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

# Other parts of the project plug their targets in here (mk/deb.mk, ...).
-include $(sort $(wildcard $(CURDIR)/mk/*.mk))
