#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's stock kernel booted in the guest by qemu/stock-boot.sh --follow
# (STOCK: its output directory): the guest's init went through every step
# and reported success, and its records, judged by the committed record of
# the same text (qemu/stock/kmsg.raw, qemu/stock/truth.tsv), get no wrong
# id.  That boot was followed live: kmsg dmesg --follow --json in the
# guest, from before the first module was loaded, must have written every
# record of its kmsg.raw once, in order, with the same text, every gap
# reported as missed exactly, each record identified as kmsg dmesg --json
# identifies it from kmsg.raw (so with the same verdicts), with the
# database installed for the release in the guest, a copy of DISTRO_DB.
# TAP output.  DISTRO_DB, TOOLS as for distro-db.sh.
set -u
here=$(dirname "$(realpath "$0")")
. "$here/stock_judge.sh"
tap_begin 'rm -rf "$tmp"'
[ -s "$db" ] || bail "no DISTRO_DB (make distro-db builds it)"
[ -n "${STOCK:-}" ] || bail "no STOCK (the output directory of qemu/stock-boot.sh --follow)"

# --- the guest went through every step --------------------------------
# went DIR: DIR (a stock-boot.sh output directory) went through every
# step; its three verdicts in $tmp/went, "0 what" or "1 what" a line.
# qemu/stock-boot.sh's exit status (make stock-check keeps it in boot.rc)
# is the guest's own rc, or why it has none (124 a timeout, 125 no
# report, 1 a section of guest.log cut); the guest's init logs its rc;
# and the steps of qemu/stock/init and qemu/stock/service.sh, in order:
# each module of the boot loaded, the disk, ext4 and the network put to
# work, kmsg followed /dev/kmsg, then ran as the service does.
went() {
	local d=$1 brc grc
	brc=$(cat "$d/boot.rc" 2>/dev/null)
	[ "$brc" = 0 ]
	echo "$? qemu/stock-boot.sh ended with status 0 (${brc:-no boot.rc}: the guest's rc, 124 a timeout, 125 no report)" > "$tmp/went"
	grc=$(tr -d '\r' < "$d/guest.log" | sed -n 's/^KMSG-GUEST-DONE rc=\([0-9]*\)$/\1/p' | tail -n 1)
	[ "$grc" = 0 ] && grep -q '^[0-9]*,[0-9]*,[0-9]*,[^;]*;stock-init: done rc=0$' "$d/kmsg.raw"
	echo "$? the guest reported rc=0 (${grc:-nothing}) and logged \"stock-init: done rc=0\"" >> "$tmp/went"
	{
		echo follow-start
		sed 's/^/insmod /' "$d/modules"
		printf '%s\n' disk mount write umount ifconfig carrier follow-stop \
			journald devkmsg "run 1 reads" "run 1 after the overrun" \
			"run 1 SIGTERM" "run 2 reads" "run 2 killed" "run 3 reads" \
			"run 3 to the end" \
			"run 3 SIGTERM"
	} | sed 's/$/ ok/' > "$tmp/steps.want"
	diff "$tmp/steps.want" "$d/steps" > "$tmp/steps.diff"
	[ -s "$d/modules" ] && [ ! -s "$tmp/steps.diff" ]
	echo "$? every step of the guest's init went well ($(wc -l < "$tmp/steps.want") steps, $(wc -l < "$d/modules") modules loaded)" >> "$tmp/went"
}
went "$STOCK"
diag "$tmp/steps.diff"
while read -r r what; do
	ok "$r" "$what"
done < "$tmp/went"
# each broken once, a copy of the boot's directory fails them: a status
# of 1, the init's rc=1, a mount that failed, a module not loaded
for b in status rc mount insmod; do
	rm -rf "$tmp/w" && mkdir "$tmp/w"
	cp "$STOCK"/{boot.rc,guest.log,kmsg.raw,modules,steps} "$tmp/w/" 2>/dev/null
	case $b in
	status) echo 1 > "$tmp/w/boot.rc" ;;
	rc) sed -i 's/stock-init: done rc=0$/stock-init: done rc=1/' "$tmp/w/kmsg.raw" ;;
	mount) sed -i 's/^mount ok$/mount failed/' "$tmp/w/steps" ;;
	insmod) sed -i '/^insmod .*ext4.ko ok$/d' "$tmp/w/steps" ;;
	esac
	went "$tmp/w"
	grep -q '^1 ' "$tmp/went" || echo "$b" >> "$tmp/unseen.went"
done
[ ! -e "$tmp/unseen.went" ] || diag "$tmp/unseen.went"
[ ! -e "$tmp/unseen.went" ]
ok $? "the checks fail on copies of the boot with a status of 1, the init's rc=1, a failed mount, a module not loaded"

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

# --- the service: journal and OTLP, an overrun, a restart, a kill -9 ----
# qemu/stock/service.sh: kmsg dmesg --follow as kmsg-journal.service runs
# it, into journald, and a second one into OTLP, in three runs
for f in journal.json otlp.1 otlp.2 otlp.3 service.log service.err; do
	[ -s "$STOCK/$f" ] || bail "no $STOCK/$f: the service did not run (qemu/stock/service.sh)"
done
diag "$STOCK/service.err"
[ "$(grep -c '^kmsg-journal: no kmsg:kmsg event in .*: kmsg dmesg --follow --journal' "$STOCK/service.err")" = 3 ] &&
	[ "$(grep -c '^kmsg: /var/lib/kmsg/dmesg-follow.state: resuming after seq ' "$STOCK/service.err")" = 2 ] &&
	[ "$(grep -c '^kmsg: /tmp/otlp.state: resuming after seq ' "$STOCK/service.err")" = 2 ] &&
	! grep -q 'warning\|error\|cannot' "$STOCK/service.err"
ok $? "the service's command line ran kmsg dmesg --follow --journal each time, runs 2 and 3 resumed from their state files (StateDirectory=, --state), no warning"
python3 "$here/follow_runs.py" "$STOCK" > "$tmp/r" || bail "follow_runs.py failed on $STOCK"
diag "$tmp/r"
# kill_ok RESULTS SINK: killed after two seconds of writing burst 2
# (their consumers throttled), the state file, at most half a second old
# while records come, advanced during the burst: the records written
# twice are fewer than run 2 wrote of it (over 700 ms at least, more than
# the state file's age, or it need not have advanced); in OTLP (kmsg's
# own clock, observedTimeUnixNano) they were all written within 750 ms
# (half a second, and the emulated machine's scheduling). With the state
# written every 1024 records, all of run 2's would be written twice.
kill_ok() {
	local span twice burst tspan
	span=$(val "$1" "$2.run2_burst_span_ms") twice=$(val "$1" "$2.twice")
	burst=$(val "$1" "$2.run2_burst") tspan=$(val "$1" "$2.twice_span_ms")
	[ "$span" -ge 700 ] && [ "$twice" -lt "$burst" ] &&
		{ [ "$2" = journal ] || [ "$tspan" -le 750 ]; }
}
for sink in journal otlp; do
	k() { val "$tmp/r" "$sink.$1"; }
	[ "$(k runs)" = 3 ] && [ "$(k bad)" = 0 ] && [ "$(k down)" = 3 ]
	ok $? "$sink: every seq from $(k first) to the end marker ($(k end)) written, or reported missed, once: $(k records) records, $(k missed) missed; the records written while none ran once ($(k down) of 3)"
	[ "$(k burst_missed)" -gt 0 ] && [ "$(k burst_missed)" = "$(k missed)" ]
	ok $? "$sink: the burst overran /dev/kmsg while it was stopped, and only what it overwrote was missed ($(k burst_missed) of $(k missed))"
	kill_ok "$tmp/r" $sink
	ok $? "$sink: after the kill -9 nothing was lost; run 2 wrote $(k run2_burst) records of burst 2 over $(k run2_burst_span_ms) ms, of which $(k twice) were written again$([ $sink = otlp ] && echo ", all written within $(k twice_span_ms) ms")"
done
[ "$(val "$tmp/r" both.text_bad)" = 0 ] && [ "$(val "$tmp/r" both.seqs)" -gt 400 ]
ok $? "the journal and OTLP have the same text, id and match for each of the $(val "$tmp/r" both.seqs) seqs both wrote"

# the checks see a break: copies of the OTLP runs with a record lost at
# the clean restart, run 1's last record again at the start of run 2, a
# record missed outside the burst, a record of run 2 lost before the kill
mkdir -p "$tmp/b"
cp "$STOCK/service.log" "$tmp/b/"
breaks_runs() {	# breaks_runs NAME: follow_runs.py of $tmp/b's OTLP finds a break
	python3 "$here/follow_runs.py" "$tmp/b" otlp |
		awk '$1 == "otlp.bad" && $2 > 0 { b = 1 } END { exit !b }' ||
		echo "$1" >> "$tmp/unseen.runs"
}
reset_b() { cp "$STOCK"/otlp.[123] "$tmp/b/"; }
reset_b
sed -i 1d "$tmp/b/otlp.2"
breaks_runs "lost at the restart"
reset_b
{ tail -n 1 "$STOCK/otlp.1"; cat "$STOCK/otlp.2"; } > "$tmp/b/otlp.2"
breaks_runs "twice at the restart"
reset_b
n1=$(grep -n '"kmsg.missed"' "$STOCK/otlp.1" | head -n 1 | cut -d: -f1)
awk -v n="${n1:-0}" 'NR == n { k = $0; next } { print } END { if (k) print k }' "$STOCK/otlp.1" > "$tmp/b/otlp.1"
breaks_runs "missed out of place"
reset_b
# run 3 from two seqs after run 2's last: one lost at the kill
seqs() { sed -n 's/.*"kmsg.seq","value":{"intValue":"\([0-9]*\)".*/\1/p' "$1"; }
l2=$(seqs "$STOCK/otlp.2" | tail -n 1)
paste -d '\t' <(seqs "$STOCK/otlp.3") <(grep '"kmsg.seq"' "$STOCK/otlp.3") |
	awk -F '\t' -v l="${l2:-0}" '$1 > l + 1 { print $2 }' > "$tmp/b/otlp.3"
breaks_runs "lost before the kill"
# run 3 again from before burst 2, as with the state file of before it
reset_b
{ grep '"stock-service: burst 2 ' "$STOCK/otlp.2"; cat "$STOCK/otlp.3"; } > "$tmp/b/otlp.3"
python3 "$here/follow_runs.py" "$tmp/b" otlp > "$tmp/rb"
! kill_ok "$tmp/rb" otlp || echo "burst 2 twice" >> "$tmp/unseen.runs"
[ ! -e "$tmp/unseen.runs" ] || diag "$tmp/unseen.runs"
[ ! -e "$tmp/unseen.runs" ] && [ -n "$n1" ]
ok $? "the checks fail on copies of the runs with a record lost at the restart, one twice, a missed report out of place, a record lost before the kill, all of burst 2 written twice"
tap_end
