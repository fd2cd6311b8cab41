#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every patch of the series passes scripts/checkpatch.pl --strict with no
# error, no warning and no check, except those listed in checkpatch.allow
# (one "<patch file> <TYPE> <how many>" per line), each explained there;
# the patch must have exactly that many, so that neither a new finding of
# a listed type nor a needless exception passes. Then the test itself: a patch with a known error, warning and
# check (checkpatch-bad.patch) must fail it. TAP output.
#
# checkpatch runs in the kernel tree, as a developer runs it, and reads
# the patch from its standard input: given a path inside a git work tree
# (this project's), it would check the file as source code, not as a
# patch, and find nothing.
set -u
here=$(dirname "$(realpath "$0")")
patches=$(dirname "$here")
ksrc=$(realpath "${KSRC:?KSRC: the kernel tree}")
mapfile -t series < <(grep -v '^[[:space:]]*\(#\|$\)' "$patches/series")
tmp=$(mktemp)
used=$(mktemp)
trap 'rm -f "$tmp" "$used"' EXIT
echo "TAP version 13"
echo "1..$((${#series[@]} + 2))"

# findings PATCH FILE: checkpatch's findings on FILE, "KIND:TYPE" a line
# (with how many there are, where checkpatch.allow lists fewer for PATCH);
# those it lists exactly go to $used; checkpatch's output in $tmp
findings() {
	local count kind type allowed
	(cd "$ksrc" && ./scripts/checkpatch.pl --strict --no-tree --show-types \
		-q - < "$2" > "$tmp" 2>&1)
	sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z_0-9]*\):.*/\1 \2/p' "$tmp" |
		LC_ALL=C sort | uniq -c |
		while read -r count kind type; do
			allowed=$(awk -v p="$1" -v t="$type" \
				'$1 == p && $2 == t { print $3 }' "$here/checkpatch.allow")
			if [ "$count" = "${allowed:-0}" ]; then
				echo "$1 $type $count" >> "$used"
			elif [ -n "$allowed" ]; then
				echo "$kind:$type($count, $allowed allowed)"
			else
				echo "$kind:$type"
			fi
		done
}

n=0
for p in "${series[@]}"; do
	n=$((n + 1))
	bad=$(findings "$p" "$patches/$p")
	if [ -z "$bad" ]; then
		echo "ok $n checkpatch --strict $p"
	else
		sed 's/^/# /' "$tmp"
		echo "not ok $n checkpatch --strict $p: $(echo $bad)"
	fi
done
n=$((n + 1))
unused=$(grep -v '^[[:space:]]*\(#\|$\)' "$here/checkpatch.allow" |
	grep -vxF -f "$used")
if [ -z "$unused" ]; then
	echo "ok $n every exception of checkpatch.allow is needed"
else
	echo "$unused" | sed 's/^/# not needed: /'
	echo "not ok $n every exception of checkpatch.allow is needed"
fi
n=$((n + 1))
bad=$(findings checkpatch-bad.patch "$here/checkpatch-bad.patch")
want="CHECK:SPACING ERROR:CODE_INDENT WARNING:FILE_PATH_CHANGES WARNING:LEADING_SPACE"
if [ "$(echo $bad)" = "$want" ]; then
	echo "ok $n checkpatch --strict finds an error, a warning and a check"
else
	sed 's/^/# /' "$tmp"
	echo "not ok $n checkpatch --strict on checkpatch-bad.patch: $(echo $bad), want $want"
fi
