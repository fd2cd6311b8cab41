#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# journal-fields.py JSON ENTRIES: check journal entries against kmsg
# report --json of the same trace.dat.  JSON: kmsg's objects, one per
# line; ENTRIES: journalctl -o json of the journal (one object per line),
# or, with --native, the datagrams of journald's native protocol, as
# journal-native.py saved them.  Every message must be there, in order,
# with MESSAGE, PRIORITY, SYSLOG_*, MESSAGE_ID (the first 16 bytes of
# SHA-256 of "kmsg:" + id, in hex) and every KMSG_* field of kmsg(1).
# Prints what differs; exit status 1 if anything does.
import hashlib
import json
import sys


def value(v):
    # journalctl -o json gives values that are not text as byte arrays
    if isinstance(v, list):
        return bytes(v).decode('utf-8', 'surrogateescape')
    return v


def expected(o):
    e = {
        'MESSAGE': o['text'],
        'PRIORITY': str(o['level']),
        'SYSLOG_FACILITY': '0',
        'SYSLOG_IDENTIFIER': 'kmsg',
        'KMSG_COMPONENT': o['component'],
        'KMSG_FORMAT': o['format'],
        'KMSG_CPU': str(o['cpu']),
        'KMSG_PID': str(o['pid']),
        'KMSG_COMM': o['comm'],
        'KMSG_TIMESTAMP': '%.6f' % o['timestamp'],
    }
    if 'id' in o:
        e['KMSG_ID'] = o['id']
        e['MESSAGE_ID'] = hashlib.sha256(
            ('kmsg:' + o['id']).encode()).hexdigest()[:32]
    for k, f in (('auto_id', 'KMSG_AUTO_ID'), ('number', 'KMSG_NUMBER'),
                 ('modname', 'KMSG_MODNAME'), ('seq', 'KMSG_SEQ'),
                 ('wrapper_format', 'KMSG_WRAPPER_FORMAT'),
                 ('device', 'KMSG_DEVICE'), ('driver', 'KMSG_DRIVER')):
        if k in o and (o[k] != '' or k == 'driver'):
            e[f] = str(o[k])
    if o['truncated']:
        e['KMSG_TRUNCATED'] = '1'
    for i, a in enumerate(o['args']):
        v = a['value']
        e['KMSG_ARG_%d' % (i + 1)] = str(v) if isinstance(v, int) else v
    if o['args']:
        e['KMSG_ARG_TYPES'] = ','.join(a['type'] for a in o['args'])
    return e


def native(path):
    # datagrams of the native protocol, each prefixed by its length
    entries = []
    data = open(path, 'rb').read()
    p = 0
    while p < len(data):
        n = int.from_bytes(data[p:p + 8], 'little')
        d = data[p + 8:p + 8 + n]
        p += 8 + n
        e, q = {}, 0
        while q < len(d):
            nl = d.index(b'\n', q)
            line = d[q:nl]
            if b'=' in line:
                k, v = line.split(b'=', 1)
                q = nl + 1
            else:
                k = line
                ln = int.from_bytes(d[nl + 1:nl + 9], 'little')
                v = d[nl + 9:nl + 9 + ln]
                q = nl + 9 + ln + 1
            e[k.decode()] = v.decode('utf-8', 'surrogateescape')
        entries.append(e)
    return entries


def main():
    args = sys.argv[1:]
    nat = args[0] == '--native'
    if nat:
        args = args[1:]
    objs = [json.loads(l) for l in open(args[0], encoding='utf-8')]
    if nat:
        ents = native(args[1])
    else:
        ents = [{k: value(v) for k, v in json.loads(l).items()}
                for l in open(args[1], encoding='utf-8')]
    bad = 0
    if len(objs) != len(ents):
        print('%d messages, %d entries' % (len(objs), len(ents)))
        bad += 1
    for n, (o, e) in enumerate(zip(objs, ents)):
        for k, v in expected(o).items():
            if e.get(k) != v:
                print('entry %d: %s=%r, expected %r' % (n, k, e.get(k), v))
                bad += 1
        extra = [k for k in e if k.startswith('KMSG_') and
                 k not in expected(o)]
        if extra:
            print('entry %d: fields not documented: %s' % (n, extra))
            bad += 1
    print('%d entries checked, %d differences' % (len(ents), bad))
    return 1 if bad else 0


sys.exit(main())
