#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real machines' kernel logs, identified with the database of the stock
# kernel they ran: tools/tests/hwlogs/NAME.dmesg, public hw-probe uploads
# of laptops and desktops running Debian 12's 6.1 kernel (where each one
# comes from: hwlogs/SOURCES.tsv), and NAME.sites, each line's printk
# call read from Debian's 6.1 source (hwlog_truth.py says how; the truth
# was never taken from kmsg).  For each log: the truth is whole and
# self-consistent (each judged format prints its line), then kmsg dmesg
# --json with the database of make distro-db for 6.1 (DISTRO_DB_61) must
# give no line a wrong id, the truth's id to at least 90% of the lines
# printed through a format with 8 literal bytes or more of its own (not a
# wrapper's, hw-probe's masks not in the text), and every ambiguous line
# of an id the database has must have the truth among its candidates; of
# all logs' lines printed through a wrapper, at least 85% must get the id
# of the wrapper's caller.  Then the same rules on copies of a log
# turned wrong (a line given another driver, a user-space line, a tag
# before a leading conversion), which a matcher without them identifies
# wrongly; and -x shows an undocumented message's call site from the
# source of the database's version that distro-db.sh unpacked into
# DISTRO_CACHE.  TAP output.  TOOLS, DISTRO_DB_61 as for distro-db.sh.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:-$here/../../build/tools}
logs=$here/hwlogs
db=${DISTRO_DB_61:-}
[ -s "$db" ] || bail "no DISTRO_DB_61 (make distro-db DISTRO_KERNEL=linux-image-6.1.0-57-amd64-unsigned builds it)"

val() {	# val FILE KEY: the value of the line "KEY value"
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

names=$(awk -F '\t' '!/^#/ && NF { print $1 }' "$logs/SOURCES.tsv")
# the ids the database has: an ambiguous line can list only those
sqlite3 "$db" "SELECT DISTINCT id FROM messages" > "$tmp/ids" ||
	bail "$db: cannot read its messages"
[ "$(echo "$names" | wc -w)" -ge 6 ]
ok $? "the corpus has at least six machines' logs ($(echo $names | wc -w))"

total_wrong=0 total_lines=0 total_wrapped=0 total_wrapped_right=0
for name in $names; do
	log=$logs/$name.dmesg sites=$logs/$name.sites
	python3 "$here/hwlog_truth.py" check "$sites" "$log" > "$tmp/check" 2>&1
	rc=$?
	[ $rc = 0 ] || diag "$tmp/check"
	ok $rc "$name: the truth judges each of its lines once, and each judged format prints its line ($(tail -n 1 "$tmp/check"))"
	"$tools/kmsg" dmesg --json --db "$db" "$log" > "$tmp/$name.json" 2> "$tmp/err"
	ok $? "$name: kmsg dmesg --json reads it" "$tmp/err"
	python3 "$here/hwlog_truth.py" judge "$sites" "$tmp/$name.json" "$tmp/ids" > "$tmp/v" ||
		bail "hwlog_truth.py judge failed on $name"
	diag "$tmp/v"
	lines=$(val "$tmp/v" lines) wrong=$(val "$tmp/v" wrong)
	own8=$(val "$tmp/v" own8) own8r=$(val "$tmp/v" own8_right)
	total_wrong=$((total_wrong + wrong)) total_lines=$((total_lines + lines))
	total_wrapped=$((total_wrapped + $(val "$tmp/v" wrapped)))
	total_wrapped_right=$((total_wrapped_right + $(val "$tmp/v" wrapped_right)))
	[ "$lines" -gt 0 ] && [ "$(val "$tmp/v" unjudged)" = 0 ]
	ok $? "$name: every line judged ($lines)"
	[ "$wrong" = 0 ]
	ok $? "$name: no line gets a wrong id ($wrong of $lines)"
	[ "$own8" -gt 0 ] && [ $((own8r * 100)) -ge $((own8 * 90)) ]
	ok $? "$name: at least 90% of the $own8 lines of a format with 8 literal bytes of its own get the truth's id ($own8r)"
	[ "$(val "$tmp/v" cand_missing)" = 0 ]
	ok $? "$name: every ambiguous line has the truth among its candidates ($(val "$tmp/v" cand_lines) lines)"
done
echo "# corpus: $total_wrong wrong ids in $total_lines lines"
# the caller's formats of wrappers (bt_info()'s "%pV", acpi_handle_*(),
# sd_printk()) are in the database: most wrapped lines get the caller's id
[ "$total_wrapped" -gt 0 ] && [ $((total_wrapped_right * 100)) -ge $((total_wrapped * 85)) ]
ok $? "at least 85% of the corpus's $total_wrapped lines printed through a wrapper get the id of the wrapper's caller ($total_wrapped_right)"

# --- the rules, each on a copy that a matcher without it gets wrong ------
# A line of each kind, taken from the corpus: the same text must not be
# identified once the evidence that made it right is gone.
first=$(echo "$names" | head -n 1)
log=$logs/$first.dmesg
{
	# another driver's device line with a format iwlwifi's module does
	# not print: ftdi_sio's "Detected %s"
	echo "[    9.000000] iwlwifi 0000:00:14.3: Detected Foo Bar"
	# an e1000e netdev line e1000's module prints too
	echo "[    9.100000] e1000e 0000:00:1f.6 eth0: Intel(R) PRO/1000 Network Connection"
	# user space through /dev/kmsg, shaped as "%s: %s failed"
	echo "[    9.200000] systemd[1]: memstrack.service - Memstrack Anylazing Service was skipped because all trigger condition checks failed."
	# a tag the leading "%s" of "%s initialized" (zd1211rw) swallows
	echo "[    9.300000] Bluetooth: FOO socket layer initialized"
	# "Found %s" (ngene, dev_info()) read with "Bluetooth:" as a driver
	echo "[    9.400000] Bluetooth: hci0: Found device firmware: intel/ibt-19-0-4.sfi"
	# a first fragment whose KERN_CONT rest is not in the line
	echo "[    9.500000] e820: update [mem 0x00000000-0x00000fff] usable ==> something else"
	# a tag before "%s hash table entries: ..." (page_alloc)
	echo "[    9.600000] Bluetooth: Dentry cache hash table entries: 4194304 (order: 13, 33554432 bytes, linear)"
	# pr_debug() of init/main.c, in a log that does not say its level
	echo "[    9.700000]   with arguments:"
	# user space again, shaped as "%s hash table entries: ..."
	echo "[    9.800000] systemd[1]: Dentry cache hash table entries: 4194304 (order: 13, 33554432 bytes, linear)"
} > "$tmp/rules.dmesg"
"$tools/kmsg" dmesg --json --db "$db" "$tmp/rules.dmesg" > "$tmp/rules.json" 2> "$tmp/err"
python3 - "$tmp/rules.json" > "$tmp/r" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(j["line"], j["match"], j.get("id", "-"))
EOF
diag "$tmp/r"
bad=$(awk '$2 == "exact"' "$tmp/r" | wc -l)
[ "$bad" = 0 ] && [ "$(wc -l < "$tmp/r")" = 9 ] &&
	[ "$(awk '$1 == 2 || $1 == 9 { print $2 }' "$tmp/r" | sort -u)" = unidentified ]
ok $? "no rule-breaking line of nine is identified: another driver's module, e1000 for e1000e, user space, a swallowed tag, a tag as a driver, a fragment without its rest, a tag before a leading conversion, debug output of unknown level ($bad identified); e1000's site refused for e1000e's line, and user space's line not a kernel message at all"
# and the lines they were made from keep their ids; the wrapped ones get
# the id of the format passed to the wrapper: bt_info()'s of bluetooth,
# __iwl_info()'s of iwlwifi
printf '%s\n' "[    9.000000] e820: update [mem 0x00000000-0x00000fff] usable ==> reserved" \
	"[    9.100000] Console: switching to colour frame buffer device 141x47" \
	"[    9.200000] Bluetooth: HCI socket layer initialized" \
	"[    9.300000] iwlwifi 0000:00:14.3: Detected RF HR B5, rfid=0x10a100" > "$tmp/good.dmesg"
"$tools/kmsg" dmesg --json --db "$db" "$tmp/good.dmesg" > "$tmp/good.json" 2> "$tmp/err"
python3 - "$tmp/good.json" > "$tmp/g" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(j["line"], j["match"], j.get("id", "-"), j.get("format", "-"))
EOF
diag "$tmp/g"
want3=$(python3 "$here/hwlog_truth.py" id bluetooth 'HCI socket layer initialized\n')
want4=$(python3 "$here/hwlog_truth.py" id iwlwifi 'Detected RF %s\n')
[ "$(awk '$2 == "exact"' "$tmp/g" | wc -l)" = 4 ] &&
	grep -q '^2 exact vt\.[^ ]* Console: switching to ' "$tmp/g" &&
	grep -q "^3 exact $want3 " "$tmp/g" && grep -q "^4 exact $want4 " "$tmp/g"
ok $? "a line of fragments is the first fragment's message: e820's update through its fragments, and vt's \"Console: switching \" continued, not con_init()'s \"Console: %s %s %dx%d\"; a wrapped message is the wrapper's caller's ($want3, $want4)"

# --- an undocumented message's source, with -x ----------------------------
# the source distro-db.sh unpacked into DISTRO_CACHE: of the version the
# database was built from ("linux-image-... 6.1.192-3")
version=$(sqlite3 "$db" "SELECT value FROM build WHERE key = 'source'" | cut -d ' ' -f 2)
src=${DISTRO_CACHE:-$here/../../build/distro}/linux-source-$version
[ -f "$src/Makefile" ] || bail "no $src: the source tree make distro-db-6.1 unpacks"
echo "[    0.500000] Command line: BOOT_IMAGE=/vmlinuz ro quiet" > "$tmp/src.dmesg"
"$tools/kmsg" dmesg -x --db "$db" --srctree "$src" "$tmp/src.dmesg" > "$tmp/src.out" 2> "$tmp/err"
diag "$tmp/src.out"
where=$(sed -n 's/^-- source: \(.*\)$/\1/p' "$tmp/src.out")
[ -n "$where" ] && [ "$(grep -c '^-- [ >] *[0-9]*  ' "$tmp/src.out")" = 5 ] &&
	grep -q "^-- >  *${where#*:}  .*printk(KERN_INFO \"Command line: %s" "$tmp/src.out" &&
	[ "$(sed -n "${where#*:}p" "$src/${where%:*}" | tr '\t' ' ')" = "$(sed -n 's/^-- >  *[0-9]*  //p' "$tmp/src.out")" ]
ok $? "-x --srctree: an undocumented message's call site and the four lines before it, from the source ($where)"
# a database naming a file outside the tree: nothing read
cp "$db" "$tmp/evil.db"
sqlite3 "$tmp/evil.db" "UPDATE messages SET file = '../../../../../../etc/passwd' WHERE format = 'Command line: %s'" &&
	KMSG_SRCTREE=$src "$tools/kmsg" dmesg -x --db "$tmp/evil.db" "$tmp/src.dmesg" > "$tmp/src.out" 2> "$tmp/err" &&
	! grep -q "^-- source\|root:" "$tmp/src.out"
ok $? "-x: a database's file name with '..' is not read"
rm -f "$tmp/evil.db"
tap_end
