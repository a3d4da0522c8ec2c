# The emulated HWP machine: Debian 12's qemu source (pinned in qemu.sha256)
# with tools/qemu-hwp/*.patch, x86_64-softmmu only, TCG, ccache'd, built
# once into $(BUILD)/qemu-hwp and reused while nothing changed.
# Details: tools/build-qemu.sh, Documentation/project/hwp-machine.md.
#
#   make qemu          build it (if needed); prints the binary's path

.PHONY: qemu
## qemu: build the emulated HWP machine (patched qemu-system-x86_64) in build/qemu-hwp
qemu:
	@$(CHECK_RUN) REPO="$(CURDIR)" BUILD="$(BUILD)" JOBS="$(JOBS)" $(CURDIR)/tools/build-qemu.sh
