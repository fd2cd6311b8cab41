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
tools=${TOOLS:?} db=${DOCS_DB:?}
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/tap.sh"
echo "TAP version 13"

deb=$("$here/../deb.sh" "$tools-deb" "$db" "$tmp/out" 2> "$tmp/deb.err")
rc=$?
[ $rc = 0 ] && [ -f "$deb" ]
ok $? "tools/deb.sh: a package, $(basename "$deb")"
diag "$tmp/deb.err"
if [ ! -f "$deb" ]; then
	echo "1..$n"
	exit 0
fi

field() { dpkg-deb -f "$deb" "$1"; }
bad=
[ "$(field Package)" = kmsg ] || bad="$bad Package"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || bad="$bad Architecture"
[[ "$(field Version)" =~ ^0~git[0-9]{8} ]] || bad="$bad Version"
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
[ -z "$missing" ] && [ ! -s "$tmp/outside" ] &&
	! grep -q 'man9\.list$\|\.[0-9]$' "$tmp/files"
ok $? "files: $(wc -l < "$tmp/files") entries under /usr, man pages compressed${missing:+; missing:$missing}"
diag "$tmp/outside"

dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/kmsg" explain kmsgtest.2 > "$tmp/explain" 2>&1 &&
	grep -q "kmsgtest.2" "$tmp/explain" &&
	! readelf -S "$tmp/root/usr/bin/kmsg" | grep -q "\.symtab"
ok $? "the extracted kmsg explain kmsgtest.2 finds its database; the binaries are stripped"
diag "$tmp/explain"
dpkg-deb -e "$deb" "$tmp/ctl"
[ -x "$tmp/ctl/postinst" ] && grep -q "journalctl --update-catalog" "$tmp/ctl/postinst" &&
	sh -n "$tmp/ctl/postinst" && sh -n "$tmp/ctl/postrm"
ok $? "postinst and postrm update the journal's catalog"
echo "1..$n"
