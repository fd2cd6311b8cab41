#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg dmesg's snapshots (lib/kmsg_snap.c): the sites and the matcher
# built over a database, kept in KMSG_CACHE_DIR for the next run.  With a
# copy of Debian's stock database (DISTRO_DB, make distro-db): the first
# run writes a snapshot, the next ones map it, and every output (--json,
# -x, plain) of real logs is the same as without snapshots; a snapshot is
# used (a change of the database that keeps its size and time is not
# seen, by design of the check), and not used when the database changed,
# or when it is damaged or cut (then it is written again); snapshots of
# databases gone are removed; a small database gets none, and
# KMSG_CACHE_DIR="" turns them off.  TAP output.  DISTRO_DB, TOOLS.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
kmsg=${TOOLS:-$here/../../build/tools}/kmsg
db=${DISTRO_DB:-}
[ -s "$db" ] || bail "no DISTRO_DB (make distro-db builds it)"
cp "$db" "$tmp/stock.db"
db=$tmp/stock.db
cache=$tmp/cache
logs=("$here/../../qemu/stock/dmesg.txt" "$here/hwlogs/nb-framework-tgl-intel.dmesg")

# run NAME CACHE: every output of every log, in $tmp/NAME.out
run() {
	local f mode
	: > "$tmp/$1.out"
	for f in "${logs[@]}"; do
		for mode in --json -x ""; do
			KMSG_CACHE_DIR=$2 "$kmsg" dmesg $mode --db "$db" "$f" \
				>> "$tmp/$1.out" 2>&1 || echo "exit status $?" >> "$tmp/$1.out"
		done
	done
}
snaps() { find "$cache" -name '*.snap' 2> /dev/null | wc -l; }
same() {	# same A B DESCRIPTION
	cmp -s "$tmp/$1.out" "$tmp/$2.out"
	r=$?
	[ $r = 0 ] || diff "$tmp/$1.out" "$tmp/$2.out" | head -n 20 | diag
	ok $r "$3"
}

run plain ""
[ "$(snaps)" = 0 ] && [ -s "$tmp/plain.out" ]
ok $? "KMSG_CACHE_DIR=\"\": no snapshot"
run cold "$cache"
[ "$(snaps)" = 1 ]
ok $? "the first run writes one snapshot ($(snaps))"
same plain cold "the first run's outputs (--json, -x, plain, two real logs) are those without snapshots"
snap=$(find "$cache" -name '*.snap')
cp "$snap" "$tmp/good.snap"
run warm "$cache"
same plain warm "from the snapshot: the same outputs"

# used: a change that keeps the file's size, inode and time is not seen
# (the snapshot is of the database as it was)
line=$(grep -m 1 'Memory:' "${logs[0]}")
fmt=$(sqlite3 "$db" "SELECT format FROM messages WHERE format LIKE 'Memory: %K/%K available%' LIMIT 1")
touch -r "$db" "$tmp/ref"
size0=$(stat -c %s "$db") ino0=$(stat -c %i "$db")
sqlite3 "$db" "UPDATE messages SET format = replace(format, 'Memory:', 'Memorx:') WHERE format = '$(printf %s "$fmt" | sed "s/'/''/g")'"
touch -r "$tmp/ref" "$db"
run edited ""
run edited_snap "$cache"
[ -n "$line" ] && [ -n "$fmt" ] && [ "$(stat -c %s "$db")" = "$size0" ] &&
	[ "$(stat -c %i "$db")" = "$ino0" ] &&
	! cmp -s "$tmp/plain.out" "$tmp/edited.out" &&
	cmp -s "$tmp/plain.out" "$tmp/edited_snap.out"
ok $? "the snapshot is what the run uses: a format edited in place (size and time kept) changes the output without snapshots only"

# the database changed: its time
touch "$db"
run fresh ""
run changed "$cache"
same fresh changed "a database with another time: its snapshot is not used, the outputs are the database's"
! cmp -s "$snap" "$tmp/good.snap" && [ "$(snaps)" = 1 ]
ok $? "and the snapshot is written again, the old one replaced ($(snaps) in the cache)"

# damaged, cut: not used, written again
cp "$snap" "$tmp/new.snap"
size=$(stat -c %s "$snap")
printf '\x55' | dd of="$snap" bs=1 seek=$((size / 2)) conv=notrunc status=none
run damaged "$cache"
same fresh damaged "a snapshot with a byte changed: not used, the same outputs"
cmp -s "$snap" "$tmp/new.snap"
ok $? "and written again"
head -c $((size / 3)) "$tmp/new.snap" > "$snap"
run cut "$cache"
same fresh cut "a snapshot cut short: not used, the same outputs"
cmp -s "$snap" "$tmp/new.snap"
ok $? "and written again"

# another database's snapshot, the database gone: removed at the next write
cp "$db" "$tmp/other.db"
KMSG_CACHE_DIR=$cache "$kmsg" dmesg --json --db "$tmp/other.db" "${logs[0]}" > /dev/null 2>&1
n1=$(snaps)
rm "$tmp/other.db"
rm "$snap"
KMSG_CACHE_DIR=$cache "$kmsg" dmesg --json --db "$db" "${logs[0]}" > /dev/null 2>&1
[ "$n1" = 2 ] && [ "$(snaps)" = 1 ] && [ -s "$snap" ]
ok $? "a snapshot whose database is gone is removed when another is written ($n1, then $(snaps))"

# a small database: none
rm -rf "$cache"
sqlite3 "$db" "DELETE FROM messages WHERE rowid > 1000; VACUUM"
KMSG_CACHE_DIR=$cache "$kmsg" dmesg --json --db "$db" "${logs[0]}" > /dev/null 2>&1
[ "$(snaps)" = 0 ]
ok $? "a database of 1000 sites gets no snapshot"
tap_end
