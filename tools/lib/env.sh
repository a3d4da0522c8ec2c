# shellcheck shell=bash
# Sourced by the harness's tools: the default paths and base version (the
# Makefile declares and exports them), and die/log prefixed with the tool's name.
REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$REPO/build}
KSRC=${KSRC:-$BUILD/linux}
BASE_VERSION=${BASE_VERSION:-$(sed -n 's/^BASE_VERSION[[:space:]]*?=[[:space:]]*//p' "$REPO/Makefile")}
M73_VERSION=${M73_VERSION:-$(sed -n 's/^M73_VERSION[[:space:]]*?=[[:space:]]*//p' "$REPO/Makefile")}
M73_KSRC=${M73_KSRC:-$BUILD/linux-7.3}
me=$(basename "$0" .sh)
die() { echo "$me: error: $*" >&2; exit 1; }
log() { echo "$me: $*" >&2; }
