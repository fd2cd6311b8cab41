#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: time per message of a plain pr_info() with the kmsg:kmsg
# event off (printk) and on (printk-on), of dev_info() of the same text
# off (dev) and on (dev-on), of kmsg_info(), a message with a curated id,
# with the event off and on, and of trace_printk(), with kmsgbench; then
# the ring buffer bytes an event of pr_info() and of dev_info() takes.
# Console output is suppressed by the console log level, so that the
# console does not dominate. Prints "RUN mode ns_per_message" for every
# run, then "RESULT mode ns_per_message" lines, the median of REPS runs of
# COUNT messages each.
COUNT=${COUNT:-20000}
REPS=${REPS:-9}
run=/sys/kernel/debug/kmsgbench/run
inst=/sys/kernel/tracing/instances/kmsgbench

echo "1 4 1 7" > /proc/sys/kernel/printk
modprobe kmsgbench || exit 1
mkdir "$inst" || exit 1
echo 4096 > "$inst/buffer_size_kb"

# one MODE: the ns/message of one run
one() {
	echo "$1 $COUNT" > "$run" && cut -d' ' -f4 "$run"
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# Runs interleave the modes, so that drift of the host affects them alike
i=0
while [ $i -lt "$REPS" ]; do
	for mode in printk printk-on dev dev-on kmsg-off kmsg-on trace_printk; do
		case $mode in
		printk-on) echo 1 > "$inst/events/kmsg/kmsg/enable"; ns=$(one printk) ;;
		dev-on) echo 1 > "$inst/events/kmsg/kmsg/enable"; ns=$(one dev) ;;
		kmsg-on) echo 1 > "$inst/events/kmsg/kmsg/enable"; ns=$(one kmsg) ;;
		kmsg-off) ns=$(one kmsg) ;;
		*) ns=$(one "$mode") ;;
		esac
		echo 0 > "$inst/events/kmsg/kmsg/enable"
		echo > "$inst/trace"
		echo > /sys/kernel/tracing/trace
		echo "$mode $ns" >> /tmp/bench.raw
	done
	i=$((i + 1))
done
sed 's/^/RUN /' /tmp/bench.raw
for mode in printk printk-on dev dev-on kmsg-off kmsg-on trace_printk; do
	grep "^$mode " /tmp/bench.raw | cut -d' ' -f2 | median | sed "s/^/RESULT $mode /"
done

# Bytes of ring buffer per event, headers included: 1000 messages each
for mode in printk dev; do
	echo > "$inst/trace"
	echo 1 > "$inst/events/kmsg/kmsg/enable"
	echo "$mode 1000" > "$run"
	echo 0 > "$inst/events/kmsg/kmsg/enable"
	cat "$inst"/per_cpu/cpu*/stats | awk -v m="$mode" '
		$1 == "entries:" { e += $2 } $1 == "bytes:" { b += $2 }
		END { if (e) printf "BYTES %s %d %d\n", m, b / e, 1048576 * e / b }'
done
rmdir "$inst"

# With a disk attached: a trace.dat of BENCH_EVENTS kmsg events, for the
# host to time "kmsg report" against "trace-cmd report" on it
if [ -b /dev/vda ]; then
	n=${BENCH_EVENTS:-1100000}
	cd /tmp || exit 1
	echo "0 4 1 7" > /proc/sys/kernel/printk
	trace-cmd record -q -b 65536 -e kmsg:kmsg -o bench.dat \
		sh -c "echo 'kmsg $n' > $run" >/dev/null 2>&1 ||
		{ echo "bench.sh: trace-cmd record failed"; exit 1; }
	tar cf /dev/vda bench.dat || exit 1
	echo "RECORDED $n $(stat -c %s bench.dat)"
fi
