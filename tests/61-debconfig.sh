#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Suite 61: Kconfig.fragment onto Debian's config, as 'make deb' does. harness.md "Test suites".
# cache: whole input (tools/check.sh: reported cached when nothing it reads changed)
set -u

: "${REPO:?}" "${BUILD:?}" "${KSRC:?}"
work=$BUILD/tests/61-debconfig
frag=$REPO/Kconfig.fragment
. "$REPO/tools/lib/ktap.sh"

names=("Kconfig.fragment merges onto Debian's 5.10 amd64 config"
	"Debian's certificate settings are blanked for a local build"
	"a fragment option that cannot be set is refused by name")

ktap_plan ${#names[@]}

rm -rf "$work"
mkdir -p "$work"

# Without the tree, the fragment or Debian's config nothing can be checked: a failure
why=
if [ ! -f "$KSRC/scripts/kconfig/merge_config.sh" ]; then
	why="no kernel tree in $KSRC (make tree)"
elif [ ! -f "$frag" ]; then
	why="no $frag"
elif ! deb=$("$REPO/tools/fetch-base.sh" config 2>"$work/fetch.log"); then
	why="could not fetch Debian's linux-config-5.10: $(tail -2 "$work/fetch.log" | tr '\n' '|')"
fi
[ -z "$why" ] || ktap_stop "$why" 1

n=$(grep -cE '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$frag")
"$REPO/tools/debconfig.sh" "$KSRC" "$work/debian" "$deb" "$frag" >"$work/debian.log" 2>&1
ktap_rc "${names[0]}" $? "$(grep -E 'debconfig: ' "$work/debian.log" | tr '\n' '|')" "$n options"

# A config as an installed Debian kernel has it, with Debian's certificate paths.
base=$work/debian/base.config
if [ -f "$base" ]; then
	{
		grep -vE '^(# )?CONFIG_(SYSTEM_TRUSTED_KEYS|MODULE_SIG_KEY|SYSTEM_REVOCATION_LIST|SYSTEM_REVOCATION_KEYS)[= ]' "$base"
		echo 'CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"'
		echo 'CONFIG_MODULE_SIG_KEY="debian/certs/signing_key.pem"'
		echo 'CONFIG_SYSTEM_REVOCATION_LIST=y'
		echo 'CONFIG_SYSTEM_REVOCATION_KEYS="debian/certs/revoked.pem"'
	} >"$work/boot-config"
	if "$REPO/tools/debconfig.sh" "$KSRC" "$work/boot" "$work/boot-config" "$frag" \
		>"$work/boot.log" 2>&1; then
		left=$(grep -E '^CONFIG_(SYSTEM_TRUSTED_KEYS|SYSTEM_REVOCATION_KEYS|MODULE_SIG_KEY)=' \
			"$work/boot/.config" | grep debian/ | tr '\n' ' ')
		ktap_check "${names[1]}" "still set: $left" [ -z "$left" ]
	else
		ktap_fail "${names[1]}" "$(grep -E 'debconfig: ' "$work/boot.log" | tr '\n' '|')"
	fi
else
	ktap_fail "${names[1]}" "no base config extracted (see the first check)"
fi

{
	cat "$frag"
	echo 'CONFIG_HWKIT_NO_SUCH_OPTION=y'
} >"$work/bad.fragment"
if "$REPO/tools/debconfig.sh" "$KSRC" "$work/bad" "$deb" "$work/bad.fragment" \
	>"$work/bad.log" 2>&1; then
	ktap_fail "${names[2]}" "debconfig.sh accepted CONFIG_HWKIT_NO_SUCH_OPTION=y"
elif grep -q "wanted 'CONFIG_HWKIT_NO_SUCH_OPTION=y'" "$work/bad.log"; then
	ktap_ok "${names[2]}"
else
	ktap_fail "${names[2]}" "$(tail -3 "$work/bad.log" | tr '\n' '|')"
fi

rm -rf "$work/debian/"*.o "$work/bad" "$work/boot/scripts" 2>/dev/null
[ "$KTAP_FAILED" = 0 ]
