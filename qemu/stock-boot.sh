#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stock-boot.sh [--timeout SEC] [--follow TOOL DB] DEB|IMGDIR OUTDIR
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
#   steps        the init's steps, "NAME ok" or "NAME failed" a line
#   modules      the modules it loads, in order (.ko paths)
#
# With --follow TOOL DB, TOOL (kmsg, with the shared libraries it needs)
# goes in as /usr/bin/kmsg and DB as the database installed for the
# release booted (/usr/share/kmsg/db/RELEASE.db, where kmsg looks for
# it); the init runs "kmsg dmesg --follow --json --state ..." from before
# the first module is loaded to after the log was read, then stops it by
# SIGTERM. OUTDIR also gets:
#   follow.json    its output
#   follow.err     its standard error ("kmsg: using database for ...")
#   follow.state   its state file after it ended
#   follow.status  "before N": lines of its output before the first
#                  module was loaded; "rc N": its exit status
#   follow.db      sha256sum of DB
# Then systemd-journald (this machine's, with journalctl) goes in too,
# and kmsg runs as tools/kmsg-journal.service runs it, into the journal,
# and into OTLP, through an overrun, a restart and a kill -9
# (qemu/stock/service.sh). OUTDIR also gets:
#   journal.json   journalctl -o json of kmsg's entries (all runs)
#   otlp.1 .. otlp.3  the OTLP lines of each run
#   service.err    the runs' standard error
#   service.log    the runs' pids, their ends
#
# The modules are decompressed here (xz), not by the kernel: Debian's
# kernel has MODULE_DECOMPRESS, but only finit_module() with
# MODULE_INIT_COMPRESSED_FILE uses it, which busybox's insmod does not
# ask for; and plain .ko files keep the guest independent of what
# busybox was built to unpack. The signature rides inside the .ko, so
# the modules still verify against the kernel's built-in key.
set -euo pipefail
timeout=300
follow_tool='' follow_db=''
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) timeout=$2; shift 2 ;;
	--follow)
		[ $# -ge 3 ] || { echo "stock-boot: --follow TOOL DB" >&2; exit 2; }
		follow_tool=$2 follow_db=$3; shift 3 ;;
	-*) echo "stock-boot: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { sed -n '4,40p' "$0" >&2; exit 2; }
src=$1 out=$2
here=$(dirname "$(realpath "$0")")
# the modules asked for; modprobe adds what they depend on
MODULES="ahci sd_mod ext4 e1000"

mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out"/follow.* "$out"/otlp.* "$out"/service.* "$out"/journal.json "$out"/steps
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
# install_elf FILE [DEST]: FILE into the initramfs at DEST (its own
# path), with the shared libraries it needs (as ldd resolves them) at
# theirs
install_elf() {
	local lib dest=${2:-$1}
	mkdir -p "$root$(dirname "$dest")"
	cp -L "$1" "$root$dest"
	for lib in $(ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
: > "$root/etc/stock-modules"
for rel in "${order[@]}"; do
	ko=${rel%.xz}
	mkdir -p "$root/lib/modules/$version/$(dirname "$ko")"
	xz -dc "$img/lib/modules/$version/$rel" > "$root/lib/modules/$version/$ko"
	echo "$ko" >> "$root/etc/stock-modules"
done
cp "$img/lib/modules/$version"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$version/"
depmod -b "$root" "$version"
if [ -n "$follow_tool" ]; then
	[ -s "$follow_db" ] || { echo "stock-boot: no database $follow_db" >&2; exit 1; }
	journald=/lib/systemd/systemd-journald
	[ -x $journald ] && command -v journalctl > /dev/null ||
		{ echo "stock-boot: no $journald or journalctl (package systemd)" >&2; exit 1; }
	mkdir -p "$root/usr/bin" "$root/usr/share/kmsg/db" "$root/lib/systemd"
	install_elf "$follow_tool" /usr/bin/kmsg
	cp "$follow_db" "$root/usr/share/kmsg/db/$version.db"
	sha256sum "$follow_db" > "$out/follow.db"
	install_elf $journald
	install_elf "$(command -v journalctl)"
	# the service's command line, as service.sh runs it
	sed 's|@BINDIR@|/usr/bin|g' "$here/../tools/kmsg-journal.service" |
		awk '/^ExecStart=/ { on = 1; sub(/^ExecStart=/, "") }
		on { line = line $0; if (!sub(/\\$/, "", line)) { print line; exit } }' |
		sed "s|^/bin/sh -c '\(.*\)'\$|\1|" > "$root/etc/kmsg-journal.sh"
	grep -q 'kmsg dmesg --follow --journal' "$root/etc/kmsg-journal.sh" ||
		{ echo "stock-boot: no kmsg dmesg --follow in the ExecStart of kmsg-journal.service" >&2; exit 1; }
	install -m 644 "$here/stock/service.sh" "$root/etc/stock-service.sh"
	echo 5f3c0b0de9c94e6b8a8a1a7d2c1b0a99 > "$root/etc/machine-id"
fi
cp "$root/etc/stock-modules" "$out/modules"
initrd=$work/initramfs.cpio.gz
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$initrd"
echo "  INITRD  $initrd ($(du -h "$initrd" | cut -f1), ${#order[@]} modules${follow_tool:+, kmsg and its database})"

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

# between markers, or the log is not whole (awk reads on to the end: tr
# is not cut short, which pipefail would take for a failure)
section() {
	tr -d '\r' < "$out/guest.log" |
		awk -v b="KMSG-STOCK-$1-BEGIN" -v e="KMSG-STOCK-$1-END" \
			'done { next } on && $0 == e { print "end" > "/dev/stderr"; done = 1; next }
			on { print } $0 == b { on = 1 }'
}
sections="KMSG:kmsg.raw DMESG:dmesg.txt STEPS:steps"
[ -z "$follow_tool" ] ||
	sections="$sections FOLLOW:follow.json FOLLOW-ERR:follow.err FOLLOW-STATE:follow.state FOLLOW-STATUS:follow.status
		JOURNAL:journal.json OTLP-1:otlp.1 OTLP-2:otlp.2 OTLP-3:otlp.3 SERVICE-ERR:service.err SERVICE-LOG:service.log"
for s in $sections; do
	end=$(section "${s%%:*}" 2>&1 > "$out/${s#*:}")
	[ "$end" = end ] && { [ -s "$out/${s#*:}" ] || [ "${s%%:*}" = FOLLOW-ERR ]; } ||
		{ echo "stock-boot: guest.log has no whole ${s%%:*} section" >&2; exit 1; }
done
result=$(sed -n 's/.*KMSG-GUEST-DONE rc=\([0-9]*\).*/\1/p' "$out/guest.log" | tail -n 1)
[ -n "$result" ] || { echo "stock-boot: guest ended without reporting (qemu exit $rc)" >&2; exit 125; }
echo "  LOG     $(grep -c '^[0-9]' "$out/kmsg.raw") records in $out/kmsg.raw"
[ -z "$follow_tool" ] ||
	echo "  FOLLOW  $(grep -c '"seq":' "$out/follow.json") records in $out/follow.json ($(tr '\n' ' ' < "$out/follow.status"))"
exit "$result"
