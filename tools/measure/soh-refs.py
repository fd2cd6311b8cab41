#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""soh-refs.py VMLINUX > REFS: a quick scan (not the call-site scanner) of
the references from code to KERN_SOH strings ("\\001" + level, in
.rodata): mov $imm32 sign-extended (48/49 c7 c0+r) and lea disp32(%rip)
(48/4c 8d, modrm 00 reg 101) in .text, .init.text, .exit.text. One line a
reference: "INSN_ADDR STRING_ADDR HEX_OF_STRING" (hex addresses)."""
import re
import struct
import sys

data = open(sys.argv[1], 'rb').read()
if data[:4] != b'\x7fELF' or data[4] != 2:
    sys.exit(sys.argv[1] + ': not a 64-bit ELF file')
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
secs = []
for i in range(shnum):
    secs.append(struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize))
strtab = secs[shstrndx][4]
sec = {}
for s in secs:
    name = data[strtab + s[0]:data.index(b'\0', strtab + s[0])].decode()
    sec[name] = (s[3], s[4], s[5])       # addr, offset, size

ra, ro, rs = sec['.rodata']
rod = data[ro:ro + rs]
strings = {}
for m in re.finditer(rb'(?<=\x00)\x01[0-7cd]', rod):
    end = rod.index(b'\0', m.start())
    strings[ra + m.start()] = rod[m.start():end]

mask = (1 << 64) - 1
out = sys.stdout
for name in ('.text', '.init.text', '.exit.text'):
    if name not in sec:
        continue
    ta, to, ts = sec[name]
    text = data[to:to + ts]
    for m in re.finditer(rb'(?=[\x48\x49]\xc7[\xc0-\xc7](.{4}))', text, re.S):
        target = struct.unpack('<i', m.group(1))[0] & mask
        if target in strings:
            out.write('%x %x %s\n' % (ta + m.start(), target,
                                      strings[target].hex()))
    for m in re.finditer(rb'(?=[\x48\x4c]\x8d[\x05\x0d\x15\x1d\x25\x2d\x35\x3d](.{4}))',
                         text, re.S):
        disp = struct.unpack('<i', m.group(1))[0]
        target = (ta + m.start() + 7 + disp) & mask
        if target in strings:
            out.write('%x %x %s\n' % (ta + m.start(), target,
                                      strings[target].hex()))
sys.stderr.write('%d KERN_SOH strings in .rodata\n' % len(strings))
