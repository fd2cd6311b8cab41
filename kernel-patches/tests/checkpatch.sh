#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every patch of the series passes scripts/checkpatch.pl --strict with no
# error and no warning, except those listed in checkpatch.allow (one
# "<patch file> <TYPE>" per line), each of which its commit message
# justifies. TAP output.
set -u
here=$(dirname "$(realpath "$0")")
patches=$(dirname "$here")
ksrc=${KSRC:?KSRC: the kernel tree}
mapfile -t series < <(grep -v '^[[:space:]]*\(#\|$\)' "$patches/series")
echo "TAP version 13"
echo "1..${#series[@]}"
n=0
for p in "${series[@]}"; do
	n=$((n + 1))
	out=$("$ksrc/scripts/checkpatch.pl" --strict --no-tree --show-types -q \
		"$patches/$p" 2>&1)
	bad=$(printf '%s\n' "$out" | sed -n 's/^\(ERROR\|WARNING\):\([A-Z_]*\):.*/\1 \2/p' |
		while read -r kind type; do
			grep -qx "$p $type" "$here/checkpatch.allow" 2>/dev/null ||
				echo "$kind:$type"
		done)
	if [ -z "$bad" ]; then
		echo "ok $n checkpatch --strict $p"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok $n checkpatch --strict $p: $(echo $bad)"
	fi
done
