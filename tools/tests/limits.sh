#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Limits of the tools on inputs people feed them: kmsg dmesg on lines of
# 1 MiB keeps its memory bounded and every line; "kmsg report | head"
# ends quietly, as dmesg does; control characters of the input reach a
# terminal escaped.  TAP output.  TOOLS: the tools' build directory.
set -u
data=$(dirname "$(realpath "$0")")/data
tmp=$(mktemp -d)
. "$(dirname "$(realpath "$0")")/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:?}
export TRACEEVENT_PLUGIN_DIR=$tools

# two lines of 1 MiB, each followed by a short one
python3 -c '
import sys
for i in range(2):
    sys.stdout.write("<6>[    1.%06d] " % i + "x" * 1048576 + "\n")
    sys.stdout.write("<6>[    2.%06d] short line %d\n" % (i, i))
' > "$tmp/long.txt"
/usr/bin/time -o "$tmp/time" -f %M "$tools/kmsg" dmesg --json "$tmp/long.txt" \
	> "$tmp/long.out" 2> "$tmp/long.err"
rc=$?
kb=$(tail -n 1 "$tmp/time")
[ $rc = 0 ] || diag "$tmp/long.err"
ok $rc "kmsg dmesg --json on lines of 1 MiB: exit status $rc"
[ "$(wc -l < "$tmp/long.out")" = 4 ] &&
	[ "$(awk 'index($0, "\"text\":\"xxx") && length($0) > 1048576' \
		"$tmp/long.out" | wc -l)" = 2 ]
ok $? "every line, the long ones whole"
[ "$kb" -lt 65536 ]
ok $? "its memory stays bounded: $kb KiB at most (limit 64 MiB)"

# ... | head: SIGPIPE ends it, with nothing on stderr (the trace.dat is
# small: report may be done before head closes the pipe)
set -o pipefail
"$tools/kmsg" report "$data/kmsg-v6.dat" 2> "$tmp/head.err" | head -n 1 > /dev/null
rc=$?
[ $rc = 0 ] || [ $rc = 141 ]
ok $? "kmsg report | head -n 1: ends by SIGPIPE or at the end (status $rc)"
[ -s "$tmp/head.err" ] && diag "$tmp/head.err"
[ ! -s "$tmp/head.err" ]
ok $? "kmsg report | head -n 1: nothing on stderr"
awk 'BEGIN { for (i = 0; i < 200000; i++)
	printf "<6>[%5d.%06d] line %d of a long log\n", i / 1000, i % 1000, i }' \
	> "$tmp/many.txt"
"$tools/kmsg" dmesg "$tmp/many.txt" 2> "$tmp/head.err" | head -n 1 > /dev/null
rc=$?
# but the line saying which database it uses, when it finds one
grep -v '^kmsg: using database for ' "$tmp/head.err" > "$tmp/head.err2"
[ -s "$tmp/head.err2" ] && diag "$tmp/head.err"
[ $rc = 141 ] && [ ! -s "$tmp/head.err2" ]
ok $? "kmsg dmesg of 200000 lines | head -n 1: SIGPIPE, nothing on stderr but the database used (status $rc)"
set +o pipefail

# an escape sequence in the log, shown on a terminal (script(1)'s pty)
printf '<6>[    1.000000] evil \033]0;title\007 and \033[2J here\n' > "$tmp/esc.txt"
script -qec "'$tools/kmsg' dmesg '$tmp/esc.txt'" /dev/null > "$tmp/esc.out" 2>&1
rc=$?
[ $rc = 0 ] || diag "$tmp/esc.out"
ok $rc "kmsg dmesg on a terminal: exit status $rc"
! grep -q $'\033\\]\\|\033\\[2J' "$tmp/esc.out" && grep -q 'evil' "$tmp/esc.out"
rc=$?
[ $rc = 0 ] || diag "$tmp/esc.out"
ok $rc "the input's escape sequences reach the terminal escaped"

tap_end
