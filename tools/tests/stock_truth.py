#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""stock_truth.py TRUTH JSON [--same-text COMMITTED_LOG]

Judge kmsg dmesg --json output (JSON, one object per line) against a
truth file (qemu/stock/truth.tsv: seq, prio, id or class, ...).  Prints
"key value" lines, every key each time:

  records   the JSON's records (objects with a seq), each seq once
  twice     JSON objects whose seq an earlier one had
  truth     the records of the truth
  judged    records judged by a line of the truth
  lost      (committed log) the truth's records the JSON lacks
  extra     (committed log) JSON records the truth does not know
  skipped   (--same-text) records not judged: skipped_absent (no record
            of the committed log has their text: a time, an address),
            skipped_ambiguous (several have, with different truths)
  holes     (--same-text) seqs from the committed log's first to the
            JSON's last that the JSON lacks
  uncovered (--same-text) records of the committed log whose text no
            record of the JSON has
  ids       judged records with an id of their own in the truth
  right     of them, identified (match exact or printed) with that id
  wrong     records identified with another id, or any id for a record
            of class noliteral or userspace
  missed    of ids, not identified (ambiguous, weak, unidentified)
  noliteral, noliteral_right, userspace, unknown (truth lines unknown)
  tagonly, tagonly_right, tagonly_missed
            a breakdown of ids, for the report only: the records whose
            format's only text is a subsystem's tag ("AppArmor: %s"),
            by kmsg_match's rule (tag_only() below), which calls them
            weak.  They count in ids, right and missed like any other.

then one line per fault: "wrong SEQ TRUTH GOT TEXT", "twice_seq SEQ",
"lost_seq SEQ", "extra_seq SEQ", "hole_seq SEQ", and "skip_seq SEQ
absent|ambiguous TEXT" per record skipped; the first 30 of each kind,
then "KIND and N more".  A noliteral record given its own site's id
(the first fragment of a line its KERN_CONT fragments give text to:
"  %-8s " then "[mem ...]") is not wrong: it is counted in
noliteral_right.

With --same-text LOG, JSON is of another boot of the same kernel: a
record is judged by the truth line of the record of LOG (/dev/kmsg
format) with the same text, if exactly one has it, or if all that have
it have the same truth; the others are skipped, each with its reason.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from hwlog_truth import auto_id  # noqa: E402

CONV = re.compile(r"%[-+ #0]*[0-9*]*(?:\.[0-9*]*)?(?:hh|h|ll|l|L|z|t|j)?"
                  r"(?:p[a-zA-Z]*|[a-zA-Z%])")
CLASSES = ("noliteral", "userspace", "unknown")
SHOWN = 30  # fault lines shown of each kind


def tag_only(fmt):
    """For the breakdown only, never the verdict: is the format's only
    text a subsystem's tag ("AppArmor: %s", "evm: %s%s", "%sACPI: %s:
    %pV"): what pr_fmt() or a wrapper puts before every message, nothing
    of the message itself?  As kmsg_match has it: the text before the
    first ": " (or " : ") with no conversion in it, the rest without a
    letter or digit."""
    fmt = fmt.replace("\\n", "").replace("\\c", "")
    lit = CONV.sub("\x00", fmt)
    m = re.match(r"^\x00?([^\x00]*?) ?: ", lit)
    if not m or not re.search(r"\w", m.group(1)):
        return False
    return not re.search(r"[A-Za-z0-9]", lit[m.end():])


class Line:
    """a line of the truth"""

    def __init__(self, field):
        self.want = field[2]
        self.tagonly = self.want not in CLASSES and len(field) > 5 and \
            tag_only(field[5])
        # the automatic id of a noliteral record's own site
        self.site_id = auto_id(field[3], field[5]) \
            if self.want == "noliteral" and len(field) > 5 else None


def read_truth(path):
    truth = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            field = line.rstrip("\n").split("\t")
            if len(field) < 3 or not field[0].isdigit():
                sys.exit(f"{path}: malformed line: {line.strip()[:80]}")
            truth[int(field[0])] = Line(field)
    return truth


def unescape(text):
    """the text of a /dev/kmsg record: its \\xHH escapes undone (of a
    byte below 0x20 or above 0x7e, or the backslash)"""
    b = re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
               text.encode("utf-8", "surrogateescape"))
    return b.decode("utf-8", "replace")


def read_records(path):
    """seq -> text of a /dev/kmsg dump (dictionary lines skipped)"""
    recs = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if line.startswith(" ") or ";" not in line:
                continue
            head, text = line.rstrip("\n").split(";", 1)
            parts = head.split(",")
            if len(parts) >= 2 and parts[1].isdigit():
                recs[int(parts[1])] = unescape(text)
    return recs


def judge(line, j, count, faults):
    """count the verdict on JSON record j of the truth's line"""
    seq = j["seq"]
    got = j.get("id") if j.get("match") in ("exact", "printed") else None
    want = line.want
    if want in CLASSES:
        count[want] += 1
        if got and want == "noliteral" and got == line.site_id:
            count["noliteral_right"] += 1
        elif got:
            count["wrong"] += 1
            faults.append(("wrong", seq, want, got, j.get("text", "")[:100]))
        return
    count["ids"] += 1
    if line.tagonly:
        count["tagonly"] += 1
    if got == want or (got and j.get("auto_id") == want):
        count["right"] += 1
        if line.tagonly:
            count["tagonly_right"] += 1
    elif got:
        count["wrong"] += 1
        faults.append(("wrong", seq, want, got, j.get("text", "")[:100]))
    else:
        count["missed"] += 1
        if line.tagonly:
            count["tagonly_missed"] += 1


def main():
    args = sys.argv[1:]
    same = None
    if len(args) == 4 and args[2] == "--same-text":
        same = args[3]
        args = args[:2]
    if len(args) != 2:
        sys.exit(__doc__)
    truth = read_truth(args[0])
    count = dict.fromkeys((
        "records", "twice", "truth", "judged", "lost", "extra", "skipped",
        "skipped_absent", "skipped_ambiguous", "holes", "uncovered", "ids",
        "right", "wrong", "missed", "noliteral", "noliteral_right",
        "userspace", "unknown", "tagonly", "tagonly_right",
        "tagonly_missed"), 0)
    count["truth"] = len(truth)
    by_text = None
    if same:
        committed = read_records(same)
        by_text = {}
        for seq, text in committed.items():
            by_text.setdefault(text, []).append(seq)
    faults = []
    seen = set()
    texts = set()
    with open(args[1], encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                j = json.loads(line)
            except ValueError:
                sys.exit(f"{args[1]}:{n}: not JSON: {line.strip()[:80]}")
            seq = j.get("seq")
            if seq is None:
                continue
            if seq in seen:
                count["twice"] += 1
                faults.append(("twice_seq", seq))
                continue
            seen.add(seq)
            count["records"] += 1
            if by_text is None:
                if seq not in truth:
                    count["extra"] += 1
                    faults.append(("extra_seq", seq))
                    continue
                key = seq
            else:
                texts.add(j.get("text"))
                seqs = [s for s in by_text.get(j.get("text"), [])
                        if s in truth]
                wants = {(truth[s].want, truth[s].site_id) for s in seqs}
                if len(wants) != 1:
                    why = "absent" if not seqs else "ambiguous"
                    count["skipped"] += 1
                    count["skipped_" + why] += 1
                    faults.append(("skip_seq", seq, why,
                                   j.get("text", "")[:60]))
                    continue
                key = seqs[0]
            count["judged"] += 1
            judge(truth[key], j, count, faults)
    if by_text is None:
        for seq in sorted(set(truth) - seen):
            count["lost"] += 1
            faults.append(("lost_seq", seq))
    else:
        first = min(committed, default=0)
        for seq in range(first, max(seen, default=first - 1) + 1):
            if seq not in seen:
                count["holes"] += 1
                faults.append(("hole_seq", seq))
        count["uncovered"] = sum(1 for t in committed.values()
                                 if t not in texts)
    for k, v in count.items():
        print(k, v)
    shown = {}
    for fault in faults:
        shown[fault[0]] = shown.get(fault[0], 0) + 1
        if shown[fault[0]] <= SHOWN:
            print(*fault)
    for kind, n in shown.items():
        if n > SHOWN:
            print(kind, "and", n - SHOWN, "more")


if __name__ == "__main__":
    main()
