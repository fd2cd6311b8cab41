#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# propose.py KMSG.RAW SITES SRC OBJ  >> proposals
#
# Help for writing qemu/stock/sites.tsv by hand: for each record no site
# of SITES fits yet, grep SRC for its longest literal run, and for each
# hit on a printing call, the format as the line spells it (string
# literals of the call, the file's pr_fmt() in front), the file's
# KBUILD_MODNAME (OBJ's .NAME.o.cmd when the guest builds the file, else
# the directory's Makefile: the composite object that lists the .o, else
# its basename), and whether that format fits the record. Nothing it
# prints is taken as it is: each line is read against the source.
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import truth  # noqa: E402

PRINT = re.compile(r"\b(pr_\w+|printk|dev_\w+|pci_\w+|netdev_\w+|e_\w+|ata_\w+_printk|"
                   r"ata_(port|link|dev)_\w+|sd_\w*printk|sdev_printk|shost_printk|"
                   r"acpi_handle_\w+|aa_info_message|ext4_msg|\w+_(info|warn|err|notice))\s*\(")
STR = re.compile(r'"((?:[^"\\]|\\.)*)"')


def modname(src, obj, path):
    d, f = os.path.split(path)
    base = f[:-2]
    cmd = os.path.join(obj, d, "." + base + ".o.cmd")
    if os.path.exists(cmd):
        m = re.search(r"-DKBUILD_MODNAME='\"(\w+)\"'", open(cmd).read())
        if m:
            return m.group(1), "cmd"
    mk = os.path.join(src, d, "Makefile")
    if os.path.exists(mk):
        text = open(mk).read().replace("\\\n", " ")
        for line in text.splitlines():
            m = re.match(r"\s*([\w-]+?)-(y|objs|\$\(CONFIG_\w+\))\s*[:+]?=(.*)", line)
            if m and m.group(1) not in ("obj", "lib", "ccflags", "subdir", "always", "targets",
                                         "hostprogs", "extra", "asflags", "ldflags"):
                if re.search(r"(^|\s|/)" + re.escape(base) + r"\.o\b", m.group(3)):
                    return m.group(1).replace("-", "_"), "Makefile"
    return base.replace("-", "_"), "basename"


def prfmt(src, path, lineno):
    lines = open(os.path.join(src, path), errors="replace").read().splitlines()[:lineno]
    for l in reversed(lines):
        m = re.match(r"\s*#\s*define\s+pr_fmt\(fmt\)\s+(.*)", l)
        if m:
            return m.group(1).strip()
    return None


def call_literals(src, path, lineno):
    lines = open(os.path.join(src, path), errors="replace").read().splitlines()
    text = ""
    for l in lines[lineno - 1:lineno + 6]:
        text += l + "\n"
        if re.search(r"\)\s*;", l):
            break
    m = PRINT.search(text)
    if not m:
        return None, None
    body = text[m.end():]
    # the format: string literals (and macros between them) up to the first comma after one
    parts, pos = [], 0
    toks = re.findall(r'"(?:[^"\\]|\\.)*"|KERN_\w+|[A-Z_][A-Z0-9_]*|,|\)', body)
    for t in toks:
        if t.startswith('"'):
            parts.append(t[1:-1])
        elif t.startswith("KERN_"):
            continue
        elif t in (",", ")"):
            if parts:
                break
            continue
        else:
            parts.append("<" + t + ">")
    return m.group(1), "".join(parts)


def main():
    kmsg, sitesf, src, obj = sys.argv[1:5]
    sites, picks = truth.read_sites(sitesf)
    seen = set()
    for r in truth.read_kmsg(kmsg):
        if len(truth.fits(r, sites, picks)) == 1:
            continue
        text = r["text"]
        body = re.sub(r"^\S+ \S+: ", "", text) if r["dict"] else text
        runs = re.split(r"[-+]?(?:0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*|[][()'=,:%]", body)
        run = max((x.strip() for x in runs), key=len)
        print("== %d %d %r" % (r["seq"], r["prio"] & 7, text))
        if len(run) < 4 or run in seen:
            continue
        seen.add(run)
        g = subprocess.run(["git", "-C", src, "grep", "-n", "-F", "-e", run, "--"] +
                           ["%s/*.[ch]" % d for d in truth.DIRS],
                           capture_output=True, text=True).stdout
        for hit in g.splitlines()[:12]:
            path, lineno = hit.split(":")[:2]
            fn, fmt = call_literals(src, path, int(lineno))
            if fmt is None:
                continue
            pf = prfmt(src, path, int(lineno))
            mod, how = modname(src, obj, path)
            full = fmt
            if pf and not fn.startswith(("dev_", "pci_", "netdev_", "e_", "ata_", "sd_",
                                         "sdev_", "shost_", "acpi_handle")):
                m = re.match(r'((?:"(?:[^"\\]|\\.)*"|KBUILD_MODNAME|\s)*)fmt\s*$', pf)
                if m:
                    pre = m.group(1).replace("KBUILD_MODNAME", '"%s"' % mod)
                    full = "".join(STR.findall(pre)) + fmt
                else:
                    full = "<pr_fmt " + pf + ">" + fmt
            fitsit = False
            try:
                rx = truth.fmt_regex(truth.cunescape(full).rstrip("\n"))
                fitsit = bool(re.match(r"^(\S+ \S+: |ata\d+(\.\d+)?: |\S+ \S+: \[\w+\] )?" + rx + "$",
                                       text, re.S))
            except Exception:
                pass
            print("  %s %s\t%s\t%s:%s\t%s\t%s\t# %s pr_fmt=%s" % (
                "FIT" if fitsit else "   ", fn, mod, path, lineno, full, how, how, pf))


main()
