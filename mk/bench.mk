# The hot-path cost of the series, measured in user space:
# callgrind instructions and divisions, and TSC ticks side by side, per call
# of the series' ->adjust_perf callback and mainline 7.3's, both compiled
# from their intel_pstate.c.  Details: tools/perf-harness/,
# Documentation/project/perf-harness.md.
#
#   make bench                 tables on stdout, files in $(BUILD)/bench

BENCH_DIR ?= $(BUILD)/bench
BENCH_KSRC ?= $(if $(KSRC),$(KSRC),$(BUILD)/linux)

## bench: the user-space cost benchmark of the HWP mapping (tables on stdout, files in build/bench)
.PHONY: bench
bench: tree
	@echo "== bench: cost of the HWP mapping"
	@$(if $(NO_DEPS),true,$(CURDIR)/tools/perf-harness/deps.sh)
	$(MAKE) -s -C $(CURDIR)/tools/perf-harness bench KSRC=$(BENCH_KSRC) OUT=$(BENCH_DIR)
