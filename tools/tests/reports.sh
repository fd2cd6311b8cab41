#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg reports on syzkaller's report corpus (tools/tests/syzkaller/report/,
# its origin in ../README.md): every log, its header cut off, through one
# run of kmsg reports --json with the docs database of the build (its
# report classes from docs-db/catalog/report.kmsg), then
# reports_score.py compares each log's first report with syzkaller's
# TITLE and CORRUPTED: the class, the whole title, no report on the logs
# without a TITLE, the CORRUPTED logs flagged; each disagreement is a
# diagnostic. The thresholds are what kmsg reaches (docs/ci.md), rounded
# down: a change that loses any fails. Then the exit status (0 none, 1
# reports, 2 a file that cannot be read, named) and bytes no log has: a
# NUL, a line of 1 MB, a header cut at the end of the file. TAP output.
# TOOLS, DOCS_DB (make docs-db) from the Makefile.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:-$here/../../build/tools}
db=${DOCS_DB:-$here/../../build/docs-db/kmsg.db}
corpus=$here/syzkaller/report
[ -s "$db" ] || bail "no DOCS_DB (make docs-db builds it)"
[ -x "$tools/kmsg" ] || bail "no $tools/kmsg (make tools)"

# thresholds, in percent: what kmsg reached, rounded down
MIN_CLASS=${MIN_CLASS:-94}
MIN_TITLE=${MIN_TITLE:-86}
MIN_CORRUPTED=${MIN_CORRUPTED:-90}
# and the logs syzkaller does not mark CORRUPTED that kmsg flags, at most
MAX_FALSE_CORRUPTED=${MAX_FALSE_CORRUPTED:-4}

mkdir "$tmp/logs"
for f in "$corpus"/*; do
	awk 'f { print } !f && /^$/ { f = 1 }' "$f" > "$tmp/logs/${f##*/}"
done
"$tools/kmsg" reports --json --docs-db "$db" "$tmp/logs"/* > "$tmp/out.json" \
	2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/err" ]
ok $? "kmsg reports --json on $(ls "$tmp/logs" | wc -l) logs: status 1, no error"
[ $rc = 1 ] || diag "$tmp/err"

python3 "$here/reports_score.py" --min-class "$MIN_CLASS" \
	--min-title "$MIN_TITLE" --min-corrupted "$MIN_CORRUPTED" \
	--max-false-corrupted "$MAX_FALSE_CORRUPTED" \
	"$corpus" "$tmp/logs" "$tmp/out.json" > "$tmp/score"
# its results renumbered after this test's own
while IFS= read -r line; do
	case $line in
	'# '*) echo "$line" ;;
	'ok '*) ok 0 "${line#ok [0-9]* }" ;;
	'not ok '*) ok 1 "${line#not ok [0-9]* }" ;;
	esac
done < "$tmp/score"
grep -q '^1\.\.5$' "$tmp/score"
ok $? "reports_score.py: 5 results"
grep -q '^# false corrupted: [0-9]* of [0-9]* logs not marked CORRUPTED' "$tmp/score"
ok $? "reports_score.py: the logs not marked CORRUPTED that kmsg flags, counted"

# exit status: 0 without a report, 2 naming a file it cannot read
printf 'Linux version 6.12.0\nnothing wrong here\n' > "$tmp/quiet.log"
"$tools/kmsg" reports --docs-db "$db" "$tmp/quiet.log" > "$tmp/o" 2>&1
[ $? = 0 ] && [ ! -s "$tmp/o" ]
ok $? "a log without a report: status 0, no output"
"$tools/kmsg" reports --docs-db "$db" "$tmp/missing.log" > "$tmp/o" 2>&1
[ $? = 2 ] && grep -q "missing.log" "$tmp/o"
ok $? "a log that cannot be read: status 2, named"

# bytes no kernel prints: a NUL, a line of 1 MB, a report cut short
# by the end of the file, all of one run; never a crash
{
	printf '[    1.0] WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\n'
	printf '[    1.1] Call Trace:\n[    1.1]  bar+0x1/0x2\n\0\377\n'
	head -c 1048576 /dev/zero | tr '\0' 'A'
	printf '\n[    2.0] BUG: KASAN: use-after-free in baz+0x1/0x2\n[    2.0] Read of'
} > "$tmp/bad.log"
"$tools/kmsg" reports --json --docs-db "$db" "$tmp/bad.log" > "$tmp/o" 2>&1
rc=$?
[ $rc = 1 ] && python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert r[0]["title"] == "WARNING in bar", r
assert r[0]["corrupted"] is False, r
assert r[-1]["class"] == "report.2" and r[-1]["corrupted"] is True, r
' "$tmp/o"
ok $? "NUL, 1 MB line, a report cut at the end: status 1, the reports, the last corrupted"
[ $rc = 1 ] || diag "$tmp/o"
# a long log: 20 MB of WARNING reports, the first after a "cut here"
# line; each line is searched within itself only, so the run takes
# linear time (a search past a line's end made it quadratic: minutes)
python3 -c '
import sys
rep = """[    1.000000] WARNING: CPU: 0 PID: 1 at foo+0x1/0x2
[    1.000000] Modules linked in:
[    1.000000] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.0 #1
[    1.000000] Call Trace:
[    1.000000]  bar+0x1/0x2
[    1.000000] ---[ end trace 0000000000000000 ]---
"""
sys.stdout.write("[    1.000000] ------------[ cut here ]------------\n")
sys.stdout.write(rep * (20 * 1024 * 1024 // len(rep)))' > "$tmp/long.log"
nrep=$(grep -c ' WARNING: ' "$tmp/long.log")
timeout 60 "$tools/kmsg" reports --docs-db "$db" "$tmp/long.log" > "$tmp/o" 2>&1
rc=$?
[ $rc = 1 ] && [ "$(grep -c ': report\.1 WARNING in bar$' "$tmp/o")" = "$nrep" ] &&
	[ "$(wc -l < "$tmp/o")" = "$nrep" ] && head -n 1 "$tmp/o" | grep -q ':1-7: '
ok $? "20 MB of WARNING reports: each of the $nrep found, within a minute"
[ $rc = 1 ] || echo "# status $rc"

# PRINTK_CALLER: a report of each caller, the lines of the other's not
# merged into it, the reports in the order of their headers
{
	printf '[    1.0][    T1] WARNING: CPU: 1 PID: 2 at foo+0x1/0x2\n'
	printf '[    1.0][    T2] general protection fault, probably for non-canonical address 0xdffffc0000000000: 0000 [#1] PREEMPT SMP KASAN\n'
	printf '[    1.0][    T1] Call Trace:\n[    1.0][    T1]  qux+0x1/0x2\n'
	printf '[    1.0][    T2] RIP: 0010:bar+0x1/0x2\n'
	printf '[    1.0][    T2] Call Trace:\n[    1.0][    T2]  baz+0x1/0x2\n'
} > "$tmp/callers.log"
"$tools/kmsg" reports --docs-db "$db" "$tmp/callers.log" > "$tmp/o" 2>&1
[ $? = 1 ] && [ "$(cut -d: -f2- "$tmp/o")" = "$(printf '%s\n' \
	'1-4: report.1 WARNING in qux' '2-7: report.52 general protection fault in bar')" ]
rc=$?
ok $rc "interleaved callers T1 and T2: a report each"
[ $rc = 0 ] || diag "$tmp/o"

# memory: the lines of open reports kept, not a record of every line
# (10 MB of empty lines took 480 MB)
head -c 10000000 /dev/zero | tr '\0' '\n' > "$tmp/nl.log"
(ulimit -v 262144; "$tools/kmsg" reports --docs-db "$db" "$tmp/nl.log") > "$tmp/o" 2>&1
[ $? = 0 ] && [ ! -s "$tmp/o" ]
rc=$?
ok $rc "10 MB of empty lines in 256 MB of address space"
[ $rc = 0 ] || diag "$tmp/o"

# a header cut short by the end of the log, or by a NUL: flagged, not
# dropped
printf 'x\nKernel panic - not syn' > "$tmp/cut1.log"
printf '[    1.0] WARNING: CPU: 0 PID: 1 at foo+0x' > "$tmp/cut2.log"
printf '[    1.0] BUG: KASAN: use-after-' > "$tmp/cut3.log"
printf 'WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\0\0\nCall Trace:\n\0 bar+0x1/0x2\n' > "$tmp/cut4.log"
printf 'hello world\nsome text' > "$tmp/cut5.log"
"$tools/kmsg" reports --json --docs-db "$db" "$tmp"/cut[1-5].log > "$tmp/o" 2>&1
rc=$?
[ $rc = 1 ] && python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [(o["file"][-8:], o["class"], o["corrupted"], o.get("reason")) for o in r] == [
    ("cut1.log", "report.24", True, "the header is cut short"),
    ("cut2.log", "report.1", True, "the header is cut short"),
    ("cut3.log", "report.2", True, "the header is cut short"),
    ("cut4.log", "report.1", True, "the log ends before the stack trace"),
], r
assert r[3]["header"] == "WARNING: CPU: 0 PID: 1 at foo+0x1/0x2", r
' "$tmp/o"
rc=$?
ok $rc "headers cut at the end of the log or by a NUL: reports, corrupted"
[ $rc = 0 ] || diag "$tmp/o"

# a log's bytes escaped in text (no terminal escape reaches the terminal),
# every string of the JSON escaped, a class id of the database too
printf 'BUG: KASAN: \033[31m\033]0;pwned\007use-after-free in foo+0x1/0x2\n' > "$tmp/esc.log"
"$tools/kmsg" reports --docs-db "$db" "$tmp/esc.log" > "$tmp/o" 2>&1
[ $? = 1 ] && ! LC_ALL=C grep -q "$(printf '[\033\007]')" "$tmp/o" &&
	grep -q 'KASAN: \\x1b\[31m' "$tmp/o"
rc=$?
ok $rc "text output: the header's control characters escaped"
[ $rc = 0 ] || diag "$tmp/o"
cp "$db" "$tmp/q.db"
sqlite3 "$tmp/q.db" "UPDATE aliases SET id = 'x\"y' || char(10) || 'z' WHERE id = 'report.1';
	UPDATE reports SET id = 'x\"y' || char(10) || 'z' WHERE id = 'report.1';
	UPDATE report_frames SET class = 'x\"y' || char(10) || 'z' WHERE class = 'report.1';
	UPDATE reports SET parent = 'x\"y' || char(10) || 'z' WHERE parent = 'report.1';
	UPDATE report_frames SET pattern = 'x\"y' || char(10) || 'z'
		WHERE kind = 'continues' AND pattern = 'report.1'"
printf 'WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\n' > "$tmp/q.log"
"$tools/kmsg" reports --json --docs-db "$tmp/q.db" "$tmp/q.log" "$tmp/esc.log" > "$tmp/o" 2>&1
[ $? = 1 ] && python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert r[0]["class"] == "x\"y\nz" and "\033" in r[1]["header"], r
' "$tmp/o"
rc=$?
ok $rc "JSON: a class id with a quote and a newline, a header's escapes, escaped"
[ $rc = 0 ] || diag "$tmp/o"

# a CPU or PID number out of range: the field left out, not LONG_MAX
printf 'WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\nCPU: 11111111111111111111111 PID: 99999999999 Comm: x Not tainted 6.1.0 #1\nCall Trace:\n bar+0x1/0x2\n' > "$tmp/cpu.log"
"$tools/kmsg" reports --json --docs-db "$db" "$tmp/cpu.log" > "$tmp/o" 2>&1
[ $? = 1 ] && python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
assert "cpu" not in r and "pid" not in r and r["task"] == "x", r
' "$tmp/o"
rc=$?
ok $rc "CPU and PID numbers out of range: left out"
[ $rc = 0 ] || diag "$tmp/o"

# a write error (a full disk): status 2, said; a database without the
# report tables: status 2, said (ASan finds no leak on either path)
"$tools/kmsg" reports --docs-db "$db" "$tmp/cpu.log" > /dev/full 2> "$tmp/e"
[ $? = 2 ] && grep -q 'standard output' "$tmp/e"
rc=$?
ok $rc "a write error: status 2, named"
[ $rc = 0 ] || diag "$tmp/e"
cp "$db" "$tmp/nt.db"
sqlite3 "$tmp/nt.db" "DROP TABLE reports"
"$tools/kmsg" reports --docs-db "$tmp/nt.db" "$tmp/cpu.log" > "$tmp/o" 2> "$tmp/e"
[ $? = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l < "$tmp/e")" = 1 ]
rc=$?
ok $rc "a database without report classes: status 2, one message"
[ $rc = 0 ] || diag "$tmp/e"

# the forms of a kernel log kmsg dmesg reads: journalctl -k, dmesg -T,
# /dev/kmsg's records (cat /dev/kmsg); an arm stack line is not a stamp
{
	printf 'Dec 07 12:00:00 host kernel: WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\n'
	printf 'Dec 07 12:00:00 host kernel: Call Trace:\n'
	printf 'Dec 07 12:00:00 host kernel:  bar+0x1/0x2\n'
} > "$tmp/journal.log"
{
	printf '[Mon Dec  7 12:00:00 2026] BUG: KASAN: use-after-free in foo+0x1/0x2\n'
	printf '[Mon Dec  7 12:00:00 2026] Read of size 8 at addr ffff888000000000\n'
	printf '[Mon Dec  7 12:00:00 2026] Call Trace:\n'
	printf '[Mon Dec  7 12:00:00 2026]  baz+0x1/0x2\n'
} > "$tmp/ctime.log"
{
	printf '4,100,5000,-;WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\n'
	printf '4,101,5001,-;Call Trace:\n'
	printf '4,102,5002,-; qux+0x1/0x2\n'
} > "$tmp/record.log"
{
	printf 'INFO: task x:1 blocked for more than 120 seconds.\n'
	printf 'Backtrace:\n'
	printf '[<80c1e5e8>] (__schedule) from [<80c1eb20>] (schedule+0x60/0xdc)\n'
	printf '[<80c1eb20>] (schedule) from [<80c1ec14>] (pipe_read+0x48/0x6c)\n'
	printf '[<80c1ec14>] (pipe_read) from [<802893bc>] (vfs_read+0x1fc/0x59c)\n'
} > "$tmp/arm.log"
"$tools/kmsg" reports --docs-db "$db" "$tmp/journal.log" "$tmp/ctime.log" \
	"$tmp/record.log" "$tmp/arm.log" > "$tmp/o" 2>&1
[ $? = 1 ] && [ "$(cut -d' ' -f2- "$tmp/o")" = "$(printf '%s\n' \
	'report.1 WARNING in bar' 'report.2 KASAN: use-after-free Read in foo' \
	'report.1 WARNING in qux' 'hung_task.1 INFO: task hung in pipe_read')" ]
rc=$?
ok $rc "journalctl -k, dmesg -T, /dev/kmsg records, arm's stack: the reports"
[ $rc = 0 ] || diag "$tmp/o"

# the header's message by its id, the place it prints, its kind's class
printf 'WARNING: CPU: 0 PID: 1 at lib/refcount.c:28 refcount_warn_saturate+0x1/0x2\nCall Trace:\n foo+0x1/0x2\n' \
	> "$tmp/site.log"
"$tools/kmsg" reports --json --docs-db "$db" "$tmp/site.log" > "$tmp/o" 2>&1
[ $? = 1 ] && python3 - "$tmp/o" "$db" <<'PY'
import json, sqlite3, sys
r = json.loads(open(sys.argv[1]).read())
assert r["class"] == "report.35" and r["title"] == "WARNING: refcount bug in foo", r
assert r["site"] == "lib/refcount.c:28", r
row = sqlite3.connect(sys.argv[2]).execute(
    "SELECT id, format FROM aliases WHERE auto_id = ?", (r["header_id"],)).fetchone()
assert row == ("report.1", "WARNING: CPU: %d PID: %d at %s:%d %pS"), row
PY
rc=$?
ok $rc "JSON: the header's automatic id, its site, the class of its kind"
[ $rc = 0 ] || diag "$tmp/o"

# a database no catalog would give: a back-reference (its group would be
# renumbered in the class's alternation), a header format of 100,000
# conversions that a line cut at the end is tried against (in a 1 MB
# stack: bounded, not a recursion per conversion)
cp "$db" "$tmp/br.db"
sqlite3 "$tmp/br.db" "INSERT INTO report_frames VALUES ('skip', '', '(a)\\1', 'x')"
"$tools/kmsg" reports --docs-db "$tmp/br.db" "$tmp/cpu.log" > "$tmp/o" 2>&1
[ $? = 2 ] && grep -q 'back-reference' "$tmp/o"
r1=$?
cp "$db" "$tmp/deep.db"
sqlite3 "$tmp/deep.db" "UPDATE aliases SET format = replace(hex(zeroblob(100000)), '00', '%d ')
	WHERE id = 'report.1' AND format IS NOT NULL"
printf 'hello\nabc def' > "$tmp/deep.log"
(ulimit -s 1024; timeout 60 "$tools/kmsg" reports --docs-db "$tmp/deep.db" "$tmp/deep.log") \
	> "$tmp/o2" 2>&1
r2=$?
[ $r1 = 0 ] && [ $r2 = 0 ]
rc=$?
ok $rc "a back-reference in the database: status 2, said; a 100,000-conversion format: no crash"
[ $rc = 0 ] || { diag "$tmp/o"; diag "$tmp/o2"; echo "# status $r2"; }

# one report kept open (its caller's stack lines every 100 lines) while
# 30,000 others come: the open reports are bounded, so is the memory
python3 -c '
import sys
w = sys.stdout.write
w("[    1.0][    T1] WARNING: CPU: 0 PID: 1 at foo+0x1/0x2\n")
for i in range(30000):
    w("[    1.0][    T2] WARNING: CPU: 1 PID: 2 at bar+0x1/0x2\n")
    if i % 100 == 0:
        w("[    1.0][    T1] Call Trace:\n")
' > "$tmp/queue.log"
(ulimit -v 262144; timeout 60 "$tools/kmsg" reports --docs-db "$db" "$tmp/queue.log") \
	> "$tmp/o" 2>&1
rc=$?
[ $rc = 1 ] && [ "$(grep -c ': report\.1 ' "$tmp/o")" = 30001 ]
r=$?
ok $r "one report open while 30,000 come: each found, in 256 MB of address space"
[ $r = 0 ] || { echo "# status $rc"; tail -n 3 "$tmp/o" | diag /dev/stdin; }

tap_end
