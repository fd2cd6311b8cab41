#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series adds no kernel-doc warning: for every C file and header a
# patch touches, scripts/kernel-doc -none -Wall warns about nothing in the
# tree (build/linux, the series applied) that it did not warn about in
# the file before the series (git tag "base"), line numbers aside. This
# is what a W=1 build checks, without building. TAP output.
set -u
here=$(dirname "$(realpath "$0")")
patches=$(dirname "$here")
ksrc=$(realpath "${KSRC:?KSRC: the kernel tree}")
[ -x "$ksrc/scripts/kernel-doc" ] || { echo "Bail out! no $ksrc/scripts/kernel-doc"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t series < <(grep -v '^[[:space:]]*\(#\|$\)' "$patches/series")
mapfile -t files < <(cd "$patches" && sed -n 's|^+++ b/\(.*\.[ch]\)$|\1|p' "${series[@]}" |
	LC_ALL=C sort -u)

# warnings FILE: kernel-doc's warnings about the text on stdin, as FILE,
# without line numbers
warnings() {
	mkdir -p "$tmp/$(dirname "$1")"
	cat > "$tmp/$1"
	(cd "$tmp" && "$ksrc/scripts/kernel-doc" -none -Wall "$1" 2>&1) |
		sed 's/^\([^:]*\):[0-9]*:/\1:/' | LC_ALL=C sort
}

echo "TAP version 13"
echo "1..${#files[@]}"
n=0
for f in "${files[@]}"; do
	n=$((n + 1))
	git -C "$ksrc" show "base:$f" 2>/dev/null | warnings "$f" > "$tmp/before"
	warnings "$f" < "$ksrc/$f" > "$tmp/after"
	new=$(LC_ALL=C comm -13 "$tmp/before" "$tmp/after")
	if [ -z "$new" ]; then
		echo "ok $n kernel-doc $f"
	else
		printf '%s\n' "$new" | sed 's/^/# /'
		echo "not ok $n kernel-doc $f"
	fi
done
