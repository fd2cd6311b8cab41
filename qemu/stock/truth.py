#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# truth.py truth KMSG.RAW SITES     the truth file (qemu/stock/truth.tsv),
#                                   its head (HEADER) included
# truth.py candidates KMSG.RAW SITES [SRC]
#                                   records no site matches, with the
#                                   lines of SRC (git tree, tag base)
#                                   that hold their longest literal run
#
# The mechanical half of the truth of a stock boot (qemu/stock-boot.sh).
# The other half, SITES (qemu/stock/sites.tsv), is written by hand from
# the source: one line per printk call site of the log, with the
# KBUILD_MODNAME of its file, the format as compiled and the prefix a
# wrapper puts in front of it. This script never looks for a site by
# itself: it only says which of the listed sites a record's text fits,
# and stops on a record that fits none, or two that the list does not
# tell apart. kmsg's own matcher is not used.
#
# SITES: comments (#) and lines of tab-separated fields
#   MODNAME  FILE:LINE  PREFIX  FORMAT  [NOTE]
# MODNAME is "userspace" for the guest's own writes to /dev/kmsg, with
# FORMAT a regular expression. FORMAT is the whole format as printk()
# gets it (pr_fmt prefix included, KERN_ level excluded), in C escapes:
# that of the printk-family call that formats the record. A function that
# prints the caller's format through a %pV (acpi_handle_printk(),
# __ext4_msg()) is looked through, as the series' event names the message:
# the caller's format is the site, the wrapper's text before its %pV the
# PREFIX. So is one that formats it into a buffer first and prints that
# (ACPICA's acpi_info(), sdev_prefix_printk()), as kmsg-doc's table of
# buffer wrappers does (the event names such a message by the wrapper's
# "%s", which says nothing). A macro that pastes a prefix into the
# caller's format (ata_link_info(), edac_printk(), con_printk()) is: the
# pasted format at the caller is the site's. dev_printk() and netdev_*() take the fmt
# argument, their "%s %s: " prefix is PREFIX. PREFIX is what comes
# before FORMAT in the record's text: "-" nothing, "DEV" the "%s %s: "
# of dev_printk(), else a regular expression (netdev's prefix, or
# a lookahead telling apart the records of a format with little text).
# FORMAT ending in "\\c" (backslash c) is the first fragment of a record
# continued with pr_cont(): it matches the start of the text only.
# A line "=SEQ FILE:LINE" picks the site of record SEQ when several fit.
import os
import re
import subprocess
import sys

KMSG_DOC = os.environ.get("KMSG_DOC", "build/tools/kmsg-doc")
CONV = re.compile(r"%(%|[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|t|j|L)?"
                  r"(p[A-Za-z]*[0-9a-zA-Z]*|[diouxXcsfegEGaA]))")


def cunescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        i += 2
        if n in "ntr\\\"'a":
            out.append({"n": "\n", "t": "\t", "r": "\r", "a": "\a"}.get(n, n))
        elif n == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", s[i:])
            out.append(chr(int(m.group(), 16)))
            i += len(m.group())
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", s[i - 1:])
            out.append(chr(int(m.group(), 8)))
            i += len(m.group()) - 1
        else:
            raise ValueError("unknown escape \\%s in %r" % (n, s))
    return "".join(out)


def literal(fmt):
    """the format's own text: what is left without conversions and blanks"""
    return re.sub(r"\s", "", CONV.sub(lambda m: "%" if m.group(1) == "%" else "", fmt))


def fmt_regex(fmt):
    out, pos = [], 0
    for m in CONV.finditer(fmt):
        out.append(re.escape(fmt[pos:m.start()]))
        out.append("%" if m.group(1) == "%" else "(.*?)")
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return "".join(out)


class Site:
    def __init__(self, lineno, fields):
        self.lineno = lineno
        self.modname, self.where, self.prefix, fmt = fields[:4]
        self.note = fields[4] if len(fields) > 4 else ""
        self.cont = fmt.endswith("\\c")
        if self.cont:
            fmt = fmt[:-2]
        prefix = {"-": "", "DEV": r"\S+ \S+: "}.get(self.prefix, self.prefix)
        if self.modname == "userspace":
            self.fmt = None
            body = fmt
        else:
            self.fmt = cunescape(fmt)
            body = fmt_regex(self.fmt.rstrip("\n"))
        self.rx = re.compile("^" + prefix + body + ("" if self.cont else "$"), re.S)
        self.fmt_c = fmt

    def klass(self):
        if self.modname == "userspace":
            return "userspace"
        if not literal(self.fmt):
            return "noliteral"
        f = self.fmt[:-1] if self.fmt.endswith("\n") else self.fmt
        return subprocess.run([KMSG_DOC, "auto-id", self.modname, f], check=True,
                              capture_output=True, text=True).stdout.strip()


def read_sites(path):
    sites, picks = [], {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("="):
                seq, where = line[1:].split()
                picks[int(seq)] = where
                continue
            fields = line.split("\t")
            if len(fields) < 4:
                sys.exit("%s:%d: fewer than 4 fields" % (path, n))
            sites.append(Site(n, fields))
    return sites, picks


def read_kmsg(path):
    recs = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(" "):
                recs[-1]["dict"].append(line[1:])
                continue
            head, text = line.split(";", 1)
            prio, seq = head.split(",")[:2]
            text = re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
            recs.append({"prio": int(prio), "seq": int(seq), "text": text, "dict": []})
    return recs


def fits(rec, sites, picks):
    hits = [s for s in sites if s.rx.match(rec["text"])]
    if rec["seq"] in picks:
        hits = [s for s in hits if s.where == picks[rec["seq"]]]
    return hits


def esc(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


# The head of truth.tsv, written with it: what the file is, and the
# judgements made where the source left a choice (re-read at tag base).
HEADER = """\
# The truth of qemu/stock/kmsg.raw: one line per /dev/kmsg record, by seq.
# Made by: KMSG_DOC=build/tools/kmsg-doc qemu/stock/truth.py truth \\
#          qemu/stock/kmsg.raw qemu/stock/sites.tsv > qemu/stock/truth.tsv
# (this head too: edit qemu/stock/truth.py or sites.tsv, never this file;
# tools/tests/stock-log.sh fails if it is not what they make).
# Fields (tab-separated): seq, level (prio & 7), the expected id or class,
# KBUILD_MODNAME, the site (FILE:LINE in Debian's 6.12.118 source), the
# format as compiled in C escapes (a final \\c: the first fragment of a
# record continued with pr_cont()), and a note on how the site was found.
# id: MODNAME.hXXXXXXXX from kmsg-doc auto-id. Classes: "noliteral" (the
# format has no text of its own), "userspace" (written to /dev/kmsg by
# the guest's init), "unknown" (no site in sites.tsv fits the record
# yet: the note column then holds the record's text).
# STATUS: {status}.
# All sites were checked against the source at tag base by script (the
# call at FILE:LINE, its literals concatenated, the file's pr_fmt/header
# pr_fmt, kbuild's modname map for built-in code) and the "auto:" lines
# that did not pass were read by hand. Convention: the printk-family
# call that formats the record; a wrapper printing its caller's format
# through a %pV or a buffer is looked through, its caller's format the
# site (notes "wrapped:"); prefix-pasting macros are too (see
# qemu/stock/truth.py).
# Judgements, each re-read in the source at tag base:
# 279 ("pnp 00:02: [dma 2]", a debug record): resource.c:565, the
#   dev_printk(KERN_DEBUG, ..., "%pR\\n") of pnp_add_dma_resource(),
#   called by pnpacpi (rsparser.c:240) for the device's DMA channel. It
#   prints at any loglevel; the same "%pR\\n" of pnp_add_irq_resource()
#   and pnp_add_resource() is dev_dbg(), off (no "[irq"/"[io"/"[mem"
#   record in the log), and the other dev_printk(KERN_DEBUG) ones
#   (:589, :613, :637) print an io, mem or bus resource, never "[dma".
# 385-390 ("scsi hostN: ahci"): hosts.c:225. shost_printk() is a macro,
#   dev_printk(level, &shost->shost_gendev, fmt, ...)
#   (include/scsi/scsi_host.h:740), not a buffer: its "%s\\n" is the
#   format printk gets, so noliteral; "scsi host0: " is dev_printk's
#   prefix, "ahci" libata's sht->name (__ATA_BASE_SHT has no .info).
# 416/417: e1000_init_module()'s pr_info("%s\\n", e1000_driver_string) at
#   e1000_main.c:220 and pr_info("%s\\n", e1000_copyright) at :222. The
#   same format ("e1000: %s\\n" with e1000.h's pr_fmt) in the same module:
#   one id for both, as an id is of a module's format; the truth tells
#   the two sites apart by the strings (e1000_main.c:12, :13), for the
#   file and line only.
"""


def status(kinds):
    """the STATUS line of the head: how many records of each kind"""
    ids = sum(n for k, n in kinds.items() if ".h" in k)
    unknown = kinds.get("unknown", 0)
    s = ("every record sited (0 \"unknown\")" if not unknown else
         "%d records \"unknown\"" % unknown)
    return "%s: %d ids, %d noliteral, %d userspace" % (
        s, ids, kinds.get("noliteral", 0), kinds.get("userspace", 0))


def truth(kmsg, sitesf):
    sites, picks = read_sites(sitesf)
    recs = read_kmsg(kmsg)
    bad, ids, kinds, lines = 0, {}, {}, []
    for r in recs:
        hits = fits(r, sites, picks)
        if len(hits) > 1:
            print("seq %d: %d sites fit %r: %s" % (r["seq"], len(hits), r["text"],
                  " ".join(s.where for s in hits)), file=sys.stderr)
            bad += 1
            continue
        if not hits:
            # a record no listed site fits: its site was not found (yet)
            kinds["unknown"] = kinds.get("unknown", 0) + 1
            lines.append("\t".join([str(r["seq"]), str(r["prio"] & 7), "unknown",
                                    "-", "-", "-", esc(r["text"])]))
            continue
        s = hits[0]
        if s not in ids:
            ids[s] = s.klass()
        kinds[ids[s]] = kinds.get(ids[s], 0) + 1
        lines.append("\t".join([str(r["seq"]), str(r["prio"] & 7), ids[s],
                                s.modname, s.where,
                                s.fmt_c + ("\\c" if s.cont else ""), s.note]))
    print(HEADER.format(status=status(kinds)), end="")
    print("# seq\tprio\tid\tmodname\tsite\tformat\tnote")
    for line in lines:
        print(line)
    unused = [s.where for s in sites if s not in ids]
    if unused:
        print("sites no record fits: " + " ".join(unused), file=sys.stderr)
        bad += 1
    return 1 if bad else 0


DIRS = ("arch/x86", "kernel", "mm", "drivers", "fs", "net", "init", "lib",
        "security", "block", "crypto", "certs", "include")


def candidates(kmsg, sitesf, src):
    sites, picks = read_sites(sitesf)
    seen = set()
    for r in read_kmsg(kmsg):
        if len(fits(r, sites, picks)) == 1:
            continue
        text = r["text"]
        if r["dict"]:
            text = re.sub(r"^\S+ \S+: ", "", text)
        runs = re.split(r"[-+]?(?:0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*|[][()'=,:]", text)
        run = max((x.strip() for x in runs), key=len)
        print("== %d %r   [%s]" % (r["seq"], r["text"], run))
        if run in seen or len(run) < 4:
            continue
        seen.add(run)
        g = subprocess.run(["git", "-C", src, "grep", "-n", "-F", "-e", run, "--"] +
                           ["%s/*.[ch]" % d for d in DIRS],
                           capture_output=True, text=True).stdout
        for line in g.splitlines()[:6]:
            print("   " + line[:200])


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "truth":
        sys.exit(truth(sys.argv[2], sys.argv[3]))
    if len(sys.argv) >= 4 and sys.argv[1] == "candidates":
        candidates(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "build/linux")
        sys.exit(0)
    sys.exit(__doc__ if False else "usage: truth.py truth|candidates KMSG.RAW SITES [SRC]")
