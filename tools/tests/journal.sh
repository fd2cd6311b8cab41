#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg and the systemd journal, with the real tools and no running
# systemd: a recorded trace.dat (data/kmsg-v6.dat) through kmsg report
# --export into systemd-journal-remote, read back with journalctl --file;
# the catalog of kmsg-doc journal-catalog explaining the entries with
# journalctl -x; a fleet on loopback (systemd-journal-upload to
# systemd-journal-remote over http); kmsg report --journal through
# libsystemd into a socket of the test's own.  journalctl -x reads
# /var/lib/systemd/catalog/database whatever --root says, and the native
# socket is /run/systemd/journal/socket: both are replaced inside a mount
# namespace of the test's own (unshare -m as root, else unshare -rm in a
# user namespace of its own); only a host that allows neither skips
# those tests.  The tools (systemd-journal-remote, journalctl, localedef,
# sqlite3) are what make deps installs: one missing fails.  TAP output.
# TOOLS, DOCS_DB as the Makefile sets.
set -u
here=$(dirname "$(realpath "$0")")
dat=$here/data/kmsg-v6.dat
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
. "$here/tap.sh"
. "$here/lib.sh"
tap_begin cleanup
tools=${TOOLS:?} db=${DOCS_DB:?}

sd=
for d in /lib/systemd /usr/lib/systemd; do
	[ -x $d/systemd-journal-remote ] && sd=$d && break
done
missing=
[ -n "$sd" ] || missing="$missing systemd-journal-remote"
for c in journalctl localedef sqlite3; do
	command -v $c > /dev/null || missing="$missing $c"
done
[ -z "$missing" ] ||
	bail "missing:$missing (packages systemd-journal-remote, locales, sqlite3: make deps)"
remote=$sd/systemd-journal-remote upload=$sd/systemd-journal-upload
# a mount namespace: as root, or as root of a user namespace of its own
mount_ns
noroot="needs root, or unprivileged user namespaces (unshare -rm), for a mount namespace"

"$tools/kmsg" report --json --db "$db" "$dat" > "$tmp/msgs.json" 2> "$tmp/json.err"
"$tools/kmsg" report --export "$tmp/e.export" --db "$db" "$dat" > "$tmp/export.out" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/export.out" ] && [ -s "$tmp/e.export" ]
rc=$?
diag "$tmp/export.out"
ok $rc "kmsg report --export FILE: exit status 0, $(wc -l < "$tmp/msgs.json") messages"

# the same entries on standard output
"$tools/kmsg" report --export - --db "$db" "$dat" 2>&1 | cmp -s - "$tmp/e.export"
ok $? "kmsg report --export -: the same bytes on standard output"

timeout 60 "$remote" -o "$tmp/local.journal" - < "$tmp/e.export" > "$tmp/remote.log" 2>&1
rc=$?
[ $rc = 0 ] || diag "$tmp/remote.log"
ok $rc "systemd-journal-remote -o local.journal - reads the export"

journalctl --file "$tmp/local.journal" -o json > "$tmp/local.json" 2> "$tmp/jctl.err"
python3 "$here/journal-fields.py" "$tmp/msgs.json" "$tmp/local.json" > "$tmp/fields.out" 2>&1
rc=$?
diag "$tmp/fields.out" "$tmp/jctl.err"
ok $rc "journalctl --file: every message, MESSAGE_ID, PRIORITY, SYSLOG_IDENTIFIER=kmsg and every KMSG_* field as kmsg --json has them"

# filters an analyzer uses
got=$(journalctl --file "$tmp/local.journal" -o cat \
	MESSAGE_ID="$(python3 -c 'import hashlib; print(hashlib.sha256(b"kmsg:kmsgtest.2").hexdigest()[:32])')")
[ "$got" = "kmsgtest.2: device 4711 not online" ]
ok $? "journalctl MESSAGE_ID=<id of kmsgtest.2> finds its one message"
got=$(journalctl --file "$tmp/local.journal" -o json KMSG_ID=kmsgtest.2 | python3 -c '
import json, sys
e = json.loads(sys.stdin.readline())
print(e.get("CODE_FILE"), e.get("CODE_LINE"), e.get("CODE_FUNC"))')
[ "$got" = "tools/testing/selftests/kmsg/test_modules/kmsgtest.c 81 kmsgtest_fire" ]
ok $? "CODE_FILE, CODE_LINE, CODE_FUNC of a documented message, from the database ($got)"
journalctl --file "$tmp/local.journal" -o json KMSG_ID=kmsgtest.20 | grep -q '"KMSG_DEVICE":"kmsgtest","KMSG_DRIVER":"platform"\|"KMSG_DRIVER":"platform".*"KMSG_DEVICE":"kmsgtest"\|"KMSG_DEVICE":"kmsgtest".*"KMSG_DRIVER":"platform"'
ok $? "a device message has KMSG_DEVICE and KMSG_DRIVER"

# the catalog, installed into a root of the test's own
mkdir -p "$tmp/root/usr/lib/systemd/catalog" "$tmp/root/var/lib/systemd/catalog"
"$tools/kmsg-doc" journal-catalog --db "$db" "$tmp/root/usr/lib/systemd/catalog" \
	> "$tmp/catalog.out" 2>&1
rc=$?
ok $rc "kmsg-doc journal-catalog: $(cat "$tmp/catalog.out")"
journalctl --root "$tmp/root" --update-catalog > "$tmp/update.out" 2>&1 &&
	[ -s "$tmp/root/var/lib/systemd/catalog/database" ]
rc=$?
[ $rc = 0 ] || diag "$tmp/update.out"
ok $rc "journalctl --root --update-catalog accepts the catalog"
# every entry of the file is in the database, none was refused
entries=$(grep -c '^-- [0-9a-f]\{32\}$' "$tmp/root/usr/lib/systemd/catalog/kmsg.catalog")
listed=$(journalctl --root "$tmp/root" --list-catalog 2> /dev/null | grep -c ' kmsg')
[ "$entries" -gt 0 ] && [ "$entries" = "$listed" ] && ! grep -qi "warn\|fail\|invalid" "$tmp/update.out"
ok $? "journalctl --list-catalog lists all $entries entries"

# translations: one entry per locale, "-- MESSAGEID LANG", the subject
# translated, the same MESSAGE_ID as the untranslated entry
cat=$tmp/root/usr/lib/systemd/catalog/kmsg.catalog
mid=$(grep -B1 '^Subject: kmsgtest.2: device %x not online$' "$cat" | sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p')
[ -n "$mid" ] && grep -A1 "^-- $mid de\$" "$cat" | grep -q '^Subject: kmsgtest.2: Gerät %x ist nicht online$' &&
	grep -A1 "^-- $mid ja\$" "$cat" | grep -q '^Subject: kmsgtest.2: デバイス %1\$x はオンラインではありません$'
ok $? "journal-catalog: translated entries (de, ja) of kmsgtest.2, its subject translated"
! grep -v '^-- [0-9a-f]\{32\}\( [a-z]\{2,3\}\(_[A-Z][A-Z]\|_[0-9]\{3\}\)\?\)\?$' "$cat" | grep -q '^-- '
ok $? "journal-catalog: every entry line is a MESSAGE_ID and at most a locale"
# a locale from the database is checked: one journalctl never looks up
# ("sr@latin") or that would end the line is left out, with a warning
cp "$db" "$tmp/bad.db"
sqlite3 "$tmp/bad.db" "INSERT INTO translations VALUES
	('kmsgtest.2', 'sr@latin', 'x', 'f', 1),
	('kmsgtest.2', 'de' || char(10) || '-- 00000000000000000000000000000000', 'y', 'f', 1),
	('kmsgtest.2', 'fr_FR', 'z %x', 'f', 1)" &&
	mkdir -p "$tmp/bad" &&
	"$tools/kmsg-doc" journal-catalog --db "$tmp/bad.db" "$tmp/bad" > /dev/null 2> "$tmp/bad.err" &&
	[ "$(grep -c 'kmsgtest.2: translation of locale .* left out' "$tmp/bad.err")" = 2 ] &&
	grep -q 'locale "sr@latin"' "$tmp/bad.err" &&
	! grep -q '^-- 0\{32\}' "$tmp/bad/kmsg.catalog" &&
	! grep -v '^-- [0-9a-f]\{32\}\( [a-z]\{2,3\}\(_[A-Z][A-Z]\|_[0-9]\{3\}\)\?\)\?$' "$tmp/bad/kmsg.catalog" | grep -q '^-- ' &&
	grep -A1 "^-- $mid fr_FR\$" "$tmp/bad/kmsg.catalog" | grep -q '^Subject: kmsgtest.2: z %x$'
rc=$?
[ $rc = 0 ] || diag < "$tmp/bad.err"
ok $rc "journal-catalog: locales journalctl cannot look up, or that would end the line, left out with a warning"

# journalctl picks the entry of LC_MESSAGES: a de_DE locale of the
# test's own (LOCPATH), as the machine may have none installed
mkdir -p "$tmp/locale"
if localedef -i de_DE -f UTF-8 "$tmp/locale/de_DE.UTF-8" > "$tmp/localedef.out" 2>&1 &&
   LOCPATH=$tmp/locale LC_ALL=de_DE.UTF-8 locale 2>&1 | grep -q '^LC_MESSAGES="de_DE.UTF-8"' &&
   ! LOCPATH=$tmp/locale LC_ALL=de_DE.UTF-8 locale 2>&1 >/dev/null | grep -q .; then
	de=true rc=0
else
	de=false rc=1
	diag "$tmp/localedef.out"
fi
ok $rc "localedef -i de_DE -f UTF-8: a de_DE.UTF-8 locale of the test's own (package locales: make deps)"
if $de; then
	LOCPATH=$tmp/locale LC_ALL=de_DE.UTF-8 journalctl --root "$tmp/root" \
		--list-catalog > "$tmp/list.de" 2>&1
	grep -q ' kmsgtest.2: Gerät %x ist nicht online$' "$tmp/list.de"
	ok $? "journalctl --list-catalog in de_DE.UTF-8 lists the translated subject"
else
	ok 1 "journalctl --list-catalog in de_DE.UTF-8: not run, no de_DE locale"
fi

# journalctl -x FILE: the explanations, with the test's catalog database
explain() {	# explain JOURNAL OUT
	"${ns[@]}" /bin/sh -c 'mount --bind "$1" /var/lib/systemd/catalog &&
		journalctl --file "$2" -x -o short-monotonic' sh \
		"$tmp/root/var/lib/systemd/catalog" "$1" > "$2" 2>&1
}
check_explained() {	# check_explained OUT
	grep -q 'kmsgtest.2: device 4711 not online' "$1" &&
	grep -q 'Subject: kmsgtest.2: device %x not online' "$1" &&
	grep -q 'Defined-By: kmsg' "$1" &&
	grep -q 'Documentation: man:kmsgtest.2(9)' "$1" &&
	grep -q 'An operation was attempted on the kmsgtest device' "$1" &&
	grep -q 'User response:' "$1"
}
if [ ${#ns[@]} != 0 ]; then
	explain "$tmp/local.journal" "$tmp/x.out"
	check_explained "$tmp/x.out"
	rc=$?
	[ $rc = 0 ] || head -n 40 "$tmp/x.out" | diag
	ok $rc "journalctl -x explains the entries (Subject, Defined-By, Documentation, description, user response; ${ns[*]})"
	if $de; then
		(export LOCPATH=$tmp/locale && unset LC_ALL LC_MESSAGES &&
		 export LANG=de_DE.UTF-8 && explain "$tmp/local.journal" "$tmp/x.de")
		grep -q 'Subject: kmsgtest.2: Gerät %x ist nicht online' "$tmp/x.de" &&
			grep -q 'Documentation: man:kmsgtest.2(9)' "$tmp/x.de"
		rc=$?
		[ $rc = 0 ] || head -n 40 "$tmp/x.de" | diag
		ok $rc "LANG=de_DE.UTF-8 journalctl -x explains with the German subject"
	else
		ok 1 "LANG=de_DE.UTF-8 journalctl -x: not run, no de_DE locale"
	fi
else
	skip "journalctl -x with the test's catalog database: $noroot"
	skip "LANG=de_DE.UTF-8 journalctl -x: $noroot"
fi

# the fleet: systemd-journal-upload to systemd-journal-remote on loopback
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/receiver"
timeout 120 "$remote" --listen-http="127.0.0.1:$port" --split-mode=none \
	--output="$tmp/receiver/remote.journal" > "$tmp/receiver.log" 2>&1 &
rpid=$!
pids+=($rpid)
for i in $(seq 50); do
	python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2> /dev/null && break
	sleep 0.1
done
timeout 60 "$upload" --url="http://127.0.0.1:$port" --file="$tmp/local.journal" \
	--save-state="$tmp/upload.state" --follow=no > "$tmp/upload.log" 2>&1
urc=$?
kill -TERM $rpid 2> /dev/null
wait $rpid
rrc=$?
[ $urc = 0 ] && { [ $rrc = 0 ] || [ $rrc = 143 ]; } && [ -s "$tmp/receiver/remote.journal" ]
rc=$?
[ $rc = 0 ] || diag "$tmp/upload.log" "$tmp/receiver.log"
ok $rc "systemd-journal-upload to systemd-journal-remote on 127.0.0.1:$port (upload $urc, receiver $rrc)"
journalctl --file "$tmp/receiver/remote.journal" -o json > "$tmp/remote.json" 2> "$tmp/jctl2.err"
python3 "$here/journal-fields.py" "$tmp/msgs.json" "$tmp/remote.json" > "$tmp/fields2.out" 2>&1
rc=$?
diag "$tmp/fields2.out" "$tmp/jctl2.err"
ok $rc "on the receiver: every message with MESSAGE_ID and every KMSG_* field intact"
if [ ${#ns[@]} != 0 ]; then
	explain "$tmp/receiver/remote.journal" "$tmp/x2.out"
	check_explained "$tmp/x2.out"
	rc=$?
	[ $rc = 0 ] || head -n 40 "$tmp/x2.out" | diag
	ok $rc "on the receiver, journalctl -x explains them with the catalog installed there"
else
	skip "journalctl -x on the receiver: $noroot"
fi

# kmsg report --journal: libsystemd's sd_journal_sendv() into a socket of
# the test's own, mounted where journald's would be. The tools are built
# with libsystemd when it is there, and make deps installs libsystemd-dev
if ! readelf -d "$tools/kmsg" | grep -q 'NEEDED.*libsystemd\.so'; then
	ok 1 "kmsg report --journal: this kmsg has no libsystemd (libsystemd-dev: make deps, then rebuild the tools)"
	ok 1 "kmsg report --journal fields: not run, no libsystemd"
elif [ ${#ns[@]} != 0 ]; then
	fake_journald "$tmp/native.bin" "$tools/kmsg" report --journal --db "$db" "$dat" \
		> "$tmp/native.log" 2>&1
	rc=$?
	diag "$tmp/native.log"
	ok $rc "kmsg report --journal: exit status $rc"
	python3 "$here/journal-fields.py" --native "$tmp/msgs.json" "$tmp/native.bin" > "$tmp/fields3.out" 2>&1
	rc=$?
	diag "$tmp/fields3.out"
	ok $rc "kmsg report --journal: sd_journal_sendv() sends every message with its fields"
else
	skip "kmsg --journal into a socket of the test's own: $noroot"
	skip "kmsg --journal fields: $noroot"
fi

# no journald: --journal says why it fails, rather than libsystemd
# dropping every entry silently
if [ ${#ns[@]} != 0 ]; then
	"${ns[@]}" /bin/sh -c 'mount -t tmpfs none /run/systemd && "$1/kmsg" report --journal "$2"' sh \
		"$tools" "$dat" > "$tmp/nojournal.out" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q "no journal at /run/systemd/journal/socket" "$tmp/nojournal.out"
	rc=$?
	[ $rc = 0 ] || diag "$tmp/nojournal.out"
	ok $rc "kmsg report --journal without a journal: exit 1, \"no journal at /run/systemd/journal/socket\""
else
	skip "kmsg --journal without a journal: $noroot"
fi
tap_end
