#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# otlp-fields.py JSON OTLP [BOOT_NS]: check kmsg report --otlp against
# kmsg report --json of the same trace.dat.  Each line of OTLP must be an
# ExportLogsServiceRequest in OTLP/JSON (the protobuf JSON mapping: field
# names in lowerCamelCase, 64-bit integers as decimal strings, each
# AnyValue one of its kinds) holding one LogRecord, mapped as kmsg(1)
# says: severities as the logs data model's appendix B, Body the text,
# EventName the id, and the attributes.  BOOT_NS: the --boot-time given,
# in ns; timeUnixNano must then be BOOT_NS + timestamp.
# Prints what differs; exit status 1 if anything does.
import json
import re
import sys

SEVERITY = [21, 19, 18, 17, 13, 10, 9, 5]
RECORD_KEYS = {'timeUnixNano', 'observedTimeUnixNano', 'severityNumber',
               'severityText', 'body', 'attributes', 'droppedAttributesCount',
               'flags', 'traceId', 'spanId', 'eventName'}
VALUE_KINDS = {'stringValue', 'boolValue', 'intValue', 'doubleValue',
               'arrayValue', 'kvlistValue', 'bytesValue'}
INT64 = re.compile(r'^-?[0-9]+$')
problems = []


def bad(n, what):
    problems.append('message %d: %s' % (n, what))


def int64(n, where, v):
    if not isinstance(v, str) or not INT64.match(v) or \
            not -2**63 <= int(v) < 2**63:
        bad(n, '%s: %r is not an int64 as a decimal string' % (where, v))
        return None
    return int(v)


def any_value(n, where, v):
    # one AnyValue: exactly one kind, of the right JSON type
    if not isinstance(v, dict) or len(v) != 1 or \
            next(iter(v)) not in VALUE_KINDS:
        bad(n, '%s: %r is not an AnyValue' % (where, v))
        return None
    kind, x = next(iter(v.items()))
    if kind == 'intValue':
        return int64(n, where, x)
    if kind == 'stringValue' and isinstance(x, str):
        return x
    if kind == 'boolValue' and isinstance(x, bool):
        return x
    if kind == 'arrayValue' and isinstance(x, dict) and \
            set(x) == {'values'} and isinstance(x['values'], list):
        return [any_value(n, '%s[%d]' % (where, i), e)
                for i, e in enumerate(x['values'])]
    bad(n, '%s: %r is not a valid %s' % (where, x, kind))
    return None


def attributes(n, where, kvs):
    out = {}
    for kv in kvs:
        if not isinstance(kv, dict) or set(kv) != {'key', 'value'}:
            bad(n, '%s: %r is not a KeyValue' % (where, kv))
            continue
        if kv['key'] in out:
            bad(n, '%s: key %s twice' % (where, kv['key']))
        out[kv['key']] = any_value(n, '%s.%s' % (where, kv['key']),
                                   kv['value'])
    return out


def arg_value(a):
    # what an argument of kmsg's JSON must be as an AnyValue
    v = a.get('value')
    if a['type'] in ('int', 'uint'):
        return v if v < 2**63 else str(v)
    return v


def check(n, o, line, boot_ns):
    try:
        req = json.loads(line)
    except ValueError as e:
        bad(n, 'not JSON: %s' % e)
        return
    try:
        (rl,) = req['resourceLogs']
        res = attributes(n, 'resource', rl['resource']['attributes'])
        (sl,) = rl['scopeLogs']
        (rec,) = sl['logRecords']
        scope = sl['scope']['name']
    except (KeyError, TypeError, ValueError) as e:
        bad(n, 'not one ExportLogsServiceRequest of one LogRecord: %r' % e)
        return
    if set(req) != {'resourceLogs'} or set(rl) != {'resource', 'scopeLogs'} \
            or set(sl) != {'scope', 'logRecords'}:
        bad(n, 'unknown keys in the request')
    if scope != 'kmsg' or res.get('os.type') != 'linux':
        bad(n, 'scope %r, resource %r' % (scope, res))
    if set(rec) - RECORD_KEYS:
        bad(n, 'unknown LogRecord keys %s' % sorted(set(rec) - RECORD_KEYS))
    if not 0 <= o['level'] < 8:
        bad(n, 'level %r in the JSON' % o['level'])
        return
    if rec.get('severityNumber') != SEVERITY[o['level']]:
        bad(n, 'level %d: severityNumber %r, want %d' %
            (o['level'], rec.get('severityNumber'), SEVERITY[o['level']]))
    if rec.get('severityText') != o['level_name']:
        bad(n, 'severityText %r' % rec.get('severityText'))
    if any_value(n, 'body', rec.get('body')) != o['text']:
        bad(n, 'body %r, want %r' % (rec.get('body'), o['text']))
    if rec.get('eventName') != o.get('id'):
        bad(n, 'eventName %r, want %r' % (rec.get('eventName'), o.get('id')))
    int64(n, 'observedTimeUnixNano', rec.get('observedTimeUnixNano'))
    if boot_ns is None:
        if 'timeUnixNano' in rec:
            bad(n, 'timeUnixNano without a boot time')
    else:
        t = int64(n, 'timeUnixNano', rec.get('timeUnixNano'))
        want = boot_ns + round(o['timestamp'] * 1e9)
        # the JSON timestamp has microseconds, --boot-time is a double
        if t is None or abs(t - want) >= 2000:
            bad(n, 'timeUnixNano %r, want about %d' % (t, want))
    a = attributes(n, 'attributes', rec.get('attributes', []))
    want = {
        'kmsg.component': o['component'],
        'kmsg.format': o['format'],
        'kmsg.args': [arg_value(x) for x in o['args']],
        'kmsg.truncated': o['truncated'],
        'cpu.logical_number': o['cpu'],
        'thread.id': o['pid'],
        'thread.name': o['comm'],
    }
    for j, k in (('id', 'kmsg.id'), ('auto_id', 'kmsg.auto_id'),
                 ('number', 'kmsg.number'), ('modname', 'kmsg.modname'),
                 ('seq', 'kmsg.seq'), ('wrapper_format', 'kmsg.wrapper_format'),
                 ('device', 'kmsg.device'), ('driver', 'kmsg.driver'),
                 ('description', 'kmsg.description'),
                 ('user_response', 'kmsg.user_response')):
        if j in o:
            want[k] = o[j]
    if a != want:
        for k in sorted(set(a) | set(want)):
            if a.get(k) != want.get(k):
                bad(n, 'attribute %s: %r, want %r' % (k, a.get(k), want.get(k)))


def main():
    with open(sys.argv[1]) as f:
        objs = [json.loads(x) for x in f]
    with open(sys.argv[2]) as f:
        lines = f.read().splitlines()
    boot_ns = int(sys.argv[3]) if len(sys.argv) > 3 else None
    if len(objs) != len(lines) or not objs:
        problems.append('%d JSON objects, %d OTLP lines' %
                        (len(objs), len(lines)))
    for n, (o, line) in enumerate(zip(objs, lines)):
        check(n + 1, o, line, boot_ns)
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
