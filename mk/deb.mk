# Installable kernels: Debian packages of the series (tools/build-deb.sh,
# Documentation/project/hardware-guide.md), not part of 'make check'.

DEB_DIR ?= $(BUILD)/deb

.PHONY: deb deb-clean
## deb: Debian packages of the series in build/deb (KCONFIG=/path/to/config; 48 min on 2 cores of a 2.6 GHz Xeon)
deb: tree
	@echo "== deb: Debian packages of the series"
	@$(if $(NO_DEPS),true,$(CURDIR)/tools/deps.sh --deb)
	$(CHECK_RUN) $(CURDIR)/tools/build-deb.sh

## deb-clean: remove build/deb (its checkout, objects and packages)
deb-clean:
	-git -C "$(KSRC)" worktree remove --force "$(abspath $(DEB_DIR))/src" 2>/dev/null
	rm -rf "$(abspath $(DEB_DIR))"
