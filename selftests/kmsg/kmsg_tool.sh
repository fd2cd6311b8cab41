#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kmsg tool in the guest: "kmsg live" (text and JSON) rebuilds every
# kmsgtest message exactly as /dev/kmsg shows it, renders the Japanese
# translations from the live raw arguments, removes its tracefs instance
# when interrupted; "kmsg dmesg -x" explains messages from the log.
# Needs kmsg in PATH and its docs database (KMSG_DB).
KMSG=${KMSG:-kmsg}
FIRE=/sys/kernel/debug/kmsgtest/fire
INST=/sys/kernel/tracing/instances
tmp=$(mktemp -d)
# shellcheck source=kmsg_tap.sh
. "$(dirname "$0")/kmsg_tap.sh"

# Start "kmsg live ARGS" in the background, wait until its instance
# records, fire the messages given, wait for it to exit (--count).
live() {	# live OUT COUNT MESSAGES... -- ARGS...
	out=$1 count=$2
	shift 2
	msgs=
	while [ "$1" != "--" ]; do msgs="$msgs $1"; shift; done
	shift
	"$KMSG" live --color=never --count "$count" "$@" > "$out" 2> "$out.err" &
	pid=$!
	i=0
	until [ "$(cat $INST/kmsg-live-$pid/events/kmsg/kmsg/enable 2>/dev/null)" = 1 ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && break
		sleep 0.1
	done
	for m in $msgs; do echo "$m" > $FIRE; done
	i=0
	while kill -0 $pid 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { kill $pid; break; }
		sleep 0.1
	done
	wait $pid
}

# /dev/kmsg text of the kmsgtest messages printed since mark $1. The
# log is read through one open file: a read fails with EPIPE once when
# records were lost before it got to them (cat stops there, status 1),
# and the next read goes on with the oldest record left. The last cat
# waits for more and is ended by timeout (status 143): after 5 s, time
# for the debug kernel under TCG to hand out a ring buffer full of the
# storms' records (in 1 s it did not reach the mark once).
kmsg_texts() {
	tries=0
	while [ $tries -lt 10 ]; do
		timeout 5 cat
		[ $? = 1 ] || break
		tries=$((tries + 1))
	done < /dev/kmsg > "$tmp/all" 2> /dev/null
	sed -n "/;kmsg-tool: $1\$/,\$p" "$tmp/all" | grep -v '^ ' |
		sed -n 's/^[0-9]*,[0-9]*,[0-9]*,[^;]*;//p' |
		grep -E '(^|: )kmsgtest\.[0-9]+: ' | grep -v 'kmsgtest\.14: '
}

# kmsg's output without kmsgtest.14, the prefix form: a plain printk()
# that the text output shows with its automatic id in front
no14() {
	grep -v 'kmsgtest\.14: '
}

echo "TAP version 13"
echo "1..8"
load_kmsgtest || { echo "Bail out! no kmsgtest module"; exit 1; }
[ -r "${KMSG_DB:-/usr/share/kmsg/kmsg.db}" ] || echo "# no docs database"

# every message, text output
echo "kmsg-tool: text" > /dev/kmsg
live "$tmp/text" 18 all -- --component kmsgtest --lang C
kmsg_texts text > "$tmp/want"
sed 's/^\[[ 0-9.]*\] [a-z]* *//' "$tmp/text" | no14 > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" && [ "$(wc -l < "$tmp/want")" = 17 ]
rc=$?
[ $rc = 0 ] || { echo "# $(wc -l < "$tmp/want") lines in /dev/kmsg"
		 diff "$tmp/want" "$tmp/got" | sed 's/^/# /' | head -20; }
ok $rc "kmsg live: 17 messages with curated ids as /dev/kmsg shows them"

# every message, JSON: the "text" fields (kmsgtest texts need no escapes)
echo "kmsg-tool: json" > /dev/kmsg
live "$tmp/json" 18 all -- --component kmsgtest --json --lang C
kmsg_texts json > "$tmp/want"
sed 's/.*,"text":"\([^"]*\)".*/\1/' "$tmp/json" | no14 > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" && [ "$(wc -l < "$tmp/want")" = 17 ]
ok $? "kmsg live --json: the text of 17 messages as /dev/kmsg shows it"
grep -c '"id":"kmsgtest\.[0-9]*","format":' "$tmp/json" | grep -qx 17
ok $? "kmsg live --json: every object has id and format"

# Japanese, from the live raw arguments; positional arguments reorder
live "$tmp/ja" 6 1 2 8 13 20 21 -- --lang ja_JP.UTF-8
sed 's/^\[[ 0-9.]*\] [a-z]* *//' "$tmp/ja" > "$tmp/got"
cat > "$tmp/want" <<'EOF'
kmsgtest.1: デバイス 4711 の状態は 1 です
kmsgtest.2: デバイス 4711 はオンラインではありません
kmsgtest.8: 幅 [    42] [42    ] [abc] [    xy] [005] [    p]
kmsgtest.13: 訓練 3 回中 1 回目、対応は不要です
platform kmsgtest: kmsgtest.20: 要求 5 (デバイス 4711) がタイムアウトしました
platform kmsgtest: kmsgtest.21: デバイス 4711: 4 本中 2 本のパスがオンラインです
EOF
cmp -s "$tmp/want" "$tmp/got"
rc=$?
[ $rc = 0 ] || diff "$tmp/want" "$tmp/got" | sed 's/^/# /'
ok $rc "kmsg live --lang ja_JP.UTF-8: Japanese from the raw arguments"

# an untranslated message falls back to the original
live "$tmp/fallback" 1 3 -- --lang ja
grep -q 'kmsgtest.3: signed -42 unsigned 4000000000 octal 755 hex BEEF$' "$tmp/fallback"
ok $? "kmsg live --lang ja: untranslated message in the original"

# interrupted: the instance goes away
"$KMSG" live --color=never > /dev/null 2>&1 &
pid=$!
sleep 1
[ -d $INST/kmsg-live-$pid ]
ok $? "kmsg live: its own tracefs instance kmsg-live-$pid"
kill -INT $pid
wait $pid
[ ! -d $INST/kmsg-live-$pid ]
ok $? "kmsg live: SIGINT removes the instance"

# dmesg -x: each identified message followed by its documentation
echo 2 > $FIRE
"$KMSG" dmesg -x > "$tmp/dmesg"
grep -A4 'kmsgtest.2: device 4711 not online$' "$tmp/dmesg" | tail -n 4 |
	sed 's/kmsgtest\.c:[0-9]* /kmsgtest.c:LINE /' > "$tmp/got"
cat > "$tmp/want" <<'EOF'
-- kmsgtest.2 at tools/testing/selftests/kmsg/test_modules/kmsgtest.c:LINE kmsgtest_fire()
-- Description: An operation was attempted on the kmsgtest device, but the device is not
-- online. The operation failed.
-- User Response: Set the device online and retry the operation.
EOF
cmp -s "$tmp/want" "$tmp/got"
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$tmp/got"
ok $rc "kmsg dmesg -x: kmsgtest.2 explained"

rm -rf "$tmp"
exit $failed
