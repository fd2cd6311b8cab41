#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The right database for the log: databases of three kernel releases,
# built by kmsg-doc build-db from objects of the test's own (each prints
# a message the others do not have), installed side by side with kmsg db
# install into a tree of the test's own (bin/kmsg, share/kmsg/kmsg.db as
# the fallback, share/kmsg/db/), and what kmsg dmesg says and identifies
# for logs of each kernel, of none, of several, of none named, with --db
# and --release, and a damaged database.  TAP output.  TOOLS: the tools'
# build directory.
set -u
tmp=$(mktemp -d)
here=$(dirname "$(realpath "$0")")
. "$here/tap.sh"
. "$here/lib.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:?}

# banner RELEASE [BUILD]: the kernel's "Linux version" line
banner() {
	echo "Linux version $1 (builder@host) (gcc 12.2.0) #${2:-1} SMP PREEMPT_DYNAMIC"
}
# build RELEASE OUT SOURCE BANNER FORMAT...
build() {
	local rel=$1 out=$2 src=$3 ban=$4
	shift 4
	printk_obj "$tmp/$rel.o" dbsel dbsel_fire dbsel/dbsel.c "$@" &&
	"$tools/kmsg-doc" build-db --release "$rel" --banner "$ban" \
		--source "$src" --out "$out" "$tmp/$rel.o" > "$tmp/build.log" 2>&1
}

A=6.12.118+deb12-amd64 B=6.18.0-1-amd64 G=6.12.0-guest
status=0
build $A "$tmp/a.db" "linux-image-$A-unsigned 6.12.118-1~deb12u1" "$(banner $A)" \
	'dbsel: widget %d failed' 'dbsel: common message %d' || status=1
build $B "$tmp/b.db" "linux-image-$B-unsigned 6.18.0-1" "$(banner $B)" \
	'dbsel: gadget %d failed with error %d' 'dbsel: common message %d' || status=1
build $G "$tmp/g.db" "guest build" "$(banner $G)" 'dbsel: guest only %s' || status=1
# no release: a database of nothing in particular
"$tools/kmsg-doc" build-db --out "$tmp/norel.db" "$tmp/$G.o" >> "$tmp/build.log" 2>&1 || status=1
[ $status = 0 ] || diag "$tmp/build.log"
ok $status "kmsg-doc build-db --release --banner --source of three kernels"

got=$(sqlite3 "$tmp/a.db" "SELECT key || '=' || value FROM build ORDER BY key" 2>&1)
want="banner=$(banner $A)
build_id=
release=$A
schema=6
source=linux-image-$A-unsigned 6.12.118-1~deb12u1"
[ "$got" = "$want" ]
ok $? "build table: release, banner, source, schema 6"

# the tree of an installed kmsg; the guest's database as kmsg.db
root=$tmp/root
mkdir -p "$root/bin" "$root/share/kmsg"
cp "$tools/kmsg" "$root/bin/kmsg"
cp "$tmp/g.db" "$root/share/kmsg/kmsg.db"
dir=$root/bin/../share/kmsg/db
k() { env -u KMSG_DB -u KMSG_DB_DIR "$root/bin/kmsg" "$@"; }

# check DESC RC WANT_RC [STDOUT_FILE WANT_STDOUT] [STDERR_FILE WANT_STDERR]
check() {
	local desc=$1 rc=$2 want_rc=$3 bad=0
	shift 3
	{
	[ "$rc" = "$want_rc" ] || { echo "exit status $rc, not $want_rc"; bad=1; }
	while [ $# -ge 2 ]; do
		if [ "$(cat "$1")" != "$2" ]; then
			echo "$1:"; cat "$1"; echo "expected:"; echo "$2"
			bad=1
		fi
		shift 2
	done
	} > "$tmp/why" 2>&1
	[ $bad = 0 ] || diag "$tmp/why"
	ok $bad "$desc"
}

k db list > "$tmp/out" 2> "$tmp/err"
check "db list, none installed: says where and how; kmsg.db the fallback" $? 0 \
	"$tmp/out" "no databases installed in $root/bin/../share/kmsg/db: 'kmsg db install FILE' installs one
$G  1 sites  guest build  (kmsg.db: the fallback)
  $(banner $G)
  $root/bin/../share/kmsg/kmsg.db" "$tmp/err" ""

k db install "$tmp/a.db" > "$tmp/out" 2> "$tmp/err"
check "db install: under its release's name" $? 0 \
	"$tmp/out" "installed $A as $root/bin/../share/kmsg/db/$A.db" "$tmp/err" ""
k db install "$tmp/b.db" > /dev/null 2>&1
k db install "$tmp/b.db" > "$tmp/out" 2> "$tmp/err"
check "db install again: replaced" $? 0 \
	"$tmp/out" "replaced $B as $root/bin/../share/kmsg/db/$B.db"
[ "$(ls -A "$dir")" = "$(printf '%s\n' $A.db $B.db)" ]
ok $? "the directory holds the two databases, no temporary file"

k db list > "$tmp/out" 2> "$tmp/err"
check "db list: release, sites, source, banner, path of each" $? 0 "$tmp/out" \
"$A  2 sites  linux-image-$A-unsigned 6.12.118-1~deb12u1
  $(banner $A)
  $dir/$A.db
$B  2 sites  linux-image-$B-unsigned 6.18.0-1
  $(banner $B)
  $dir/$B.db
$G  1 sites  guest build  (kmsg.db: the fallback)
  $(banner $G)
  $root/bin/../share/kmsg/kmsg.db"

# refused: not a database, a damaged one, one naming no release
echo "not a database" > "$tmp/text.db"
head -c 3000 "$tmp/a.db" > "$tmp/cut.db"
k db install "$tmp/text.db" > "$tmp/out" 2> "$tmp/err"
check "db install of a text file: refused, naming it" $? 1 "$tmp/out" "" \
	"$tmp/err" "kmsg: $tmp/text.db: not a kmsg docs database: file is not a database"
k db install "$tmp/cut.db" > "$tmp/out" 2> "$tmp/err"
rc=$?
grep -q "^kmsg: $tmp/cut.db: " "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ] || rc=9
check "db install of a truncated database: refused, naming it ($(cat "$tmp/err"))" $rc 1 "$tmp/out" ""
k db install "$tmp/norel.db" > "$tmp/out" 2> "$tmp/err"
check "db install of a database of no release: refused, what to do" $? 1 "$tmp/err" \
	"kmsg: $tmp/norel.db: the database names no kernel release: build it with 'kmsg-doc build-db --release RELEASE ...' (RELEASE as uname -r prints it)"
[ "$(ls -A "$dir")" = "$(printf '%s\n' $A.db $B.db)" ]
ok $? "nothing installed by the refusals"

# logs
log() {	# log FILE RELEASE [BUILD]: a boot of RELEASE, the messages of both
	{
		[ -n "$2" ] && echo "[    0.000000] $(banner "$2" "${3:-1}")"
		echo "[    1.000000] dbsel: widget 3 failed"
		echo "[    2.000000] dbsel: gadget 4 failed with error 5"
		echo "[    3.000000] dbsel: common message 6"
	} > "$1"
}
log "$tmp/a.log" $A
log "$tmp/b.log" $B
log "$tmp/c.log" 6.19.0-9-amd64
log "$tmp/none.log" ""
ida=$("$tools/kmsg-doc" auto-id dbsel 'dbsel: widget %d failed')
idb=$("$tools/kmsg-doc" auto-id dbsel 'dbsel: gadget %d failed with error %d')
idc=$("$tools/kmsg-doc" auto-id dbsel 'dbsel: common message %d')
ids() { grep '^-- ' "$1" | tr '\n' ' '; }

k dmesg "$tmp/a.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "a log of $A: its database, said on stderr; only its messages identified" $rc 0 \
	"$tmp/err" "kmsg: using database for $A ($dir/$A.db)" \
	"$tmp/ids" "-- unidentified -- $ida at dbsel/dbsel.c:10 dbsel_fire() -- unidentified -- $idc at dbsel/dbsel.c:20 dbsel_fire() "
k dmesg "$tmp/b.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "a log of $B: the other database" $rc 0 \
	"$tmp/err" "kmsg: using database for $B ($dir/$B.db)" \
	"$tmp/ids" "-- unidentified -- unidentified -- $idb at dbsel/dbsel.c:10 dbsel_fire() -- $idc at dbsel/dbsel.c:20 dbsel_fire() "

k dmesg "$tmp/c.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "a log of a kernel with no database: a plain warning, what to do, nothing identified" $rc 0 \
	"$tmp/err" "kmsg: warning: no database for 6.19.0-9-amd64, the kernel of $tmp/c.log (line 1)
kmsg: installed: $A, $B (in $dir), $G (kmsg.db); 'kmsg db list' lists them
kmsg: its messages are not identified: build a database from that kernel's packages, for Debian with 'make distro-db DISTRO_KERNEL=linux-image-6.19.0-9-amd64-unsigned' in kmsg's source tree, else with 'kmsg-doc build-db --out 6.19.0-9-amd64.db --dbg VMLINUX --kbuild-map MAP PACKAGE' (kmsg-doc(1)), and install it with 'kmsg db install 6.19.0-9-amd64.db'; --db FILE forces another (ids may be wrong)" \
	"$tmp/ids" "" "$tmp/out" "$(cat "$tmp/c.log")"
k dmesg --json "$tmp/c.log" > "$tmp/out" 2> /dev/null
rc=$?
grep -c '"match":"unidentified"' "$tmp/out" > "$tmp/n"
grep -c '"database"' "$tmp/out" >> "$tmp/n"
check "... and --json: every line unidentified, no database named" $rc 0 "$tmp/n" "4
0"

cat "$tmp/a.log" "$tmp/b.log" > "$tmp/ab.log"
k dmesg --json "$tmp/ab.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    print(o["line"], o.get("database"), o.get("id", o["match"]))' "$tmp/out" > "$tmp/got" 2>&1
check "a log of two boots, $A then $B: each boot with its kernel's database; --json names it" $rc 0 \
	"$tmp/err" "kmsg: using database for $A ($dir/$A.db)
kmsg: using database for $B ($dir/$B.db)" "$tmp/got" "1 $A unidentified
2 $A $ida
3 $A unidentified
4 $A $idc
5 $B unidentified
6 $B unidentified
7 $B $idb
8 $B $idc"

{ echo "[ 9999.000000] dbsel: widget 1 failed"; cat "$tmp/b.log"; } > "$tmp/pre.log"
k dmesg "$tmp/pre.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
head -n 2 "$tmp/out" > "$tmp/head"
ids "$tmp/out" > "$tmp/ids"
check "lines before the first 'Linux version' line: of an unnamed kernel, not identified" $rc 0 \
	"$tmp/err" "kmsg: warning: $tmp/pre.log: the 1 lines before its first 'Linux version' line (line 2) are of an earlier boot, of a kernel it does not name: not identified (--release RELEASE identifies them)
kmsg: using database for $B ($dir/$B.db)" \
	"$tmp/ids" "-- unidentified -- unidentified -- $idb at dbsel/dbsel.c:10 dbsel_fire() -- $idc at dbsel/dbsel.c:20 dbsel_fire() " \
	"$tmp/head" "[ 9999.000000] dbsel: widget 1 failed
[    0.000000] $(banner $B)"

k dmesg "$tmp/none.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "no 'Linux version' line, three databases: no guess, how to choose" $rc 0 \
	"$tmp/err" "kmsg: warning: $tmp/none.log has no 'Linux version' line to tell its kernel, and 3 databases are installed: its messages are not identified
kmsg: installed: $A, $B (in $dir), $G (kmsg.db); 'kmsg db list' lists them
kmsg: choose the log's kernel with --release RELEASE, or a database with --db FILE" \
	"$tmp/ids" "" "$tmp/out" "$(cat "$tmp/none.log")"
k dmesg --release $B - < "$tmp/none.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "--release $B, from standard input: that database" $rc 0 \
	"$tmp/err" "kmsg: using database for $B ($dir/$B.db)" \
	"$tmp/ids" "-- unidentified -- $idb at dbsel/dbsel.c:10 dbsel_fire() -- $idc at dbsel/dbsel.c:20 dbsel_fire() "
k dmesg --release $A "$tmp/b.log" > /dev/null 2> "$tmp/err"
check "--release $A on a log of $B: used, with a warning" $? 0 \
	"$tmp/err" "kmsg: using database for $A ($dir/$A.db)
kmsg: warning: $tmp/b.log: line 1 is of kernel $B, not $A (--release): ids may be wrong"
k dmesg --release ../x "$tmp/b.log" > /dev/null 2> "$tmp/err"
check "--release of no kernel's name: refused" $? 1 "$tmp/err" "kmsg: invalid argument '../x'"

k dmesg --db "$tmp/a.db" "$tmp/b.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "--db of $A on a log of $B: forced, with a warning" $rc 0 \
	"$tmp/err" "kmsg: warning: $tmp/b.log: line 1 is of kernel $B, the database given ($tmp/a.db) is for $A: ids may be wrong" \
	"$tmp/ids" "-- unidentified -- $ida at dbsel/dbsel.c:10 dbsel_fire() -- unidentified -- $idc at dbsel/dbsel.c:20 dbsel_fire() "

log "$tmp/a2.log" $A 7
k dmesg "$tmp/a2.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "another build of $A: used, with a warning showing both banners" $rc 0 \
	"$tmp/err" "kmsg: using database for $A ($dir/$A.db)
kmsg: warning: the log's kernel is another build of $A than the database's ($dir/$A.db): ids of messages that differ between them may be wrong
kmsg:   log:      $(banner $A 7)
kmsg:   database: $(banner $A)" \
	"$tmp/ids" "-- unidentified -- $ida at dbsel/dbsel.c:10 dbsel_fire() -- unidentified -- $idc at dbsel/dbsel.c:20 dbsel_fire() "

printf '[    0.000000] Linux version ../../x (a@b) #1\n[    1.000000] dbsel: widget 3 failed\n' > "$tmp/evil.log"
k dmesg "$tmp/evil.log" > "$tmp/out" 2> "$tmp/err"
check "a release that cannot name a file: not looked up" $? 0 "$tmp/err" \
	"kmsg: warning: $tmp/evil.log: line 1: the kernel release \"../../x\" cannot name a database: its messages are not identified"

# a damaged database installed by hand
cp "$tmp/cut.db" "$dir/6.19.0-9-amd64.db"
k dmesg "$tmp/c.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
head -n 2 "$tmp/err" | sed "s|$tmp|TMP|g; 1s|\.db: .*|.db: REASON|" > "$tmp/err2"
ids "$tmp/out" > "$tmp/ids"
check "a damaged database for the log's kernel: a warning naming it, nothing identified" $rc 0 \
	"$tmp/err2" "kmsg: warning: TMP/root/bin/../share/kmsg/db/6.19.0-9-amd64.db: REASON
kmsg: warning: no database for 6.19.0-9-amd64, the kernel of TMP/c.log (line 1)" \
	"$tmp/ids" "" "$tmp/out" "$(cat "$tmp/c.log")"
k db list > "$tmp/out" 2> "$tmp/err"
rc=$?
grep -c "^kmsg: $dir/6.19.0-9-amd64.db: " "$tmp/err" > "$tmp/n"
grep -c "^  $dir/" "$tmp/out" >> "$tmp/n"
check "db list: the damaged one named on stderr, the others listed, exit status 1" $rc 1 "$tmp/n" "1
2"

k db remove 6.19.0-9-amd64 > "$tmp/out" 2> "$tmp/err"
check "db remove RELEASE" $? 0 "$tmp/out" "removed 6.19.0-9-amd64 ($dir/6.19.0-9-amd64.db)"
k db remove 6.19.0-9-amd64 > "$tmp/out" 2> "$tmp/err"
check "db remove of one not installed: says so" $? 1 "$tmp/err" \
	"kmsg: no database installed for 6.19.0-9-amd64 in $dir ('kmsg db list' lists those installed)"
k db remove $A > /dev/null && k db remove $B > /dev/null
k dmesg "$tmp/none.log" > "$tmp/out" 2> "$tmp/err"
rc=$?
ids "$tmp/out" > "$tmp/ids"
check "no 'Linux version' line, one database (kmsg.db): that one, said so" $rc 0 \
	"$tmp/err" "kmsg: using database for $G ($root/bin/../share/kmsg/kmsg.db): the only one; $tmp/none.log has no 'Linux version' line to tell its kernel" \
	"$tmp/ids" "-- unidentified -- unidentified -- unidentified "

# KMSG_DB_DIR: a directory of one's own
mkdir "$tmp/mine"
KMSG_DB_DIR=$tmp/mine "$root/bin/kmsg" db install "$tmp/b.db" > /dev/null 2>&1
KMSG_DB_DIR=$tmp/mine "$root/bin/kmsg" dmesg "$tmp/b.log" > /dev/null 2> "$tmp/err"
check "KMSG_DB_DIR: databases in a directory of one's own" $? 0 \
	"$tmp/err" "kmsg: using database for $B ($tmp/mine/$B.db)"

# no database anywhere: a kmsg of its own, no share/ beside it; the log
# shown as it is, whatever it names
mkdir -p "$tmp/bare/bin"
cp "$tools/kmsg" "$tmp/bare/bin/kmsg"
env -u KMSG_DB -u KMSG_DB_DIR "$tmp/bare/bin/kmsg" dmesg "$tmp/none.log" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
[ -e /usr/local/share/kmsg/kmsg.db ] && skip "a database is installed in /usr/local: no machine without one here" ||
check "no database at all, a log that names no kernel: its lines as they are" $rc 0 \
	"$tmp/out" "$(cat "$tmp/none.log")"
tap_end
