#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A message storm while "kmsg live" reads through a ring buffer far too
# small for it: kmsgtest.16 printed ROUNDS * 500 times on every CPU at
# once, in the hard interrupt of on_each_cpu(), with one from NMI context
# every 50 rounds (x86), between two markers printed from a task. Then:
# kmsg live neither crashed nor hung, the messages it lost are counted
# exactly (produced minus decoded) both by the printk sequence numbers of
# the events and by the ring buffer, and it said so as it went. The
# independent check of the loss is the ring buffer's count against the
# sequence numbers (test 6); test 5 redoes kmsg's own arithmetic.
#
# The storm is printed at info, which the console level set here (5:
# warnings and above) keeps off the console, so that every report and
# every warning still reaches it. The storm is bracketed on the console
# by "ktap-summary: quiet begin/end": ktap-summary.sh fails the run on
# any console line in between, and test 3 on any record of level warning
# or above in the window that kmsg live decoded and is not the storm's.
#
# KMSG_STORM_INJECT=TYPE (from the kernel command line) makes LKDTM
# provoke a TYPE (WARNING, ...) halfway through the storm: make check
# proves with it that a report inside the storm turns the run red.
#
# 10^6 messages on two CPUs (ROUNDS 1000); 10^5 on a kernel with KFENCE,
# the debug kernel of make check, whose KASAN makes each message slower.
# Needs kmsg in PATH.
KMSG=${KMSG:-kmsg}
DBG=/sys/kernel/debug/kmsgtest
INST=/sys/kernel/tracing/instances
PER_ROUND=500
tmp=$(mktemp -d)
# shellcheck source=kmsg_tap.sh
. "$(dirname "$0")/kmsg_tap.sh"
# shellcheck source=kmsg_quiet.sh
. "$(dirname "$0")/kmsg_quiet.sh"

# wait up to 30 s for a line of FILE to match PATTERN
wait_for() {	# wait_for FILE PATTERN
	i=0
	until grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 300 ] && return 1
		sleep 0.1
	done
}

# the "seq" of the JSON object of the first line of FILE matching PATTERN
seq_of() {	# seq_of FILE PATTERN
	grep "$2" "$1" | head -n 1 | sed -n 's/.*"seq":\([0-9]*\).*/\1/p'
}

load_kmsgtest || { echo "Bail out! no kmsgtest module"; exit 1; }
ROUNDS=${ROUNDS:-$KMSG_STORM_ROUNDS}
if [ -z "$ROUNDS" ]; then
	ROUNDS=1000
	[ -d /sys/kernel/debug/kfence ] && ROUNDS=100
fi
if [ -n "$KMSG_STORM_INJECT" ]; then
	modprobe lkdtm && [ -w /sys/kernel/debug/provoke-crash/DIRECT ] ||
		{ echo "Bail out! KMSG_STORM_INJECT needs LKDTM"; exit 1; }
fi
cpus=$(grep -c '^processor' /proc/cpuinfo)
echo "1..7"
echo "# $ROUNDS rounds of $PER_ROUND messages on each of $cpus CPUs"

# the console would take minutes to print the storm under TCG: it stays
# at info, the console shows warnings and above; killed by the runner's
# timeout: no kmsg live, instance or quiet console left
pid=
# shellcheck disable=SC2016 # evaluated at the exit
quiet_console '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"'

"$KMSG" live --json --buffer-kb 8 > "$tmp/out" 2> "$tmp/err" &
pid=$!
i=0
until [ "$(cat $INST/kmsg-live-$pid/events/kmsg/kmsg/enable 2>/dev/null)" = 1 ]; do
	i=$((i + 1))
	[ $i -gt 100 ] && break
	sleep 0.1
done

# the quiet window holds the window of the markers, both printed at info
quiet_begin kmsg_storm.sh
echo 1 > $DBG/fire
wait_for "$tmp/out" '"id":"kmsgtest.1"' ||
	{ echo "Bail out! kmsg live did not show the first marker"; exit 1; }
nmi=0
i=0
while [ $i -lt "$ROUNDS" ]; do
	[ -n "$KMSG_STORM_INJECT" ] && [ $i = $((ROUNDS / 2)) ] &&
		echo "$KMSG_STORM_INJECT" > /sys/kernel/debug/provoke-crash/DIRECT
	echo $PER_ROUND > $DBG/fire_cpus || break
	if [ $((i % 50)) = 0 ] && [ -e $DBG/fire_nmi ] &&
	   echo 16 > $DBG/fire_nmi; then
		nmi=$((nmi + 1))
	fi
	i=$((i + 1))
done
produced=$((i * PER_ROUND * cpus + nmi))
echo 8 > $DBG/fire
wait_for "$tmp/out" '"id":"kmsgtest.8"' ||
	echo "# kmsg live did not show the second marker within 30 s"
quiet_end
# what kmsg live said of its loss before it was told to stop
while_running=$(grep -c 'EVENTS DROPPED' "$tmp/err")
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 300 ] && { kill -KILL $pid; break; }
	sleep 0.1
done
wait $pid
rc=$?

[ $rc = 0 ] && [ $i -le 300 ]
ok $? "kmsg live: through the storm and out on SIGINT (status $rc)"
[ "$produced" -ge $((ROUNDS * PER_ROUND * cpus)) ]
ok $? "$produced messages produced, $nmi of them in NMI context"

# The window: from the first marker to the second, by sequence number.
# The kernel may print messages of its own during the storm: they are
# records of the window too, decoded or lost like the others; those
# decoded are listed, and one at warning or above fails (the console,
# which loses none, shows them all to ktap-summary.sh).
first=$(seq_of "$tmp/out" '"id":"kmsgtest.1"')
last=$(seq_of "$tmp/out" '"id":"kmsgtest.8"')
in_window() {
	sed -n 's/.*"seq":\([0-9]*\).*/\1/p' |
		awk -v a="$first" -v b="$last" '$1 >= a && $1 <= b'
}
decoded=$(in_window < "$tmp/out" | sort -u | wc -l)
span=$((last - first + 1))
others=$((span - produced - 2))
echo "# markers at seq $first and $last: $span records, $decoded decoded"
grep -v '"id":"kmsgtest.1[6]*"\|"id":"kmsgtest.8"' "$tmp/out" |
	sed -n 's/.*"seq":\([0-9]*\).*/\1 &/p' |
	awk -v a="$first" -v b="$last" '$1 >= a && $1 <= b { sub(/^[0-9]* /, ""); print }' \
	> "$tmp/others"
sed 's/^/# other: /' "$tmp/others"
# warning or above, but the emulator's own lines that ktap-summary.sh
# excuses too (qemu/console.allow, in the guest's /usr/share/kmsg-tests)
grep -v '^[[:space:]]*\(#\|$\)' \
	"${KMSG_CONSOLE_ALLOW:-/usr/share/kmsg-tests/console.allow}" \
	> "$tmp/allow" 2>/dev/null
loud=$(grep '"level":[0-4],' "$tmp/others" |
	sed -n 's/.*,"text":"\(.*\)","truncated".*/\1/p' |
	grep -cvE -f "$tmp/allow")
[ -n "$first" ] && [ -n "$last" ] && [ $others -ge 0 ] && [ $others -le 20 ] &&
	[ "$loud" = 0 ]
ok $? "the window holds the markers, the storm and $others other kernel records, $loud of them at warning or above"

# kmsg: R messages lost (the ring buffer's count); by sequence number, D
# of the K records from seq A to B decoded, M missing
line=$(grep 'messages lost' "$tmp/err")
echo "# $line"
ring=$(echo "$line" | sed -n 's/^kmsg: \([0-9]*\) messages lost (the ring.*/\1/p')
missing=$(echo "$line" | sed -n 's/.* decoded, \([0-9]*\) missing$/\1/p')
[ -n "$ring" ] && [ "$ring" -gt 0 ]
ok $? "messages were lost (the buffer is 8 KiB a CPU)"
[ -n "$missing" ] && [ "$missing" = $((span - decoded)) ]
ok $? "lost by sequence numbers ($missing) = produced ($span) - decoded ($decoded)"
[ -n "$ring" ] && [ "$ring" = "$missing" ]
ok $? "lost by the ring buffer ($ring) = lost by sequence numbers"
# as it went: "CPU:C [N EVENTS DROPPED]" after each pass that lost some,
# while it ran (the last ones come at exit), each with its count
went=$(sed -n 's/^CPU:[0-9]* \[\([0-9]*\) EVENTS DROPPED\]$/\1/p' "$tmp/err" |
       awk '{ s += $1 } END { print s + 0 }')
reports=$(grep -c 'EVENTS DROPPED' "$tmp/err")
[ "$while_running" -gt 0 ] && [ "$went" = "$ring" ] &&
	! grep -q '^CPU:[0-9]* \[EVENTS DROPPED\]$' "$tmp/err"
ok $? "kmsg live counted the loss as it went: $while_running reports before SIGINT, $reports in all, $went lost"

if [ $failed != 0 ]; then
	dmesg | grep -v 'kmsgtest.16: ' | tail -n 10 | sed 's/^/# dmesg: /'
	sed 's/^/# err: /' "$tmp/err" | head -n 5
fi
exit $failed
