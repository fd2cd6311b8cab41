#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-db.sh TOOLS [N]
#
# Time "kmsg-doc build-db" over a generated build of N (default 100000)
# messages, each documented in a generated catalog, one entry with N
# translations (gen-bench-db.sh). Informational: prints the seconds,
# checks nothing but that the database has N messages.
set -eu
tools=$1 n=${2:-100000}
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/gen-bench-db.sh" "$n" "$tmp"
/usr/bin/time -o "$tmp/time" -f "%e %U %S" "$tools/kmsg-doc" build-db \
	--out "$tmp/bench.db" --catalog "$tmp/catalog" "$tmp/bench.o" \
	> "$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
got=$(sqlite3 "$tmp/bench.db" "SELECT count(*) FROM messages")
[ "$got" = "$n" ] || { echo "bench-db: $got messages, want $n"; exit 1; }
read -r real user sys < "$tmp/time"
echo "On the host, kmsg-doc build-db of $n messages, all documented, $n translations in one entry:"
awk -v n="$n" -v r="$real" -v u="$user" -v s="$sys" 'BEGIN {
	printf "  %.2f s (%.2f s user, %.2f s system), %.0f messages/s; target < 5 s\n",
		r, u, s, n / r
}'
