#!/bin/bash
# A .config for a Debian package build: BASE, Debian's certificates blanked, FRAGMENTs
# merged; fails naming an option not set. harness.md, "Tool reference".
#   tools/debconfig.sh KSRC OUTDIR BASE FRAGMENT...
set -euo pipefail

die() { echo "debconfig: error: $*" >&2; exit 1; }

[ $# -ge 4 ] || die "usage: $0 KSRC OUTDIR BASE FRAGMENT..."
KSRC=$1 OUTDIR=$2 BASE=$3
shift 3
DEB_DEBUG_INFO=${DEB_DEBUG_INFO:-0}

[ -f "$KSRC/scripts/kconfig/merge_config.sh" ] ||
	die "$KSRC is not a kernel tree (run 'make tree' first)"
[ -f "$BASE" ] || die "base config $BASE does not exist"
BASE=$(cd "$(dirname "$BASE")" && pwd)/$(basename "$BASE")
frags=()
for f in "$@"; do
	[ -f "$f" ] || die "fragment $f does not exist"
	frags+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
done
set -- "${frags[@]}"
[ -e "$KSRC/.config" ] &&
	die "$KSRC has a .config; O= builds need a clean source tree ('make -C $KSRC mrproper')"

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
base=$OUTDIR/base.config

case $BASE in
*.deb)
	member=./usr/src/linux-config-5.10/config.amd64_none_amd64.xz
	dpkg-deb --fsys-tarfile "$BASE" | tar -xOf - "$member" | xz -dc >"$base.tmp" ||
		die "$BASE has no $member (dpkg-deb -c $BASE lists what it has)"
	mv "$base.tmp" "$base"
	;;
*)
	cp "$BASE" "$base"
	;;
esac
grep -q '^CONFIG_' "$base" || die "$BASE does not look like a kernel config"

local_frag=$OUTDIR/local.fragment
{
	echo '# written by tools/debconfig.sh: settings for a local build'
	echo 'CONFIG_SYSTEM_TRUSTED_KEYS=""'
	echo 'CONFIG_SYSTEM_REVOCATION_KEYS=""'
	echo 'CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"'
	[ "$DEB_DEBUG_INFO" != 0 ] || echo '# CONFIG_DEBUG_INFO is not set'
} >"$local_frag"

# The fragments (the product's) come last, so they win over everything.
(cd "$KSRC" && scripts/kconfig/merge_config.sh -m -O "$OUTDIR" \
	"$base" "$local_frag" "$@") >"$OUTDIR/merge.log" 2>&1 ||
	{ cat "$OUTDIR/merge.log" >&2; die "merge_config.sh failed"; }
make -s -C "$KSRC" O="$OUTDIR" olddefconfig >>"$OUTDIR/merge.log" 2>&1 ||
	{ tail -20 "$OUTDIR/merge.log" >&2; die "make olddefconfig failed"; }

bad=0
for f in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			opt=${line%%=*}
			want=$line
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			want=
			;;
		*) continue ;;
		esac
		have=$(grep -E "^(# )?${opt}[= ]" "$OUTDIR/.config" || true)
		if [ -z "$want" ]; then
			case $have in "$opt="*) ;; *) continue ;; esac
			want="# $opt is not set"
		elif [ "$have" = "$want" ]; then
			continue
		fi
		echo "debconfig: $(basename "$f"): wanted '$want', got '${have:-(absent)}'" >&2
		bad=1
	done <"$f"
done
[ $bad = 0 ] || die "some requested options are not set (missing dependencies?)"

for opt in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS; do
	if grep -q "^CONFIG_$opt=\"..*\"" "$OUTDIR/.config"; then
		die "CONFIG_$opt is still set: $(grep "^CONFIG_$opt=" "$OUTDIR/.config")"
	fi
done
echo "debconfig: $OUTDIR/.config: $(basename "$BASE") + $(for f in "$@"; do basename "$f"; done | tr '\n' ' ')- all requested options set"
