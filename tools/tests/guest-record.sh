#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On the host, what the guest recorded (qemu/record.sh): every kmsgtest
# message of the trace.dat, decoded by "kmsg report" and by "trace-cmd
# report" with plugin_kmsg.so, must read exactly as /dev/kmsg showed it
# in the guest. TAP output.
#
# RECORD: the unpacked archive (kmsg.dat, kmsg.txt, kallsyms);
# TOOLS: where kmsg and plugin_kmsg.so were built.
set -u
tmp=$(mktemp -d)
. "$(dirname "$(realpath "$0")")/tap.sh"
tap_begin 'rm -rf "$tmp"'
rec=${RECORD:?RECORD: directory of the guest recording}
tools=${TOOLS:?TOOLS: the built kmsg tools}

if [ ! -s "$rec/kmsg.dat" ] || [ ! -s "$rec/kmsg.txt" ]; then
	tap_plan 1
	ok 1 "guest recording present in $rec (see the guest's console log)"
	tap_end
	exit 0
fi

# /dev/kmsg: the text of each kmsgtest record with a curated id (not
# dictionary lines); kmsgtest.14 is the prefix form, a plain printk()
# that the text output shows with its automatic id in front
grep -v '^ ' "$rec/kmsg.txt" | sed -n 's/^[0-9]*,[0-9]*,[0-9]*,[^;]*;//p' |
	grep -E '(^|: )kmsgtest\.[0-9]+: ' | grep -v 'kmsgtest\.14: ' > "$tmp/want"

# kmsg report: "[ts] level  text"; %ps and %pS with " [module]" from
# the trace.dat's kallsyms
"$tools/kmsg" report --color=never "$rec/kmsg.dat" \
	> "$tmp/kmsg.out" 2> "$tmp/kmsg.err"
echo $? > "$tmp/kmsg.rc"
sed 's/^\[[ 0-9.]*\] [a-z]* *//' "$tmp/kmsg.out" |
	grep -E '^(platform kmsgtest: )?kmsgtest\.[0-9]+: ' > "$tmp/kmsg"
# the same with the guest's /proc/kallsyms, read after the recording
"$tools/kmsg" report --color=never --kallsyms "$rec/kallsyms" "$rec/kmsg.dat" \
	> "$tmp/kallsyms.out" 2>&1

# kmsg report --json: the "text" fields
"$tools/kmsg" report --json "$rec/kmsg.dat" > "$tmp/json.out" 2>&1

# trace-cmd report with the plugin: "... kmsg: ID <L> text", the id the
# event gives (a plugin has no database: the automatic id, or comp.N in
# the events of earlier versions of the series), the texts as /dev/kmsg
TRACEEVENT_PLUGIN_DIR=$tools trace-cmd report "$rec/kmsg.dat" 2>/dev/null |
	grep -E ' kmsg: +kmsgtest\.(h[0-9a-f]{8}|[0-9]+) <' |
	sed 's/.* kmsg: *[^ ]* <[0-7]> //' |
	grep -E '^(platform kmsgtest: )?kmsgtest\.[0-9]+: ' |
	grep -v 'kmsgtest\.14: ' > "$tmp/plugin"

m=$(wc -l < "$tmp/want")
# each decoder: every line as /dev/kmsg has it, and no line more or less
tap_plan $((3 * m + 11))
check() {	# check NAME FILE LINE [WANT]
	local got want
	n=$((n + 1))
	want=$(sed -n "$3p" "$tmp/${4:-want}")
	got=$(sed -n "$3p" "$tmp/$2")
	if [ "$got" = "$want" ]; then
		echo "ok $n $1: ${want%%: *}..."
	else
		echo "# want: $want"
		echo "# got:  $got"
		echo "not ok $n $1: line $3"
	fi
}
count() {	# count FILE NAME: as many lines as want
	local got
	n=$((n + 1))
	got=$(wc -l < "$tmp/$1")
	if [ "$got" = "$m" ]; then
		echo "ok $n $2: $m kmsgtest messages, as many as /dev/kmsg has"
	else
		diff "$tmp/want" "$tmp/$1" | head -n 20 | sed 's/^/# /'
		echo "not ok $n $2: $got kmsgtest messages, /dev/kmsg has $m"
	fi
}
n=$((n + 1))
if [ "$(cat "$tmp/kmsg.rc")" = 0 ] && [ "$m" -gt 10 ]; then
	echo "ok $n kmsg report: $m messages, exit status 0"
else
	sed 's/^/# /' "$tmp/kmsg.err"
	echo "not ok $n kmsg report: exit status $(cat "$tmp/kmsg.rc"), $m messages"
fi
for i in $(seq 1 "$m"); do
	check "kmsg report" kmsg "$i"
done
count kmsg "kmsg report"
n=$((n + 1))
want=$(grep -E '^kmsgtest\.9: ' "$tmp/want")
case $want in
*" [kmsgtest] "*" [kmsgtest]")
	if grep -qxF -- "$want" "$tmp/kmsg"; then
		echo "ok $n kmsg report: %ps and %pS of kmsgtest.9 end in [kmsgtest], from the trace.dat"
	else
		echo "# want: $want"
		echo "# got:  $(grep -E '^kmsgtest\.9: ' "$tmp/kmsg")"
		echo "not ok $n kmsg report: %ps and %pS of kmsgtest.9 end in [kmsgtest], from the trace.dat"
	fi ;;
*)
	echo "# /dev/kmsg: $want"
	echo "not ok $n kmsg report: kmsgtest.9 in /dev/kmsg has no %ps and %pS of a module" ;;
esac
n=$((n + 1))
if cmp -s "$tmp/kmsg.out" "$tmp/kallsyms.out"; then
	echo "ok $n kmsg report --kallsyms FILE: as with the trace.dat's symbols"
else
	diff "$tmp/kmsg.out" "$tmp/kallsyms.out" | head -n 10 | sed 's/^/# /'
	echo "not ok $n kmsg report --kallsyms FILE: as with the trace.dat's symbols"
fi
n=$((n + 1))
if python3 -c 'import json,sys
for l in open(sys.argv[1]): json.loads(l)' "$tmp/json.out" 2>/dev/null; then
	echo "ok $n kmsg report --json: valid JSON objects"
else
	echo "not ok $n kmsg report --json: not valid JSON lines"
fi
python3 -c 'import json,sys,re
for l in open(sys.argv[1]):
	d = json.loads(l)
	if re.match(r"(platform kmsgtest: )?kmsgtest\.[0-9]+: ", d["text"]) and \
	   d.get("component") == "kmsgtest" and "number" in d:
		print(d["text"])' "$tmp/json.out" > "$tmp/json" 2>/dev/null

# Every /dev/kmsg record of the recording, from its first event on, is
# the join of the JSON texts with its seq: kmsgtest's messages and the
# plain messages of kmsg_paths, decoded after the module was unloaded
n=$((n + 1))
if python3 - "$rec/kmsg.txt" "$tmp/json.out" > "$tmp/join" 2>&1 <<'PY'
import json, re, sys
recs = []
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
	m = re.match(r"^[0-9]+,([0-9]+),[0-9]+,[^;]*;(.*)$", line.rstrip("\n"))
	if m:
		text = re.sub(r"\\x([0-9a-f]{2})",
			      lambda h: chr(int(h.group(1), 16)), m.group(2))
		text = text.encode("latin-1", "surrogateescape").decode("utf-8", "replace")
		recs.append((int(m.group(1)), text))
joined = {}
for l in open(sys.argv[2]):
	d = json.loads(l)
	if "seq" in d:
		joined[d["seq"]] = joined.get(d["seq"], "") + d["text"]
first = min(joined)
bad = checked = 0
paths = False
for seq, text in recs:
	if seq < first or "kmsg-record:" in text:
		continue
	checked += 1
	paths |= text.startswith("kmsg_paths: kmsg_paths done")
	if joined.get(seq) != text:
		bad += 1
		print("seq %d: /dev/kmsg %r, events %r" % (seq, text, joined.get(seq)))
print("%d records, %d not rebuilt, kmsg_paths %s" % (checked, bad, paths))
sys.exit(bad != 0 or checked < 30 or not paths)
PY
then
	echo "ok $n kmsg report --json: every record rebuilt, joined on seq ($(tail -n1 "$tmp/join"))"
else
	sed 's/^/# /' "$tmp/join" | tail -n 20
	echo "not ok $n kmsg report --json: every record rebuilt, joined on seq"
fi
for i in $(seq 1 "$m"); do
	check "kmsg report --json" json "$i"
done
count json "kmsg report --json"
n=$((n + 1))
if [ "$(wc -l < "$tmp/plugin")" = "$m" ]; then
	echo "ok $n trace-cmd report with plugin_kmsg.so: $m messages"
else
	echo "not ok $n trace-cmd report with plugin_kmsg.so: $(wc -l < "$tmp/plugin") messages, want $m"
fi
# libtraceevent gives the plugin no module names: %ps/%pS lack " [mod]"
sed 's/ \[kmsgtest\]//g' "$tmp/want" > "$tmp/want.nomod"
for i in $(seq 1 "$m"); do
	check "trace-cmd report + plugin" plugin "$i" want.nomod
done

# a damaged trace.dat: cut inside its CPU data (where libtracecmd's
# tracecmd_open() crashes), and in every page of its headers; each gives
# a clear error naming the file, exit status 1, never a signal
n=$((n + 1))
bad=0
size=$(stat -c %s "$rec/kmsg.dat")
for cut in $(seq 64 4096 "$size") $((size / 2)); do
	head -c "$cut" "$rec/kmsg.dat" > "$tmp/cut.dat"
	"$tools/kmsg" report "$tmp/cut.dat" > /dev/null 2> "$tmp/cut.err"
	rc=$?
	if [ "$rc" != 1 ] || ! grep -q "cut.dat: " "$tmp/cut.err"; then
		bad=$((bad + 1))
		echo "# cut at $cut: exit status $rc: $(head -c 200 "$tmp/cut.err")"
	fi
done
if [ "$bad" = 0 ]; then
	echo "ok $n kmsg report of a cut trace.dat: a clear error, exit status 1 ($(head -n1 "$tmp/cut.err"))"
else
	echo "not ok $n kmsg report of a cut trace.dat: $bad cuts not refused cleanly"
fi

# offline, with the docs database: -x in JSON, and a translation
n=$((n + 1))
if [ -n "${DOCS_DB:-}" ] &&
   "$tools/kmsg" report --json -x --db "$DOCS_DB" --id kmsgtest.2 "$rec/kmsg.dat" |
   python3 -c 'import json,sys
d = json.loads(sys.stdin.readline())
sys.exit(d["user_response"] != "Set the device online and retry the operation.")'; then
	echo "ok $n kmsg report --json -x: kmsgtest.2 with its user response"
else
	echo "not ok $n kmsg report --json -x: kmsgtest.2 with its user response"
fi
n=$((n + 1))
got=$("$tools/kmsg" report --color=never --lang ja --db "${DOCS_DB:-/nonexistent}" \
	--id kmsgtest.20 "$rec/kmsg.dat" | sed 's/^\[[ 0-9.]*\] [a-z]* *//')
want="platform kmsgtest: kmsgtest.20: 要求 5 (デバイス 4711) がタイムアウトしました"
if [ "$got" = "$want" ]; then
	echo "ok $n kmsg report --lang ja: kmsgtest.20 translated offline"
else
	echo "# got: $got"
	echo "not ok $n kmsg report --lang ja: kmsgtest.20 translated offline"
fi
tap_end
