#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's vmlinux, built with the kmsg:kmsg event: no format of its
# printk index is shared by entries of different KBUILD_MODNAME (the
# event's option builds vmlinux with -fno-merge-constants, so that equal
# literals of different modules are not merged and each message keeps
# its module's name). TAP output. KOBJ as the Makefile sets.
set -u
here=$(dirname "$(realpath "$0")")
vmlinux=${KOBJ:?KOBJ: the kernel build directory}/vmlinux

echo "TAP version 13"
echo "1..2"
if ! out=$(python3 "$here/pi_shared.py" "$vmlinux" 10 2>&1); then
	echo "$out" | sed 's/^/# /'
	echo "Bail out! cannot read the printk index of $vmlinux"
	exit 1
fi
read -r entries named formats shared <<< "$(head -n 1 <<< "$out")"
# the reader found the index: thousands of entries, nearly all named
if [ "$entries" -gt 1000 ] && [ "$named" -gt $((entries * 9 / 10)) ]; then
	s=ok
else
	s="not ok"
fi
echo "$s 1 vmlinux's printk index read: $entries entries, $named with a KBUILD_MODNAME, $formats formats"
if [ "$shared" = 0 ]; then
	echo "ok 2 no format of vmlinux is shared by entries of different KBUILD_MODNAME"
else
	tail -n +2 <<< "$out" | sed 's/^/# /'
	echo "not ok 2 no format of vmlinux is shared by entries of different KBUILD_MODNAME: $shared are"
fi
