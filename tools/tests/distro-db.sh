#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The database of Debian's stock kernel (make distro-db), against what the
# package and the project's own guest say: it records the kernel it
# describes, has the sites of every module and of vmlinux, each with its
# file and line, gives every format that the guest's printk index has too
# the guest's module name (the same source: the same automatic id), and
# kmsg dmesg picks it for the log of that kernel booted in the guest
# (qemu/stock/kmsg.raw) and identifies most of it.  TAP output.  DISTRO_DB: the database; DOCS_DB:
# the guest's; DISTRO_DEB: the package it was built from; KOBJ: the
# guest's build; TOOLS: the tools' build directory.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:-$here/../../build/tools}
db=${DISTRO_DB:-}
[ -n "$db" ] && [ -s "$db" ] || bail "no DISTRO_DB (make distro-db builds it)"
[ -s "${DOCS_DB:-}" ] || bail "no DOCS_DB, the guest's database (make docs-db)"
log=$here/../../qemu/stock/kmsg.raw
q() { sqlite3 -batch -noheader "$1" "$2"; }

release=$(q "$db" "SELECT value FROM build WHERE key = 'release'")
banner=$(q "$db" "SELECT value FROM build WHERE key = 'banner'")
[ "$release" = 6.12.118+deb12-amd64 ]
ok $? "the release is the package's: $release"
[ "$banner" = "$(head -n 1 "$log" | sed 's/^[^;]*;//')" ]
ok $? "the banner is the one the kernel prints when it boots"

read -r sites modsites vmsites modules <<<"$(q "$db" "SELECT count(*),
	sum(object != 'vmlinux'), sum(object = 'vmlinux'),
	count(DISTINCT object) - 1 FROM messages" | tr '|' ' ')"
echo "sites: $sites ($modsites of $modules modules, $vmsites built in)" | diag
[ "$modules" -ge 3000 ] && [ "$modsites" -ge 120000 ]
ok $? "the sites of the package's modules: $modsites of $modules modules"
nofile=$(q "$db" "SELECT count(*) FROM messages WHERE file = '' OR line = 0")
[ "$nofile" = 0 ]
ok $? "every site has its file and line, from the -dbg package's DWARF of vmlinux and of the modules ($nofile without)"
[ "$vmsites" -ge 10000 ]
ok $? "the sites of vmlinux, from its code and the -dbg DWARF: $vmsites"
kinds=$(q "$db" "SELECT group_concat(kind, ' ') FROM (SELECT DISTINCT kind
	FROM messages WHERE kind IN ('printk', 'dev', 'netdev', 'dyndbg', 'warn')
	ORDER BY kind)")
[ "$kinds" = "dev dyndbg netdev printk warn" ]
ok $? "each site says its kind of call: printk, dev_*, netdev_*, dynamic debug, WARN ($kinds)"
bad=$(q "$db" "SELECT count(*) FROM messages WHERE component = '' OR
	id NOT LIKE component || '.h%'")
[ "$bad" = 0 ]
ok $? "every site has a module name and the automatic id of it ($bad without)"

# the same source: a format the guest's index has, built in both, has
# the guest's module name in the Debian database too
# (of a format in a header, each object including it has its own: the
# guest's module must be one of the Debian database's for it, of a format
# built into both)
read -r both differ <<<"$(sqlite3 -batch -noheader "$db" "ATTACH '$DOCS_DB' AS g;
	CREATE TEMP TABLE d AS SELECT DISTINCT format, component FROM main.messages;
	CREATE INDEX temp.d_format ON d (format);
	SELECT count(*), sum(NOT EXISTS (SELECT 1 FROM d WHERE d.format = x.format
					AND d.component = x.c))
	FROM (SELECT format, min(component) AS c FROM g.messages
	      WHERE object = 'vmlinux' AND number = 0 GROUP BY format
	      HAVING count(DISTINCT component) = 1) AS x
	WHERE EXISTS (SELECT 1 FROM main.messages AS v WHERE v.format = x.format
		      AND v.object = 'vmlinux')" | tr '|' ' ')"
echo "formats of one module in both, built in: $both; of another module: $differ" | diag
[ "$both" -ge 1500 ] && [ "$differ" = 0 ]
ok $? "every built-in format both databases hold has the same module name ($both formats)"

# the DWARF of another build's vmlinux would give this kernel's formats
# another kernel's modules: refused
if [ -s "${DISTRO_DEB:-}" ] && [ -s "${KOBJ:-}/vmlinux" ]; then
	"$tools/kmsg-doc" build-db --out "$tmp/other.db" --dbg "$KOBJ/vmlinux" \
		--kbuild-map /dev/null "$DISTRO_DEB" > "$tmp/other.out" 2>&1
	rc=$?
	[ $rc = 1 ] && [ ! -e "$tmp/other.db" ] &&
		grep -qF "$KOBJ/vmlinux: not the vmlinux of $DISTRO_DEB: its banner is \"Linux version 6.12.118+ (" "$tmp/other.out"
	ok $? "--dbg with the vmlinux of another build: refused, said, no database (exit $rc)"
else
	bail "no DISTRO_DEB or KOBJ/vmlinux to check --dbg against"
fi

# kmsg dmesg: the database for the log's kernel, picked from a directory
mkdir -p "$tmp/dbdir"
cp "$db" "$tmp/dbdir/$release.db"
KMSG_DB_DIR=$tmp/dbdir "$tools/kmsg" dmesg --stats "$log" > "$tmp/stats" 2> "$tmp/err"
ok $? "kmsg dmesg reads the stock kernel's log"
grep -q "using database for $release" "$tmp/err"
ok $? "it picks the database of the log's kernel" "$tmp/err"
lines=$(awk '$1 == "lines" { print $2 }' "$tmp/stats")
ident=$(awk '$1 == "identified" { print $2 }' "$tmp/stats")
diag "$tmp/stats"
[ "$lines" = 425 ] && [ $((ident * 100)) -ge $((lines * 80)) ]
ok $? "it identifies at least 80% of the 425 lines ($ident)"
tap_end
