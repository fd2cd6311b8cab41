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
[ -b /dev/vda ] || { echo "record.sh: no /dev/vda"; exit 1; }
out=/tmp/record
mkdir -p "$out" && cd "$out" || exit 1
modprobe kmsgtest || exit 1
echo "kmsg-record: start" > /dev/kmsg
mods=/kselftest/kmsg/test_modules
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
tar cf /dev/vda kmsg.dat kmsg.txt kallsyms || exit 1
echo "record.sh: $(grep -c kmsgtest kmsg.txt) messages recorded"
