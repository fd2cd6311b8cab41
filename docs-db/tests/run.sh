#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The project's own messages and their documentation, on the host: the
# checker is clean on the kernel build, the docs database builds the same
# twice, and explain, search and the man pages show what was documented.
# TAP output. KSRC, KOBJ, TOOLS, MODROOT, KMSGTEST_KO, DOCS_DB as the
# Makefile sets.
set -u
top=$(dirname "$(realpath "$0")")/../..
tmp=$(mktemp -d)
. "$top/tools/tests/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:?} ksrc=${KSRC:?} kobj=${KOBJ:?} modroot=${MODROOT:?}
db=${DOCS_DB:?}
# what make docs-db reads: vmlinux, its modules and the kselftests' kmsgtest
objs=("$kobj/vmlinux" "$modroot" "${KMSGTEST_KO:?}")

"$tools/kmsg-doc" check --srctree "$ksrc" --catalog "$top/docs-db/catalog" \
	"${objs[@]}" > "$tmp/check" 2>&1
rc=$?
sed 's/^/# /' "$tmp/check"
ok $rc "kmsg-doc check: the build's messages are all documented, without errors"
! grep -q ': warning: ' "$tmp/check"
ok $? "kmsg-doc check: no warnings"

for i in 1 2; do
	"$tools/kmsg-doc" build-db --out "$tmp/db$i" --srctree "$ksrc" \
		--catalog "$top/docs-db/catalog" --release test \
		"${objs[@]}" > "$tmp/build$i" 2>&1
done
sqlite3 "$tmp/db1" .dump > "$tmp/dump1" 2>&1
sqlite3 "$tmp/db2" .dump > "$tmp/dump2" 2>&1
[ -s "$tmp/dump1" ] && cmp -s "$tmp/dump1" "$tmp/dump2"
ok $? "build-db twice from the same inputs: the same content"
[ "$(sqlite3 "$tmp/db1" "SELECT count(*) FROM docs")" -ge 18 ]
ok $? "docs database: kmsgtest (source) and kmsgbench (catalog) documented"

# the identifiers of the catalogs with modname: aliases of automatic ids,
# computed from modname and format (expected values: FNV-1a in python3)
got=$(sqlite3 "$tmp/db1" "SELECT count(*) >= 53 FROM aliases WHERE position = 0;
	SELECT id FROM aliases WHERE auto_id = 'oom_kill.h3196cc8e';
	SELECT id FROM aliases WHERE auto_id = 'oom_kill.h923b9134';
	SELECT auto_id FROM aliases WHERE id = 'clocksource.22' ORDER BY position;
	SELECT auto_id FROM aliases WHERE id = 'watchdog.2' ORDER BY position;
	SELECT auto_id FROM aliases WHERE id = 'hung_task.3' ORDER BY position;" 2>&1)
# watchdog.2: the automatic id of its format, then those of the older
# wordings its catalog entry lists as auto-id lines, in their order
wd_auto=$(awk '/^id: / { e = ($2 == "watchdog.2") }
	e && /^auto-id: / { m = $2; sub(/^auto-id: [^ ]* "/, ""); sub(/"$/, "")
		print m " " $0 }' "$top/docs-db/catalog/watchdog.kmsg" |
	while read -r m f; do "$tools/kmsg-doc" auto-id "$m" "$f"; done)
[ "$(printf '%s\n' "$wd_auto" | grep -c '^watchdog\.h[0-9a-f]\{8\}$')" = 4 ] &&
[ "$got" = "$(printf '1\noom.9\noom.11\nclocksource.h58743ee5\nwatchdog.h03e56f7f\n%s\nhung_task.h34194b7f' "$wd_auto")" ]
rc=$?
[ $rc = 0 ] || printf '%s\n' "$got" | diag
ok $rc "docs database: oom.9, oom.11, clocksource.22, watchdog.2, hung_task.3 are aliases of their automatic ids"

KMSG_DB=$tmp/db1 "$tools/kmsg" explain oom_kill.h3196cc8e > "$tmp/explain-auto" 2>&1
head -n 1 "$tmp/explain-auto" | grep -q '^oom\.9: "%s: Killed process %d (%s) total-vm:' &&
	grep -q '^Documented in: .*docs-db/catalog/oom.kmsg:' "$tmp/explain-auto"
rc=$?
[ $rc = 0 ] || diag "$tmp/explain-auto"
ok $rc "kmsg explain oom_kill.h3196cc8e: the documentation of oom.9"

# the core messages documented in catalogs: found by the identifier and
# by the automatic id, the same documentation
for pair in oom.9:oom_kill.h3196cc8e clocksource.22:clocksource.h58743ee5 \
	    watchdog.2:watchdog.h03e56f7f hung_task.3:hung_task.h34194b7f \
	    smp.1:smp.heb1f2aed; do
	cur=${pair%%:*} auto=${pair#*:}
	KMSG_DB=$db "$tools/kmsg" explain "$cur" > "$tmp/by-cur" 2>&1
	rc=$?
	KMSG_DB=$db "$tools/kmsg" explain "$auto" > "$tmp/by-auto" 2>&1 || rc=1
	{ [ $rc = 0 ] && cmp -s "$tmp/by-cur" "$tmp/by-auto" &&
		head -n 1 "$tmp/by-cur" | grep -q "^$cur: " &&
		grep -q "^  $auto  " "$tmp/by-cur" &&
		grep -q '^Description:$' "$tmp/by-cur"; }
	rc=$?
	[ $rc = 0 ] || diag "$tmp/by-cur" "$tmp/by-auto"
	ok $rc "kmsg explain $cur and $auto: the same documentation, every form shown"
done

# a message reworded: the catalog documents an older wording and lists
# the one of this build as auto-id; the recorded message keeps the
# identifier in JSON, explain shows both forms
mkdir -p "$tmp/cat"
cat > "$tmp/cat/kpaths.kmsg" <<'EOT'
id: kpaths.1
severity: err
modname: kmsg_paths
format: kmsg_paths: pr_err, with pr_fmt
auto-id: kmsg_paths "kmsg_paths: pr_err with pr_fmt"
description:
 A test message.
user-response:
 None.
EOT
"$tools/kmsg-doc" build-db --out "$tmp/kpaths.db" --srctree "$ksrc" \
	--catalog "$tmp/cat" "${objs[@]}" > "$tmp/kpaths.out" 2>&1
rc=$?
"$tools/kmsg" report --json --db "$tmp/kpaths.db" "$top/tools/tests/data/kmsg-v6.dat" |
	grep '"auto_id":"kmsg_paths.hb8d60e3a"' > "$tmp/kpaths.json"
[ $rc = 0 ] && [ "$(wc -l < "$tmp/kpaths.json")" = 1 ] &&
	grep -q '"id":"kpaths.1"' "$tmp/kpaths.json" &&
	! grep -q '"id":"kmsg_paths' "$tmp/kpaths.json"
rc=$?
[ $rc = 0 ] || diag "$tmp/kpaths.out" "$tmp/kpaths.json"
ok $rc "kmsg report --json: a reworded message keeps its curated id (kpaths.1)"
KMSG_DB=$tmp/kpaths.db "$tools/kmsg" explain kmsg_paths.hb8d60e3a > "$tmp/kpaths.x" 2>&1 &&
	head -n 1 "$tmp/kpaths.x" | grep -q '^kpaths\.1: "kmsg_paths: pr_err, with pr_fmt"' &&
	grep -q '^  kmsg_paths.hb8d60e3a  kmsg_paths: pr_err with pr_fmt$' "$tmp/kpaths.x" &&
	grep -q "^  $("$tools/kmsg-doc" auto-id kmsg_paths 'kmsg_paths: pr_err, with pr_fmt')  " "$tmp/kpaths.x"
rc=$?
[ $rc = 0 ] || diag "$tmp/kpaths.x"
ok $rc "kmsg explain of the new wording's automatic id: kpaths.1, both wordings"

KMSG_DB=$db "$tools/kmsg" explain kmsgtest.2 > "$tmp/explain" 2>&1
cat > "$tmp/want" <<'EOT'
kmsgtest.2: "device %x not online"

Severity: err
EOT
head -n 3 "$tmp/explain" | cmp -s - "$tmp/want" &&
	grep -q '^  @0  Device number of the device\.$' "$tmp/explain" &&
	grep -A1 '^User Response:$' "$tmp/explain" | grep -q '^  Set the device online and retry the operation\.$'
rc=$?
[ $rc = 0 ] || diag "$tmp/explain"
ok $rc "kmsg explain kmsgtest.2: message, severity, parameter, user response"

KMSG_DB=$db "$tools/kmsg" explain kmsgbench.1 | grep -q '^Documented in: .*docs-db/catalog/kmsgbench.kmsg:'
ok $? "kmsg explain kmsgbench.1: documented in the catalog"

KMSG_DB=$db "$tools/kmsg" search paths online > "$tmp/search" 2>&1
head -n 1 "$tmp/search" | grep -q '^kmsgtest.21 '
ok $? "kmsg search paths online: kmsgtest.21 first"
KMSG_DB=$db "$tools/kmsg" search nosuchwordanywhere > /dev/null 2>&1
[ $? = 1 ]
ok $? "kmsg search: nothing found exits 1"

"$tools/kmsg" manual --db "$db" "$tmp/man" > "$tmp/manual.out" 2>&1 &&
	MANPATH=$tmp/man man -P cat kmsgtest.2 > "$tmp/man.out" 2>&1 &&
	grep -q 'Set the device online' "$tmp/man.out"
rc=$?
[ $rc = 0 ] || diag "$tmp/manual.out" "$tmp/man.out"
ok $rc "man kmsgtest.2 with MANPATH at the generated pages"
# every documented message of the database, each entry of the catalogs
# among them: a man page and a section of the printable manual each
sqlite3 "$db" "SELECT id FROM docs" 2>&1 | sort > "$tmp/ids.docs"
sed -n 's/^id: *\([^ ]*\) *$/\1/p' "$top"/docs-db/catalog/*.kmsg | sort -u > "$tmp/ids.catalog"
sed -n 's|^<h2>\(.*\)</h2>$|\1|p' "$tmp/man/kmsg-manual.html" 2>/dev/null | sort > "$tmp/ids.html"
ls "$tmp/man/man9" 2>/dev/null | sed 's/\.9$//' | sort > "$tmp/ids.man"
docs=$(wc -l < "$tmp/ids.docs")
{
	diff -U0 --label docs --label html "$tmp/ids.docs" "$tmp/ids.html"
	diff -U0 --label docs --label man9 "$tmp/ids.docs" "$tmp/ids.man"
	comm -23 "$tmp/ids.catalog" "$tmp/ids.docs" | sed 's/^/in a catalog, not documented: /'
	grep -qx "$docs man pages in .*" "$tmp/manual.out" || cat "$tmp/manual.out"
} > "$tmp/ids.diff" 2>&1
[ "$docs" -ge 18 ] && [ -s "$tmp/ids.catalog" ] && [ ! -s "$tmp/ids.diff" ]
rc=$?
[ $rc = 0 ] || diag "$tmp/ids.diff"
ok $rc "printable manual (HTML) and man pages have every message: the $docs of the database, the $(wc -l < "$tmp/ids.catalog") of the catalogs among them"

printf 'kmsgtest.2: device 4711 not online\n[    1.0] kmsgtest.99: nope\nplain line\n' |
	KMSG_DB=$db "$tools/kmsg" dmesg -x - > "$tmp/dmesg"
grep -A2 '^kmsgtest.2: device 4711 not online$' "$tmp/dmesg" | grep -q '^-- Description: ' &&
	grep -A1 -x '.*kmsgtest.99: nope' "$tmp/dmesg" | tail -n 1 | grep -qx -- '-- unidentified' &&
	grep -qx 'plain line' "$tmp/dmesg"
ok $? "kmsg dmesg -x on dmesg text: explained, an id the database lacks not taken, others kept"
# kmsg dmesg identifies plain text: a copy of the database with plain
# sites (as build-db writes every site of a build), each input form
fix=$tmp/sites.db
cp "$db" "$fix" && sqlite3 -bail "$fix" "
INSERT INTO messages VALUES ('smp.h00000001','',0,6,'smpfix: Brought up %d node, %d CPU','kernel/smp.c',1,'smp_init','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('e1000e.h00000002','',0,3,'link is up at %d Mbps','e1000e.c',2,'link_up','e1000e',1,'%s %s: ',0,NULL,1);
INSERT INTO messages VALUES ('a.h00000003','',0,6,'value %d','a.c',3,'fa','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('b.h00000004','',0,6,'value %u','b.c',4,'fb','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('oom_kill.h00000005','',0,3,'Out of memory: Killed process %d (%s)','mm/oom_kill.c',5,'oom_kill_process','vmlinux',0,NULL,0,NULL,1);
INSERT INTO aliases VALUES ('kmsgtest.2','oom_kill.h00000005','oom_kill',NULL,1,'x',1);
" || echo "# the fixture database: sqlite3 failed"

printf '%s\n' '[    0.100000] smpfix: Brought up 1 node, 2 CPU' \
	'<3>[    0.200000] e1000e 0000:00:03.0: link is up at 1000 Mbps' \
	'Jan 01 10:00:00 host kernel: value 7' \
	'[Mon Jan  1 10:00:00 2024] value -7' \
	'3,12,300000,-;Out of memory: Killed process 42 (cat)' \
	'nothing like any format' > "$tmp/plain"
"$tools/kmsg" dmesg --json --db "$fix" "$tmp/plain" > "$tmp/plain.json" 2>&1
python3 - "$tmp/plain.json" > "$tmp/plain.check" 2>&1 <<'PY'
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])]
assert [x["line"] for x in o] == [1, 2, 3, 4, 5, 6], o
assert o[0]["id"] == "smp.h00000001" and o[0]["source"]["function"] == "smp_init"
assert [a["value"] for a in o[0]["args"]] == [1, 2]
assert o[1]["id"] == "e1000e.h00000002" and o[1]["device"] == "0000:00:03.0"
assert o[1]["driver"] == "e1000e" and o[1]["level"] == 3
assert "id" not in o[2] and {c["id"] for c in o[2]["candidates"]} == {"a.h00000003", "b.h00000004"}
assert o[3]["id"] == "a.h00000003" and o[3]["args"][0] == {"type": "int", "value": -7}
assert o[4]["id"] == "kmsgtest.2" and o[4]["auto_id"] == "oom_kill.h00000005"
assert o[4]["seq"] == 12 and o[4]["args"][1] == {"type": "string", "value": "cat"}
assert "id" not in o[5] and "candidates" not in o[5]
PY
rc=$?
[ $rc = 0 ] || diag "$tmp/plain.check"
ok $rc "kmsg dmesg --json: each input form identified, ambiguous, unidentified, curated alias, typed args"
"$tools/kmsg" dmesg --stats --db "$fix" "$tmp/plain" > "$tmp/stats" 2>&1
grep -q '^lines *6$' "$tmp/stats" && grep -q '^identified *4$' "$tmp/stats" &&
	grep -q '^ambiguous *1$' "$tmp/stats" && grep -q '^unidentified *1$' "$tmp/stats" &&
	grep -q '^weak *0$' "$tmp/stats" && grep -q '^documented *1$' "$tmp/stats"
ok $? "kmsg dmesg --stats: lines, identified, ambiguous, weak, unidentified, documented"
"$tools/kmsg" dmesg --db "$fix" "$tmp/plain" > "$tmp/plain.txt" 2>&1
grep -A1 -x '.*value 7' "$tmp/plain.txt" | tail -n 1 |
	grep -qx -- '-- ambiguous (2): a.h00000003 b.h00000004' &&
	grep -A1 -x '.*nothing like any format' "$tmp/plain.txt" | tail -n 1 |
	grep -qx -- '-- unidentified'
rc=$?
[ $rc = 0 ] || diag "$tmp/plain.txt"
ok $rc "kmsg dmesg: an ambiguous message's candidates listed, as in --json"

# Never a wrong id: a database of the few formats that gave one on a real
# log (issue 26), each cause once: the line's level against the site's,
# a format with too little text of its own ("%s: %s %ld"), lines of one
# timestamp joined over a %s, the id of a joined group under its first
# line, the record's level read from /dev/kmsg and from dmesg -r
few=$tmp/few.db
cp "$db" "$few" && sqlite3 -bail "$few" "
DELETE FROM messages; DELETE FROM aliases;
INSERT INTO messages VALUES ('swapfile.h27748666','',0,3,'%s: %s%08lx','mm/swapfile.c',1,'f1','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('vmstat.hd06c8b2c','',0,4,'%s: %s %ld','mm/vmstat.c',2,'f2','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('clocksource.h58743ee5','',0,6,'clocksource: Switched to clocksource %s','kernel/time/clocksource.c',3,'f3','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('t.h00000004','',0,6,'first line %d
second line %s','t.c',4,'f4','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('kvm.h00000005','',0,3,'Using msrs %x and %x','kvm.c',5,'f5','vmlinux',0,NULL,0,NULL,1);
" || echo "# the fixture database: sqlite3 failed"
printf '%s\n' '<6>[    1.000000] kvm-clock: Using msrs 4b564d01 and 4b564d00' \
	'[    1.100000] NetLabel:  domain hash size = 128' \
	'<6>[    1.200000] clocksource: Switched to clocksource tsc' \
	'<6>[    1.200000] VFS: Disk quotas dquot_6.6.0' \
	'<6>[    1.300000] first line 1' \
	'<6>[    1.300000] second line x' \
	'6,20,1400000,-;Using msrs 4b564d01 and 4b564d00' \
	'3,21,1500000,-;Using msrs 4b564d01 and 4b564d00' > "$tmp/wrong"
"$tools/kmsg" dmesg --json --db "$few" "$tmp/wrong" > "$tmp/wrong.json" 2>&1
python3 - "$tmp/wrong.json" > "$tmp/wrong.check" 2>&1 <<'PY'
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])]
assert [x["line"] for x in o] == list(range(1, 9)), o
assert "id" not in o[0] and o[0]["match"] == "unidentified", o[0]
assert "id" not in o[1] and o[1]["match"] == "weak", o[1]
assert [c["id"] for c in o[1]["candidates"]] == ["vmstat.hd06c8b2c"], o[1]
assert o[2]["id"] == "clocksource.h58743ee5" and o[2]["match"] == "exact", o[2]
assert "continues" not in o[2] and o[2]["args"][0]["value"] == "tsc", o[2]
assert "id" not in o[3] and "continues" not in o[3], o[3]
assert o[4]["id"] == "t.h00000004" and "continues" not in o[4], o[4]
assert o[5]["continues"] == 5, o[5]
assert "id" not in o[6] and o[6]["match"] == "unidentified", o[6]
assert o[7]["id"] == "kvm.h00000005" and o[7]["match"] == "exact", o[7]
PY
rc=$?
[ $rc = 0 ] || diag "$tmp/wrong.check"
ok $rc "kmsg dmesg --json: no id against the line's level, for a format of one ':', over lines a %s joined"
"$tools/kmsg" dmesg --db "$few" "$tmp/wrong" > "$tmp/wrong.txt" 2>&1
grep -A1 -x '.*first line 1' "$tmp/wrong.txt" | tail -n 1 | grep -q '^-- t.h00000004 at t.c:4 f4()$' &&
	grep -A1 -x '.*second line x' "$tmp/wrong.txt" | tail -n 1 | grep -qx -- '-- (continues the message above)' &&
	grep -A1 -x '.*NetLabel:  domain hash size = 128' "$tmp/wrong.txt" | tail -n 1 | grep -qx -- '-- weak (1): vmstat.hd06c8b2c' &&
	! grep -q '^-- \(vmstat\|swapfile\)\|clocksource.h.*VFS' "$tmp/wrong.txt"
rc=$?
[ $rc = 0 ] || diag "$tmp/wrong.txt"
ok $rc "kmsg dmesg: a joined message's id under its first line, no id on a weak line"
"$tools/kmsg" dmesg --stats --json --db "$few" "$tmp/wrong" > "$tmp/wrong.stats" 2>&1
grep -qx '{"lines":8,"identified":4,"ambiguous":0,"weak":1,"unidentified":3,"documented":0}' "$tmp/wrong.stats"
rc=$?
[ $rc = 0 ] || diag "$tmp/wrong.stats"
ok $rc "kmsg dmesg --stats --json: the weak lines counted apart"

# Nor from a device's name as an id, a line of another facility or of
# another level joined, or a site whose level the index does not know
more=$tmp/more.db
cp "$few" "$more" && sqlite3 -bail "$more" "
INSERT INTO messages VALUES ('kmsgfix.5','kmsgfix',5,6,'widget %d ready','w.c',1,'w1','vmlinux',0,NULL,0,NULL,1);
INSERT INTO messages VALUES ('aer.h00000006','',0,4,'  device [%04x:%04x] error status/mask=%08x/%08x','aer.c',2,'a2','vmlinux',1,'%s %s: ',0,NULL,1);
INSERT INTO messages VALUES ('q.h00000007','',0,4,'qux bar from %s','q.c',3,'q3','vmlinux',0,NULL,0,NULL,1);
" || echo "# the fixture database: sqlite3 failed"
printf '%s\n' '<6>[    2.000000] ata1.00: ATA-10: QEMU HARDDISK' \
	'<6>[    2.100000] IPv6: ADDRCONF(NETDEV_CHANGE): eth0.100: link becomes ready' \
	'<6>[    2.200000] kmsgfix.5: widget 7 broken' \
	'<6>[    2.300000] kmsgtest.2: a newer wording' \
	'<6>[    2.400000] first line 1' \
	'<3>[    2.400000] second line x' \
	'12,30,3000000,-;qux bar from userspace' \
	'<12>[    3.100000] qux bar from userspace' \
	'4,31,3200000,-;qux bar from the kernel' \
	'<3>[    3.300000] pcieport 0000:00:1c.0:   device [8086:a110] error status/mask=00000001/00002000' > "$tmp/more"
"$tools/kmsg" dmesg --json --db "$more" "$tmp/more" > "$tmp/more.json" 2>&1
python3 - "$tmp/more.json" > "$tmp/more.check" 2>&1 <<'PY'
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])]
assert [x["line"] for x in o] == list(range(1, 11)), o
for i in (0, 1):
    assert "id" not in o[i] and o[i]["match"] == "unidentified", o[i]
assert o[2]["id"] == "kmsgfix.5" and o[2]["match"] == "printed", o[2]
assert o[3]["id"] == "kmsgtest.2" and o[3]["match"] == "printed", o[3]
assert "id" not in o[4] and "continues" not in o[5], o[4:6]
assert o[4]["level"] == 6 and o[5]["level"] == 3, o[4:6]
for i in (6, 7):
    assert "id" not in o[i] and o[i]["match"] == "unidentified", o[i]
assert o[8]["id"] == "q.h00000007", o[8]
assert o[9]["id"] == "aer.h00000006" and o[9]["level"] == 3, o[9]
PY
rc=$?
[ $rc = 0 ] || diag "$tmp/more.check"
ok $rc "kmsg dmesg --json: an id printed only if the database has it, no id for a program's record, no join across levels, a device site's run-time level"
"$tools/kmsg" dmesg --db "$more" "$tmp/more" > "$tmp/more.txt" 2>&1
grep -A1 -x '.*kmsgfix.5: widget 7 broken' "$tmp/more.txt" | tail -n 1 | grep -qx -- '-- kmsgfix.5' &&
	! grep -q -- '-- ata1.00\|-- eth0.100' "$tmp/more.txt"
rc=$?
[ $rc = 0 ] || diag "$tmp/more.txt"
ok $rc "kmsg dmesg: a printed id of the database, not a device's name"
tap_end
