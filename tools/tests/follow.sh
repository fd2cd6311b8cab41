#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg dmesg --follow through the test double of /dev/kmsg
# (kmsg_double.py: a SOCK_SEQPACKET socket, one record a datagram,
# "EPIPE" for an overrun), never the host's /dev/kmsg: each record
# identified against a database of the test's own, written as kmsg live
# writes messages (--json, text, --export, --journal into a socket of the
# test's own, --otlp); gaps in seq and overruns reported as "Missed N
# kernel messages"; the state file: a restart of the same boot writes
# nothing twice and misses nothing, a new boot starts over; malformed
# records said on stderr while the stream goes on; SIGTERM flushes and
# writes the state.  TAP output.  TOOLS: the tools' build directory.
set -u
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
here=$(dirname "$(realpath "$0")")
. "$here/tap.sh"
. "$here/lib.sh"
tap_begin cleanup
tools=${TOOLS:?}

# a database of two sites of module "fwmod"
printk_obj "$tmp/fw.o" fwmod fw_fire fw/fw.c 'fw: widget %d failed with error %d' \
	'fw: link %s is up at %u Mbps' &&
	"$tools/kmsg-doc" build-db --release 6.1.0-follow --out "$tmp/fw.db" \
		"$tmp/fw.o" > "$tmp/build.log" 2>&1
rc=$?
[ $rc = 0 ] || diag "$tmp/build.log"
ok $rc "kmsg-doc build-db: a database of two sites"
[ $rc = 0 ] || bail "no database"

echo 0123456789abcdef0123456789abcdef > "$tmp/boot1"
echo fedcba98-7654-3210-fedc-ba9876543210 > "$tmp/boot2"
W1='fwmod.hb68f2f09' L1='fwmod.hbf3647ea'
r_widget=$'3,5,1000,-;fw: widget 7 failed with error -5\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:1f.2\n'
r_hello=$'6,6,2000,-;hello\\x0aworld\n'
r_link=$'3,9,3000,-;fw: link eth0 is up at 1000 Mbps\n'
# rec SEQ: a record of the widget site
# (without its newline: "$(rec 1)$nl")
rec() { printf '3,%d,%d000,-;fw: widget %d failed with error -%d' "$1" "$1" "$1" "$1"; }
nl=$'\n'

# follow NAME [--hold] RECORD... -- KMSG-OPTIONS: kmsg dmesg --follow
# reading the double; NAME.out, NAME.err, NAME.rc
follow() {
	local name=$1 hold= recs=() s=$tmp/$1.sock
	shift
	[ "$1" = --hold ] && hold=--hold && shift
	while [ "$1" != -- ]; do recs+=("$1"); shift; done
	shift
	python3 "$here/kmsg_double.py" $hold "$s" "${recs[@]}" &
	pids+=($!)
	for _ in $(seq 100); do [ -S "$s" ] && break; sleep 0.05; done
	env -u STATE_DIRECTORY ${STRACE:-} "$tools/kmsg" dmesg --follow --kmsg-device "$s" \
		--db "$tmp/fw.db" --boot-id-file "$tmp/boot1" --color=never "$@" \
		> "$tmp/$name.out" 2> "$tmp/$name.err"
	echo $? > "$tmp/$name.rc"
	# the double waits for a reader that may have given up
	kill "${pids[-1]}" 2>/dev/null
	wait "${pids[-1]}" 2>/dev/null
}
# same NAME WANT_FILE DESC: NAME.out is WANT_FILE, exit status 0
same() {
	local rc
	[ "$(cat "$tmp/$1.rc")" = 0 ] && cmp -s "$tmp/$1.out" "$2"
	rc=$?
	[ $rc = 0 ] || { diag "$tmp/$1.err"; diff "$2" "$tmp/$1.out" | diag; }
	ok $rc "$3"
}

# identification, a gap, an overrun, a record that is none, a truncated one
follow id "$r_widget" "$r_hello" "$r_link" EPIPE "$(rec 12)$nl" 'garbage' \
	'6,13' "$(rec 14)" -- --json
cat > "$tmp/id.want" <<EOF2
{"timestamp":0.001000,"seq":5,"level":3,"level_name":"err","component":"fwmod","modname":"fwmod","auto_id":"$W1","id":"$W1","format":"fw: widget %d failed with error %d","args":[{"type":"int","value":7},{"type":"int","value":-5}],"text":"fw: widget 7 failed with error -5","device":"0000:00:1f.2","driver":"","identified":"text","match":"exact","source":{"file":"fw/fw.c","line":10,"function":"fw_fire"},"subsystem":"pci","kernel_device":"+pci:0000:00:1f.2","truncated":false}
{"timestamp":0.002000,"seq":6,"level":6,"level_name":"info","component":"","modname":"","args":[],"text":"hello\nworld","identified":"text","match":"unidentified","truncated":false}
{"timestamp":0.003000,"level":4,"level_name":"warn","text":"Missed 2 kernel messages","missed":2,"first_seq":7,"last_seq":8,"overrun":false}
{"timestamp":0.003000,"seq":9,"level":3,"level_name":"err","component":"fwmod","modname":"fwmod","auto_id":"$L1","id":"$L1","format":"fw: link %s is up at %u Mbps","args":[{"type":"string","value":"eth0"},{"type":"uint","value":1000}],"text":"fw: link eth0 is up at 1000 Mbps","identified":"text","match":"exact","source":{"file":"fw/fw.c","line":20,"function":"fw_fire"},"truncated":false}
{"timestamp":0.012000,"level":4,"level_name":"warn","text":"Missed 2 kernel messages","missed":2,"first_seq":10,"last_seq":11,"overrun":true}
{"timestamp":0.012000,"seq":12,"level":3,"level_name":"err","component":"fwmod","modname":"fwmod","auto_id":"$W1","id":"$W1","format":"fw: widget %d failed with error %d","args":[{"type":"int","value":12},{"type":"int","value":-12}],"text":"fw: widget 12 failed with error -12","identified":"text","match":"exact","source":{"file":"fw/fw.c","line":10,"function":"fw_fire"},"truncated":false}
{"timestamp":0.014000,"level":4,"level_name":"warn","text":"Missed 1 kernel messages","missed":1,"first_seq":13,"last_seq":13,"overrun":false}
{"timestamp":0.014000,"seq":14,"level":3,"level_name":"err","component":"fwmod","modname":"fwmod","auto_id":"$W1","id":"$W1","format":"fw: widget %d failed with error %d","args":[{"type":"int","value":14},{"type":"int","value":-14}],"text":"fw: widget 14 failed with error -14","identified":"text","match":"exact","source":{"file":"fw/fw.c","line":10,"function":"fw_fire"},"truncated":true}
EOF2
same id "$tmp/id.want" "--json: exact and unidentified records, gaps 5,6,9 and 9,EPIPE,12 missed 2 each (overrun), a record that is none and one cut"
grep -v 'warning: .* is of kernel' "$tmp/id.err" > "$tmp/id.err2"
cat > "$tmp/id.errwant" <<EOF2
kmsg: $tmp/id.sock: not a /dev/kmsg record, skipped: "garbage"
kmsg: $tmp/id.sock: not a /dev/kmsg record, skipped: "6,13"
kmsg: $tmp/id.sock: seq 14: truncated: no newline at its end
kmsg: $tmp/id.sock: 5 records missed (1 overruns), 2 not records
EOF2
cmp -s "$tmp/id.err2" "$tmp/id.errwant"
rc=$?
[ $rc = 0 ] || diff "$tmp/id.errwant" "$tmp/id.err2" | diag
ok $rc "stderr: each record that is none, the cut one, and the count of missed and overruns"

# text, as kmsg live writes it
follow text "$r_widget" "$r_hello" "$r_link" --
cat > "$tmp/text.want" <<EOF2
[    0.001000] err    $W1: fw: widget 7 failed with error -5
[    0.002000] info   hello\x0aworld
[    0.003000] warn   Missed 2 kernel messages
[    0.003000] err    $L1: fw: link eth0 is up at 1000 Mbps
EOF2
same text "$tmp/text.want" "text: the id before the text, as kmsg live; missed 2"

# without --db: the database installed for the running kernel's release
# (kmsg-journal.service runs it so)
rel=$(uname -r)
mkdir -p "$tmp/dbdir"
"$tools/kmsg-doc" build-db --release "$rel" --out "$tmp/dbdir/$rel.db" \
	"$tmp/fw.o" >> "$tmp/build.log" 2>&1
s=$tmp/pick.sock
python3 "$here/kmsg_double.py" "$s" "$r_link" &
pids+=($!)
for _ in $(seq 100); do [ -S "$s" ] && break; sleep 0.05; done
env -u STATE_DIRECTORY -u KMSG_DB KMSG_DB_DIR="$tmp/dbdir" "$tools/kmsg" dmesg \
	--follow --kmsg-device "$s" --json > "$tmp/pick.out" 2> "$tmp/pick.err"
rc=$?
[ $rc = 0 ] && grep -qxF "kmsg: using database for $rel ($tmp/dbdir/$rel.db)" "$tmp/pick.err" &&
	grep -q "\"id\":\"$L1\"" "$tmp/pick.out"
rc=$?
[ $rc = 0 ] || diag "$tmp/pick.err" "$tmp/pick.out"
ok $rc "no --db: the database installed for the running kernel ($rel) identifies the record"

# the state file: a restart of the same boot
st=$tmp/state
follow s1 "$(rec 1)$nl" "$(rec 2)$nl" "$(rec 3)$nl" -- --json --state "$st"
printf 'boot_id=0123456789abcdef0123456789abcdef\nseq=3\n' | cmp -s - "$st"
ok $? "--state: the boot id and the last seq written"
follow s2 "$(rec 1)$nl" "$(rec 2)$nl" "$(rec 3)$nl" "$(rec 4)$nl" "$(rec 5)$nl" -- --json --state "$st"
cat "$tmp/s1.out" "$tmp/s2.out" | sed 's/.*"seq":\([0-9]*\),.*/\1/' | tr '\n' ' ' > "$tmp/seqs"
[ "$(cat "$tmp/seqs")" = "1 2 3 4 5 " ] && grep -q "resuming after seq 3" "$tmp/s2.err" &&
	grep -q '^seq=5$' "$st"
rc=$?
[ $rc = 0 ] || { diag "$tmp/seqs"; diag "$tmp/s2.err"; }
ok $rc "restart of the same boot: seqs 1-3 then 4-5, nothing twice, nothing missed"
# records lost while it was stopped: counted
follow s3 "$(rec 1)$nl" "$(rec 8)$nl" -- --json --state "$st"
grep -q '"missed":2,"first_seq":6,"last_seq":7' "$tmp/s3.out" && [ "$(wc -l < "$tmp/s3.out")" = 2 ]
ok $? "restart: seqs 6 and 7, gone while stopped, reported missed"
# a new boot
follow s4 "$(rec 1)$nl" "$(rec 2)$nl" -- --json --state "$st" --boot-id-file "$tmp/boot2"
[ "$(wc -l < "$tmp/s4.out")" = 2 ] && grep -q "of another boot" "$tmp/s4.err" &&
	printf 'boot_id=fedcba9876543210fedcba9876543210\nseq=2\n' | cmp -s - "$st"
rc=$?
[ $rc = 0 ] || diag "$tmp/s4.err" "$tmp/s4.out"
ok $rc "a new boot id: from the first record, the state of the new boot"
# bad_state NAME TEXT WHY DESCRIPTION: a state file kmsg refuses, saying WHY
bad_state() {
	printf '%b' "$2" > "$tmp/$1.state"
	follow "$1" "$(rec 1)$nl" -- --json --state "$tmp/$1.state"
	[ "$(cat "$tmp/$1.rc")" = 1 ] && [ ! -s "$tmp/$1.out" ] &&
		grep -qF "$1.state: $3" "$tmp/$1.err"
	rc=$?
	[ $rc = 0 ] || diag "$tmp/$1.err"
	ok $rc "$4"
}
bad_state s5 'boot_id=xyz\nseq=2\n' \
	'line 1: not "boot_id=" and a boot id (remove it to start over)' \
	"a damaged state file: exit 1, why, nothing written"
bad_state s6 'boot_id=0123456789abcdef0123456789abcdef\nseq=18446744073709551615\n' \
	'line 2: seq out of range' \
	"a state file whose next seq would wrap to 0: refused, not everything written again"

# SIGTERM: what was read is out, the state written, exit 0
rm -f "$st"
s=$tmp/term.sock
python3 "$here/kmsg_double.py" --hold "$s" "$(rec 1)$nl" "$(rec 2)$nl" &
pids+=($!)
for _ in $(seq 100); do [ -S "$s" ] && break; sleep 0.05; done
env -u STATE_DIRECTORY "$tools/kmsg" dmesg --follow --kmsg-device "$s" --db "$tmp/fw.db" \
	--boot-id-file "$tmp/boot1" --json --state "$st" > "$tmp/term.out" 2> "$tmp/term.err" &
kp=$!
for _ in $(seq 100); do [ "$(wc -l < "$tmp/term.out" 2>/dev/null)" = 2 ] && break; sleep 0.05; done
kill -TERM $kp
wait $kp
rc=$?
[ $rc = 0 ] && grep -q '^seq=2$' "$st" && [ "$(wc -l < "$tmp/term.out")" = 2 ]
rc=$?
[ $rc = 0 ] || diag "$tmp/term.err"
ok $rc "SIGTERM: exit 0, both records out, the state file says seq 2"

# --export, as text
follow ex "$r_widget" "$r_link" -- --export - --boot-time 1700000000
mid=$(printf 'kmsg:missed' | sha256sum | cut -c1-32)
[ "$mid" = b29d0b39c13962a4c31e08963e719ac7 ] &&
	grep -qx "MESSAGE_ID=$mid" "$tmp/ex.out" && grep -qx "KMSG_MISSED=3" "$tmp/ex.out" &&
	grep -qx "MESSAGE=Missed 3 kernel messages" "$tmp/ex.out" &&
	grep -qx "KMSG_MISSED_FIRST_SEQ=6" "$tmp/ex.out" &&
	grep -qx "_BOOT_ID=0123456789abcdef0123456789abcdef" "$tmp/ex.out" &&
	grep -qx "__REALTIME_TIMESTAMP=1700000000001000" "$tmp/ex.out" &&
	grep -qx "KMSG_ID=$W1" "$tmp/ex.out" && grep -qx "CODE_FILE=fw/fw.c" "$tmp/ex.out" &&
	grep -qx "CODE_LINE=20" "$tmp/ex.out" && grep -qx "CODE_FUNC=fw_fire" "$tmp/ex.out" &&
	grep -qx "KMSG_IDENTIFIED=text" "$tmp/ex.out" && grep -qx "KMSG_MATCH=exact" "$tmp/ex.out" &&
	grep -qx "KMSG_DEVICE=0000:00:1f.2" "$tmp/ex.out" &&
	grep -qx "KMSG_SUBSYSTEM=pci" "$tmp/ex.out" && grep -qx "KMSG_ARG_TYPES=string,uint" "$tmp/ex.out" &&
	! grep -q "^KMSG_CPU=" "$tmp/ex.out" && [ "$(grep -c '^$' "$tmp/ex.out")" = 3 ]
rc=$?
[ $rc = 0 ] || diag "$tmp/ex.out" "$tmp/ex.err"
ok $rc "--export: three entries, \"Missed 3 kernel messages\" with MESSAGE_ID $mid and KMSG_MISSED=3; ids, CODE_*, device"

sd=
for d in /lib/systemd /usr/lib/systemd; do
	[ -x $d/systemd-journal-remote ] && sd=$d && break
done
if [ -n "$sd" ] && command -v journalctl > /dev/null; then
	timeout 60 "$sd/systemd-journal-remote" -o "$tmp/f.journal" - < "$tmp/ex.out" > "$tmp/remote.log" 2>&1 &&
		journalctl --file "$tmp/f.journal" -o json > "$tmp/f.json" 2>> "$tmp/remote.log" &&
		python3 - "$tmp/f.json" "$mid" <<'EOF2' >> "$tmp/remote.log" 2>&1
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
assert len(e) == 3, len(e)
assert e[1]["MESSAGE_ID"] == sys.argv[2] and e[1]["KMSG_MISSED"] == "3", e[1]
assert e[0]["KMSG_MATCH"] == "exact" and e[0]["KMSG_KERNEL_DEVICE"] == "+pci:0000:00:1f.2", e[0]
assert e[2]["KMSG_SEQ"] == "9" and e[2]["KMSG_ARG_1"] == "eth0", e[2]
EOF2
	rc=$?
	[ $rc = 0 ] || diag "$tmp/remote.log"
	ok $rc "systemd-journal-remote reads the export; journalctl shows the fields"
else
	skip "systemd-journal-remote and journalctl not installed"
fi

# --journal: into a socket of the test's own, mounted where journald's is
mount_ns
if ! readelf -d "$tools/kmsg" | grep -q 'NEEDED.*libsystemd\.so'; then
	ok 1 "kmsg dmesg --follow --journal: this kmsg has no libsystemd"
elif [ ${#ns[@]} != 0 ]; then
	python3 "$here/kmsg_double.py" "$tmp/j.sock" "$r_widget" "$r_link" &
	pids+=($!)
	for _ in $(seq 100); do [ -S "$tmp/j.sock" ] && break; sleep 0.05; done
	fake_journald "$tmp/native.bin" env -u STATE_DIRECTORY "$tools/kmsg" dmesg \
		--follow --journal --kmsg-device "$tmp/j.sock" --db "$tmp/fw.db" \
		--boot-id-file "$tmp/boot1" > "$tmp/native.log" 2>&1 &&
		python3 - "$tmp/native.bin" <<'EOF2' >> "$tmp/native.log" 2>&1
import sys
b = open(sys.argv[1], "rb").read()
d = []
while b:
    n = int.from_bytes(b[:8], "little")
    d.append(b[8:8 + n])
    b = b[8 + n:]
assert len(d) == 3, len(d)
assert b"KMSG_MISSED=3\n" in d[1] and b"MESSAGE_ID=b29d0b39c13962a4c31e08963e719ac7\n" in d[1], d[1]
assert b"KMSG_ID=fwmod.hb68f2f09\n" in d[0] and b"KMSG_IDENTIFIED=text\n" in d[0], d[0]
assert b"KMSG_SEQ=9\n" in d[2], d[2]
EOF2
	rc=$?
	diag "$tmp/native.log"
	ok $rc "--journal: sd_journal_sendv() sends the three entries with their fields"
else
	skip "kmsg dmesg --follow --journal into a socket of the test's own: needs root or user namespaces"
fi

# --otlp
follow ot "$r_widget" "$r_link" -- --otlp --boot-time 1700000000
python3 - "$tmp/ot.out" <<'EOF2' > "$tmp/ot.log" 2>&1
import json, sys
r = [json.loads(l)["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0] for l in open(sys.argv[1])]
a = [{x["key"]: list(x["value"].values())[0] for x in l["attributes"]} for l in r]
assert len(r) == 3, len(r)
assert r[0]["timeUnixNano"] == "1700000000001000000", r[0]
assert a[0]["kmsg.id"] == "fwmod.hb68f2f09" and a[0]["kmsg.match"] == "exact", a[0]
assert a[0]["code.filepath"] == "fw/fw.c" and a[0]["code.lineno"] == "10", a[0]
assert a[0]["kmsg.device"] == "0000:00:1f.2" and "thread.id" not in a[0], a[0]
assert r[1]["body"]["stringValue"] == "Missed 3 kernel messages" and a[1]["kmsg.missed"] == "3", r[1]
assert a[2]["kmsg.seq"] == "9" and a[2]["kmsg.args"]["values"][0] == {"stringValue": "eth0"}, a[2]
EOF2
rc=$?
[ $rc = 0 ] || diag "$tmp/ot.log" "$tmp/ot.out"
ok $rc "--otlp: ids, match, code.*, device, missed 3, args"

# a file with --follow: a clear error
"$tools/kmsg" dmesg --follow "$tmp/fw.db" > /dev/null 2> "$tmp/file.err"
[ $? = 1 ] && grep -q "not a file" "$tmp/file.err"
ok $? "--follow with a FILE: exit 1, why"

# each line out whole, in one write(): killed, kmsg leaves no line cut
# short in a file (a record of 8,000 bytes escaped is a line of 12,000:
# more than stdio's own 4 KiB or 8 KiB buffer); strace is in make deps
long=$(printf '\\x01%.0s' $(seq 2000))
STRACE="strace -f -e trace=write -e signal=none -o $tmp/long.strace" \
	follow long "$r_widget" "6,20,9000,-;$long$nl" "$r_link" -- --json
# the sizes of the writes to standard output, the lengths of the lines
sed -n 's/^[0-9]* *write(1, .*, \([0-9]*\)) *= \1$/\1/p' "$tmp/long.strace" > "$tmp/long.writes"
awk '{ print length($0) + 1 }' "$tmp/long.out" > "$tmp/long.lines"
writes=$(grep -c '^[0-9]* *write(1, ' "$tmp/long.strace")
lines=$(wc -l < "$tmp/long.out")
[ "$writes" = 3 ] && cmp -s "$tmp/long.writes" "$tmp/long.lines" &&
	[ "$(awk '$1 > 12000' "$tmp/long.lines" | wc -l)" = 1 ]
ok $? "--json: each of the $lines lines out in one write() of its own, whole, the longest over 12,000 bytes ($writes writes: $(paste -sd ' ' "$tmp/long.writes"))"
tap_end
