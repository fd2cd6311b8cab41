#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A test double of /dev/kmsg for kmsg dmesg --follow --kmsg-device PATH.

kmsg_double.py [--hold] SOCKET RECORD...

Listens on the Unix SOCK_SEQPACKET socket SOCKET, accepts one reader and
sends it each RECORD as one datagram, as each read() of /dev/kmsg returns
one record ("PRIO,SEQ,TS,FLAGS;TEXT\\n" and its " KEY=value\\n" lines).
A RECORD of the five bytes EPIPE is sent as is: kmsg reads it as read()
failing with EPIPE, /dev/kmsg's word for an overrun (the reader was
overtaken; the next record is the oldest left). A RECORD @FILE sends the
bytes of FILE. Then it closes the connection (the reader sees the end)
unless --hold: then it waits for the reader to close it.
"""
import os
import socket
import sys


def main():
    args = sys.argv[1:]
    hold = args[:1] == ["--hold"]
    if hold:
        args = args[1:]
    path, records = args[0], args[1:]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    tmp = path + ".new"
    srv.bind(tmp)
    srv.listen(1)
    os.rename(tmp, path)   # appears only when listening
    conn, _ = srv.accept()
    for r in records:
        if r.startswith("@"):
            with open(r[1:], "rb") as f:
                data = f.read()
        else:
            data = r.encode("utf-8", "surrogateescape")
        conn.send(data)
    if hold:
        conn.recv(1)       # until the reader goes
    conn.close()
    srv.close()
    os.unlink(path)


main()
