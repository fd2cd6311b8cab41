#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-table.sh UNIT GUEST_LOG
#
# The "RESULT mode value" lines bench.sh printed in the guest, as a table
# of ratios to printk. UNIT names what the values are: "ns" for a run
# timed by the host's clock, "instructions" for a run under -icount 0,
# where the guest's nanosecond is one executed instruction.
unit=${1:?unit} log=${2:?guest log}
awk -v unit="$unit" '
/^RESULT/ { v[$2] = $3; order[++n] = $2 }
/^BYTES/ { bytes[$2] = $3; per[$2] = $4; bo[++nb] = $2 }
END {
	if (!v["printk"]) { print "bench: no printk result in " FILENAME; exit 1 }
	printf "  %-14s %14s %8s %8s\n", "mode", unit "/msg", "ratio", "vs off"
	for (i = 1; i <= n; i++) {
		m = order[i]; off = m
		sub(/-on$/, "", off)
		if (off == "kmsg") off = "kmsg-off"
		printf "  %-14s %14d %7.3fx", m, v[m], v[m] / v["printk"]
		if (off != m && v[off]) printf " %7.3fx", v[m] / v[off]
		printf "\n"
	}
	if (nb) printf "  %-14s %14s %14s\n", "event of", "bytes/event", "events/MiB"
	for (i = 1; i <= nb; i++)
		printf "  %-14s %14d %14d\n", bo[i], bytes[bo[i]], per[bo[i]]
}' "$log"
