#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg compare BASELINE NEW on logs made of messages of the build's docs
# database (its vmlinux's, chosen by level, each printed by one site): a
# new error and a new kernel report fail the job (status 1), a message
# gone or printed fewer times is listed without failing (0), an
# unidentified line counts by its shape (numbers as #), the output is the
# same for the same logs whatever their order, JSON parses, and a file
# that cannot be read or a database without report classes is status 2.
# TAP output. TOOLS, DOCS_DB from the Makefile.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:-$here/../../build/tools}
db=${DOCS_DB:-$here/../../build/docs-db/kmsg.db}
[ -s "$db" ] || bail "no DOCS_DB (make docs-db builds it)"
[ -x "$tools/kmsg" ] || bail "no $tools/kmsg (make tools)"
kmsg() { "$tools/kmsg" "$@"; }

# messages without a conversion, one site each: the text is the format
pick() {
	sqlite3 "$db" "SELECT id || '|' || format FROM messages
		WHERE level = $1 AND object = 'vmlinux' AND prefix IS NULL
		AND cont = 0 AND format NOT LIKE '%\%%' ESCAPE '\'
		AND format NOT LIKE '%  %' AND length(format) > 30
		GROUP BY format HAVING count(*) = 1 ORDER BY id LIMIT $2"
}
mapfile -t info < <(pick 6 3)
mapfile -t err < <(pick 3 1)
[ ${#info[@]} = 3 ] && [ ${#err[@]} = 1 ] || bail "no messages to compare in $db"
id() { echo "${1%%|*}"; }
txt() { echo "${1#*|}"; }
A=${info[0]} B=${info[1]} D=${info[2]} E=${err[0]}

line() { printf '[%5d.%06d] %s\n' "$1" "$1" "$2"; }
{
	line 1 "$(txt "$A")"
	line 2 "$(txt "$B")"
	line 3 "$(txt "$B")"
	line 4 "eth7: frobnicated 1000 widgets at 0xffff8881"
} > "$tmp/base.log"
{
	line 1 "$(txt "$A")"
	line 2 "$(txt "$B")"
	line 4 "eth7: frobnicated 100 widgets at 0xffff0002"
	line 5 "$(txt "$E")"
	line 6 "------------[ cut here ]------------"
	line 6 "WARNING: CPU: 0 PID: 1 at lib/foo.c:12 foo_bar+0x1/0x2"
	line 6 "Call Trace:"
	line 6 " baz+0x1/0x2"
} > "$tmp/new.log"

kmsg compare --db "$db" "$tmp/base.log" "$tmp/base.log" > "$tmp/o" 2>&1
[ $? = 0 ] && [ ! -s "$tmp/o" ]
ok $? "the same log twice: status 0, nothing written"

kmsg compare --db "$db" "$tmp/base.log" "$tmp/new.log" > "$tmp/o" 2> "$tmp/e"
rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/e" ] &&
	grep -q "^new     $(id "$E") 0 -> 1 - -> err: " "$tmp/o" &&
	grep -q "^count   $(id "$B") 2 -> 1 info -> info: " "$tmp/o" &&
	grep -q '^report  WARNING in baz (1)$' "$tmp/o" &&
	! grep -q "frobnicated\|$(id "$A")" "$tmp/o"
r=$?
cp "$tmp/o" "$tmp/o-new"
ok $r "a new error and a new WARNING: status 1, listed; the same shape and message not"
[ $r = 0 ] || { diag "$tmp/o"; diag "$tmp/e"; }

{
	line 2 "$(txt "$B")"
	line 3 "$(txt "$B")"
	line 4 "eth7: frobnicated 7 widgets at 0x1"
	line 5 "$(txt "$D")"
} > "$tmp/info.log"
kmsg compare --db "$db" "$tmp/base.log" "$tmp/info.log" > "$tmp/o" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^gone    $(id "$A") 1 -> 0 info -> -: " "$tmp/o" &&
	grep -q "^new     $(id "$D") 0 -> 1 - -> info: " "$tmp/o" &&
	[ "$(wc -l < "$tmp/o")" = 2 ]
r=$?
ok $r "a message gone and a new info message: listed, status 0"
[ $r = 0 ] || diag "$tmp/o"

kmsg compare --db "$db" "$tmp/base.log" "$tmp/new.log" > "$tmp/o1" 2>&1
tac "$tmp/base.log" > "$tmp/base-rev.log"
kmsg compare --db "$db" "$tmp/base-rev.log" "$tmp/new.log" > "$tmp/o2" 2>&1
cmp -s "$tmp/o-new" "$tmp/o1" && cmp -s "$tmp/o-new" "$tmp/o2"
ok $? "a rerun, and the baseline's lines in another order: the same output"

kmsg compare --json --db "$db" "$tmp/base.log" "$tmp/new.log" > "$tmp/j" 2>&1
[ $? = 1 ] && python3 - "$tmp/j" "$(id "$E")" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert {x["kind"] for x in r} == {"new", "count", "report"}, r
e = [x for x in r if x.get("id") == sys.argv[2]]
assert len(e) == 1 and e[0]["new_level"] == "err" and e[0]["new"] == 1, e
w = [x for x in r if x["kind"] == "report"]
assert [x["title"] for x in w] == ["WARNING in baz"], w
PY
ok $? "--json: one object per difference, the error's level, the report's title"

# the same message at another level (dmesg -r's "<N>"): one a site
# printed has its site's level (at another, it is not that site's), so
# an unidentified one, known by its shape; listed, and one that rose to
# an error fails
printf '<6>[    1.000000] eth7: frobnicated 1 widgets\n' > "$tmp/lvl6.log"
printf '<3>[    1.000000] eth7: frobnicated 2 widgets\n' > "$tmp/lvl3.log"
kmsg compare --db "$db" "$tmp/lvl6.log" "$tmp/lvl3.log" > "$tmp/o" 2>&1
r1=$?
kmsg compare --db "$db" "$tmp/lvl3.log" "$tmp/lvl6.log" > "$tmp/o2" 2>&1
r3=$?
[ $r1 = 1 ] && [ $r3 = 0 ] &&
	[ "$(cat "$tmp/o")" = "level   - 1 -> 1 info -> err: eth7: frobnicated 2 widgets" ] &&
	[ "$(cat "$tmp/o2")" = "level   - 1 -> 1 err -> info: eth7: frobnicated 1 widgets" ]
r=$?
ok $r "a message whose level rose to err: listed, status 1; one that fell: status 0"
[ $r = 0 ] || { diag "$tmp/o"; diag "$tmp/o2"; }

# two sets of logs: directories, each log's messages counted together
mkdir "$tmp/set1" "$tmp/set2" "$tmp/set3" "$tmp/empty"
cp "$tmp/base.log" "$tmp/set1/a.log"
cp "$tmp/base.log" "$tmp/set1/b.log"
cp "$tmp/base-rev.log" "$tmp/set2/x.log"
cp "$tmp/base.log" "$tmp/set2/y.log"
cp "$tmp/base.log" "$tmp/set3/a.log"
cp "$tmp/new.log" "$tmp/set3/b.log"
kmsg compare --db "$db" "$tmp/set1" "$tmp/set2" > "$tmp/o" 2>&1
r1=$?
[ ! -s "$tmp/o" ]
r2=$?
kmsg compare --db "$db" "$tmp/set1" "$tmp/set3" > "$tmp/o" 2>&1
r3=$?
kmsg compare --db "$db" "$tmp/set1" "$tmp/empty" > "$tmp/o2" 2>&1
r4=$?
[ $r1 = 0 ] && [ $r2 = 0 ] && [ $r3 = 1 ] &&
	grep -q "^count   $(id "$B") 4 -> 3 info -> info: " "$tmp/o" &&
	! grep -q "$(id "$A")" "$tmp/o" &&
	grep -q "^new     $(id "$E") 0 -> 1 " "$tmp/o" &&
	[ $r4 = 2 ] && grep -q 'no log in the directory' "$tmp/o2"
r=$?
ok $r "two sets of logs (directories): counted together; an empty set: status 2"
[ $r = 0 ] || { diag "$tmp/o"; diag "$tmp/o2"; }

kmsg compare --db "$db" "$tmp/base.log" "$tmp/missing.log" > "$tmp/o" 2>&1
[ $? = 2 ] && grep -q "missing.log" "$tmp/o"
r1=$?
# each log is read twice (messages, reports): standard input is refused,
# not half read
kmsg compare --db "$db" "$tmp/base.log" - < "$tmp/new.log" > "$tmp/o" 2>&1
[ $? = 2 ] && grep -q "standard input" "$tmp/o" && [ $r1 = 0 ]
ok $? "a log that cannot be read: status 2, named; standard input: refused"

cp "$db" "$tmp/noreports.db"
sqlite3 "$tmp/noreports.db" "DELETE FROM reports; DELETE FROM report_frames"
kmsg compare --db "$tmp/noreports.db" "$tmp/base.log" "$tmp/new.log" > "$tmp/o" 2>&1
[ $? = 2 ] && grep -q "no report classes" "$tmp/o"
ok $? "a database without report classes: status 2, said, no comparison without reports"
tap_end
