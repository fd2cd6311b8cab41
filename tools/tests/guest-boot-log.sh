#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On the host, the guest's boot log identified by "kmsg dmesg --json",
# as plain text with no events, checked against the kmsg:kmsg events the
# same boot recorded (qemu/init, qemu/record.sh): each line of the log
# joins its /dev/kmsg record (boot-kmsg.txt, in order, by text) and so
# its sequence number, which the events carry. At least 99% of the lines
# with events must get the id of their event, and none a wrong one (an
# ambiguous line is counted, not wrong). TAP output.
#
# RECORD: the unpacked archive (boot.dat, boot-dmesg.txt, boot-kmsg.txt);
# TOOLS: the built kmsg; DOCS_DB: the database of the same build, with
# every call site (kmsg-doc build-db).
set -u
rec=${RECORD:?RECORD: directory of the guest recording}
tools=${TOOLS:?TOOLS: the built kmsg tools}
db=${DOCS_DB:?DOCS_DB: the docs database of the build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"
if [ ! -s "$rec/boot.dat" ] || [ ! -s "$rec/boot-dmesg.txt" ] ||
   [ ! -s "$rec/boot-kmsg.txt" ]; then
	echo "1..1"
	echo "not ok 1 boot recording present in $rec (see the guest's console log)"
	exit 0
fi
"$tools/kmsg" report --json "$rec/boot.dat" > "$tmp/events" 2> "$tmp/events.err"
"$tools/kmsg" dmesg --json --db "$db" "$rec/boot-dmesg.txt" > "$tmp/dmesg" 2>&1
"$tools/kmsg" dmesg --json --db "$db" "$rec/boot-kmsg.txt" > "$tmp/kmsg" 2>&1

python3 - "$rec" "$tmp" <<'EOF'
import json, re, sys

rec, tmp = sys.argv[1], sys.argv[2]
n = 0
def ok(cond, what):
    global n
    n += 1
    print(("ok" if cond else "not ok"), n, what)

def unescape(s):
    return re.sub(r'\\x([0-9a-fA-F]{2})', lambda m: chr(int(m.group(1), 16)), s)

# /dev/kmsg records: each line of each record, with its seq
lines = []
with open(rec + "/boot-kmsg.txt", encoding="utf-8", errors="surrogateescape") as f:
    for raw in f:
        m = re.match(r'(\d+),(\d+),(\d+),[^;]*;(.*)$', raw.rstrip("\n"))
        if m:
            for t in unescape(m.group(4)).split("\n"):
                lines.append((int(m.group(2)), t))

# the event of each seq: the first (pr_cont() adds more with the same seq)
truth = {}
with open(tmp + "/events") as f:
    for l in f:
        e = json.loads(l)
        if "seq" in e and e["seq"] not in truth:
            truth[e["seq"]] = e

def load(path):
    out = {}
    with open(path) as f:
        for l in f:
            try:
                o = json.loads(l)
            except ValueError:
                continue
            out[o["line"]] = o
    return out

conv = re.compile(r'%[-+ #0]*(\*|\d+)?(\.(\*|\d+)?)?(hh|h|ll|l|L|z|t)?'
                  r'(p[A-Za-z0-9]*|[diouxXcs%])')

def literal_free(fmt):
    """a format with no text of its own ("%s"): no text says it printed"""
    return not conv.sub("", fmt or "").strip()

def check(name, got, seq_of):
    right = amb = unid = blind = 0
    wrong = []
    for lineno, seq in seq_of.items():
        t = truth.get(seq)
        o = got.get(lineno)
        if t is None:
            continue
        want = {t.get("id"), t.get("auto_id")}
        identified = o is not None and "id" in o
        if identified and (o["id"] in want or o.get("auto_id") in want):
            right += 1
        elif (identified and "wrapper_format" in t and
              o.get("format") == t["wrapper_format"]):
            # printed through a %pV wrapper whose inner format is not a
            # site of the index: the wrapper is the right answer
            right += 1
        elif identified:
            wrong.append((lineno, o.get("text"), o.get("id"), t.get("id")))
        elif literal_free(t.get("format")):
            blind += 1
        elif o is not None and "candidates" in o:
            amb += 1
        else:
            unid += 1
    total = right + amb + unid + len(wrong)
    pct = 100.0 * right / total if total else 0
    print("# %s: %d lines with events: %d right (%.2f%%), %d ambiguous, "
          "%d unidentified, %d wrong; %d more printed by formats without "
          "literal text (\"%%s\"), not counted" %
          (name, total, right, pct, amb, unid, len(wrong), blind))
    print("# %s: of all %d lines with events, %.2f%% right" %
          (name, total + blind, 100.0 * right / (total + blind) if total else 0))
    for w in wrong[:20]:
        print("# wrong: line %d %r: got %s, event %s" % w)
    ok(total > 100 and pct >= 99.0,
       "%s: at least 99%% of %d lines get their event's id (%.2f%%)" %
       (name, total, pct))
    ok(not wrong, "%s: no line gets a wrong id" % name)

# the console's form: "[ts] text" per line, in the order of the records
seq_of = {}
with open(rec + "/boot-dmesg.txt", encoding="utf-8", errors="surrogateescape") as f:
    dm = [l.rstrip("\n") for l in f]
i = 0
bad = 0
for k, l in enumerate(dm):
    t = re.sub(r'^\[[ 0-9.]*\] ', '', l, count=1)
    if i < len(lines) and lines[i][1].rstrip() == t.rstrip():
        seq_of[k + 1] = lines[i][0]
        i += 1
    else:
        bad += 1
ok(bad == 0 and len(dm) > 0,
   "the dmesg text is the /dev/kmsg records' lines (%d of %d lines, "
   "%d events from seq %s)" % (len(dm) - bad, len(dm), len(truth),
                               min(truth) if truth else "-"))
check("dmesg text", load(tmp + "/dmesg"), seq_of)

# the /dev/kmsg records themselves: one line, one record
seq_rec = {}
with open(rec + "/boot-kmsg.txt", encoding="utf-8", errors="surrogateescape") as f:
    for k, raw in enumerate(f):
        m = re.match(r'(\d+),(\d+),', raw)
        if m:
            seq_rec[k + 1] = int(m.group(2))
check("/dev/kmsg records", load(tmp + "/kmsg"), seq_rec)
print("1..%d" % n)
EOF
