#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run in the guest: load kmsgtest, fire every message and show
# them as an administrator sees them, then the kmsg index.
say() { printf '\n=== %s\n' "$*"; }

say "Linux $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
say "modprobe kmsgtest; echo all > /sys/kernel/debug/kmsgtest/fire"
modprobe kmsgtest || exit 1
inst=/sys/kernel/tracing/instances/kmsg-demo
mkdir "$inst" && echo 1 > "$inst/events/kmsg/kmsg/enable"
mark=$(dmesg | wc -l)
echo all > /sys/kernel/debug/kmsgtest/fire || exit 1

say "dmesg --level (the kmsgtest messages, with their levels)"
dmesg -r | tail -n +"$((mark + 1))" | grep 'kmsgtest\.' |
	sed -e 's/^<\([0-7]\)>\[[^]]*\] /\1 /' |
	while read -r lvl text; do
		case $lvl in
		0) name=emerg ;; 1) name=alert ;; 2) name=crit ;; 3) name=err ;;
		4) name=warn ;; 5) name=notice ;; 6) name=info ;; *) name=debug ;;
		esac
		printf '%-7s%.110s\n' "$name" "$text"
	done

say "/dev/kmsg records of the device messages, with their dictionary"
cat /dev/kmsg >/tmp/kmsg.all &
pid=$!
sleep 1
kill "$pid"
awk '/^[0-9]+,[0-9]+,[0-9]+,[^;]*;platform kmsgtest: kmsgtest\./ { p = 1; print; next }
     p && /^ / { print; next } { p = 0 }' /tmp/kmsg.all | cut -c1-110

say "/sys/kernel/debug/kmsg/index/kmsgtest"
cut -c1-110 /sys/kernel/debug/kmsg/index/kmsgtest

say "printk index: the same messages, with their prefix"
grep 'kmsgtest\.' /sys/kernel/debug/printk/index/kmsgtest | cut -c1-110

say "the kmsg:kmsg trace events (tracefs instance kmsg-demo)"
grep -v '^#' "$inst/trace" | cut -c1-150
cat /sys/kernel/tracing/events/kmsg/kmsg/format
echo 0 > "$inst/events/kmsg/kmsg/enable"
rmdir "$inst"
