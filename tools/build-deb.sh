#!/bin/bash
# Debian packages of the series with bindeb-pkg, for `make deb` (hardware-guide.md,
# route A). Directories and environment: harness.md, "Tool reference".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib/env.sh
. "$here/lib/env.sh"
KCONFIG=${KCONFIG:-}
DEB_FRAGMENT=${DEB_FRAGMENT:-$REPO/Kconfig.fragment}
DEB_DIR=${DEB_DIR:-$BUILD/deb}
DEB_JOBS=${DEB_JOBS:-$(nproc)}
DEB_LOCALVERSION=${DEB_LOCALVERSION:--hwp}
DEB_BRANCH=${DEB_BRANCH:-series}
export DEB_DEBUG_INFO=${DEB_DEBUG_INFO:-0}

# Host tools (command:package): what Debian's kernel packaging and the build need.
missing=()
tools="gcc:gcc make:make bc:bc bison:bison flex:flex perl:perl xz:xz-utils cpio:cpio
	rsync:rsync depmod:kmod fakeroot:fakeroot dpkg-buildpackage:dpkg-dev"
[ "$DEB_DEBUG_INFO" = 0 ] || tools="$tools pahole:dwarves"
for t in $tools; do
	command -v "${t%%:*}" >/dev/null 2>&1 || missing+=("${t#*:}")
done
[ -e /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
[ -e /usr/include/gelf.h ] || missing+=(libelf-dev)
if [ ${#missing[@]} -gt 0 ]; then
	die "missing build tools; install them with:
  sudo apt-get install ${missing[*]}"
fi

if [ -z "$KCONFIG" ]; then
	log "base config: Debian's linux-config-5.10 (config.amd64_none_amd64)"
	KCONFIG=$(env REPO="$REPO" BUILD="$BUILD" "$here/fetch-base.sh" config) ||
		die "could not fetch Debian's config (see above); or give one: make deb KCONFIG=/boot/config-\$(uname -r)"
fi
[ -f "$KCONFIG" ] || die "KCONFIG=$KCONFIG does not exist"
[ -f "$DEB_FRAGMENT" ] || die "fragment $DEB_FRAGMENT does not exist"

git -C "$KSRC" rev-parse --verify -q "$DEB_BRANCH^{commit}" >/dev/null ||
	die "$KSRC has no branch $DEB_BRANCH: run 'make tree' first"
mkdir -p "$DEB_DIR"
DEB_DIR=$(cd "$DEB_DIR" && pwd)
src=$DEB_DIR/src obj=$DEB_DIR/obj
if [ ! -e "$src/.git" ]; then
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$src" "$DEB_BRANCH"
else
	git -C "$src" checkout -q -f --detach "$DEB_BRANCH"
fi
log "source: $(git -C "$src" log -1 --format='%h %s') ($(git -C "$KSRC" rev-list --count "base-$BASE_VERSION..$DEB_BRANCH" 2>/dev/null || echo '?') patches on the base)"

"$here/debconfig.sh" "$src" "$obj" "$KCONFIG" "$DEB_FRAGMENT"
grep -q '^CONFIG_X86_64=y' "$obj/.config" ||
	die "$KCONFIG is not an x86_64 config (CONFIG_64BIT is off); the series targets amd64"

log "building with $DEB_JOBS jobs in $obj (Debian config: 48 min on 2 cores of a 2.6 GHz Xeon; log: $DEB_DIR/build.log)"
start=$(date +%s)
touch "$obj/.deb-start"
times >"$obj/.times.0"
make -C "$src" O="$obj" -j"$DEB_JOBS" LOCALVERSION="$DEB_LOCALVERSION" \
	KBUILD_BUILD_USER="${KBUILD_BUILD_USER:-$(id -un)}" bindeb-pkg 2>&1 | tee "$DEB_DIR/build.log"
times >"$obj/.times.1"
secs=$(($(date +%s) - start))
# CPU seconds (user + system) of make and its children, as in build-kernel.sh
cpu() { awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }' "$1"; }
cpus=$(($(cpu "$obj/.times.1") - $(cpu "$obj/.times.0")))
krel=$(cat "$obj/include/config/kernel.release")
# this run only: a rerun after an interruption counts from where it resumed
printf 'release=%s wall_s=%s cpu_s=%s jobs=%s\n' "$krel" "$secs" "$cpus" "$DEB_JOBS" >"$DEB_DIR/build-stats"
log "built $krel in $((secs / 60)) min (CPU ${cpus}s, -j$DEB_JOBS; this run only):"
debs=$(find "$DEB_DIR" -maxdepth 1 -name 'linux-*.deb' -newer "$obj/.deb-start" | sort)
[ -n "$debs" ] || die "bindeb-pkg left no package in $DEB_DIR"
echo "$debs" | sed 's/^/  /' >&2
log "install: sudo apt install $(echo "$debs" | grep -E '/linux-(image|headers)-' | grep -v -- '-dbg_' | tr '\n' ' ')"
