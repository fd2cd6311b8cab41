#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""modname-agree.py WHERE GUEST_DB: how exact DWARF + kbuild-modnames.sh
are. WHERE: dwarf_where --map output for the references of soh-refs.py
(its tag: STRING_ADDR HEX). Per KERN_SOH string, the modnames of its
referencing units; then, for each format the guest's printk index has too
(messages of vmlinux, automatic ids), whether the modname is the
guest's, against the naive rule "basename of the unit"."""
import collections
import os
import sqlite3
import sys

mods = collections.defaultdict(set)
naive = collections.defaultdict(set)
units = collections.defaultdict(set)
text = {}
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split('\t')
    saddr, hexstr = f[-1].split(' ')
    text[saddr] = bytes.fromhex(hexstr)
    if f[1] == 'none':
        mods[saddr].add('unknown')
        continue
    mods[saddr].add(f[3])
    units[saddr].add(f[1])
    base = os.path.splitext(os.path.basename(f[1]))[0].replace('-', '_')
    naive[saddr].add(base)

def verdict(s):
    m = mods[s] - {'unknown'}
    if len(m) > 1 or 'ambiguous' in m:
        return 'ambiguous'
    if not m:
        return 'unknown'
    return 'resolved' if 'unknown' not in mods[s] else 'resolved+unknown'

count = collections.Counter(verdict(s) for s in text)
print('KERN_SOH strings referenced: %d' % len(text))
for k, v in sorted(count.items()):
    print('  %-18s %d' % (k, v))

db = sqlite3.connect(sys.argv[2])
guest = collections.defaultdict(set)
for fmt, comp in db.execute("select format, component from messages "
                            "where object = 'vmlinux' and number = 0"):
    guest[fmt].add(comp)

cats = collections.Counter()
ncats = collections.Counter()
examples = collections.defaultdict(list)
for s, t in text.items():
    fmt = t[2:]
    if fmt.endswith(b'\n'):
        fmt = fmt[:-1]
    try:
        fmt = fmt.decode()
    except UnicodeDecodeError:
        continue
    if fmt not in guest:
        continue
    g = guest[fmt]
    v = verdict(s)
    m = mods[s] - {'unknown'}
    if v == 'ambiguous':
        c = 'ambiguous (merged literal of several modnames)'
    elif v == 'unknown':
        c = 'unknown (no object listed)'
    elif len(g) > 1:
        c = 'guest has several modnames' + (': ours among them' if m <= g else '')
    elif m == g:
        c = 'agree'
    else:
        c = 'disagree'
    cats[c] += 1
    if c != 'agree' and len(examples[c]) < 6:
        examples[c].append('%s ours=%s guest=%s units=%s' % (
            repr(fmt[:40]), ','.join(sorted(mods[s])), ','.join(sorted(g)),
            ','.join(sorted(units[s]))))
    nm = naive[s]
    ncats['agree' if len(g) == 1 and nm == g else 'other'] += 1
total = sum(cats.values())
print('formats in both (Debian KERN_SOH string, guest index): %d' % total)
for k, v in cats.most_common():
    print('  %-55s %5d  %.1f%%' % (k, v, 100.0 * v / total))
    for e in examples.get(k, []):
        print('      ' + e)
print('naive rule (basename of the unit) agrees: %d  %.1f%%' %
      (ncats['agree'], 100.0 * ncats['agree'] / total))
