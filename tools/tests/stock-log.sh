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
# id either), and the database must put each site of the truth at its
# call (its file and line).  Then the same of a fresh boot
# (STOCK: its qemu/stock-boot.sh output directory), its records judged by
# the committed record of the same text.  That boot was followed live (stock-boot.sh --follow): kmsg
# dmesg --follow --json in the guest, from before the first module was
# loaded, must have written every record of its kmsg.raw once, in order,
# with the same text, every gap reported as missed exactly, each record
# identified as kmsg dmesg --json identifies it from kmsg.raw (so with the
# same verdicts), with the database installed for the release in the
# guest, a copy of DISTRO_DB.  TAP output.  DISTRO_DB, TOOLS as for
# distro-db.sh.
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

# where: the database's file and line of each site of the truth, built-in
# (the -dbg vmlinux's DWARF) and in a module (the -dbg modules' DWARF),
# against the call the truth read from the source: the same file and line
# (that of the call's first line, for one written on several)
python3 - "$stock/truth.tsv" "$db" > "$tmp/where" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
seen, count = set(), {}
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    if l.startswith("#") or ".h" not in f[2] or (f[2], f[4]) in seen:
        continue
    seen.add((f[2], f[4]))
    tf, tl = f[4].rsplit(":", 1)
    rows = db.execute("SELECT file, line, object FROM messages WHERE id = ?",
                      (f[2],)).fetchall()
    where = "vmlinux" if rows and rows[0][2] == "vmlinux" else "module"
    if any(r[0] == tf and r[1] == int(tl) for r in rows):
        k = "exact"
    else:
        k = "other"
        print("other", f[2], f[4], rows[:2])
    count[where + "_" + k] = count.get(where + "_" + k, 0) + 1
for k in sorted(count):
    print(k, count[k])
EOF
diag "$tmp/where"
wm=$(awk '$1 ~ /^module_/ { n += $2 } END { print n + 0 }' "$tmp/where")
wv=$(awk '$1 ~ /^vmlinux_/ { n += $2 } END { print n + 0 }' "$tmp/where")
[ "$wm" -ge 20 ] && [ "$wv" -ge 200 ] && ! grep -q '^other' "$tmp/where"
ok $? "the database puts each site of the truth at its call: $wv built in, $wm in modules, same file and line ($(grep -c '^other' "$tmp/where") elsewhere)"

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
cp "$tmp/v" "$tmp/v.fresh"

# --- the same boot, followed live ---------------------------------------
follow=$STOCK/follow.json
[ -s "$follow" ] && [ -s "$STOCK/follow.status" ] ||
	bail "no $follow: the fresh boot was not followed (qemu/stock-boot.sh --follow)"
val() {	# val FILE KEY: the value of the line "KEY value"
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}
before=$(val "$STOCK/follow.status" before)
frc=$(val "$STOCK/follow.status" rc)
total=$(grep -c '"seq":' "$follow")
[ "$frc" = 0 ] && [ "${before:-0}" -gt 0 ] && [ "$total" -gt "$before" ] &&
	grep -q '"text":"e1000: eth0 NIC Link is Up' "$follow"
ok $? "kmsg dmesg --follow had ${before:-no} records out before the first module was loaded, went on with the modules' (the link's among them, $total in all), and ended by SIGTERM with status ${frc:-none}"

# stream_bad, text_bad, ident_bad of follow_stream.py on FOLLOW
breaks() {	# breaks FOLLOW
	python3 "$here/follow_stream.py" "$STOCK/kmsg.raw" "$1" "$tmp/fresh.json" |
		awk '$1 ~ /_bad$/ { n += $2 } END { print n + 0 }'
}
python3 "$here/follow_stream.py" "$STOCK/kmsg.raw" "$follow" "$tmp/fresh.json" \
	"$tmp/follow.json" > "$tmp/s" || bail "follow_stream.py failed on $follow"
diag "$tmp/s"
last=$(val "$tmp/s" last)
missed=$(val "$tmp/s" missed)
# "kmsg: /dev/kmsg: N records missed (M overruns), K not records" as "N K"
said=$(sed -n 's/^kmsg: \/dev\/kmsg: \([0-9]*\) records missed ([0-9]* overruns), \([0-9]*\) not records$/\1 \2/p' "$STOCK/follow.err")
[ "$(val "$tmp/s" stream_bad)" = 0 ] && [ "${said:-0 0}" = "$missed 0" ]
ok $? "it wrote every record of the boot's kmsg.raw ($(val "$tmp/s" raw_records), seq $(val "$tmp/s" raw_first) to $(val "$tmp/s" raw_last)) once, in seq order, and reported exactly what it missed ($missed; it said ${said:-nothing})"
[ "$(val "$tmp/s" text_bad)" = 0 ]
ok $? "each with the text of kmsg.raw"
printf 'boot_id=%s\nseq=%s\n' "$(sed -n 's/^boot_id=\([0-9a-f]\{32\}\)$/\1/p' "$STOCK/follow.state")" "$last" |
	cmp -s - "$STOCK/follow.state"
ok $? "its state file, written on SIGTERM, holds the last seq written ($last)"
# the database: installed for the release in the guest, picked by kmsg
release=$(cat "$STOCK/version")
diag "$STOCK/follow.err"
used=$(sed -n "s/^kmsg: using database for \(.*\) (\(.*\))$/\1 \2/p" "$STOCK/follow.err")
[ "${used%% *}" = "$release" ] && [ "${used##*/}" = "$release.db" ] &&
	! grep -q warning "$STOCK/follow.err" &&
	[ "$(cut -d ' ' -f 1 "$STOCK/follow.db")" = "$(sha256sum < "$db" | cut -d ' ' -f 1)" ]
ok $? "it used the database installed for $release (${used#* }), a copy of $db, with no warning"
[ "$(val "$tmp/s" ident_bad)" = 0 ]
ok $? "live identification is offline identification: each record's match, id and auto_id as kmsg dmesg --json gives them from kmsg.raw ($(for k in exact printed ambiguous weak unidentified; do echo "$(val "$tmp/s" "match_$k") $k"; done | paste -sd ' ' | sed 's/ \([0-9]\)/, \1/g'))"
judge "followed live" "$tmp/follow.json" --same-text "$stock/kmsg.raw"
diff "$tmp/v.fresh" "$tmp/v" > "$tmp/d" || diag "$tmp/d"
[ ! -s "$tmp/d" ]
ok $? "followed live: the verdicts of the fresh boot's kmsg.raw ($(val "$tmp/v" right) right, $(val "$tmp/v" missed) not identified: ambiguous, weak or none)"

# the checks see a break: copies with a record twice, one taken out, one
# out of order, one identified otherwise
m=$(( (total + 1) / 2 ))
sed "${m}p" "$follow" > "$tmp/twice"
sed "${m}d" "$follow" > "$tmp/gone"
awk -v m="$m" 'NR == m { k = $0; next } { print } END { print k }' "$follow" > "$tmp/late"
sed '0,/"id":"/s//"id":"x/' "$follow" > "$tmp/other"
for f in twice gone late other; do
	[ "$(breaks "$tmp/$f")" -gt 0 ] || echo "$f" >> "$tmp/unseen"
done
[ ! -e "$tmp/unseen" ] || diag "$tmp/unseen"
[ ! -e "$tmp/unseen" ]
ok $? "the checks fail on copies of the stream with a record twice, one taken out, one out of order, one identified otherwise"
tap_end
