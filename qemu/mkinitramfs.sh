#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT.cpio.gz STAGING MODROOT KSELFTEST [FILE:DEST ...]
#
# Build the guest's initramfs in STAGING: busybox (static) with its
# applets in /bin and /sbin, /init, the kernel modules installed under
# MODROOT, the kselftests installed in KSELFTEST (run_kselftest.sh and
# friends) as /kselftest, and any extra FILE copied to DEST. A FILE
# given as elf:PATH is a dynamic executable of this machine, copied to
# PATH with the shared libraries it needs.
set -euo pipefail
out=$1 root=$2 modroot=$3 kselftest=$4
shift 4
here=$(dirname "$(realpath "$0")")
busybox=$(command -v busybox) || { echo "mkinitramfs: busybox not found" >&2; exit 1; }
file -L "$busybox" | grep -q 'statically linked' ||
	{ echo "mkinitramfs: $busybox is not static (install busybox-static)" >&2; exit 1; }

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc,lib,usr/bin,usr/sbin,root}
cp "$busybox" "$root/bin/busybox"
# Applets go to /bin only. kselftest's runner would use /usr/bin/timeout
# with --foreground, which busybox lacks; without it the runner runs the
# tests untimed and the host's hard timeout applies.
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
install -m 755 "$here/modprobe" "$root/sbin/modprobe"
cp "$here/init" "$root/init"
chmod 755 "$root/init"
[ -d "$modroot/lib/modules" ] && cp -a "$modroot/lib/modules" "$root/lib/"
cp -a "$kselftest" "$root/kselftest"
copy_elf() {
	local lib
	install -D -m 755 "$1" "$root$1"
	for lib in $(ldd "$1" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 755 "$(realpath "$lib")" "$root$lib"
	done
}
for spec in "$@"; do
	case $spec in
	elf:*) copy_elf "${spec#elf:}" ;;
	*) install -D -m 755 "${spec%%:*}" "$root/${spec#*:}" ;;
	esac
done
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRD  $out ($(du -h "$out" | cut -f1))"
