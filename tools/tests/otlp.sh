#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg report --otlp of a recorded trace.dat (data/kmsg-v6.dat) against
# kmsg report --json of the same file: every message an OTLP/JSON
# ExportLogsServiceRequest, mapped as kmsg(1) says (otlp-fields.py), with
# and without a boot time, with -x; the checker itself must reject a
# changed severity.  TAP output.  TOOLS, DOCS_DB as the Makefile sets.
set -u
here=$(dirname "$(realpath "$0")")
dat=$here/data/kmsg-v6.dat
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:?} db=${DOCS_DB:?}
export TRACEEVENT_PLUGIN_DIR=$tools

kmsg() { "$tools/kmsg" report --db "$db" "$@"; }

kmsg --json "$dat" > "$tmp/j" 2> "$tmp/j.err"
kmsg --otlp "$dat" > "$tmp/o" 2> "$tmp/o.err"
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/o.err" ] && [ -s "$tmp/o" ]
rc=$?
diag "$tmp/o.err"
ok $rc "kmsg report --otlp: exit status 0, $(wc -l < "$tmp/o") requests"
"$here/otlp-fields.py" "$tmp/j" "$tmp/o" > "$tmp/check" 2>&1
rc=$?
diag "$tmp/check"
ok $rc "each request one LogRecord, as --json has the message, no timeUnixNano without a boot time"

kmsg --json -x "$dat" > "$tmp/jx" 2>&1
kmsg --otlp -x --boot-time 1700000000.25 "$dat" > "$tmp/ox" 2>&1
"$here/otlp-fields.py" "$tmp/jx" "$tmp/ox" 1700000000250000000 > "$tmp/check" 2>&1 &&
	grep -q '"key":"kmsg.description"' "$tmp/ox"
rc=$?
diag "$tmp/check"
ok $rc "with -x and --boot-time: description, user response, timeUnixNano = boot time + timestamp"

# the checker fails on a wrong mapping: info (9) given as INFO2 (10)
sed '0,/"severityNumber":9,/s//"severityNumber":10,/' "$tmp/o" > "$tmp/o2"
! cmp -s "$tmp/o" "$tmp/o2" &&
	! "$here/otlp-fields.py" "$tmp/j" "$tmp/o2" > "$tmp/check" 2>&1 &&
	grep -q "severityNumber 10, want 9" "$tmp/check"
rc=$?
diag "$tmp/check"
ok $rc "otlp-fields.py rejects an info message given severityNumber 10"

kmsg --otlp --json "$dat" > "$tmp/both" 2>&1
[ $? != 0 ] && grep -q "exclude each other" "$tmp/both"
rc=$?
diag "$tmp/both"
ok $rc "--otlp with --json: refused"
tap_end
