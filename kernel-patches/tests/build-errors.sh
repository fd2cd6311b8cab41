#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the files in build-errors/ as an external module against the
# built kernel: good.c must compile, each file in build-errors/expected
# must fail with its message. TAP output.
set -u
here=$(dirname "$(realpath "$0")")
kobj=${KOBJ:?KOBJ: the kernel build directory}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t cases < <(grep -v '^#' "$here/build-errors/expected")

# build FILE: compile one file as a module of its own; log in $tmp/FILE.log
build() {
	local dir=$tmp/${1%.c}
	mkdir -p "$dir"
	cp "$here/build-errors/$1" "$dir/"
	echo "obj-m += ${1%.c}.o" > "$dir/Kbuild"
	make -C "$kobj" M="$dir" modules >"$tmp/$1.log" 2>&1
}

echo "TAP version 13"
echo "1..$((${#cases[@]} + 2))"
if build good.c; then
	echo "ok 1 every kmsg macro builds when used as documented"
else
	tail -n 20 "$tmp/good.c.log" | sed 's/^/# /'
	echo "not ok 1 every kmsg macro builds when used as documented"
fi
# good.c has 18 function-like calls and 3 prefix-form ones (plain
# printk()s): 21 pointers of 8 bytes in .printk_index
size=$(objdump -h "$tmp/good/good.o" 2>/dev/null |
	awk '$2 == ".printk_index" { print $3 }')
[ -n "$size" ] && size=$((0x$size))
if [ "${size:-0}" = 168 ]; then
	echo "ok 2 .printk_index holds one entry per kmsg call"
else
	echo "not ok 2 .printk_index holds one entry per kmsg call: ${size:-no section}, want 168 bytes"
fi
n=2
for c in "${cases[@]}"; do
	n=$((n + 1))
	file=${c%%:*} msg=${c#*: }
	# the expected message must be the first error the compiler reports
	if ! build "$file" &&
	   grep -m1 'error:' "$tmp/$file.log" | grep -qF -- "$msg"; then
		echo "ok $n $file fails: $msg"
	else
		grep -E 'error' "$tmp/$file.log" | head -n 5 | sed 's/^/# /'
		echo "not ok $n $file must fail first with: $msg"
	fi
done
