#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A stock kernel's log identified with the database built from its
# package: Debian's linux-image-6.12.118+deb12-amd64 booted in the guest
# (qemu/stock-boot.sh), its log committed as qemu/stock/kmsg.raw, and
# qemu/stock/truth.tsv, the id of every record read from the source (or
# why it has none).  kmsg dmesg --json with the database of make
# distro-db must give no record a wrong id and the truth's id to at least
# 95% of the records printed through a format with literal text of its
# own (not a bare "%s", nor a subsystem's tag and conversions only:
# "AppArmor: %s", "evm: %s%s", which kmsg_match holds too little to
# identify a line by; these are counted apart, and must not get a wrong
# id either).  Then the same of a fresh boot (STOCK: its qemu/stock-boot.sh
# output directory), its records judged by the committed record of the
# same text.  TAP output.  DISTRO_DB, TOOLS as for distro-db.sh.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:-$here/../../build/tools}
stock=$here/../../qemu/stock
db=${DISTRO_DB:-}
[ -s "$db" ] || bail "no DISTRO_DB (make distro-db builds it)"

# judge NAME JSON [--same-text LOG]: the verdicts, each a TAP result
judge() {
	local name=$1 json=$2
	shift 2
	python3 "$here/stock_truth.py" "$stock/truth.tsv" "$json" "$@" > "$tmp/v" ||
		bail "stock_truth.py failed on $json"
	local ids right wrong missed records
	ids=$(awk '$1 == "ids" { print $2 }' "$tmp/v")
	right=$(awk '$1 == "right" { print $2 }' "$tmp/v")
	wrong=$(awk '$1 == "wrong" && NF == 2 { print $2 }' "$tmp/v")
	missed=$(awk '$1 == "missed" { print $2 }' "$tmp/v")
	records=$(awk '$1 == "records" { print $2 }' "$tmp/v")
	diag "$tmp/v"
	[ "$wrong" = 0 ]
	ok $? "$name: no record gets a wrong id ($wrong of $records)"
	[ "$ids" -gt 0 ] && [ $((right * 100)) -ge $((ids * 95)) ]
	ok $? "$name: at least 95% of the $ids records with an id of their own get it ($right right, $missed not identified)"
}

unknown=$(awk -F '\t' '!/^#/ && $3 == "unknown"' "$stock/truth.tsv" | wc -l)
[ "$unknown" = 0 ]
ok $? "the truth sites every record of the committed log ($unknown unknown)"

"$tools/kmsg" dmesg --json --db "$db" "$stock/kmsg.raw" > "$tmp/log.json" 2> "$tmp/err"
ok $? "kmsg dmesg --json reads the committed log" "$tmp/err"
judge "committed log" "$tmp/log.json"

if [ -z "${STOCK:-}" ]; then
	tap_end
	exit 0
fi
[ -s "$STOCK/kmsg.raw" ]
ok $? "a fresh boot of the stock kernel left its /dev/kmsg records ($STOCK/kmsg.raw)"
nrec=$(grep -vc '^ ' "$STOCK/kmsg.raw" || true)
[ "$nrec" -ge 400 ] && grep -q 'e1000: eth0 NIC Link is Up' "$STOCK/kmsg.raw"
ok $? "the fresh boot went as far as the network link ($nrec records)"
"$tools/kmsg" dmesg --json --db "$db" "$STOCK/kmsg.raw" > "$tmp/fresh.json" 2> "$tmp/err"
ok $? "kmsg dmesg --json reads the fresh boot's records" "$tmp/err"
judge "fresh boot" "$tmp/fresh.json" --same-text "$stock/kmsg.raw"
tap_end
