#!/bin/bash
# Build (once per `make check` run, like tools/test-kernel.sh) the x86_64
# kernel of the emulated HWP machine: the series tree with Kconfig.fragment,
# configs/x86_64-test.config and configs/hwp-machine.config, without any
# KUnit suite or test driver, so that the real intel_pstate is the only
# cpufreq driver in the guest. Prints the bzImage path.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
REPO=${REPO:-$(dirname "$here")}
BUILD=${BUILD:-$REPO/build}
frags="$REPO/Kconfig.fragment $REPO/configs/x86_64-test.config $REPO/configs/hwp-machine.config"
stamp=$BUILD/state/hwp-kernel.run
if [ -n "${CHECK_RUN_ID:-}" ] && [ -f "$stamp" ] &&
	[ "$(sed -n 1p "$stamp")" = "$CHECK_RUN_ID $frags" ] &&
	[ -f "$(sed -n 2p "$stamp")" ]; then
	sed -n 2p "$stamp"
	exit 0
fi
# shellcheck disable=SC2086
img=$("$here/build-kernel.sh" x86_64-hwp x86_64 $frags)
mkdir -p "$BUILD/state"
printf '%s\n%s\n' "${CHECK_RUN_ID:-none} $frags" "$img" >"$stamp"
echo "$img"
