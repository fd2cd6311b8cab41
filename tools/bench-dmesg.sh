#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-dmesg.sh TOOLS DB LOG...
#
# Time "kmsg dmesg --json" against database DB on real log text: the
# LOGs one after the other, repeated to at least MIN_LINES (50000)
# lines, pinned to one core (taskset -c 0), output to /dev/null, best of
# 3 runs each. Prints:
#
#   - start-up: the same command on an empty log, without a snapshot
#     (KMSG_CACHE_DIR="": DB's sites read and the matcher's index built)
#     and with one (the snapshot the first run writes, mapped); the runs
#     on the log use the snapshot;
#   - lines/s past start-up: lines / (time of the log - time of the
#     empty log), and of the whole run; in wall-clock seconds and in CPU
#     seconds (user + system, in 10 ms steps: what a busy machine does
#     not inflate);
#   - peak RSS of the run on the log (/usr/bin/time %M, the most of 3);
#   - the same log through cat, measured in the same run: reading and
#     writing the text with no work at all, the floor of any tool;
#   - DB's size, and how long make distro-db took to build it (DB.time,
#     written by tools/distro-db.sh).
#
# The targets (issues 26, 37): at least 10^5 lines/s on one core at
# ~10^5 sites, a start-up of at most 0.1 s. Informational: exits 0 whatever the figures, 1 if a command
# fails.
set -eu
tools=$1 db=$2
shift 2
[ $# -gt 0 ] || { echo "usage: $0 TOOLS DB LOG..." >&2; exit 2; }
[ -s "$db" ] || { echo "bench-dmesg: no database $db" >&2; exit 1; }
for f in "$@"; do
	[ -s "$f" ] || { echo "bench-dmesg: no log $f" >&2; exit 1; }
done
min=${MIN_LINES:-50000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/empty"
: > "$tmp/log"
until [ "$(wc -l < "$tmp/log")" -ge "$min" ]; do
	cat "$@" >> "$tmp/log"
done
lines=$(wc -l < "$tmp/log")

# best of 3 of "$@": "wall cpu rss" (seconds, seconds, KiB): the least
# wall and CPU time, the most RSS
best() {
	local i t0 t1 w u s c r bw= bc= br=
	for i in 1 2 3; do
		t0=$EPOCHREALTIME
		/usr/bin/time -o "$tmp/time" -f "%U %S %M" \
			taskset -c 0 "$@" > /dev/null 2> "$tmp/err" ||
			{ cat "$tmp/err" "$tmp/time" >&2; exit 1; }
		t1=$EPOCHREALTIME
		read -r u s r < <(tail -n 1 "$tmp/time")
		w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		if [ -z "$bw" ] || awk "BEGIN { exit !($w < $bw) }"; then bw=$w; fi
		if [ -z "$bc" ] || awk "BEGIN { exit !($c < $bc) }"; then bc=$c; fi
		if [ -z "$br" ] || [ "$r" -gt "$br" ]; then br=$r; fi
	done
	echo "$bw $bc $br"
}

kmsg=$tools/kmsg
sites=$(sqlite3 "$db" "SELECT count(*) FROM messages" 2>/dev/null || echo "?")
load0=$(cut -d' ' -f1 /proc/loadavg)
# without a snapshot: the database's sites read and the matcher built
export KMSG_CACHE_DIR=
read -r nw nc _ < <(best "$kmsg" dmesg --json --db "$db" "$tmp/empty")
# with one: the first run writes it, the others map it
export KMSG_CACHE_DIR=$tmp/cache
"$kmsg" dmesg --json --db "$db" "$tmp/empty" > /dev/null 2>&1
read -r ew ec er < <(best "$kmsg" dmesg --json --db "$db" "$tmp/empty")
read -r lw lc lr < <(best "$kmsg" dmesg --json --db "$db" "$tmp/log")
read -r cw cc _ < <(best cat "$tmp/log")
load1=$(cut -d' ' -f1 /proc/loadavg)
echo "On the host, one core, kmsg dmesg --json with $db ($sites sites),"
echo "$lines lines ($* repeated), best of 3; load average $load0 before, $load1 after:"
awk -v n="$lines" -v nw="$nw" -v nc="$nc" -v ew="$ew" -v ec="$ec" -v er="$er" -v lw="$lw" \
	-v lc="$lc" -v lr="$lr" -v cw="$cw" -v cc="$cc" '
# a run too short to time: no rate
function rate(t) { return (t > 0.0005 ? sprintf("%.0f", n / t) : "-") }
BEGIN {
	printf "  %-30s %9s %9s %12s %12s\n", "", "wall s", "CPU s",
		"lines/s wall", "lines/s CPU"
	printf "  %-30s %9.3f %9.2f %12s %12s\n", "start-up, no snapshot", nw, nc, "", ""
	printf "  %-30s %9.3f %9.2f %12s %12s\n", "start-up, snapshot (empty log)", ew, ec, "", ""
	printf "  %-30s %9.3f %9.2f %12s %12s\n", "whole run", lw, lc,
		rate(lw), rate(lc)
	printf "  %-30s %9.3f %9.2f %12s %12s\n", "past start-up", lw - ew,
		lc - ec, rate(lw - ew), rate(lc - ec)
	printf "  %-30s %9.3f %9.2f %12s %12s\n", "cat (no work: the floor)", cw,
		cc, rate(cw), rate(cc)
	printf "  peak RSS %.1f MiB (empty log %.1f MiB); kmsg dmesg takes %.0fx the wall time of cat\n",
		lr / 1024, er / 1024, (cw > 0 ? lw / cw : 0)
	printf "  target: at least 100000 lines/s past start-up on one core, a start-up of at most 0.1 s\n"
}'
# the database itself: its size, and how long make distro-db took
timef=${db%.db}.time
printf "  database: %.1f MB" "$(awk -v b="$(stat -c %s "$db")" 'BEGIN { print b / 1e6 }')"
if [ -s "$timef" ]; then
	read -r total build < "$timef"
	printf "; make distro-db took %d min %d s, build-db %d min %d s of it" \
		$((total / 60)) $((total % 60)) $((build / 60)) $((build % 60))
fi
echo
