# The hot-path cost of the series in user space (tools/perf-harness/,
# Documentation/project/perf-harness.md).
BENCH_DIR ?= $(BUILD)/bench

## bench: the user-space cost benchmark of the HWP mapping (tables on stdout, files in build/bench)
.PHONY: bench
bench: tree
	@echo "== bench: cost of the HWP mapping"
	@$(if $(NO_DEPS),true,$(CURDIR)/tools/deps.sh --perf)
	$(MAKE) -s -C $(CURDIR)/tools/perf-harness bench KSRC=$(KSRC) OUT=$(BENCH_DIR)
