#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kconfig.sh SRC OBJ FRAGMENT [MAKEARGS...]
#
# Write OBJ/.config: "make tinyconfig", FRAGMENT merged on top, then
# olddefconfig. Every option FRAGMENT sets must survive, as its last
# assignment sets it (a typo or an unmet dependency would otherwise
# silently drop it); the ones that did not are listed and the script
# fails.
set -euo pipefail
src=$1 obj=$2 frag=$3
shift 3
mkdir -p "$obj"
make -s -C "$src" O="$obj" "$@" tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
make -s -C "$src" O="$obj" "$@" olddefconfig >/dev/null
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" "$obj/.config" && { echo "kconfig: $opt is set, fragment wants it off" >&2; bad=1; } ;;
	CONFIG_*=*) grep -qxF "$line" "$obj/.config" || { echo "kconfig: $line did not take effect (dependency missing?)" >&2; bad=1; } ;;
	esac
# the last assignment of an option is the one merge_config.sh keeps (the
# debug fragment overrides the guest's)
done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag" | tac | awk -F= '!seen[$1]++')
exit $bad
