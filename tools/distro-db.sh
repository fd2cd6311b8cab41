#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# distro-db.sh PACKAGE OUTDIR CACHE [SRCTREE]
#
# The kmsg database of a stock Debian kernel package, as Debian ships it:
# PACKAGE is a linux-image-*-unsigned package name (or the path of its
# .deb).  Fetches, into CACHE, the package, its -dbg package (DWARF: the
# KBUILD_MODNAME of built-in code, the file and line of every site) and,
# unless SRCTREE is the source of the same version, the linux-source
# package of that version (kbuild's own view of each built-in object),
# then writes OUTDIR/RELEASE.db.
#
# Needs kmsg-doc and kbuild-modnames.sh: KMSG_DOC (default: kmsg-doc next
# to this script's build, ../build/tools/kmsg-doc).  Shows progress on a
# terminal, is quiet otherwise.
set -eu
start=$EPOCHREALTIME
pkg=$1 out=$2 cache=$3 srctree=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
kmsg_doc=${KMSG_DOC:-$here/../build/tools/kmsg-doc}
tty=; [ -t 2 ] && tty=1

say() { [ -z "$tty" ] || echo "  DISTRO  $*" >&2; }
die() { echo "distro-db: $*" >&2; exit 1; }

mkdir -p "$out" "$cache"

# fetch NAME [VERSION]: the path of the .deb of NAME in CACHE
fetch() {
	local name=$1 ver=${2:-} f
	f=$(ls "$cache/${name}_"*.deb 2>/dev/null | head -n 1 || true)
	if [ -n "$ver" ]; then
		f=$(ls "$cache/${name}_${ver//:/%3a}_"*.deb 2>/dev/null | head -n 1 || true)
	fi
	if [ -z "$f" ]; then
		say "fetch $name${ver:+ $ver}"
		(cd "$cache" && apt-get download -q "$name${ver:+=$ver}" >/dev/null 2>"$cache/apt.err") ||
			{ cat "$cache/apt.err" >&2; die "cannot download $name${ver:+ $ver} from Debian's archive"; }
		f=$(ls "$cache/${name}_"*.deb | head -n 1)
	fi
	echo "$f"
}

case $pkg in
*.deb)	image=$pkg ;;
*)	image=$(fetch "$pkg") ;;
esac
name=$(dpkg-deb -f "$image" Package) || die "$image: not a Debian package"
version=$(dpkg-deb -f "$image" Version)
case $name in
linux-image-*-unsigned) dbgname=${name%-unsigned}-dbg ;;
linux-image-*) dbgname=$name-dbg ;;
*) die "$image: $name is not a linux-image package" ;;
esac
release=${name#linux-image-}; release=${release%-unsigned}
dbg=$(fetch "$dbgname" "$version")

# the source of the same version: linux-source-X.Y
series=$(echo "$version" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
if [ -z "$srctree" ] || [ "$(cat "$srctree/../linux.version" 2>/dev/null)" != "$version" ]; then
	srcdeb=$(fetch "linux-source-$series" "$version")
	srctree=$cache/linux-source-$version
	if [ ! -f "$srctree/Makefile" ]; then
		say "unpack linux-source-$series $version"
		rm -rf "$srctree.tmp" && mkdir -p "$srctree.tmp"
		dpkg-deb --fsys-tarfile "$srcdeb" |
			tar -x -C "$srctree.tmp" --wildcards '*/linux-source-*.tar.xz'
		tar -xJf "$srctree.tmp"/usr/src/linux-source-*.tar.xz -C "$srctree.tmp"
		mv "$srctree.tmp"/linux-source-"$series" "$srctree"
		rm -rf "$srctree.tmp"
	fi
fi

# kbuild's view of Debian's configuration: KBUILD_MODNAME of each object
config=$cache/config-$release
dpkg-deb --fsys-tarfile "$image" | tar -xO --wildcards "./boot/config-$release" >"$config" ||
	die "$image: no boot/config-$release"
say "kbuild modnames ($release)"
"$here/kbuild-modnames.sh" "$srctree" "$config" "$cache/kbuild-$release" \
	>"$cache/modnames-$release.map" 2>"$cache/modnames-$release.log" ||
	{ cat "$cache/modnames-$release.log" >&2; die "kbuild-modnames.sh failed"; }

# the -dbg vmlinux: the symbols and DWARF of the image's vmlinux (near
# the start of the package: tar stops there, dpkg-deb on a closed pipe)
vmlinux=$cache/vmlinux-$release
if [ ! -s "$vmlinux" ]; then
	say "unpack the -dbg vmlinux"
	{ dpkg-deb --fsys-tarfile "$dbg" 2>/dev/null || true; } |
		tar -xO --occurrence=1 "./usr/lib/debug/boot/vmlinux-$release" >"$vmlinux.tmp" &&
		[ -s "$vmlinux.tmp" ] ||
		die "$dbg: no usr/lib/debug/boot/vmlinux-$release"
	mv "$vmlinux.tmp" "$vmlinux"
fi

# the modules' DWARF (the file and line of their sites): the -dbg package
say "build-db $out/$release.db"
built=$EPOCHREALTIME
"$kmsg_doc" build-db --out "$out/$release.db.tmp" --dbg "$vmlinux" \
	--dbg-modules "$dbg" --kbuild-map "$cache/modnames-$release.map" \
	--source "$name $version" "$image"
mv "$out/$release.db.tmp" "$out/$release.db"
# how long it took, for make bench: seconds in all, of build-db
awk -v s="$start" -v b="$built" -v e="$EPOCHREALTIME" \
	'BEGIN { printf "%.0f %.0f\n", e - s, e - b }' > "$out/$release.time"
echo "$out/$release.db"
