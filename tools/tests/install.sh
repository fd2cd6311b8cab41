#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install and make uninstall of the tools into a DESTDIR of the
# test's own: the FHS places, the installed kmsg finding its database
# next to itself, the message a kmsg without a database gives, and
# uninstall removing it all.  TAP output.  TOOLS: the tools' build
# directory (built with the default PREFIX, so nothing is rebuilt);
# DOCS_DB: the docs database to install.
set -u
top=$(dirname "$(realpath "$0")")/../..
tmp=$(mktemp -d)
. "$(dirname "$(realpath "$0")")/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:?} db=${DOCS_DB:?}

root=$tmp/root
prefix=/usr/local
plugins=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
make -s -C "$top/tools" O="$tools" DESTDIR="$root" DOCS_DB="$db" install \
	> "$tmp/install.log" 2>&1
rc=$?
[ $rc = 0 ] || diag "$tmp/install.log"
ok $rc "make install DESTDIR=... DOCS_DB=...: exit status $rc"

missing=
for f in $prefix/bin/kmsg $prefix/bin/kmsg-doc $prefix/share/kmsg/kmsg.db \
	$prefix/share/man/man1/kmsg.1 $prefix/share/man/man1/kmsg-doc.1 \
	$prefix/share/man/man9/kmsgtest.2.9 $prefix/share/doc/kmsg/kmsg-manual.html \
	$prefix/lib/systemd/system/kmsg-journal.service \
	$prefix/lib/systemd/catalog/kmsg.catalog "$plugins/plugin_kmsg.so"; do
	[ -f "$root$f" ] || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "installed in the FHS places under PREFIX (missing:${missing:- none})"

# the plugin where libtraceevent, so trace-cmd, looks for plugins
lib=$(pkg-config --variable=libdir libtraceevent)/libtraceevent.so
strings "$(realpath "$lib")" | grep -qxF "$plugins"
ok $? "the plugin's directory is libtraceevent's own ($plugins)"

unit=$root$prefix/lib/systemd/system/kmsg-journal.service
grep -q "exec $prefix/bin/kmsg live --journal; fi" "$unit" &&
	grep -q "exec $prefix/bin/kmsg dmesg --follow --journal'\$" "$unit" &&
	! grep -q @BINDIR@ "$unit"
ok $? "kmsg-journal.service runs the installed kmsg live --journal, or kmsg dmesg --follow --journal"

# hardened, with what kmsg live needs left: tracefs in /sys writable
unit=$root$prefix/lib/systemd/system/kmsg-journal.service
missing=
for o in NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes \
	PrivateTmp=yes PrivateNetwork=yes RestrictAddressFamilies=AF_UNIX \
	ProtectKernelModules=yes RestrictNamespaces=yes; do
	grep -qx "$o" "$unit" || missing="$missing $o"
done
for o in ProtectKernelTunables ProtectKernelLogs InaccessiblePaths \
	CapabilityBoundingSet; do
	grep -q "^$o=" "$unit" && missing="$missing (not $o)"
done
[ -z "$missing" ]
ok $? "kmsg-journal.service is hardened, tracefs and kallsyms left usable (wrong:${missing:- none})"
# the unit's syntax; ExecStart's program must exist: the installed one.
# systemd-analyze is systemd's, which systemd-journal-remote (make deps)
# depends on
sed "s|^ExecStart=$prefix|ExecStart=$root$prefix|" "$unit" > "$tmp/kmsg-journal.service"
if command -v systemd-analyze > /dev/null; then
	systemd-analyze verify --man=no "$tmp/kmsg-journal.service" > "$tmp/verify" 2>&1
	rc=$?
	grep -v "systemd-journald.socket\|sys-kernel-tracing.mount\|multi-user.target" \
		"$tmp/verify" | grep -qi "unknown\|invalid\|ignoring" && rc=1
else
	echo "systemd-analyze missing (package systemd, with systemd-journal-remote: make deps)" > "$tmp/verify"
	rc=1
fi
[ $rc = 0 ] || diag "$tmp/verify"
ok $rc "systemd-analyze verify kmsg-journal.service"

# the installed kmsg finds the installed database with nothing set
env -u KMSG_DB "$root$prefix/bin/kmsg" explain kmsgtest.2 > "$tmp/explain" 2>&1
rc=$?
[ $rc = 0 ] && head -n 1 "$tmp/explain" | grep -q '^kmsgtest\.2: "device %x not online"'
rc=$?
[ $rc = 0 ] || diag "$tmp/explain"
ok $rc "installed kmsg explain kmsgtest.2: finds ../share/kmsg/kmsg.db"

MANPATH=$root$prefix/share/man man -w 9 kmsgtest.2 > "$tmp/man" 2>&1 &&
	grep -q "man9/kmsgtest.2.9" "$tmp/man"
rc=$?
[ $rc = 0 ] || diag "$tmp/man"
ok $rc "man kmsgtest.2 finds the installed message page"

# a kmsg with no database anywhere: the message says where it looked.
# A database installed on this host (make install) is hidden by an empty
# directory in a mount namespace of the test's own (as root, or in a user
# namespace of its own); only a host that allows neither skips.
mkdir -p "$tmp/lonely/bin"
cp "$root$prefix/bin/kmsg" "$tmp/lonely/bin/kmsg"
hide=/usr/local/share/kmsg
lonely=(env -u KMSG_DB "$tmp/lonely/bin/kmsg" explain kmsgtest.2)
if [ ! -e $hide/kmsg.db ]; then
	ns=()
elif [ "$(id -u)" = 0 ] && unshare -m true 2> /dev/null; then
	ns=(unshare -m)
elif unshare -rm true 2> /dev/null; then
	ns=(unshare -rm)
else
	ns=(none)
fi
if [ "${ns[*]}" = none ]; then
	skip "no database: $hide/kmsg.db exists on this host, and no mount namespace to hide it"
else
	if [ ${#ns[@]} = 0 ]; then
		"${lonely[@]}" > "$tmp/lonely.out" 2>&1
	else
		"${ns[@]}" sh -c 'mount -t tmpfs none "$0" && exec "$@"' $hide \
			"${lonely[@]}" > "$tmp/lonely.out" 2>&1
	fi
	rc=$?
	[ $rc = 1 ] &&
		grep -qF "looked for $tmp/lonely/bin/../share/kmsg/kmsg.db, /usr/local/share/kmsg/kmsg.db" "$tmp/lonely.out" &&
		grep -qF "make docs-db" "$tmp/lonely.out" &&
		grep -qF "make install" "$tmp/lonely.out" &&
		grep -qF -- "--db FILE or KMSG_DB=FILE" "$tmp/lonely.out"
	rc=$?
	diag "$tmp/lonely.out"
	ok $rc "no database: exit 1, where it looked and how to build, install or give one${ns:+ ($hide hidden: ${ns[*]})}"
fi
# the build tree: build/tools/kmsg finds build/docs-db/kmsg.db
mkdir -p "$tmp/build/tools" "$tmp/build/docs-db"
cp "$root$prefix/bin/kmsg" "$tmp/build/tools/kmsg"
cp "$db" "$tmp/build/docs-db/kmsg.db"
env -u KMSG_DB "$tmp/build/tools/kmsg" explain kmsgtest.2 > "$tmp/build.out" 2>&1
rc=$?
[ $rc = 0 ] || diag "$tmp/build.out"
ok $rc "build/tools/kmsg finds build/docs-db/kmsg.db of its build tree"

make -s -C "$top/tools" O="$tools" DESTDIR="$root" uninstall > "$tmp/uninstall.log" 2>&1
rc=$?
left=$(find "$root" -type f | sed "s|^$root||")
[ $rc = 0 ] && [ -z "$left" ]
rc=$?
[ $rc = 0 ] || { diag "$tmp/uninstall.log"; printf '%s\n' "$left" | diag; }
ok $rc "make uninstall removes every installed file"
tap_end
