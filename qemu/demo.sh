#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run in the guest: load kmsgtest (the kselftests' test
# module that prints every kind of message), fire every message and show
# them as an administrator sees them, then the kmsg index.
say() { printf '\n=== %s\n' "$*"; }

say "Linux $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
say "insmod kmsgtest.ko; echo all > /sys/kernel/debug/kmsgtest/fire"
[ -d /sys/module/kmsgtest ] ||
	insmod /kselftest/kmsg/test_modules/kmsgtest.ko || exit 1
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

say "printk index: the kmsgtest messages, as compiled"
grep 'kmsgtest\.' /sys/kernel/debug/printk/index/kmsgtest | cut -c1-110

say "the kmsg:kmsg trace events, as tracefs shows them (instance kmsg-demo)"
grep -v '^#' "$inst/trace" | head -n 4 | cut -c1-150
echo 0 > "$inst/events/kmsg/kmsg/enable"
rmdir "$inst"

# wait until "kmsg live" with pid $1 records
recording() {
	until [ "$(cat /sys/kernel/tracing/instances/kmsg-live-$1/events/kmsg/kmsg/enable 2>/dev/null)" = 1 ]; do
		sleep 0.1
	done
}

# kmsg live in the background until it has COUNT messages; fire the rest
live() {	# live COUNT MESSAGES... -- ARGS
	count=$1
	shift
	msgs=
	while [ "$1" != "--" ]; do msgs="$msgs $1"; shift; done
	shift
	kmsg live --color=never --component kmsgtest --count "$count" "$@" > /tmp/live.out &
	pid=$!
	recording $pid
	for m in $msgs; do echo "$m" > /sys/kernel/debug/kmsgtest/fire; done
	wait $pid
	cut -c1-150 /tmp/live.out
}

say "kmsg live: the messages rebuilt from the events' raw arguments"
live 4 2 7 9 20 --

say "kmsg live --json"
live 1 21 -- --json

say "kmsg live --otlp: OpenTelemetry, an OTLP/JSON request a line (its LogRecord)"
live 1 21 -- --otlp > /dev/null
sed 's/.*"logRecords":\[{/{/; s/,"attributes":.*/,"attributes":[...]}/' /tmp/live.out

say "kmsg live -x: with their documentation"
live 2 2 21 -- -x

say "kmsg live --lang ja: translated from the same raw arguments"
live 4 1 2 20 21 -- --lang ja

say "kmsg explain kmsgtest.2 (like the original proposal's man kmsgtest.2)"
kmsg explain kmsgtest.2

say "kmsg explain kmsgbench.1 (documented in docs-db/, not in the source)"
kmsg explain kmsgbench.1

say "kmsg search paths online"
kmsg search paths online

say "kmsg dmesg -x (the end of the kernel log, explained)"
kmsg dmesg -x | tail -n 6 | cut -c1-150

# --- real kernel messages, their text unchanged ---------------------------

say "Real kernel messages of this boot, as dmesg has them (text unchanged)"
dmesg | grep -E '\] (clocksource: Switched|smp: Brought up)' | cut -c1-120

say "The same messages as kmsg:kmsg events (the boot ran with trace_event=kmsg:kmsg)"
grep -E ' modname=(smp|clocksource) .*(Switched|Brought up)' /sys/kernel/tracing/trace |
	sed 's/^ *[^ ]* *\[[0-9]*\] [^ ]* *[0-9.]*: //' | cut -c1-150
echo 0 > /sys/kernel/tracing/events/kmsg/kmsg/enable

say "kmsg explain smp.2: the curated name of smp's automatic id, in docs-db"
kmsg explain smp.2 | head -n 8

say "An OOM kill in a memory cgroup (memory.max 16M), seen by kmsg live --json"
cg=/sys/fs/cgroup
[ -f $cg/cgroup.controllers ] || mount -t cgroup2 cgroup2 $cg
echo +memory > $cg/cgroup.subtree_control
mkdir -p $cg/demo && echo 16M > $cg/demo/memory.max
kmsg live --json --color=never --id oom.9 --count 1 > /tmp/oom.json &
pid=$!
kmsg live --lang ja --color=never --id oom.9 --count 1 > /tmp/oom.ja &
pid_ja=$!
recording $pid
recording $pid_ja
# tail keeps the endless first "line" of /dev/zero in memory
sh -c "echo \$\$ > $cg/demo/cgroup.procs; exec tail /dev/zero" 2>/dev/null
wait $pid $pid_ja
rmdir $cg/demo
dmesg | grep -E 'oom-kill:constraint|Killed process' | cut -c1-150
echo
sed 's/,"args"/,\n  "args"/; s/,"text"/,\n  "text"/' /tmp/oom.json
echo
echo "kmsg live --lang ja, from the same raw arguments:"
cut -c1-150 /tmp/oom.ja

say "kmsg explain oom.9"
kmsg explain oom.9

say "kmsg explain clocksource.11 (\"and you wonder if your system is going to explode\")"
kmsg explain clocksource.11
