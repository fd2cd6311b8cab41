#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# journal-native.py SOCKET OUT: a stand-in for journald's native socket:
# bind a datagram socket at SOCKET, touch SOCKET.ready, and save each
# datagram to OUT (8-byte little-endian length, then the datagram) until
# a datagram "STOP" arrives or 30 seconds pass.
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(30)
open(sys.argv[1] + '.ready', 'w').close()
with open(sys.argv[2], 'wb') as out:
    while True:
        try:
            d = s.recv(1 << 20)
        except socket.timeout:
            sys.exit(1)
        if d == b'STOP':
            break
        out.write(len(d).to_bytes(8, 'little') + d)
