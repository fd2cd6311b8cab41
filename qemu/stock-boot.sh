#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stock-boot.sh [--timeout SEC] DEB|IMGDIR OUTDIR
#
# Boot Debian's own kernel, unmodified, under QEMU (TCG) with a small
# initramfs of the project (qemu/stock/init) that loads a few of its
# modules and puts them to work: ahci + sd_mod on an emulated AHCI disk,
# ext4 mounted from it, e1000 brought up. DEB is the linux-image .deb
# (linux-image-*-unsigned_*.deb), or IMGDIR the tree it extracts to.
#
# OUTDIR gets:
#   kmsg.raw     the /dev/kmsg records as the guest read them, whole:
#                "prio,seq,ts_us,flags;text" and their " SUBSYSTEM=" /
#                " DEVICE=" lines
#   dmesg.txt    busybox dmesg -r: "<prio>[seconds] text", one a line
#   console.log  ttyS0, the kernel console (loglevel 7)
#   guest.log    ttyS1 as written (the two above between markers)
#   version      the kernel release booted
#
# The modules are decompressed here (xz), not by the kernel: Debian's
# kernel has MODULE_DECOMPRESS, but only finit_module() with
# MODULE_INIT_COMPRESSED_FILE uses it, which busybox's insmod does not
# ask for; and plain .ko files keep the guest independent of what
# busybox was built to unpack. The signature rides inside the .ko, so
# the modules still verify against the kernel's built-in key.
set -euo pipefail
timeout=300
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) timeout=$2; shift 2 ;;
	-*) echo "stock-boot: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { sed -n '4,26p' "$0" >&2; exit 2; }
src=$1 out=$2
here=$(dirname "$(realpath "$0")")
# the modules asked for; modprobe adds what they depend on
MODULES="ahci sd_mod ext4 e1000"

mkdir -p "$out"
out=$(realpath "$out")
work=$out/work
rm -rf "$work"
mkdir -p "$work"
if [ -d "$src" ]; then
	img=$(realpath "$src")
else
	img=$work/img
	dpkg-deb -x "$src" "$img"
fi
kernel=$(ls "$img"/boot/vmlinuz-* 2>/dev/null | head -n 1)
[ -n "$kernel" ] || { echo "stock-boot: no boot/vmlinuz-* in $img" >&2; exit 1; }
version=${kernel##*/vmlinuz-}
[ -d "$img/lib/modules/$version/kernel" ] ||
	{ echo "stock-boot: no lib/modules/$version/kernel in $img" >&2; exit 1; }

# depmod on a copy of links: the package has no modules.dep
stage=$work/stage
mkdir -p "$stage/lib/modules"
cp -rs "$img/lib/modules/$version" "$stage/lib/modules/"
depmod -b "$stage" "$version"
order=()
for m in $MODULES; do
	deps=$(modprobe -d "$stage" -S "$version" --show-depends "$m") ||
		{ echo "stock-boot: module $m not found" >&2; exit 1; }
	for f in $(awk '$1 == "insmod" { print $2 }' <<<"$deps"); do
		rel=${f#"$stage/lib/modules/$version/"}
		case " ${order[*]} " in *" $rel "*) ;; *) order+=("$rel") ;; esac
	done
done

# the initramfs: busybox, /init, the modules (plain .ko) and their
# modules.dep, for the kernel's own requests to /sbin/modprobe
busybox=$(command -v busybox) || { echo "stock-boot: busybox not found" >&2; exit 1; }
file -L "$busybox" | grep -q 'statically linked' ||
	{ echo "stock-boot: $busybox is not static (install busybox-static)" >&2; exit 1; }
root=$work/initramfs
mkdir -p "$root"/{bin,sbin,dev,proc,sys,etc,mnt}
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
ln -s ../bin/busybox "$root/sbin/modprobe"
install -m 755 "$here/stock/init" "$root/init"
: > "$root/etc/stock-modules"
for rel in "${order[@]}"; do
	ko=${rel%.xz}
	mkdir -p "$root/lib/modules/$version/$(dirname "$ko")"
	xz -dc "$img/lib/modules/$version/$rel" > "$root/lib/modules/$version/$ko"
	echo "$ko" >> "$root/etc/stock-modules"
done
cp "$img/lib/modules/$version"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$version/"
depmod -b "$root" "$version"
initrd=$work/initramfs.cpio.gz
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$initrd"
echo "  INITRD  $initrd ($(du -h "$initrd" | cut -f1), ${#order[@]} modules)"

# the disk: ext4 made here, no partition table (/dev/sda)
disk=$work/disk.img
rm -f "$disk"
mkfs.ext4 -q -F -L stock "$disk" 16M

echo "$version" > "$out/version"
rm -f "$out/console.log" "$out/guest.log"
echo "  QEMU    $version accel=tcg smp=1 timeout=${timeout}s -> $out"
start=$(date +%s)
rc=0
timeout --kill-after=10 "$timeout" qemu-system-x86_64 \
	-accel tcg -cpu max -smp 1 -m 512 \
	-nodefaults -no-reboot -display none -monitor none \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 tsc=reliable" \
	-serial "file:$out/console.log" -serial "file:$out/guest.log" \
	-device ahci,id=ahci0 -drive "if=none,id=d0,file=$disk,format=raw" \
	-device ide-hd,drive=d0,bus=ahci0.0 \
	-netdev user,id=n0 -device e1000,netdev=n0 </dev/null || rc=$?
echo "  TIME    $(( $(date +%s) - start ))s"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "stock-boot: guest did not finish within ${timeout}s (console: $out/console.log)" >&2
	exit 124
fi

# between markers, or the log is not whole
section() {
	tr -d '\r' < "$out/guest.log" |
		awk -v b="KMSG-STOCK-$1-BEGIN" -v e="KMSG-STOCK-$1-END" \
			'$0 == e { print "end" > "/dev/stderr"; exit } on { print } $0 == b { on = 1 }'
}
for s in KMSG:kmsg.raw DMESG:dmesg.txt; do
	end=$(section "${s%%:*}" 2>&1 > "$out/${s#*:}")
	[ "$end" = end ] && [ -s "$out/${s#*:}" ] ||
		{ echo "stock-boot: guest.log has no whole ${s%%:*} section" >&2; exit 1; }
done
result=$(sed -n 's/.*KMSG-GUEST-DONE rc=\([0-9]*\).*/\1/p' "$out/guest.log" | tail -n 1)
[ -n "$result" ] || { echo "stock-boot: guest ended without reporting (qemu exit $rc)" >&2; exit 125; }
echo "  LOG     $(grep -c '^[0-9]' "$out/kmsg.raw") records in $out/kmsg.raw"
exit "$result"
