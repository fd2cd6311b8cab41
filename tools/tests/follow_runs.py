#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""follow_runs.py DIR [SINK]

Check the three runs of kmsg dmesg --follow of qemu/stock/service.sh (in
DIR, qemu/stock-boot.sh's output directory) in each sink: "journal" (the
service's runs, DIR/journal.json, told apart by _PID as DIR/service.log
names them) and "otlp" (DIR/otlp.1 to otlp.3).  Each run is a list of
items, a record (one seq) or a "missed" report (seqs FIRST to LAST), in
the order written.  With SINK, that sink alone (a test's broken copy).
Prints "SINK.key value" lines:

  runs                 runs found (3)
  first, end           the first seq written, the seq of the marker "end"
  records, missed      records written, records reported missed, in all
  burst_missed         those missed while both were stopped over burst 1
                       (after the marker "run 1", before "burst 1 end")
  down                 records written while none ran (the markers "down
                       1", "down 2" after the clean stop, "down 3" after
                       the kill), each written once
  twice                seqs written again after the kill -9 (run 3 again
                       from its state file): counted, not a break
  twice_span_ms        the time from the first of them to the last of
                       run 2 (observedTimeUnixNano; journald's reception
                       time __REALTIME_TIMESTAMP in the journal)
  run2_burst           the records of burst 2 that run 2 wrote before
                       the kill, run2_burst_span_ms the time from the
                       first to the last (the same clocks)
  bad                  breaks: within a run an item that does not start at
                       the seq after the one before; run 2 not starting
                       right after run 1 (a clean restart: nothing twice,
                       nothing lost); run 3 starting after run 2's end
                       (lost) or before its state file could be (more
                       than run 2 wrote); a seq missed outside burst 1,
                       or written twice but at the kill; a record of run
                       3 written twice with another text than in run 2;
                       the end not reached
  text_bad             seqs both sinks wrote with different texts or ids
                       (SINK "both", printed when neither is given)

and "bad SINK: WHY" for each of the first 20 breaks.
"""
import json
import os
import sys

MARK = "stock-service: "


def otlp_items(path):
    items = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            try:
                r = json.loads(line)["resourceLogs"][0]["scopeLogs"][0][
                    "logRecords"][0]
            except (ValueError, KeyError, IndexError, TypeError):
                items.append({"bad": f"{path}:{n}: not an OTLP log record"})
                continue
            a = {}
            for kv in r.get("attributes", []):
                v = kv.get("value", {})
                a[kv.get("key")] = v.get("intValue", v.get("stringValue"))
            t = int(r.get("observedTimeUnixNano", 0)) // 1000000
            if "kmsg.missed" in a:
                items.append({"first": int(a["kmsg.first_seq"]),
                              "last": int(a["kmsg.last_seq"]),
                              "missed": int(a["kmsg.missed"]), "ms": t})
            elif "kmsg.seq" in a:
                items.append({"seq": int(a["kmsg.seq"]), "ms": t,
                              "text": r.get("body", {}).get("stringValue"),
                              "id": r.get("eventName"),
                              "auto_id": a.get("kmsg.auto_id"),
                              "match": a.get("kmsg.match")})
            else:
                items.append({"bad": f"{path}:{n}: neither a record nor "
                              "a missed report"})
    return items


def journal_items(path, pids):
    runs = {p: [] for p in pids}
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            try:
                e = json.loads(line)
                pid = e["_PID"]
            except (ValueError, KeyError, TypeError):
                continue
            if pid not in runs:
                runs.setdefault(pid, []).append(
                    {"bad": f"{path}:{n}: _PID {pid} is none of the runs'"})
                continue
            t = int(e.get("__REALTIME_TIMESTAMP", 0)) // 1000
            if "KMSG_MISSED" in e:
                runs[pid].append({"first": int(e["KMSG_MISSED_FIRST_SEQ"]),
                                  "last": int(e["KMSG_MISSED_LAST_SEQ"]),
                                  "missed": int(e["KMSG_MISSED"]), "ms": t})
            elif "KMSG_SEQ" in e:
                runs[pid].append({"seq": int(e["KMSG_SEQ"]), "ms": t,
                                  "text": e.get("MESSAGE"),
                                  "id": e.get("KMSG_ID"),
                                  "auto_id": e.get("KMSG_AUTO_ID"),
                                  "match": e.get("KMSG_MATCH")})
            # the service's other entries (no seq) are not the stream's
    return [runs[p] for p in pids]


def span(it):
    if "seq" in it:
        return it["seq"], it["seq"]
    return it["first"], it["last"]


def check(sink, runs):
    out = {"runs": len(runs), "first": -1, "end": -1, "records": 0,
           "missed": 0, "burst_missed": 0, "down": 0, "twice": 0,
           "twice_span_ms": 0, "run2_burst": 0, "run2_burst_span_ms": 0,
           "bad": 0}
    why = []

    def bad(w):
        out["bad"] += 1
        if len(why) < 20:
            why.append(f"{sink}: {w}")

    if len(runs) != 3:
        bad(f"{len(runs)} runs, not 3")
        return out, why, {}
    marks = {}
    for r in runs:
        for it in r:
            t = it.get("text")
            if isinstance(t, str) and t.startswith(MARK):
                marks.setdefault(t[len(MARK):], it["seq"])
    # the marker "burst 1 begin" is overwritten in the overrun: burst 1
    # is from the marker "run 1" (read before both were stopped) to "burst
    # 1 end"
    for m in ("run 1", "burst 1 end", "end"):
        if m not in marks:
            bad(f"no marker \"{m}\"")
    if out["bad"]:
        return out, why, {}
    b0, b1 = marks["run 1"], marks["burst 1 end"]
    out["end"] = marks["end"]
    written = {}
    ends = []
    for k, r in enumerate(runs, 1):
        nxt = None
        for it in r:
            if "bad" in it:
                bad(it["bad"])
                continue
            a, b = span(it)
            if nxt is not None and a != nxt:
                bad(f"run {k}: seq {a} after seq {nxt - 1}")
            nxt = b + 1
            if "missed" in it:
                if it["missed"] != b - a + 1 or b < a:
                    bad(f"run {k}: missed {it['missed']} is not {a} to {b}")
                out["missed"] += b - a + 1
                if k == 1 and b0 < a and b < b1:
                    out["burst_missed"] += b - a + 1
                else:
                    bad(f"run {k}: seqs {a} to {b} missed, outside burst 1 "
                        f"({b0} to {b1}) of run 1")
                continue
            out["records"] += 1
            written.setdefault(it["seq"], []).append((k, it))
        first = span(r[0])[0] if r else None
        ends.append((first, nxt))
    out["first"] = ends[0][0]
    (s1, e1), (s2, e2), (s3, e3) = ends
    if s2 != e1:
        bad(f"run 2 (a clean restart) starts at seq {s2}, run 1 ended "
            f"at {e1 - 1}")
    if s3 is None or s3 > e2:
        bad(f"run 3 starts at seq {s3}, after run 2's last {e2 - 1}: lost")
    if e3 is None or e3 <= out["end"]:
        bad(f"run 3 ends at seq {(e3 or 0) - 1}, before the end marker")
    again = [s for s, w in written.items() if len(w) > 1]
    for s in again:
        w = written[s]
        if [k for k, _ in w] != [2, 3] or s < s3:
            bad(f"seq {s} written by runs {[k for k, _ in w]}")
        elif w[0][1]["text"] != w[1][1]["text"]:
            bad(f"seq {s} written twice with different texts")
    out["twice"] = len(again)
    if again:
        last2 = max(it["ms"] for it in runs[1] if "seq" in it)
        out["twice_span_ms"] = last2 - min(written[s][0][1]["ms"]
                                           for s in again)
    b2 = [it["ms"] for it in runs[1] if isinstance(it.get("text"), str) and
          it["text"].startswith(MARK + "burst 2 ")]
    out["run2_burst"] = len(b2)
    out["run2_burst_span_ms"] = max(b2) - min(b2) if b2 else 0
    for m in ("down 1", "down 2", "down 3"):
        s = marks.get(m)
        if s is None or len(written.get(s, [])) != 1:
            bad(f"the record \"{m}\" (while none ran) not written once")
        else:
            out["down"] += 1
    return out, why, {s: w[0][1] for s, w in written.items()}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    d = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) == 3 else None
    pids = []
    with open(os.path.join(d, "service.log"), encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if len(w) == 6 and w[0] == "run" and w[2] == "journal":
                pids.append(w[3])
    sinks = {}
    if only in (None, "journal"):
        sinks["journal"] = journal_items(os.path.join(d, "journal.json"),
                                         pids)
    if only in (None, "otlp"):
        sinks["otlp"] = [otlp_items(os.path.join(d, f"otlp.{k}"))
                         for k in (1, 2, 3)]
    recs = {}
    for sink, runs in sinks.items():
        out, why, recs[sink] = check(sink, runs)
        for k, v in out.items():
            print(f"{sink}.{k}", v)
        for w in why:
            print("bad", w)
    if only is None:
        n = 0
        j, o = recs["journal"], recs["otlp"]
        for s in sorted(set(j) & set(o)):
            if any(j[s].get(k) != o[s].get(k)
                   for k in ("text", "id", "auto_id", "match")):
                n += 1
                if n <= 5:
                    print("bad", f"both: seq {s}: journal {j[s]} otlp "
                          f"{o[s]}"[:300])
        print("both.text_bad", n)
        print("both.seqs", len(set(j) & set(o)))


if __name__ == "__main__":
    main()
