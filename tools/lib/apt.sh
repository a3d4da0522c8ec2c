# shellcheck shell=bash
# Sourced by tools/fetch-base.sh and tools/build-qemu.sh: Debian mirrors from
# the system's apt configuration, a private apt configuration in a directory
# of ours (the system's apt sources are never edited), and checksum checks
# against a pin file. The caller defines die MESSAGE, log MESSAGE and
# need_pin NAME (prints the pinned sha256 of NAME, or dies saying how to pin).

# The URIs of the system's deb and deb-src lines, one-line and deb822 formats.
apt_system_uris() {
	local f
	{
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
		done
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			awk '$1 == "deb" || $1 == "deb-src" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/ && $i !~ /=/) { print $i; break } }' "$f"
		done
	} | sed 's:/*$::'
}

# Set MIRROR and SECURITY_MIRROR: as given, else the system's .../debian and
# .../debian-security (or the latter next to the former).
# $1: how to give them, for the message when there is none.
apt_pick_mirrors() {
	local uris
	uris=$(apt_system_uris || true)
	if [ -z "${MIRROR:-}" ]; then
		MIRROR=$(echo "$uris" | grep -E '/debian$' | head -n1 || true)
	fi
	if [ -z "${SECURITY_MIRROR:-}" ]; then
		SECURITY_MIRROR=$(echo "$uris" | grep -E '/debian-security$' | head -n1 || true)
		if [ -z "$SECURITY_MIRROR" ] && [ -n "${MIRROR:-}" ]; then
			SECURITY_MIRROR=${MIRROR%/debian}/debian-security
		fi
	fi
	[ -n "${MIRROR:-}" ] || die "no Debian mirror found in /etc/apt (sources.list or *.sources).
  $1"
}

# apt_private_config DIR ARCH: apt.conf in DIR for the sources.list the
# caller wrote there (lists and cache in DIR too), exported as APT_CONFIG.
apt_private_config() {
	local dir=$1 arch=$2
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	cat >"$dir/apt.conf.tmp" <<EOS
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$dir/lists";
Dir::Cache "$dir/cache";
Dir::Cache::archives "$dir/cache/archives";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Dir::State::status "/dev/null";
APT::Architecture "$arch";
APT::Sandbox::User "root";
Acquire::Languages "none";
Acquire::Retries "2";
Acquire::http::Timeout "30";
EOS
	mv "$dir/apt.conf.tmp" "$dir/apt.conf"
	export APT_CONFIG=$dir/apt.conf
}

# apt_private_update DIR HINT: apt-get update with DIR's configuration; on
# failure show the log and die with HINT (what to try).
apt_private_update() {
	if ! apt-get -q update >"$1/update.log" 2>&1 ||
		grep -qE '^(E|W): (Failed to fetch|Some index files failed)' "$1/update.log"; then
		sed 's/^/  /' "$1/update.log" >&2
		die "cannot reach the Debian mirror ($MIRROR / $SECURITY_MIRROR).
  $2"
	fi
}

# verify FILE NAME: non-zero (with a message) when FILE's sha256 is not the
# one pinned for NAME
verify() {
	local want got
	want=$(need_pin "$2")
	got=$(sha256sum "$1" | awk '{print $1}')
	if [ "$got" != "$want" ]; then
		log "checksum mismatch for $2 ($1)"
		log "  expected $want"
		log "  got      $got"
		return 1
	fi
}
