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
# CONSOLE: the guest's console log (default: console.log next to RECORD);
# TOOLS: the built kmsg; DOCS_DB: the database of the same build, with
# every call site (kmsg-doc build-db). The python3 checker prints the
# results; one that ends with an exception is a bail-out.
set -u
tmp=$(mktemp -d)
. "$(dirname "$(realpath "$0")")/tap.sh"
tap_begin 'rm -rf "$tmp"'
rec=${RECORD:?RECORD: directory of the guest recording}
tools=${TOOLS:?TOOLS: the built kmsg tools}
db=${DOCS_DB:?DOCS_DB: the docs database of the build}
console=${CONSOLE:-$rec/../console.log}

missing=
for f in "$rec/boot.dat" "$rec/boot-dmesg.txt" "$rec/boot-kmsg.txt" "$console"; do
	[ -s "$f" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
	ok 1 "boot recording and console log present (missing or empty:$missing; see the guest's console log)"
	tap_end
	exit 0
fi
# 2 here, 3 for each text form (console, dmesg), 2 for the records
tap_plan 10
"$tools/kmsg" report --json "$rec/boot.dat" > "$tmp/events" 2> "$tmp/events.err"
rc=$?
[ $rc = 0 ] || diag "$tmp/events.err"
ok $rc "kmsg report --json boot.dat: exit status $rc, $(wc -l < "$tmp/events") events"
"$tools/kmsg" dmesg --json --db "$db" "$rec/boot-kmsg.txt" > "$tmp/kmsg" 2> "$tmp/kmsg.err"
rc=$?
[ $rc = 0 ] || diag "$tmp/kmsg.err"
ok $rc "kmsg dmesg --json boot-kmsg.txt: exit status $rc, $(wc -l < "$tmp/kmsg") lines"

# (the checker's lines not TAP made "# " lines)
python3 -u - "$rec" "$tmp" "$tools" "$db" "$console" "$n" <<'EOF' 2>&1 | sed -u '/^\(not \)\?ok \|^#/!s/^/# /' | tee "$tmp/py.tap"
import json, os, re, subprocess, sys

rec, tmp, tools, db, console = sys.argv[1:6]
n = int(sys.argv[6])
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
    right = amb = weak = unid = blind = 0
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
        elif o is not None and o.get("match") == "ambiguous":
            amb += 1
        elif o is not None and o.get("match") == "weak":
            weak += 1
        else:
            unid += 1
    total = right + amb + weak + unid + len(wrong)
    pct = 100.0 * right / total if total else 0
    print("# %s: %d lines with events: %d right (%.2f%%), %d ambiguous, "
          "%d weak, %d unidentified, %d wrong; %d more printed by formats "
          "without literal text (\"%%s\"), not counted" %
          (name, total, right, pct, amb, weak, unid, len(wrong), blind))
    print("# %s: of all %d lines with events, %.2f%% right" %
          (name, total + blind, 100.0 * right / (total + blind) if total else 0))
    for w in wrong[:20]:
        print("# wrong: line %d %r: got %s, event %s" % w)
    ok(total > 100 and pct >= 99.0,
       "%s: at least 99%% of %d lines get their event's id (%.2f%%)" %
       (name, total, pct))
    ok(not wrong, "%s: no line gets a wrong id" % name)

def text_form(name, path, out, skip_other):
    """lines "[ts] text" joined to the records' lines, in order"""
    seq_of = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        dm = [l.rstrip("\n").rstrip("\r") for l in f]
    i = bad = 0
    keep = []
    for l in dm:
        if i == len(lines):
            break
        t = re.sub(r'^\[[ 0-9.]*\] ', '', l, count=1).rstrip()
        # the console leaves out what is above its loglevel (debug)
        j = i
        while j < len(lines) and j < i + 64 and lines[j][1].rstrip() != t:
            j += 1
        if j < len(lines) and lines[j][1].rstrip() == t and (skip_other or j == i):
            keep.append(l)
            seq_of[len(keep)] = lines[j][0]
            i = j + 1
        elif skip_other:
            # what the console shows besides the kernel's log
            bad += 1
        else:
            keep.append(l)
            bad += 1
    with open(out, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("".join(l + "\n" for l in keep))
    ok(len(keep) > 0 and (skip_other or bad == 0),
       "%s: %d lines joined to their /dev/kmsg records (%d of %d record "
       "lines; %d other lines; %d events from seq %s)" %
       (name, len(seq_of), i, len(lines), bad, len(truth),
        min(truth) if truth else "-"))
    subprocess.run([tools + "/kmsg", "dmesg", "--json", "--db", db, out],
                   stdout=open(out + ".json", "w"), stderr=subprocess.STDOUT)
    check(name, load(out + ".json"), seq_of)

# the console as it printed the boot (ttyS0, kept by qemu/run.sh next to
# the recording), and dmesg in the guest (busybox: its first 16 KiB)
text_form("console log", console, tmp + "/console.txt", True)
text_form("dmesg text", rec + "/boot-dmesg.txt", tmp + "/dmesg.txt", False)

# the /dev/kmsg records themselves: one line, one record
seq_rec = {}
with open(rec + "/boot-kmsg.txt", encoding="utf-8", errors="surrogateescape") as f:
    for k, raw in enumerate(f):
        m = re.match(r'(\d+),(\d+),', raw)
        if m:
            seq_rec[k + 1] = int(m.group(2))
check("/dev/kmsg records", load(tmp + "/kmsg"), seq_rec)
EOF
rc=${PIPESTATUS[0]}
n=$((n + $(grep -c '^\(not \)\?ok ' "$tmp/py.tap")))
[ $rc = 0 ] || bail "the python3 checker exited with status $rc after $n results"
tap_end
