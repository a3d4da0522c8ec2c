# shellcheck shell=bash
# Sourced by fetch-base.sh and build-qemu.sh (after env.sh): pinned files fetched
# through a private apt configuration (the system's sources are never edited).
# The caller sets PIN (the pin file), PIN_HINT (how to pin another version), and
# for apt_fetch APTDIR, APT_ARCH, APT_HOW (how to give other mirrors) and
# apt_sources (prints the sources.list lines, on $MIRROR and $SECURITY_MIRROR).

# apt_lock NAME: one run at a time per build dir (lock file $BUILD/NAME);
# INT and TERM end the run through the EXIT trap, which removes $tmp (the
# run's temporary directory, a global).
apt_lock() {
	mkdir -p "$BUILD"
	exec 9>"$BUILD/$1"
	flock -n 9 || { log "waiting for another ${0##*/} in $BUILD"; flock 9; }
	trap 'rm -rf "${tmp:-}"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

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
  Give one: $APT_HOW"
}

# apt_update: the mirrors, a private configuration in APTDIR for the lines
# apt_sources prints (lists and cache in APTDIR too, exported as
# APT_CONFIG), then apt-get update; on failure show its log and die.
apt_update() {
	apt_pick_mirrors
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
	apt_sources >"$APTDIR/sources.list.tmp"
	mv "$APTDIR/sources.list.tmp" "$APTDIR/sources.list"
	cat >"$APTDIR/apt.conf.tmp" <<EOS
Dir::Etc::SourceList "$APTDIR/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$APTDIR/lists";
Dir::Cache "$APTDIR/cache";
Dir::Cache::archives "$APTDIR/cache/archives";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Dir::State::status "/dev/null";
APT::Architecture "$APT_ARCH";
APT::Sandbox::User "root";
Acquire::Languages "none";
Acquire::Retries "2";
Acquire::http::Timeout "30";
EOS
	mv "$APTDIR/apt.conf.tmp" "$APTDIR/apt.conf"
	export APT_CONFIG=$APTDIR/apt.conf
	log "apt-get update (private config in $APTDIR, mirrors $MIRROR and $SECURITY_MIRROR)"
	if ! apt-get -q update >"$APTDIR/update.log" 2>&1 ||
		grep -qE '^(E|W): (Failed to fetch|Some index files failed)' "$APTDIR/update.log"; then
		sed 's/^/  /' "$APTDIR/update.log" >&2
		die "cannot reach the Debian mirror ($MIRROR / $SECURITY_MIRROR).
  Check the network, or choose a mirror: $APT_HOW"
	fi
}

# pinned NAME: the sha256 of NAME in PIN; else, for the file named
# PIN_NAME, PIN_SUM (a checksum given in the environment)
pinned() {
	local sum
	sum=$(awk -v f="$1" '$1 !~ /^#/ && $2 == f { print $1 }' "$PIN")
	[ -n "$sum" ] || [ "$1" != "${PIN_NAME:-}" ] || sum=${PIN_SUM:-}
	echo "$sum"
}

# need_pin NAME: prints the pinned sha256 of NAME, or dies saying how to pin
need_pin() {
	local sum
	sum=$(pinned "$1")
	[ -n "$sum" ] || die "no pinned sha256 for $1 in $(basename "$PIN").
  $PIN_HINT"
	echo "$sum"
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

# apt_fetch DIR PKG VERSION HOW COMMAND FILE...: the pinned FILEs in DIR.
# Cached copies that do not match are deleted; if any is missing, `apt-get
# COMMAND PKG=VERSION` downloads them into $tmp under DIR and each is checked
# before it is moved in. HOW: how to choose another version, for a VERSION
# the mirror does not serve (whose served versions are listed).
apt_fetch() {
	local dir=$1 pkg=$2 ver=$3 how=$4 cmd=$5 f ok=1
	shift 5
	for f; do
		need_pin "$f" >/dev/null
		if [ -f "$dir/$f" ] && ! verify "$dir/$f" "$f"; then
			log "deleting the corrupted cached $dir/$f"
			rm -f "$dir/$f"
		fi
		[ -f "$dir/$f" ] || ok=0
	done
	[ $ok = 0 ] || return 0
	apt_update
	mkdir -p "$dir"
	tmp=$(mktemp -d "$dir/.download.XXXXXX")
	log "downloading $pkg=$ver"
	# shellcheck disable=SC2086 # COMMAND is words: download, source --download-only
	if ! (cd "$tmp" && apt-get -q $cmd "$pkg=$ver") >"$tmp/log" 2>&1; then
		sed 's/^/  /' "$tmp/log" >&2
		if grep -qiE "was not found|Unable to (locate|find a source)|Can't select|Can not find version" "$tmp/log"; then
			log "versions of $pkg served by the mirror now:"
			apt-cache madison "$pkg" 2>/dev/null | sed 's/^/  /' >&2 || true
			die "$pkg version $ver is not served any more.
  $how"
		fi
		die "download of $pkg=$ver failed (see above)"
	fi
	for f; do
		[ -f "$tmp/$f" ] || die "the download has no $f (files: $(cd "$tmp" && echo *))"
		verify "$tmp/$f" "$f" || die "refusing $f: its sha256 does not match $(basename "$PIN") (deleted)"
	done
	for f; do mv "$tmp/$f" "$dir/$f"; done
	rm -rf "$tmp"
	log "downloaded and verified $* in $dir"
}
