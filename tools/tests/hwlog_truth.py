#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hwlog_truth.py check TRUTH LOG
   hwlog_truth.py judge TRUTH JSON [IDS]
   hwlog_truth.py id MODNAME FORMAT

The truth of a real machine's kernel log (tools/tests/hwlogs/NAME.sites,
written by reading the kernel's source, never from kmsg's output): one
line per line of the log NAME.dmesg, tab-separated:

  line    the line's number in the log (from 1)
  kind    "site" (a printk call of the source prints it), "userspace"
          (not the kernel's: a program wrote it to /dev/kmsg), "unknown"
          (no call of this source prints it: the log's kernel is another
          version; the note says why)
  modname KBUILD_MODNAME of the call ("-" but for a site)
  site    FILE:LINE in the source the truth was read from ("-")
  prefix  what the call prints before the format, as the database has
          it: "%s %s: " (dev_*()), "%s %s %s%s: " (netdev_*()), "%s %s:
          error %pe: " (dev_err_probe()), "" (none)
  format  the format as compiled, C escapes (backslash n, t, backslash);
          a first fragment continued with pr_cont() ends in backslash c
  inner   for a message printed through a wrapper that takes a format
          (bt_info(), acpi_handle_info(), ...), "MODNAME FORMAT" of the
          wrapper's caller, else "-"
  note    how it was found

The id a line should get is the site's automatic id, MODNAME.h and the
32-bit FNV-1a hash of the format without its one trailing newline
(docs-db/SCHEMA.md), computed here; a site whose format has no text of
its own ("%s", "%s%s") is of class "noliteral": no line of it can be
identified by its text.

check: every line of TRUTH is well formed, every line of LOG has one, and
each judged format (prefix and format, each conversion any text) matches
its line, and an inner format a part of it: a self-check of the truth,
without kmsg.  Exit status 1 on a
mismatch, each named.

id: the automatic id of FORMAT (C escapes) of module MODNAME.

judge: kmsg dmesg --json output against TRUTH.  Prints "key value"
lines: lines (judged), ids (lines whose truth is an id), right (given
that id, or the inner one), wrong (another id, or any id for a class),
missed (not identified), own8 and own8_right (ids whose format has at
least 8 literal bytes of its own, not printed through a wrapper, their
text not masked by hw-probe, and of those, right), anonymized (lines of
an id whose text hw-probe masked: "XXX", or so noted), wrapped and
wrapped_right (lines printed through a
wrapper, and of those, given the wrapper's or the inner id), noliteral_right
(a noliteral line given its own site's id: the first fragment of a line
its KERN_CONT fragments give text to), weak (lines of an id given weak
candidates only), cand_lines (ambiguous lines of an id) and cand_missing
(of them, candidates without the truth's id, where that id is in IDS --
a file of the database's ids, one a line --, the line's text is the
kernel's, not anonymized, and the candidates are fewer than the 8 a line
lists), and a line "wrong LINE WANT GOT TEXT" per wrong id, "cand LINE
WANT CANDIDATES" per candidates without the truth.
"""
import json
import re
import sys

CONV = re.compile(r"%(?:%|[-+ #0]*(?:[0-9]+|\*)?(?:\.(?:[0-9]+|\*)?)?"
                  r"(?:hh|h|ll|l|L|z|Z|t|j|q)?"
                  r"(?:p[a-zA-Z0-9]*|[a-zA-Z]))")
CLASSES = ("noliteral", "userspace", "unknown")


def unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            i += 2
            if n == "n":
                out.append("\n")
            elif n == "t":
                out.append("\t")
            elif n == "\\":
                out.append("\\")
            elif n == '"':
                out.append('"')
            elif n == "c":
                out.append("\x00")	# the pr_cont() mark
            elif n in "01234567":
                j = i
                while j < len(s) and j < i + 2 and s[j] in "01234567":
                    j += 1
                out.append(chr(int(s[i - 1:j], 8)))
                i = j
            else:
                out.append("\\" + n)
            continue
        out.append(c)
        i += 1
    return "".join(out)


def fnv1a(data):
    h = 0x811c9dc5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h


def auto_id(modname, fmt):
    """the automatic id of a format (its C escapes undone)"""
    f = unescape(fmt).rstrip("\x00")
    if f.endswith("\n"):
        f = f[:-1]
    return "%s.h%08x" % (modname, fnv1a(f.encode("utf-8", "surrogateescape")))


def read_truth(path):
    truth = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            field = line.rstrip("\n").split("\t")
            if len(field) != 8 or not field[0].isdigit():
                sys.exit(f"{path}:{n}: not 8 tab-separated fields with a line number")
            kind, mod, fmt, inner = field[1], field[2], field[5], field[6]
            if kind == "site":
                if not re.match(r"^[A-Za-z0-9_]+$", mod):
                    sys.exit(f"{path}:{n}: modname '{mod}' is not a KBUILD_MODNAME")
                want = auto_id(mod, fmt) if own_literal(unescape(fmt).rstrip("\x00")) \
                    else "noliteral"
            elif kind in ("userspace", "unknown"):
                want = kind
            else:
                sys.exit(f"{path}:{n}: kind '{kind}' is not site, userspace or unknown")
            ifmt = None
            if inner != "-":
                imod, _, ifmt = inner.partition(" ")
                if not re.match(r"^[A-Za-z0-9_]+$", imod) or not ifmt:
                    sys.exit(f"{path}:{n}: inner '{inner}' is not 'MODNAME FORMAT'")
                inner = auto_id(imod, ifmt)
                # a wrapper of no text of its own ("%pV"): the inner id
                if want == "noliteral":
                    want = inner
            lineno = int(field[0])
            if lineno in truth:
                sys.exit(f"{path}:{n}: line {lineno} judged twice")
            truth[lineno] = {"want": want, "mod": mod, "site": field[3],
                             "prefix": field[4], "format": fmt,
                             "inner": inner, "inner_format": ifmt,
                             "note": field[7]}
    return truth


STAMP = re.compile(r"^\[\s*[0-9]+\.[0-9]+\] ?")


def log_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [STAMP.sub("", l.rstrip("\n"), count=1) for l in f]


def own_literal(fmt):
    """literal bytes of the format that are not space"""
    return len(re.sub(r"\s", "", CONV.sub("", fmt.replace("%%", "%"))))


def regex_of(prefix, fmt):
    cont = fmt.endswith("\x00")
    fmt = fmt.rstrip("\x00")
    if fmt.endswith("\n"):
        fmt = fmt[:-1]
    out, at = [], 0
    for m in CONV.finditer(prefix + fmt):
        out.append(re.escape((prefix + fmt)[at:m.start()]))
        out.append("%" if m.group(0) == "%%" else "(?s:.*?)")
        at = m.end()
    out.append(re.escape((prefix + fmt)[at:]))
    return "".join(out) + ("(?s:.*)" if cont else "")


def check(truth_path, log_path):
    truth = read_truth(truth_path)
    lines = log_lines(log_path)
    bad = 0
    for n in range(1, len(lines) + 1):
        if n not in truth:
            print(f"{truth_path}: line {n} of {log_path} is not judged")
            bad += 1
    for n, t in sorted(truth.items()):
        if n > len(lines):
            print(f"{truth_path}: line {n}: the log has {len(lines)} lines")
            bad += 1
            continue
        if t["want"] in ("userspace", "unknown") or "anonymized" in t["note"]:
            continue
        rx = regex_of(unescape(t["prefix"]), unescape(t["format"]))
        text = lines[n - 1].rstrip()
        if not re.fullmatch(rx, text) and not re.fullmatch(rx, lines[n - 1]):
            print(f"{truth_path}: line {n}: {t['format']!r} does not print {text!r}")
            bad += 1
        # the format passed to a wrapper prints a part of the line
        irx = t["inner_format"] and regex_of("", unescape(t["inner_format"]))
        if irx and not re.search(irx, lines[n - 1]):
            print(f"{truth_path}: line {n}: inner {t['inner_format']!r} does not print a part of {text!r}")
            bad += 1
    print(f"{len(truth)} lines, {bad} bad")
    return 1 if bad else 0


def judge(truth_path, json_path, ids_path=None):
    truth = read_truth(truth_path)
    known = None
    if ids_path:
        with open(ids_path, encoding="utf-8") as f:
            known = {l.strip() for l in f}
    count = dict.fromkeys(("lines", "ids", "right", "wrong", "missed", "own8",
                           "own8_right", "wrapped", "wrapped_right", "anonymized",
                           "noliteral_right", "weak",
                           "cand_lines", "cand_missing"), 0)
    for k in CLASSES:
        count[k] = 0
    out = []
    seen = set()
    with open(json_path, encoding="utf-8") as f:
        for line in f:
            j = json.loads(line)
            n = j.get("line")
            if n is None or n in seen or n not in truth:
                continue
            seen.add(n)
            t = truth[n]
            want = t["want"]
            count["lines"] += 1
            got = j.get("id") if j.get("match") in ("exact", "printed") else None
            ok = {want, t["inner"]} - {"-"}
            if want in CLASSES:
                count[want] += 1
                if got and want == "noliteral" and \
                        got == auto_id(t["mod"], t["format"]):
                    count["noliteral_right"] += 1
                elif got:
                    count["wrong"] += 1
                    out.append(f"wrong {n} {want} {got} {j.get('text', '')[:100]}")
                continue
            count["ids"] += 1
            # a wrapper's own text is not the message's, and a line
            # hw-probe masked ("XXX") not the kernel's: counted apart
            anon = "anonymized" in t["note"] or "XXX" in j.get("text", "")
            count["anonymized"] += anon
            own8 = own_literal(unescape(t["format"]).rstrip("\x00")) >= 8 and \
                t["inner"] == "-" and not anon
            count["wrapped"] += t["inner"] != "-"
            count["own8"] += own8
            if got and (got in ok or j.get("auto_id") in ok):
                count["right"] += 1
                count["own8_right"] += own8
                count["wrapped_right"] += t["inner"] != "-"
            elif got:
                count["wrong"] += 1
                out.append(f"wrong {n} {want} {got} {j.get('text', '')[:100]}")
            else:
                count["missed"] += 1
                cands = [c.get("id") for c in j.get("candidates", [])]
                if j.get("match") == "weak":
                    count["weak"] += 1
                elif cands:
                    count["cand_lines"] += 1
                    if not ok & set(cands) and len(cands) < 8 and not anon and \
                            (known is None or ok & known):
                        count["cand_missing"] += 1
                        out.append(f"cand {n} {want} {' '.join(cands)}")
    missing = sorted(set(truth) - seen)
    count["unjudged"] = len(missing)
    for k, v in count.items():
        print(k, v)
    for o in out:
        print(o)
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "id":
        print(auto_id(sys.argv[2], sys.argv[3]))
        return
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("check", "judge") or \
            (sys.argv[1] == "check" and len(sys.argv) != 4):
        sys.exit(__doc__)
    if sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    sys.exit(judge(sys.argv[2], sys.argv[3],
                   sys.argv[4] if len(sys.argv) == 5 else None))


if __name__ == "__main__":
    main()
