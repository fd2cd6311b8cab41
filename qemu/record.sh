#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest, after the kselftests: record every kmsgtest message with
# trace-cmd, and save what the host-side tests compare it with, in a tar
# archive on the virtio disk /dev/vda:
#
#   kmsg.dat      trace-cmd record -e kmsg:kmsg of "echo all > fire", then
#                 of the test module kmsg_paths loaded and unloaded (its
#                 plain messages of every path to printk())
#   kmsg.txt      the /dev/kmsg records printed meanwhile
#   kallsyms      /proc/kallsyms, for %ps and %pS with module names
#   boot.dat      the boot's kmsg:kmsg events (instance kmsg_boot, stopped
#                 by /init before the tests), with boot-dmesg.txt and
#                 boot-kmsg.txt, the log then as dmesg and /dev/kmsg showed it
[ -b /dev/vda ] || { echo "record.sh: no /dev/vda"; exit 1; }
out=/tmp/record
mkdir -p "$out" && cd "$out" || exit 1
mods=/kselftest/kmsg/test_modules
[ -d /sys/module/kmsgtest ] || insmod $mods/kmsgtest.ko || exit 1
echo "kmsg-record: start" > /dev/kmsg
trace-cmd record -q -e kmsg:kmsg -o kmsg.dat \
	sh -c "echo all > /sys/kernel/debug/kmsgtest/fire &&
	       insmod $mods/kmsg_paths.ko && rmmod kmsg_paths" >/dev/null 2>&1 ||
	{ echo "record.sh: trace-cmd record failed"; exit 1; }
echo "kmsg-record: end" > /dev/kmsg
cat /dev/kmsg > kmsg.all &
pid=$!
sleep 1
kill "$pid"
sed -n '/;kmsg-record: start$/,/;kmsg-record: end$/p' kmsg.all > kmsg.txt
rm kmsg.all
cat /proc/kallsyms > kallsyms
boot=
if [ -s /tmp/boot/boot-dmesg.txt ] &&
   trace-cmd extract -B kmsg_boot -o boot.dat >/dev/null 2>&1; then
	# trace-cmd extract -B names its output boot.dat.kmsg_boot
	[ -f boot.dat ] || mv boot.dat.kmsg_boot boot.dat 2>/dev/null
	cp /tmp/boot/boot-dmesg.txt /tmp/boot/boot-kmsg.txt .
	boot="boot.dat boot-dmesg.txt boot-kmsg.txt"
else
	echo "record.sh: no boot events (instance kmsg_boot)"
fi
tar cf /dev/vda kmsg.dat kmsg.txt kallsyms $boot || exit 1
echo "record.sh: $(grep -c kmsgtest kmsg.txt) messages recorded"
