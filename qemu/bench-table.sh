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
END {
	if (!v["printk"]) { print "bench: no printk result in " FILENAME; exit 1 }
	printf "  %-14s %14s %8s\n", "mode", unit "/msg", "ratio"
	for (i = 1; i <= n; i++)
		printf "  %-14s %14d %7.3fx\n", order[i], v[order[i]], v[order[i]] / v["printk"]
}' "$log"
