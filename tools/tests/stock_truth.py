#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""stock_truth.py TRUTH JSON [--same-text COMMITTED_LOG]

Judge kmsg dmesg --json output (JSON, one object per line) against a
truth file (qemu/stock/truth.tsv: seq, prio, id or class, ...).  Prints
"key value" lines: ids (records the truth gives an id), right (identified
with that id), wrong (identified with another id, or any id for a record
of class noliteral or userspace), missed (not identified: ambiguous, weak,
unidentified), noliteral, tagonly (a format whose only text is a
subsystem's tag: counted apart as noliteral is, and not judged: the
truth does not give their ids to kmsg_match, which makes them weak),
userspace, unknown (truth lines still unknown),
records (judged), and one "wrong SEQ TRUTH GOT TEXT" line per wrong id.
A noliteral record given its own site's id (the first fragment of a line
its KERN_CONT fragments give text to: "  %-8s " then "[mem ...]") is
not wrong: it is counted in noliteral_right.

With --same-text LOG, JSON is of another boot of the same kernel: a
record is judged by the truth line of the record of LOG (/dev/kmsg
format) with the same text, if exactly one has it; others are skipped.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from hwlog_truth import auto_id  # noqa: E402

CONV = re.compile(r"%[-+ #0]*[0-9*]*(?:\.[0-9*]*)?(?:hh|h|ll|l|L|z|t|j)?"
                  r"(?:p[a-zA-Z]*|[a-zA-Z%])")


def tag_only(fmt):
    """Is the format's only text a subsystem's tag ("AppArmor: %s",
    "evm: %s%s", "%sACPI: %s: %pV"): what pr_fmt() or a wrapper puts
    before every message, nothing of the message itself?  As kmsg_match
    has it: the text before the first ": " (or " : ") with no conversion
    in it, the rest without a letter or digit."""
    fmt = fmt.replace("\\n", "").replace("\\c", "")
    lit = CONV.sub("\x00", fmt)
    m = re.match(r"^\x00?([^\x00]*?) ?: ", lit)
    if not m or not re.search(r"\w", m.group(1)):
        return False
    return not re.search(r"[A-Za-z0-9]", lit[m.end():])


truth_id = {}
# the automatic id of a noliteral record's own site
site_id = {}


def read_truth(path):
    truth = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            field = line.rstrip("\n").split("\t")
            if len(field) < 3 or not field[0].isdigit():
                sys.exit(f"{path}: malformed line: {line.strip()[:80]}")
            want = field[2]
            if len(field) > 5 and want not in ("noliteral", "userspace",
                                               "unknown") and \
                    tag_only(field[5]):
                want = "tagonly"
            truth[int(field[0])] = want
            truth_id[int(field[0])] = field[2]
            if want == "noliteral" and len(field) > 5:
                site_id[int(field[0])] = auto_id(field[3], field[5])
    return truth


def read_records(path):
    """seq -> text of a /dev/kmsg dump (dictionary lines skipped)"""
    recs = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(" ") or ";" not in line:
                continue
            head, text = line.rstrip("\n").split(";", 1)
            parts = head.split(",")
            if len(parts) >= 2 and parts[1].isdigit():
                recs[int(parts[1])] = text
    return recs


def main():
    args = sys.argv[1:]
    same = None
    if len(args) == 4 and args[2] == "--same-text":
        same = args[3]
        args = args[:2]
    if len(args) != 2:
        sys.exit(__doc__)
    truth = read_truth(args[0])
    by_text = None
    if same:
        by_text = {}
        for seq, text in read_records(same).items():
            by_text.setdefault(text, []).append(seq)
    count = dict.fromkeys(("records", "ids", "right", "wrong", "missed",
                           "noliteral", "tagonly", "userspace", "unknown"),
                          0)
    tagright = 0
    nolitright = 0
    wrongs = []
    seen = set()
    with open(args[1], encoding="utf-8") as f:
        for line in f:
            j = json.loads(line)
            seq = j.get("seq")
            if seq is None or seq in seen:
                continue
            seen.add(seq)
            if by_text is not None:
                seqs = by_text.get(j.get("text"), [])
                if len(seqs) != 1:
                    continue
                key = seqs[0]
            else:
                key = seq
            if key not in truth:
                continue
            want = truth[key]
            count["records"] += 1
            got = j.get("id") if j.get("match") in ("exact", "printed") else None
            if want == "tagonly":
                count["tagonly"] += 1
                if got and got != truth_id[key] and \
                        j.get("auto_id") != truth_id[key]:
                    count["wrong"] += 1
                    wrongs.append((seq, truth_id[key], got, j.get("text", "")))
                elif got:
                    tagright += 1
                continue
            if want in ("noliteral", "userspace", "unknown"):
                count[want] += 1
                if got and want == "noliteral" and got == site_id.get(key):
                    nolitright += 1
                elif got:
                    count["wrong"] += 1
                    wrongs.append((seq, want, got, j.get("text", "")))
                continue
            count["ids"] += 1
            if got == want or (got and j.get("auto_id") == want):
                count["right"] += 1
            elif got:
                count["wrong"] += 1
                wrongs.append((seq, want, got, j.get("text", "")))
            else:
                count["missed"] += 1
    for k, v in count.items():
        print(k, v)
    print("tagonly_right", tagright)
    print("noliteral_right", nolitright)
    for seq, want, got, text in wrongs:
        print("wrong", seq, want, got, text[:100])


if __name__ == "__main__":
    main()
