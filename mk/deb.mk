# Installable kernels: Debian packages of the series, built with the kernel's
# own bindeb-pkg from Debian's 5.10 amd64 config (or KCONFIG) plus
# Kconfig.fragment.  Not part of 'make check' (48 min on 2 cores of a
# 2.6 GHz Xeon; longer on slower machines).
#
#   make deb                          Debian's config + Kconfig.fragment
#   make deb KCONFIG=/path/to/config  your config + Kconfig.fragment
#   make deb DEB_JOBS=8 DEB_LOCALVERSION=-mine DEB_DEBUG_INFO=1
#   make deb DEB_BRANCH=base-5.10.262-1 DEB_LOCALVERSION=-stock \
#            DEB_DIR=$PWD/build/deb-stock     the same kernel without the series
#   make deb-clean                    remove $(BUILD)/deb (sources, objects, debs)
#
# Output: $(BUILD)/deb/linux-image-<release>_*.deb and friends.
# Details: tools/build-deb.sh, Documentation/project/hardware-guide.md.

KCONFIG ?=
DEB_DIR ?= $(BUILD)/deb
DEB_JOBS ?= $(shell nproc)
DEB_LOCALVERSION ?= -hwp
DEB_DEBUG_INFO ?= 0
DEB_FRAGMENT ?= $(CURDIR)/Kconfig.fragment
DEB_BRANCH ?= series

.PHONY: deb deb-clean
## deb: Debian packages of the series in build/deb (KCONFIG=/path/to/config; 48 min on 2 cores of a 2.6 GHz Xeon)
deb: tree
	@echo "== deb: Debian packages of the series"
	@$(if $(NO_DEPS),true,$(CURDIR)/tools/deps.sh --deb)
	$(CHECK_RUN) REPO="$(CURDIR)" BUILD="$(BUILD)" KCONFIG="$(KCONFIG)" \
	DEB_DIR="$(DEB_DIR)" DEB_JOBS="$(DEB_JOBS)" \
	DEB_LOCALVERSION="$(DEB_LOCALVERSION)" DEB_DEBUG_INFO="$(DEB_DEBUG_INFO)" \
	DEB_FRAGMENT="$(DEB_FRAGMENT)" DEB_BRANCH="$(DEB_BRANCH)" KTREE="$(KSRC)" \
		$(CURDIR)/tools/build-deb.sh

## deb-clean: remove build/deb (its checkout, objects and packages)
deb-clean:
	-git -C "$(KSRC)" worktree remove --force "$(abspath $(DEB_DIR))/src" 2>/dev/null
	rm -rf "$(abspath $(DEB_DIR))"
