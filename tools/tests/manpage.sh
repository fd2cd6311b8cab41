#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg(1) documents every field the tools can write: every key of the
# JSON writer (lib/kmsg_json.c, and -x's in kmsg/common.c) in OUTPUT,
# every journal field of lib/kmsg_journal.c in JOURNAL, every attribute
# of its OTLP writer in OpenTelemetry, and the OpenTelemetry severities
# are the logs data model's appendix B.  TAP.
set -u
top=$(dirname "$(realpath "$0")")/../..
man=$top/tools/kmsg.1
. "$(dirname "$(realpath "$0")")/tap.sh"
tap_begin

# a section of the page, its roff as it is
section() { sed -n "/^\.SH $1\$/,/^\.SH /p" "$man"; }
# is NAME a term of the section on stdin (.B/.BR lines), or "NAME" in it?
documented() {
	local s
	s=$(cat)
	grep -E "^\.(B|BR) " <<< "$s" | grep -qE "(^| |\")$1(\"|,| |$)" ||
		grep -qF "\"$1\"" <<< "$s"
}

# the JSON writer: kmsg_json.c up to its OTLP part
json_src() {
	sed '/---- OpenTelemetry/,$d' "$top/tools/lib/kmsg_json.c"
	cat "$top/tools/kmsg/common.c"
}
otlp_src() { sed -n '/---- OpenTelemetry/,$p' "$top/tools/lib/kmsg_json.c"; }
keys=$(json_src | grep -ohE '\\"[a-z_]+\\":' | sed 's/\\"//g; s/://' | sort -u)
missing=
for k in $keys; do
	section OUTPUT | documented "$k" || missing="$missing $k"
done
[ -n "$keys" ] && [ -z "$missing" ]
ok $? "every JSON key is documented in kmsg(1) OUTPUT ($(echo $keys | wc -w) keys; missing:${missing:- none})"

fields=$(grep -ohE '"(KMSG|CODE|MESSAGE|SYSLOG|PRIORITY)[A-Z_]*' \
	"$top/tools/lib/kmsg_journal.c" | tr -d '"' | sort -u)
missing=
for f in $fields; do
	case $f in KMSG_ARG_) f=KMSG_ARG_1;; esac
	section JOURNAL | documented "$f" || missing="$missing $f"
done
[ -n "$fields" ] && [ -z "$missing" ]
ok $? "every journal field is documented in kmsg(1) JOURNAL ($(echo $fields | wc -w) fields; missing:${missing:- none})"

# appendix B of the OpenTelemetry logs data model, syslog severities
want='0 emerg	21	FATAL
1 alert	19	ERROR3
2 crit	18	ERROR2
3 err	17	ERROR
4 warn	13	WARN
5 notice	10	INFO2
6 info	9	INFO
7 debug	5	DEBUG'
otel=$(sed -n '/^\.SS OpenTelemetry/,/^\.SH/p' "$man")
got=$(grep -E '^[0-7] [a-z]+	' <<< "$otel")
[ "$got" = "$want" ]
ok $? "the OpenTelemetry severity table is the data model's appendix B"
grep -q '^EventName: the$' <<< "$otel"
ok $? "the OpenTelemetry EventName is the id"

attrs=$(otlp_src | grep -ohE '"[a-z]+(\.[a-z_]+)+"' | tr -d '"' | sort -u)
missing=
for a in $attrs; do
	grep -qE "(^| )$a(,|\.|;| |$)" <<< "$otel" || missing="$missing $a"
done
[ "$(echo $attrs | wc -w)" -ge 15 ] && [ -z "$missing" ]
ok $? "every --otlp attribute is documented in kmsg(1) OpenTelemetry ($(echo $attrs | wc -w) attributes; missing:${missing:- none})"
tap_end
