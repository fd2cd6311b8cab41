#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# pi_shared.py VMLINUX [N]: the formats of vmlinux's printk index that
# entries of several KBUILD_MODNAMEs share (one address, as the linker
# merged equal strings). Prints "ENTRIES NAMED FORMATS SHARED", then up
# to N shared formats with their module names.
#
# Reads the ELF file alone: .printk_index holds pointers to struct
# pi_entry, __packed: fmt, func, file (pointers), line (u32), level,
# subsys_fmt_prefix, modname (pointers), ... (include/linux/printk.h).
import collections
import struct
import sys


def main():
    path = sys.argv[1]
    show = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    try:
        f = open(path, 'rb').read()
    except OSError as e:
        sys.exit(f'{path}: {e.strerror}')
    if f[:5] != b'\x7fELF\x02' or f[5] != 1:
        sys.exit(f'{path}: not a little-endian ELF64 file')
    shoff, = struct.unpack_from('<Q', f, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 0x3a)
    secs = []
    for i in range(shnum):
        name, typ, _, addr, off, size = struct.unpack_from(
            '<IIQQQQ', f, shoff + i * shentsize)
        secs.append((name, typ, addr, off, size))
    stroff = secs[shstrndx][3]

    def secname(s):
        o = stroff + s[0]
        return f[o:f.index(b'\0', o)].decode()

    def read(addr, n):
        for s in secs:
            # SHT_NOBITS (8) has no bytes in the file
            if s[1] != 8 and s[2] and s[2] <= addr < s[2] + s[4]:
                o = s[3] + addr - s[2]
                return f[o:o + n]
        return None

    def cstr(addr):
        b = read(addr, 512) if addr else None
        if not b or b'\0' not in b:
            return None
        return b[:b.index(b'\0')].decode(errors='replace')

    pi = [s for s in secs if secname(s) == '.printk_index']
    if not pi:
        sys.exit(f'{path}: no .printk_index section')
    pi = pi[0]
    mods = collections.defaultdict(set)
    named = 0
    for i in range(pi[4] // 8):
        p, = struct.unpack_from('<Q', f, pi[3] + 8 * i)
        e = read(p, 52)
        if not e or len(e) < 52:
            sys.exit(f'{path}: index entry {i} at {p:#x} not in the file')
        fmt, _, _, _, _, _, modname = struct.unpack('<QQQIQQQ', e)
        name = cstr(modname)
        named += bool(name)
        mods[fmt].add(name or '')
    shared = [(k, v) for k, v in mods.items() if len(v) > 1]
    print(pi[4] // 8, named, len(mods), len(shared))
    for k, v in shared[:show]:
        print(repr(cstr(k)), ' '.join(sorted(v)))


main()
