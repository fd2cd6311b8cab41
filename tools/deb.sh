#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh OBJ DOCS_DB OUTDIR: a Debian package of the tools, built with
# PREFIX=/usr and Debian's hardened flags in OBJ and installed into
# OBJ/root the way make install does (make install DESTDIR=...): kmsg,
# kmsg-doc, their man pages, the libtraceevent plugin, the systemd unit,
# and with DOCS_DB the database, the message man pages (man9), the HTML
# manual and the journal catalog.  Depends comes from dpkg-shlibdeps; the
# package goes to OUTDIR, its path is printed.
set -eu
umask 022
obj=$(realpath -m "$1") db=$2 out=$(realpath -m "$3")
top=$(dirname "$(realpath "$0")")/..
root=$obj/root

# Debian's compiler and linker flags, all hardening included
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
flags=(PREFIX=/usr CFLAGS="$(dpkg-buildflags --get CFLAGS)"
	CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)"
	LDFLAGS="$(dpkg-buildflags --get LDFLAGS)")
# make does not see flags change: build again when they did
mkdir -p "$obj"
if ! printf '%s\n' "${flags[@]}" | cmp -s - "$obj/flags"; then
	rm -f "$obj/kmsg" "$obj/kmsg-doc" "$obj/plugin_kmsg.so" "$obj/bench_match"
	printf '%s\n' "${flags[@]}" > "$obj/flags"
fi
make -s -C "$top/tools" O="$obj" "${flags[@]}" all
rm -rf "$root"
make -s -C "$top/tools" O="$obj" "${flags[@]}" DESTDIR="$root" \
	${db:+DOCS_DB="$(realpath "$db")"} install > /dev/null
# as Debian has it: binaries stripped, man pages compressed, the licence
# in the copyright file; dpkg keeps the list of files (no man9.list)
strip --strip-unneeded "$root/usr/bin/kmsg" "$root/usr/bin/kmsg-doc" \
	$(find "$root" -name 'plugin_kmsg.so')
find "$root/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
rm -f "$root/usr/share/kmsg/man9.list"

# the version: the commit's date, the number of commits (so that a later
# build sorts later), the commit; else the date alone
date=$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d 2> /dev/null ||
	date +%Y%m%d)
count=$(git -C "$top" rev-list --count HEAD 2> /dev/null || true)
rev=$(git -C "$top" rev-parse --short HEAD 2> /dev/null || true)
version=0~git$date${count:+.$count}${rev:+.g$rev}
arch=$(dpkg --print-architecture)
maint=$(git -C "$top" log -1 --format='%an <%ae>' 2> /dev/null ||
	echo "kmsg developers <root@localhost>")

install -d "$root/usr/share/doc/kmsg"
cat > "$root/usr/share/doc/kmsg/copyright" <<EOT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: kmsg

Files: *
Copyright: $(date +%Y) the kmsg developers
License: GPL-2
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in "/usr/share/common-licenses/GPL-2".
EOT
# a native package's changelog: this build
{
	echo "kmsg ($version) unstable; urgency=medium"
	echo
	echo "  * Built from commit ${rev:-unknown}."
	echo
	echo " -- $maint  $(date -R)"
} | gzip -9n > "$root/usr/share/doc/kmsg/changelog.gz"

# Depends: what the binaries link, as dpkg-shlibdeps finds it
shl=$obj/shlibdeps
rm -rf "$shl" && mkdir -p "$shl/debian"
printf 'Source: kmsg\n\nPackage: kmsg\nArchitecture: any\n' > "$shl/debian/control"
depends=$(cd "$shl" && dpkg-shlibdeps -O -e"$root/usr/bin/kmsg" \
	-e"$root/usr/bin/kmsg-doc" $(find "$root" -name 'plugin_kmsg.so') \
	2> "$shl/warnings" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { cat "$shl/warnings" >&2; exit 1; }

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOT
Package: kmsg
Version: $version
Architecture: $arch
Maintainer: $maint
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: trace-cmd, systemd
Section: admin
Priority: optional
Description: identify, trace and explain Linux kernel messages
 kmsg rebuilds each kernel message from the kmsg:kmsg trace event (live,
 or from a trace.dat of another machine) with its identifier, identifies
 plain dmesg text, explains messages from a documentation database and
 feeds them to the journal (MESSAGE_ID, journalctl -x), JSON and
 OpenTelemetry pipelines. kmsg-doc builds and checks the database.
EOT
# The journal catalog: systemd's trigger on /usr/lib/systemd/catalog
# compiles it (journalctl --update-catalog).  The unit: stopped before
# removal, forgotten on purge, as dh_installsystemd's scripts do (it is
# not enabled on installation: running it is the administrator's choice).
cat > "$root/DEBIAN/prerm" <<'EOT'
#!/bin/sh
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	deb-systemd-invoke stop kmsg-journal.service > /dev/null || true
fi
EOT
cat > "$root/DEBIAN/postrm" <<'EOT'
#!/bin/sh
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	systemctl --system daemon-reload > /dev/null || true
fi
if command -v deb-systemd-helper > /dev/null; then
	case "$1" in
	remove)
		deb-systemd-helper mask kmsg-journal.service > /dev/null || true
		;;
	purge)
		deb-systemd-helper purge kmsg-journal.service > /dev/null || true
		deb-systemd-helper unmask kmsg-journal.service > /dev/null || true
		;;
	esac
fi
EOT
chmod 755 "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
mkdir -p "$out"
deb=$out/kmsg_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "$deb"
