#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""follow_stream.py RAW FOLLOW OFFLINE [IN_RANGE]

Check the output of kmsg dmesg --follow --json (FOLLOW, one object per
line) against the same boot's /dev/kmsg records read apart (RAW, as
qemu/stock-boot.sh writes kmsg.raw) and kmsg dmesg --json of RAW
(OFFLINE).  Prints "key value" lines:

  records, first, last   the records FOLLOW wrote, their first and last seq
  raw_records, raw_first, raw_last   the same of RAW
  after                  records of FOLLOW after RAW's last (read later)
  missed, gaps, overruns what its "missed" objects report, in all
  stream_bad             breaks of the stream: a seq that is not the one
                         after the one before (twice, out of order, or a
                         gap no "missed" object accounts for exactly), a
                         record of RAW that FOLLOW does not have, or one
                         it has between RAW's first and last that RAW has
                         not
  text_bad               records whose text is not RAW's of the same seq
  ident_bad              records identified otherwise than OFFLINE
                         identifies the same seq (match, id, auto_id)
  match_KIND             records of RAW's seqs that FOLLOW says matched
                         so (exact, printed, ambiguous, weak, unidentified)

and one "bad WHY" line for each of the first 20 breaks.  IN_RANGE gets
the lines of FOLLOW that are records from RAW's first seq to its last.
"""
import json
import re
import sys

ESC = re.compile(rb"\\x([0-9a-fA-F]{2})")


def text_of(raw):
    """A record's text as kmsg's JSON has it: unescaped, a byte that is
    not part of valid UTF-8 as the code point of the same value"""
    b = ESC.sub(lambda m: bytes([int(m.group(1), 16)]), raw)
    s = b.decode("utf-8", "surrogateescape")
    return "".join(chr(ord(c) - 0xdc00) if 0xdc80 <= ord(c) <= 0xdcff
                   else c for c in s)


def read_raw(path):
    """seq -> text of a /dev/kmsg dump, in the order read"""
    recs = {}
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b" ") or b";" not in line:
                continue
            head, text = line.rstrip(b"\n").split(b";", 1)
            parts = head.split(b",")
            if len(parts) >= 3 and parts[1].isdigit():
                recs[int(parts[1])] = text_of(text)
    return recs


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    raw = read_raw(sys.argv[1])
    offline = {}
    with open(sys.argv[3], encoding="utf-8") as f:
        for line in f:
            j = json.loads(line)
            if "seq" in j and "continues" not in j:
                offline.setdefault(j["seq"], j)
    count = dict.fromkeys(("records", "first", "last", "after", "missed",
                           "gaps", "overruns", "stream_bad", "text_bad",
                           "ident_bad"), 0)
    bad = []
    kinds = dict.fromkeys(("exact", "printed", "ambiguous", "weak",
                           "unidentified"), 0)

    def fail(kind, why):
        count[kind] += 1
        if len(bad) < 20:
            bad.append(why)

    raw_first, raw_last = (min(raw), max(raw)) if raw else (0, -1)
    want = None          # the seq expected next
    seen = set()
    in_range = []
    with open(sys.argv[2], encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            j = json.loads(line)
            if "missed" in j:
                a, b, m = j.get("first_seq"), j.get("last_seq"), j["missed"]
                if a is None or b is None or m < 1 or b != a + m - 1:
                    fail("stream_bad", f"line {n}: missed {m} is not "
                         f"{a} to {b}")
                elif want is not None and a != want:
                    fail("stream_bad", f"line {n}: missed from seq {a}, "
                         f"the next is {want}")
                else:
                    want = b + 1
                count["missed"] += m
                count["gaps"] += 1
                count["overruns"] += bool(j.get("overrun"))
                continue
            seq = j.get("seq")
            if seq is None:
                fail("stream_bad", f"line {n}: neither a record nor a "
                     "missed object")
                continue
            if seq in seen:
                fail("stream_bad", f"line {n}: seq {seq} twice")
            elif want is not None and seq != want:
                fail("stream_bad", f"line {n}: seq {seq}, the next is "
                     f"{want}")
            seen.add(seq)
            want = seq + 1
            if not count["records"]:
                count["first"] = seq
            count["records"] += 1
            count["last"] = seq
            if seq > raw_last:
                count["after"] += 1
                continue
            if seq < raw_first:
                continue
            in_range.append(line)
            kinds[j.get("match")] = kinds.get(j.get("match"), 0) + 1
            if seq not in raw:
                fail("stream_bad", f"line {n}: seq {seq} is not in the "
                     "records read apart")
                continue
            if j.get("text") != raw[seq]:
                fail("text_bad", f"seq {seq}: text {j.get('text')!r:.80} "
                     f"is not {raw[seq]!r:.80}")
            o = offline.get(seq, {})
            for k in ("match", "id", "auto_id"):
                if j.get(k) != o.get(k):
                    fail("ident_bad", f"seq {seq}: {k} {j.get(k)} live, "
                         f"{o.get(k)} offline: {raw[seq][:60]!r}")
                    break
    for seq in sorted(raw):
        if seq not in seen:
            fail("stream_bad", f"seq {seq} of the records read apart is "
                 "not followed")
    if len(sys.argv) == 5:
        with open(sys.argv[4], "w", encoding="utf-8") as f:
            f.writelines(in_range)
    for k in ("records", "first", "last"):
        print(k, count[k])
    print("raw_records", len(raw))
    print("raw_first", raw_first)
    print("raw_last", raw_last)
    for k in ("after", "missed", "gaps", "overruns", "stream_bad",
              "text_bad", "ident_bad"):
        print(k, count[k])
    for k, v in kinds.items():
        print(f"match_{k}", v)
    for why in bad:
        print("bad", why)


if __name__ == "__main__":
    main()
