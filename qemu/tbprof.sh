#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tbprof.sh [MODE [COUNT]]
#
# Where the instructions that the kmsg:kmsg event adds to a message go,
# function by function. Boots the bench guest twice under TCG with the
# plugin qemu/tbprof.c, which counts the instructions executed in each
# translation block of the kernel; each boot sends kmsgbench's MODE
# (printk, dev or kmsg; default printk) COUNT times (default 20000), the
# first with the event enabled, the second with it disabled. Prints the
# difference per message for each function of vmlinux ("[modules]" for
# module code), largest first, and the total: what make bench's "vs off"
# column counts, taken apart. The boots themselves are counted too, so
# functions below one instruction per message are left out; so is the
# first use of the ring buffer's pages (clear_page_erms), which make
# bench's nine runs do not repeat.
#
# Needs make initramfs (the kernel, its System.map, the guest's files).
# B: the build directory (default build). Not part of make check.
set -euo pipefail

here=$(dirname "$(realpath "$0")")
top=$(dirname "$here")
B=${B:-$top/build}
mode=${1:-printk} count=${2:-20000}
case $mode in printk|dev|kmsg) ;; *) sed -n '4,18p' "$0" >&2; exit 2 ;; esac
case $count in ''|*[!0-9]*) sed -n '4,18p' "$0" >&2; exit 2 ;; esac
map=$B/obj/System.map kernel=$B/obj/arch/x86/boot/bzImage
for f in "$map" "$kernel" "$B/initramfs/init"; do
	[ -e "$f" ] || { echo "tbprof.sh: $f missing: make initramfs" >&2; exit 1; }
done
out=$B/tbprof
rm -rf "$out" && mkdir -p "$out"
gcc -Wall -Wextra -Werror -O2 -shared -fPIC -o "$out/tbprof.so" \
	"$here/tbprof.c" -Wl,--unresolved-symbols=ignore-all

for ev in on off; do
	root=$out/root-$ev
	cp -a "$B/initramfs" "$root"
	cat > "$root/bench.sh" <<EOS
#!/bin/sh
inst=/sys/kernel/tracing/instances/kmsgbench
echo "1 4 1 7" > /proc/sys/kernel/printk
modprobe kmsgbench || exit 1
mkdir \$inst && echo 4096 > \$inst/buffer_size_kb
[ $ev = on ] && echo 1 > \$inst/events/kmsg/kmsg/enable
echo "$mode $count" > /sys/kernel/debug/kmsgbench/run
echo "RESULT $mode-$ev \$(cut -d' ' -f4 /sys/kernel/debug/kmsgbench/run)"
EOS
	chmod +x "$root/bench.sh"
	(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$out/$ev.cpio.gz"
	"$here/run.sh" --accel tcg --mode bench --mem 1024 --icount 0 --timeout 900 \
		--plugin "$out/tbprof.so,out=$out/blocks-$ev" \
		"$kernel" "$out/$ev.cpio.gz" "$out/run-$ev" > /dev/null ||
		{ echo "tbprof.sh: the $ev boot failed: $out/run-$ev" >&2; exit 1; }
	grep -h '^RESULT' "$out/run-$ev/guest.log" >&2
	[ -s "$out/blocks-$ev" ] || { echo "tbprof.sh: no counts from the $ev boot" >&2; exit 1; }
done

# Each block to the function of System.map it starts in: the blocks
# (16 hexadecimal digits, as tbprof.c writes them) and the text symbols
# merged in address order; past _end, the modules
{
	awk '$2 ~ /^[tTwW]$/ { print $1, "S", $3 }
	     $3 == "_end" { print $1, "S", "[modules]" }' "$map"
	for ev in on off; do
		awk -v ev="$ev" '!/^#/ { print $1, ev, $2 }' "$out/blocks-$ev"
	done
} | LC_ALL=C sort -k1,1 -s | awk -v n="$count" '
	$2 == "S" { fn = $3; next }
	{ c[fn] += ($2 == "on" ? $3 : -$3) }
	END {
		for (f in c) {
			v = c[f] / n
			t += v
			if (v >= 1 || v <= -1)
				printf "%10.1f %s\n", v, f
		}
		printf "%10.1f TOTAL\n", t
	}' | sort -k1,1gr
