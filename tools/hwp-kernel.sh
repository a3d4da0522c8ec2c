#!/bin/bash
# Build (once per `make check` run, like tools/test-kernel.sh) the x86_64
# kernel of the emulated HWP machine: the series tree with Kconfig.fragment,
# configs/x86_64-test.config and configs/hwp-machine.config, without any
# KUnit suite or test driver, so that the real intel_pstate is the only
# cpufreq driver in the guest (KUnit's framework stays, with no suite:
# configs/hwp-machine.config says why). Prints the bzImage path. Its first build
# starts from a copy of the test kernel's build when there is one (SEED in
# tools/build-kernel.sh): only what the two suites' options touch is rebuilt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
TEST_FRAGMENTS="$REPO/Kconfig.fragment $REPO/configs/x86_64-test.config $REPO/configs/hwp-machine.config" \
	KERNEL_NAME=x86_64-hwp SEED=${SEED-x86_64-test} exec "$here/test-kernel.sh"
