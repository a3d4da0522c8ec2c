# The emulated HWP machine (tools/build-qemu.sh, Documentation/project/hwp-machine.md).
.PHONY: qemu
## qemu: build the emulated HWP machine (patched qemu-system-x86_64) in build/qemu-hwp
qemu:
	@$(CHECK_RUN) $(CURDIR)/tools/build-qemu.sh
