#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh TOOLS TRACE.DAT
#
# Time, on one trace.dat, "kmsg report" (text and JSON) against
# "trace-cmd report" with plugin_kmsg.so, all pinned to one core, output
# to /dev/null; best of 3 runs each. Prints seconds, events/s and the
# ratio to trace-cmd report. Then the matcher of kmsg dmesg (bench_match).
set -eu
tools=$1 dat=$2
export TRACEEVENT_PLUGIN_DIR=$tools
events=$("$tools/kmsg" report --json "$dat" | wc -l)

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
best() {	# best of 3 wall-clock seconds of "$@"
	local i t best=
	for i in 1 2 3; do
		/usr/bin/time -o "$tmp" -f %e taskset -c 0 "$@" >/dev/null 2>&1
		t=$(tail -n 1 "$tmp")
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
			best=$t
		fi
	done
	echo "$best"
}

tc=$(best trace-cmd report "$dat")
kt=$(best "$tools/kmsg" report --color=never "$dat")
kj=$(best "$tools/kmsg" report --json "$dat")
echo "On the host, one core, $events kmsg events in $(du -h "$dat" | cut -f1) of trace.dat, best of 3:"
awk -v n="$events" -v tc="$tc" -v kt="$kt" -v kj="$kj" 'BEGIN {
	printf "  %-34s %8s %12s %9s\n", "decoder", "seconds", "events/s", "speedup"
	printf "  %-34s %8.2f %12.0f %8.2fx\n", "trace-cmd report (plugin_kmsg.so)", tc, n / tc, 1
	printf "  %-34s %8.2f %12.0f %8.2fx\n", "kmsg report", kt, n / kt, tc / kt
	printf "  %-34s %8.2f %12.0f %8.2fx\n", "kmsg report --json", kj, n / kj, tc / kj
}'

# kmsg dmesg's matcher: plain log lines identified among 2 * 10^4
# formats, with its index and by a loop over every pattern (informational;
# the target is at least 10^5 lines/s against at least 10^4 formats)
echo "Identifying plain log text (kmsg dmesg), on one core:"
taskset -c 0 "$tools/bench_match" 20000 | sed 's/^/  /'
