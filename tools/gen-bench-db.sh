#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen-bench-db.sh N DIR
#
# A build and a catalog of N messages for kmsg-doc, in DIR: DIR/bench.o,
# an object file whose printk index has N plain call sites of module
# "benchmod" (assembled directly: a C file of that many sites would take
# the compiler minutes), and DIR/catalog/bench.kmsg, which documents each
# of them by modname and format, the first entry with N translations.
#
#   kmsg-doc build-db --out DIR/bench.db --catalog DIR/catalog DIR/bench.o
#
# builds the database of N messages (make bench times it).
set -eu
n=$1 dir=$2
mkdir -p "$dir/catalog"
awk -v n="$n" -v s="$dir/bench.s" -v c="$dir/catalog/bench.kmsg" 'BEGIN {
	split("err warn notice info", sev, " ")
	printf "\t.section .rodata,\"a\"\n.Lfunc:\t.string \"bench_fire\"\n" > s
	printf ".Lfile:\t.string \"bench/bench.c\"\n.Lmod:\t.string \"benchmod\"\n" > s
	for (i = 1; i <= n; i++) {
		lvl = 3 + i % 4
		fmt = "benchmod: request %u of device %s failed at step " i
		printf "\t.section .rodata,\"a\"\n.Lf%d:\t.string \"\\001%d%s\\n\"\n", i, lvl, fmt > s
		printf "\t.section .data.rel.ro,\"aw\"\n.Le%d:\t.quad .Lf%d, .Lfunc, .Lfile\n", i, i > s
		printf "\t.long %d\n\t.quad 0, 0, .Lmod, 0\n\t.long 0\n", i > s
		printf "\t.section .printk_index,\"aw\"\n\t.quad .Le%d\n", i > s
		printf "id: bench.%d\nseverity: %s\nmodname: benchmod\nformat: %s\n", i, sev[lvl - 2], fmt > c
		printf "parameter: @0 the request\nparameter: @1 the device\n" > c
		printf "description:\n A request failed.\nuser-response:\n None.\n" > c
		if (i == 1)
			for (k = 1; k <= n; k++)
				printf "translation.l%06d: %s\n", k, fmt > c
		printf "\n" > c
	}
}'
${CC:-gcc} -c -x assembler "$dir/bench.s" -o "$dir/bench.o"
rm -f "$dir/bench.s"
