#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb's package (tools/deb.sh), built into a directory of the test's
# own and never installed: its control fields (Depends from
# dpkg-shlibdeps, each package of it installed here), its files in the
# FHS places, and the tools run from the extracted tree finding their
# database.  TAP output.  TOOLS, DOCS_DB as the Makefile sets (the
# package's own build goes to TOOLS-deb, kept for the next run).
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:?} db=${DOCS_DB:?}

deb=$("$here/../deb.sh" "$tools-deb" "$db" "$tmp/out" 2> "$tmp/deb.err")
rc=$?
diag "$tmp/deb.err"
[ $rc = 0 ] && [ -f "$deb" ]
ok $? "tools/deb.sh: a package, $(basename "$deb") (exit status $rc)"
if [ ! -f "$deb" ]; then
	tap_end
	exit 0
fi

field() { dpkg-deb -f "$deb" "$1"; }
bad=
[ "$(field Package)" = kmsg ] || bad="$bad Package"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || bad="$bad Architecture"
# date, commit count, commit: a later commit's package is newer
count=$(git -C "$here" rev-list --count HEAD)
[[ "$(field Version)" =~ ^0~git[0-9]{8}\.$count\.g[0-9a-f]+$ ]] &&
	dpkg --compare-versions "$(field Version)" gt \
		"$(field Version | sed "s/\.$count\./.$((count - 1))./")" ||
	bad="$bad Version"
for p in libtraceevent1 libtracefs1 libtracecmd1 libsqlite3-0 libc6; do
	field Depends | grep -qE "(^|, )$p( |,|$)" || bad="$bad Depends:$p"
done
# each dependency is a package this machine has
for p in $(field Depends | sed 's/([^)]*)//g; s/,/ /g'); do
	dpkg-query -W -f '${Status}' "$p" 2> /dev/null | grep -q installed ||
		bad="$bad $p-not-installed"
done
[ -z "$bad" ]
ok $? "control: Package, Architecture, Version, Depends ($(field Depends))${bad:+; wrong:$bad}"

dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$tmp/files"
plugins=$(pkg-config --variable=libdir libtraceevent)/traceevent/plugins
missing=
for f in /usr/bin/kmsg /usr/bin/kmsg-doc /usr/share/kmsg/kmsg.db \
	/usr/share/man/man1/kmsg.1.gz /usr/share/man/man1/kmsg-doc.1.gz \
	/usr/share/man/man9/kmsgtest.2.9.gz /usr/share/doc/kmsg/copyright \
	/usr/share/doc/kmsg/kmsg-manual.html $plugins/plugin_kmsg.so \
	/usr/lib/systemd/system/kmsg-journal.service \
	/usr/lib/systemd/catalog/kmsg.catalog; do
	grep -qxF "$f" "$tmp/files" || missing="$missing $f"
done
grep -v '^/usr/\|^/$' "$tmp/files" > "$tmp/outside"
diag "$tmp/outside"
[ -z "$missing" ] && [ ! -s "$tmp/outside" ] &&
	! grep -q 'man9\.list$\|\.[0-9]$' "$tmp/files"
ok $? "files: $(wc -l < "$tmp/files") entries under /usr, man pages compressed${missing:+; missing:$missing}"

dpkg-deb -x "$deb" "$tmp/root"
env -u KMSG_DB "$tmp/root/usr/bin/kmsg" explain kmsgtest.2 > "$tmp/explain" 2>&1 &&
	grep -q "kmsgtest.2" "$tmp/explain"
rc=$?
[ $rc = 0 ] || diag "$tmp/explain"
ok $rc "the extracted kmsg explain kmsgtest.2 finds the packaged database"
bin=$tmp/root/usr/bin/kmsg
! readelf -S "$bin" | grep -q "\.symtab" &&
	readelf -d "$bin" | grep -q "BIND_NOW" &&
	readelf -d "$bin" | grep -q "PIE" &&
	nm -D "$bin" | grep -q "__[a-z]*_chk" &&
	nm -D "$bin" | grep -q "__stack_chk_fail"
ok $? "the binaries stripped and hardened (bindnow, PIE, fortify, stack protector)"
zcat "$tmp/root/usr/share/doc/kmsg/changelog.gz" > "$tmp/changelog" &&
	grep -q "^kmsg ($(field Version)) " "$tmp/changelog" &&
	grep -qx "Copyright: [0-9]* the kmsg developers" \
		"$tmp/root/usr/share/doc/kmsg/copyright" &&
	grep -qx "License: GPL-2" "$tmp/root/usr/share/doc/kmsg/copyright"
ok $? "changelog.gz of this version, a DEP-5 copyright (Copyright, License: GPL-2)"

# the maintainer scripts, run against stubs that log what they are asked
dpkg-deb -e "$deb" "$tmp/ctl"
mkdir -p "$tmp/stub"
for c in deb-systemd-helper deb-systemd-invoke systemctl journalctl; do
	printf '#!/bin/sh\necho "%s $*" >> "%s"\n' "$c" "$tmp/calls" > "$tmp/stub/$c"
	chmod +x "$tmp/stub/$c"
done
run() { rm -f "$tmp/calls"; touch "$tmp/calls"; env -u DPKG_ROOT PATH="$tmp/stub:$PATH" sh -e "$@"; }
bad=
[ ! -e "$tmp/ctl/postinst" ] || bad="$bad postinst"
run "$tmp/ctl/postrm" purge && grep -qx "deb-systemd-helper purge kmsg-journal.service" "$tmp/calls" &&
	grep -qx "deb-systemd-helper unmask kmsg-journal.service" "$tmp/calls" || bad="$bad purge"
run "$tmp/ctl/postrm" remove && grep -qx "deb-systemd-helper mask kmsg-journal.service" "$tmp/calls" ||
	bad="$bad remove"
run "$tmp/ctl/postrm" upgrade && ! grep -q "deb-systemd-helper" "$tmp/calls" || bad="$bad upgrade"
# the stop before removal and the reload after it when systemd runs
# (/run/systemd/system), nothing when it does not, whether or not it runs
# here: copies of the scripts with that directory in the test's own
for s in prerm postrm; do
	grep -qF '[ -d /run/systemd/system ]' "$tmp/ctl/$s" || bad="$bad $s-test"
	sed "s|/run/systemd/system|$tmp/run/systemd/system|g" "$tmp/ctl/$s" > "$tmp/$s"
done
mkdir -p "$tmp/run/systemd/system"
run "$tmp/postrm" remove && grep -qx "systemctl --system daemon-reload" "$tmp/calls" ||
	bad="$bad postrm-reload"
run "$tmp/prerm" remove && grep -qx "deb-systemd-invoke stop kmsg-journal.service" "$tmp/calls" ||
	bad="$bad prerm"
run "$tmp/prerm" upgrade && [ ! -s "$tmp/calls" ] || bad="$bad prerm-upgrade"
rm -f "$tmp/calls"; touch "$tmp/calls"
DPKG_ROOT=/nonexistent PATH="$tmp/stub:$PATH" sh -e "$tmp/prerm" remove && [ ! -s "$tmp/calls" ] ||
	bad="$bad DPKG_ROOT"
rmdir "$tmp/run/systemd/system"
run "$tmp/prerm" remove && [ ! -s "$tmp/calls" ] || bad="$bad prerm-no-systemd"
! grep -q journalctl "$tmp/ctl/prerm" "$tmp/ctl/postrm" || bad="$bad catalog-by-hand"
[ -z "$bad" ]
ok $? "maintainer scripts: the unit masked on remove, purged on purge, stopped before removal and reloaded after it when systemd runs (only then), nothing for DPKG_ROOT; the catalog left to systemd's trigger${bad:+; wrong:$bad}"
tap_end
