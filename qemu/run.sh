#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [options] KERNEL INITRD OUTDIR
#
# Boot the kmsg guest once and wait for it to finish.
#
#   --mode MODE     check | demo | probe | shell   (default: check)
#   --timeout SEC   hard limit for the whole boot  (default: 600)
#   --smp N         CPUs                           (default: 2)
#   --accel A       tcg | kvm | auto               (default: tcg)
#   --append ARGS   extra kernel command line
#   --disk FILE     attach FILE as a raw virtio disk (/dev/vda)
#   --mem MB        guest memory                   (default: 512)
#   --icount SHIFT  TCG only: the guest clock counts instructions,
#                   2^SHIFT ns each, instead of host time
#   --plugin ARG    TCG only: load a QEMU plugin (-plugin ARG)
#
# TCG is the default: on these machines /dev/kvm exists but nested KVM
# fails. --accel auto uses KVM only if a short probe boot with it
# succeeds (the answer is cached in OUTDIR/../kvm.ok or kvm.bad).
#
# OUTDIR gets console.log (ttyS0: the kernel console, whole) and
# guest.log (ttyS1: what the guest's job printed). The exit status is
# the job's ("KMSG-GUEST-DONE rc=N" on ttyS1); 124 on timeout, 125 when
# the guest ended without reporting.
#
# A guest that died of QEMU's stale int3 (stale_int3() below) is booted
# once more; the first boot's console is kept as
# OUTDIR/console-stale-int3.log, beside console.log, where
# qemu/ktap-summary.sh looks for it by that name: it notes the retry and
# fails on any report of the first boot before the int3. The file exists
# only when this run booted twice.
set -euo pipefail

mode=check timeout=600 smp=2 accel=tcg append="" disk="" mem=512 icount=""
plugin=""
while [ $# -gt 0 ]; do
	case $1 in
	--mode) mode=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--disk) disk=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--icount) icount=$2; shift 2 ;;
	--plugin) plugin=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 3 ] || { sed -n '4,33p' "$0" >&2; exit 2; }
kernel=$1 initrd=$2 outdir=$3
mkdir -p "$outdir"
# the first boot's console of a retry, read by qemu/ktap-summary.sh
stale_console=$outdir/console-stale-int3.log
rm -f "$stale_console"

# boot MODE ACCEL TIMEOUT OUTDIR
boot() {
	local m=$1 a=$2 t=$3 o=$4 cpu=max rc=0 drive=() clock=() boot_args=""
	local plug=()
	# the check and the demo record every message of the boot (selftest
	# boot_coverage)
	case $m in check|demo) boot_args="trace_event=kmsg:kmsg" ;; esac
	# the boot's events apart, for the check of kmsg dmesg (qemu/init)
	[ "$m" = check ] && boot_args="$boot_args trace_instance=kmsg_boot,kmsg:kmsg"
	# Under TCG the clocksource watchdog compares the TSC with the HPET
	# across the host's scheduling of the vCPUs and warns of "skew" or a
	# "Long readout interval": of the emulator, not of the kernel under
	# test, and warnings fail make check (qemu/ktap-summary.sh)
	boot_args="$boot_args tsc=reliable"
	[ "$a" = kvm ] && cpu=host
	[ -n "$icount" ] && [ "$a" = tcg ] && clock=(-icount "shift=$icount")
	[ -n "$disk" ] && drive=(-drive "file=$disk,format=raw,if=virtio")
	[ -n "$plugin" ] && [ "$a" = tcg ] && plug=(-plugin "$plugin")
	rm -f "$o/console.log" "$o/guest.log"
	timeout --kill-after=10 "$t" qemu-system-x86_64 \
		-accel "$a" -cpu "$cpu" -smp "$smp" -m "$mem" \
		-nodefaults -no-reboot -display none -monitor none \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic $boot_args kmsg_mode=$m $append" \
		-serial "file:$o/console.log" -serial "file:$o/guest.log" \
		"${drive[@]}" "${clock[@]}" "${plug[@]}" </dev/null || rc=$?
	return $rc
}

# stale_int3 CONSOLE: did the guest die of an int3 that was no longer in
# memory? x86 patches a static key or a tracepoint's jump through an int3
# (text_poke_bp()); QEMU's multi-threaded TCG has run that int3 on
# another vCPU after the patch was complete (the Oops's code bytes show
# the patched instruction where the int3 was), and the kernel, with no
# patch in progress, oopses. That is the emulator's: seen once in about
# 20 boots of the check guest.
stale_int3() {
	awk '/Oops: int3/ { o = 1; next }
	o && /Code: / {
		if (match($0, / [0-9a-f][0-9a-f] <[0-9a-f][0-9a-f]>/))
			stale = substr($0, RSTART + 1, 2) != "cc"
		done = 1
		exit
	}
	END { exit done && stale ? 0 : 1 }' "$1"
}

if [ "$accel" = auto ]; then
	accel=tcg
	cache=$(dirname "$outdir")
	if [ -f "$cache/kvm.ok" ]; then
		accel=kvm
	elif [ ! -f "$cache/kvm.bad" ] && [ -w /dev/kvm ]; then
		if boot probe kvm 20 "$outdir" >/dev/null 2>&1 &&
		   grep -q 'KMSG-GUEST-DONE rc=0' "$outdir/guest.log"; then
			touch "$cache/kvm.ok"
			accel=kvm
		else
			touch "$cache/kvm.bad"
		fi
	fi
fi

if [ -n "$icount" ] && [ "$accel" != tcg ]; then
	echo "run.sh: --icount needs --accel tcg" >&2
	exit 2
fi
echo "  QEMU    mode=$mode accel=$accel smp=$smp timeout=${timeout}s${icount:+ icount=$icount} -> $outdir"
rc=0
boot "$mode" "$accel" "$timeout" "$outdir" || rc=$?
# once more after the emulator's stale int3, its console kept
if [ "$accel" = tcg ] && stale_int3 "$outdir/console.log"; then
	cp "$outdir/console.log" "$stale_console"
	echo "run.sh: the guest died of an int3 no longer in memory, QEMU's (console: $stale_console): booting it once more" >&2
	rc=0
	boot "$mode" "$accel" "$timeout" "$outdir" || rc=$?
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "run.sh: guest did not finish within ${timeout}s (console: $outdir/console.log)" >&2
	exit 124
fi
result=$(sed -n 's/.*KMSG-GUEST-DONE rc=\([0-9]*\).*/\1/p' "$outdir/guest.log" 2>/dev/null | tail -n 1)
if [ -z "$result" ]; then
	echo "run.sh: guest ended without reporting a result (qemu exit $rc; console: $outdir/console.log)" >&2
	tail -n 20 "$outdir/console.log" >&2 || true
	exit 125
fi
exit "$result"
