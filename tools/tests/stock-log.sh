#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A stock kernel's log identified with the database built from its
# package: Debian's linux-image-6.12.118+deb12-amd64 booted in the guest
# (qemu/stock-boot.sh), its log committed as qemu/stock/kmsg.raw, and
# qemu/stock/truth.tsv, the id of every record read from the source (or
# why it has none), which must be what qemu/stock/truth.py makes of
# qemu/stock/sites.tsv.  kmsg dmesg --json with the database of make
# distro-db must give every record of the truth once and no other, give
# no record a wrong id, and the truth's id to the share of the records
# with an id of their own that stock_judge.sh sets (tag-only formats,
# "AppArmor: %s", counted in and reported apart), and the database must
# put each site of the truth at its call (its file and line).  Copies of
# the JSON and of sites.tsv, each broken once, must turn the checks red.
# A fresh boot of the same kernel in the guest is judged by
# tools/tests/stock-guest.sh.  TAP output.  DISTRO_DB, TOOLS as for
# distro-db.sh.
set -u
here=$(dirname "$(realpath "$0")")
. "$here/stock_judge.sh"
tap_begin 'rm -rf "$tmp"'
[ -s "$db" ] || bail "no DISTRO_DB (make distro-db builds it)"

unknown=$(awk -F '\t' '!/^#/ && $3 == "unknown"' "$stock/truth.tsv" | wc -l)
[ "$unknown" = 0 ]
ok $? "the truth sites every record of the committed log ($unknown unknown)"

# the truth, made again from sites.tsv: what is committed
truth() {	# truth SITES OUT: truth.py's truth of the committed log
	KMSG_DOC=$tools/kmsg-doc python3 "$stock/truth.py" truth \
		"$stock/kmsg.raw" "$1" > "$2" 2> "$2.err"
}
truth "$stock/sites.tsv" "$tmp/truth.tsv"
rc=$?
diff -u "$stock/truth.tsv" "$tmp/truth.tsv" > "$tmp/truth.diff"
d=$?
head -n 40 "$tmp/truth.diff" | cat "$tmp/truth.tsv.err" - > "$tmp/d"
[ ! -s "$tmp/d" ] || diag "$tmp/d"
[ "$rc" = 0 ] && [ "$d" = 0 ]
ok $? "qemu/stock/truth.tsv is what truth.py makes of sites.tsv (status $rc, $(grep -c '^[-+][^-+]' "$tmp/truth.diff") lines differ)"
# a copy of sites.tsv with one format changed, still fitting its record
sed 's/\tCommand line: %s\\n\t/\tCommand %s\\n\t/' "$stock/sites.tsv" > "$tmp/sites.tsv"
truth "$tmp/sites.tsv" "$tmp/edited.tsv"
! cmp -s "$stock/sites.tsv" "$tmp/sites.tsv" && ! cmp -s "$tmp/truth.tsv" "$tmp/edited.tsv"
ok $? "and differs from what it makes of a copy of sites.tsv with a format changed (setup.c:754's \"Command line: %s\\n\")"

"$tools/kmsg" dmesg --json --db "$db" "$stock/kmsg.raw" > "$tmp/log.json" 2> "$tmp/err"
rc=$?
if [ "$rc" != 0 ] || [ -s "$tmp/err" ]; then diag "$tmp/err"; fi
[ "$rc" = 0 ]
ok $? "kmsg dmesg --json reads the committed log (status $rc, $(wc -l < "$tmp/err") lines on stderr)"
judge "committed log" "$tmp/log.json"

# the judge sees a break: copies of the JSON, each broken once, and the
# JSON judged as another boot's (--same-text), whole and broken
red() {	# red WHAT JSON [--same-text LOG]: judge's line WHAT is "not ok"
	local what=$1 json=$2
	shift 2
	(judge copy "$json" "$@") > "$tmp/red" 2>&1
	grep -q "^not ok [0-9]* copy: $what" "$tmp/red"
}
every='every record'
same=(--same-text "$stock/kmsg.raw")
j=$tmp/log.json
m=$(( $(wc -l < "$j") / 2 ))
x=$(grep -n -m 1 '"match":"exact"' "$j" | cut -d : -f 1)
: > "$tmp/unseen"
if [ "$m" -gt 80 ] && [ -n "$x" ]; then
	# the issue's 20 records, each with the truth's id, once green
	grep '"match":"exact"' "$j" | head -n 20 > "$tmp/cut"
	sed -n "${m}s/\"seq\":[0-9]*/\"seq\":9999/p" "$j" | cat "$j" - > "$tmp/extra"
	sed "${m}p" "$j" > "$tmp/twice"
	sed "${m}d" "$j" > "$tmp/gone"
	sed "${x}s/\"id\":\"/&x/; ${x}s/\"auto_id\":\"/&x/" "$j" > "$tmp/other"
	# the tag-only records identified, made weak: with them out of the
	# denominator, as they once were, the share would not move
	python3 - "$here" "$stock/truth.tsv" "$j" > "$tmp/tagweak" <<'PY'
import json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from stock_truth import read_truth
truth = read_truth(sys.argv[2])
for line in open(sys.argv[3]):
    j = json.loads(line)
    if truth[j["seq"]].tagonly and j.get("match") == "exact":
        j["match"] = "weak"
    print(json.dumps(j, separators=(",", ":")))
PY
	head -n $((m + m / 2)) "$j" > "$tmp/head"
	# 61 records of another text ("line", "seq", "timestamp" kept)
	cut -d , -f 1-3 "$j" | sed -n '100,160s/$/,"text":"changed"}/p' > "$tmp/texts"
	awk 'NR < 100 || NR > 160' "$j" >> "$tmp/texts"
	for f in other tagweak; do
		! cmp -s "$j" "$tmp/$f" || echo "$f: the same as the JSON" >> "$tmp/unseen"
	done
	for f in cut extra twice gone; do
		red "$every" "$tmp/$f" || echo "$f: $every" >> "$tmp/unseen"
	done
	red "no record gets a wrong id" "$tmp/other" || echo "other: wrong id" >> "$tmp/unseen"
	red "at least" "$tmp/tagweak" || echo "tagweak: at least" >> "$tmp/unseen"
	(judge copy "$j" "${same[@]}") > "$tmp/red" 2>&1
	grep '^not ok' "$tmp/red" | sed 's/^/whole, as another boot: /' >> "$tmp/unseen"
	for f in twice gone head texts; do
		red "$every" "$tmp/$f" "${same[@]}" ||
			echo "$f, as another boot: $every" >> "$tmp/unseen"
	done
else
	echo "no JSON to break ($m lines)" > "$tmp/unseen"
fi
[ ! -s "$tmp/unseen" ] || diag "$tmp/unseen"
[ ! -s "$tmp/unseen" ]
ok $? "the judge fails on copies of the JSON: 20 records with the truth's id, one record added, one twice, one taken out, one id changed, the tag-only records identified made weak; judging it as another boot's, passes on it whole and fails with one record twice, one taken out, the last quarter taken out, 61 texts changed"

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

tap_end
