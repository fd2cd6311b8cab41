#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh OBJ DOCS_DB OUTDIR: a Debian package of the tools, built with
# PREFIX=/usr in OBJ and installed into OBJ/root the way make install
# does (make install DESTDIR=...): kmsg, kmsg-doc, their man pages, the
# libtraceevent plugin, the systemd unit, and with DOCS_DB the database,
# the message man pages (man9), the HTML manual and the journal catalog.
# Depends comes from dpkg-shlibdeps; the package goes to OUTDIR, its path
# is printed.
set -eu
obj=$(realpath -m "$1") db=$2 out=$(realpath -m "$3")
top=$(dirname "$(realpath "$0")")/..
root=$obj/root

make -s -C "$top/tools" O="$obj" PREFIX=/usr all
rm -rf "$root"
make -s -C "$top/tools" O="$obj" PREFIX=/usr DESTDIR="$root" \
	${db:+DOCS_DB="$(realpath "$db")"} install > /dev/null
# as Debian has it: binaries stripped, man pages compressed, the licence
# in the copyright file; dpkg keeps the list of files (no man9.list)
strip --strip-unneeded "$root/usr/bin/kmsg" "$root/usr/bin/kmsg-doc" \
	$(find "$root" -name 'plugin_kmsg.so')
find "$root/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
rm -f "$root/usr/share/kmsg/man9.list"
install -d "$root/usr/share/doc/kmsg"
cat > "$root/usr/share/doc/kmsg/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: kmsg

Files: *
License: GPL-2.0
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in "/usr/share/common-licenses/GPL-2".
EOF

# the version: the date and commit of the tree, else the date alone
date=$(git -C "$top" log -1 --format=%cd --date=format:%Y%m%d 2> /dev/null ||
	date +%Y%m%d)
rev=$(git -C "$top" rev-parse --short HEAD 2> /dev/null || true)
version=0~git$date${rev:+.$rev}
arch=$(dpkg --print-architecture)

# Depends: what the binaries link, as dpkg-shlibdeps finds it
shl=$obj/shlibdeps
rm -rf "$shl" && mkdir -p "$shl/debian"
printf 'Source: kmsg\n\nPackage: kmsg\nArchitecture: any\n' > "$shl/debian/control"
depends=$(cd "$shl" && dpkg-shlibdeps -O -e"$root/usr/bin/kmsg" \
	-e"$root/usr/bin/kmsg-doc" $(find "$root" -name 'plugin_kmsg.so') \
	2> "$shl/warnings" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { cat "$shl/warnings" >&2; exit 1; }

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOF
Package: kmsg
Version: $version
Architecture: $arch
Maintainer: kmsg developers <kmsg@localhost>
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
EOF
# the journal catalog is compiled into journald's database
for s in postinst postrm; do
	cat > "$root/DEBIAN/$s" <<'EOF'
#!/bin/sh
set -e
if command -v journalctl > /dev/null; then
	journalctl --update-catalog || true
fi
EOF
	chmod 755 "$root/DEBIAN/$s"
done
mkdir -p "$out"
deb=$out/kmsg_${version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "$deb"
