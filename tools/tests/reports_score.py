#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Score kmsg reports --json on syzkaller's report corpus.

reports_score.py CORPUS_DIR LOGS_DIR JSON [--min-class P] [--min-title P]
                 [--min-corrupted P]

CORPUS_DIR holds syzkaller's files (header lines, a blank line, the log);
LOGS_DIR the same logs without their header, under the same names, which
kmsg reports read; JSON its output. The first report of a log is compared
with the file's headers:

- class: syzkaller's TITLE without its last " in FRAME" or " at PLACE"
  (the guilty frame or source line; "in corrupted" when it found none)
  equals kmsg's title without the same, after CLASS_MAP (syzkaller's
  names for an older wording of a header kmsg gives one class);
- title: kmsg's whole title equals TITLE;
- negatives: a file without TITLE gives no report at all;
- corrupted: a file with CORRUPTED: Y gets "corrupted": true;
- false corrupted: a titled file without CORRUPTED: Y whose report kmsg
  flags corrupted (a figure and diagnostics, no threshold yet).

Prints TAP results for the thresholds given and each disagreement as a
"# KIND FILE: ..." diagnostic; the scores on the last lines.
"""
import json
import os
import re
import sys

# syzkaller's class names for older wordings kmsg's catalog makes one class
CLASS_MAP = {
    "INFO: suspicious RCU usage": "WARNING: suspicious RCU usage",
}


def class_of(title):
    c = re.sub(r" (in|at) \S+$", "", title)
    return CLASS_MAP.get(c, c)


def headers(path):
    h = {"ALT": []}
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if not line.strip():
                break
            if line.startswith("#") or ": " not in line:
                continue
            k, v = line.split(": ", 1)
            if k == "ALT":
                h["ALT"].append(v)
            else:
                h[k] = v
    return h


def main():
    args = sys.argv[1:]
    opts = {"--min-class": 0.0, "--min-title": 0.0, "--min-corrupted": 0.0,
            "--max-false-corrupted": 100.0}
    pos = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = float(args[i + 1])
            i += 2
        else:
            pos.append(args[i])
            i += 1
    corpus, logs, jpath = pos
    first = {}
    with open(jpath, encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            name = os.path.basename(o["file"])
            first.setdefault(name, o)
    names = sorted(os.listdir(corpus), key=lambda s: (len(s), s))
    titled = cls_ok = title_ok = neg = neg_ok = corr = corr_ok = 0
    uncorr = false_corr = 0
    diags = []
    for name in names:
        h = headers(os.path.join(corpus, name))
        got = first.get(name)
        want = h.get("TITLE")
        if want is None:
            neg += 1
            if got is None:
                neg_ok += 1
            else:
                diags.append("false-report %s: %s" % (name, got["title"]))
            continue
        titled += 1
        if got is None:
            diags.append("missed %s: want %r" % (name, want))
        else:
            if class_of(got["title"]) == class_of(want):
                cls_ok += 1
            else:
                diags.append("class %s: want %r got %r" %
                             (name, class_of(want), class_of(got["title"])))
            if got["title"] == want:
                title_ok += 1
            elif class_of(got["title"]) == class_of(want):
                diags.append("frame %s: want %r got %r" %
                             (name, want, got["title"]))
        if h.get("CORRUPTED") == "Y":
            corr += 1
            if got is not None and got.get("corrupted"):
                corr_ok += 1
            else:
                diags.append("not-corrupted %s: want corrupted" % name)
        else:
            uncorr += 1
            if got is not None and got.get("corrupted"):
                false_corr += 1
                diags.append("false-corrupted %s: %s (%s)" %
                             (name, got["title"], got.get("reason", "")))
    pct = lambda a, b: 100.0 * a / b if b else 100.0
    for d in diags:
        print("# " + d)
    res = [
        ("class of the titled logs", pct(cls_ok, titled), opts["--min-class"],
         "%d/%d" % (cls_ok, titled)),
        ("title of the titled logs", pct(title_ok, titled), opts["--min-title"],
         "%d/%d" % (title_ok, titled)),
        ("no report on the logs without one", pct(neg_ok, neg), 100.0,
         "%d/%d" % (neg_ok, neg)),
        ("CORRUPTED logs flagged", pct(corr_ok, corr), opts["--min-corrupted"],
         "%d/%d" % (corr_ok, corr)),
    ]
    print("# false corrupted: %d of %d logs not marked CORRUPTED = %.1f%%" %
          (false_corr, uncorr, pct(false_corr, uncorr)))
    n = 0
    for what, got, want, frac in res:
        n += 1
        print("%s %d %s: %s = %.1f%% (at least %.0f%%)" %
              ("ok" if got >= want else "not ok", n, what, frac, got, want))
    # a flag on a whole report is a wrong flag: at most this many
    fc, fmax = pct(false_corr, uncorr), opts["--max-false-corrupted"]
    n += 1
    print("%s %d logs not marked CORRUPTED that kmsg flags: %d/%d = %.1f%% "
          "(at most %.0f%%)" % ("ok" if fc <= fmax else "not ok", n,
                                false_corr, uncorr, fc, fmax))
    print("1..%d" % n)
    return 0 if all(g >= w for _, g, w, _ in res) and fc <= fmax else 1


if __name__ == "__main__":
    sys.exit(main())
