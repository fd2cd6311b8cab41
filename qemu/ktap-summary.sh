#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap-summary.sh [--console [NAME:]LOG]... [--guest-rc [NAME:]N]...
#                 [--expect LIST:FILE]... [--expect-files LIST:DIR]...
#                 [--controlled FILE]... [--require-window NAME]...
#                 [--no-windows NAME]... [--allow FILE]
#                 [--kmsg KMSG --docs-db DB] FILE...
#
# Read (K)TAP output -- host test suites and the guest's kselftest run,
# where nested results carry one "# " per level -- and print each failed
# or skipped test, then one closing line:
#
#   N passed, N failed, N skipped
#
# Only leaf results are counted: a kselftest binary's "ok 1 selftests: x"
# stands for the results nested under it. Each "TAP version" line starts
# a document of its own (the guest's log holds one per kselftest
# collection), checked against its own plan: a document without a plan,
# with fewer or more results than its plan, or with a "Bail out!" fails,
# and so does a kselftest binary that reports fewer results than its
# plan or fails without any failed result under it. A plan "1..0 # SKIP"
# counts as one skip, and so does a kselftest binary that skipped as a
# whole; a plan "1..0" without SKIP fails. A plan must come before the
# results or after all of them, once per document; results are numbered
# 1, 2, ... in order.
#
# --controlled FILE: FILE comes from an environment the project controls
# (its own guest): a skip there is a failure. Elsewhere a skip is
# counted, and named above the closing line.
#
# FILE.rc, when it exists beside FILE.tap, is the exit status of the
# program that wrote FILE (qemu/run-tests.sh): a non-zero status without
# a failed test is a failure (an abort, a kill, a timeout).
#
# --expect LIST:FILE: FILE must report every kselftest of LIST
# (qemu/kselftests: "COLLECTION:TEST" a line), each as a result of its
# own; one that did not run is a failure.
#
# --expect-files LIST:DIR: DIR must hold NAME.tap for every NAME of LIST
# (qemu/host-tests: the host tests' TAP files, "host-tools-tests-run" a
# line); a listed file that is missing did not run, and a DIR/host-*.tap
# that LIST does not name fails too, so that LIST stays complete.
#
# With --console, the kernel log is searched for reports, each counted
# as a failure: the kernel reports "kmsg reports" (KMSG, with the report
# classes of the docs database DB) finds by their header messages --
# oopses, BUGs, WARNINGs, panics, KASAN, UBSAN, KFENCE, lockdep, hung
# tasks, soft and hard lockups, RCU stalls, whatever the release's
# wording; and the messages that are no report but fail a run too:
# unknown NMIs, the OOM killer, page allocation failures, "printk
# messages dropped" (the log is incomplete); and a stack dump without
# any of these. A console that kmsg reports cannot read fails. A stack dump ("Call Trace:") belongs to a report
# at most 200 lines above it; without one, it is a report of its own. A
# test that provokes such a report on purpose brackets it in the kernel
# log with
#
#   ktap-summary: expect begin TEXT
#   ktap-summary: expect end
#
# (written to /dev/kmsg); in between, console lines that contain TEXT are
# not failures, and a stack dump after such a report is part of it, as
# after any report. A report line without TEXT still fails, window or
# not. "printk messages dropped" is no report with a stack dump: a stack
# dump after it alone fails, in a window that expects it too
# (kmsg_follow.sh's, whose test proves that every record its overrun
# lost was its own, but for "ktap-summary: unaccounted N" records, each
# of which must be an allowed line the console showed in the same quiet
# window: else it fails). A test during which the console must
# stay silent (it lowered the console level to hide its own messages)
# brackets that time with
#
#   ktap-summary: quiet begin NAME
#   ktap-summary: quiet end
#
# and every console line in between is a failure: whatever reached the
# console then was printed at a level meant for reports. A begin without
# an end is a failure, and so is a console without a window that
# --require-window NAME names (but the console NAME of --no-windows
# NAME, a guest that runs none of those tests). --allow FILE lists, one extended regular
# expression a line, console lines that QEMU's emulation itself causes
# (qemu/console.allow): in a quiet window they are noted, not failed.
# A console log must hold the whole boot, from "Linux version" to the
# guest's "KMSG-GUEST-DONE". --guest-rc is run.sh's exit status: a timeout
# (124) or a guest that never reported (125) is a failure. Both may be
# given once per guest boot; NAME labels the boot's reports.
#
# When qemu/run.sh booted a guest twice because the first boot died of
# QEMU's stale int3, it kept the first boot's console beside LOG, as
# console-stale-int3.log in the same directory. The summary notes the
# retry, and searches that console with the same rules up to its
# "Oops: int3" line (the oops, its stack dump and the panic are the
# emulator's): a report before it fails, as the first boot's. That
# console ends with the int3, not with KMSG-GUEST-DONE, and need not hold
# the required windows.
#
# Exit status: 0 when nothing failed and something passed, 1 otherwise.
set -uo pipefail

consoles=() guest_rcs=() expects=() expect_files=() controlled=() windows=()
nowin=() allow=/dev/null kmsg= docs_db=
while [ $# -gt 0 ]; do
	case $1 in
	--console) consoles+=("$2"); shift 2 ;;
	--guest-rc) guest_rcs+=("$2"); shift 2 ;;
	--expect) expects+=("$2"); shift 2 ;;
	--expect-files) expect_files+=("$2"); shift 2 ;;
	--controlled) controlled+=("$2"); shift 2 ;;
	--require-window) windows+=("$2"); shift 2 ;;
	--no-windows) nowin+=("$2"); shift 2 ;;
	--allow) allow=$2; shift 2 ;;
	--kmsg) kmsg=$2; shift 2 ;;
	--docs-db) docs_db=$2; shift 2 ;;
	*) break ;;
	esac
done

# the first boot's console that qemu/run.sh kept beside LOG when it
# booted again after QEMU's stale int3 (the one name both scripts use)
STALE_INT3='console-stale-int3.log'

# headers LOG: the line numbers of the headers of the kernel reports of
# LOG that kmsg reports finds, one a line; a "BUG: " line if it cannot
headers() {
	local out rc
	if [ -z "$kmsg" ] || [ -z "$docs_db" ]; then
		echo "BUG: no --kmsg and --docs-db to find the reports of $1"
		return
	fi
	out=$("$kmsg" reports --json --docs-db "$docs_db" "$1" 2>&1)
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "BUG: kmsg reports failed (status $rc): ${out//$'\n'/ }"
		return
	fi
	sed -n 's/.*"header_line":\([0-9]*\),.*/\1/p' <<<"$out"
}

# reports LOG ALLOW WINDOWS [FIRST]: the reports of a kernel log, one line
# each (see above); "NOTE: " lines are allowed emulator lines. With FIRST
# set, LOG is the console of a boot that died of QEMU's stale int3: read
# up to its "Oops: int3", and not required to end or to hold WINDOWS
reports() {
	local hdr
	hdr=$(headers "$1")
	grep '^BUG: ' <<<"$hdr"
	awk -v allowfile="$2" -v windows="$3" -v first="${4:-}" -v hdrs="$hdr" '
	BEGIN {
		# the headers kmsg reports found; the messages that are no
		# report of the kernel but fail a run
		nh = split(hdrs, h, "\n")
		for (i = 1; i <= nh; i++)
			if (h[i] ~ /^[0-9]+$/)
				header[h[i] + 0] = 1
		failing = "NMI received for unknown reason|" \
			  "printk messages dropped|" \
			  "invoked oom-killer|page allocation failure"
		# a report that has no stack dump of its own
		nostack = "printk messages dropped"
		nallow = 0
		while ((getline a < allowfile) > 0)
			if (a !~ /^[ \t]*(#|$)/)
				allowed[++nallow] = a
		nwin = split(windows, want, " ")
	}
	{
		sub(/\r$/, ""); sub(/^\[ *[0-9]+\.[0-9]+\] /, "")
		report = (NR in header) || $0 ~ failing
	}
	# the emulator'"'"'s int3: it and all after it are not the kernel'"'"'s
	first && /Oops: int3/ { int3 = 1; exit }
	/^Linux version / { booted = 1 }
	/KMSG-GUEST-DONE/ { done = 1 }
	/ktap-summary: expect begin / {
		if (text != "") print "BUG: expected report did not end: " text
		text = $0; sub(/.*ktap-summary: expect begin /, "", text)
		next
	}
	/ktap-summary: expect end/ { text = ""; last = 0; next }
	/ktap-summary: quiet begin / {
		if (quiet != "") print "BUG: quiet window did not end: " quiet
		quiet = $0; sub(/.*ktap-summary: quiet begin /, "", quiet)
		seen[quiet] = 1
		next
	}
	/ktap-summary: quiet end/ { quiet = ""; next }
	# a test that lost N records not its own in an overrun of its window
	# (kmsg_follow.sh): each must be one the console showed there as an
	# allowed line (the emulator'"'"'s), else it may have been a report
	/ktap-summary: unaccounted [0-9]+/ {
		lost = $0; sub(/.*ktap-summary: unaccounted /, "", lost)
		lost += 0
		if (quiet == "" || lost > noted[quiet] + 0)
			print "BUG: " lost " records lost in quiet window " quiet \
			      " that may be reports: the console showed " \
			      noted[quiet] + 0 " allowed lines there"
		next
	}
	# what the window expects; a stack dump may follow it if it is a
	# report (not a line of dropped records)
	text != "" && index($0, text) {
		if (report && $0 !~ nostack)
			last = NR
		next
	}
	report {
		print
		if ($0 !~ nostack)
			last = NR
		next
	}
	/Call Trace:/ {
		# a stack dump belongs to the report above it, expected or not
		if (last == 0 || NR - last > 200)
			print "BUG: stack dump without a report: " $0
		next
	}
	# the guest init'"'"'s own closing line
	/KMSG-GUEST-DONE/ { next }
	quiet != "" && $0 != "" {
		for (i = 1; i <= nallow; i++)
			if ($0 ~ allowed[i]) {
				print "NOTE: allowed in quiet window " quiet ": " $0
				noted[quiet]++
				next
			}
		print "BUG: on the console in quiet window " quiet ": " $0
	}
	END {
		if (!booted) print "BUG: the console log does not start with the boot"
		if (first) {
			if (!int3) print "BUG: the console log has no \"Oops: int3\""
			exit
		}
		if (text != "") print "BUG: expected report did not end: " text
		if (quiet != "") print "BUG: quiet window did not end: " quiet
		for (i = 1; i <= nwin; i++)
			if (!(want[i] in seen))
				print "BUG: no quiet window " want[i] " on the console"
		if (!done) print "BUG: the console log ends before the guest reported"
	}
	' "$1"
}

extra=()
for guest_rc in "${guest_rcs[@]}"; do
	name=guest
	case $guest_rc in *:*) name="guest ${guest_rc%%:*}"; guest_rc=${guest_rc#*:} ;; esac
	case $guest_rc in
	0) ;;
	124) extra+=("$name: timed out") ;;
	125) extra+=("$name: ended without reporting a result (crash or panic?)") ;;
	*) extra+=("$name: test job exited with status $guest_rc") ;;
	esac
done
# console_reports NAME LOG [FIRST]: the reports of LOG as failures of NAME
# (at most 50 lines), its allowed lines as notes
console_reports() {
	local shown=0 more=0 line want="${windows[*]}" n
	for n in "${nowin[@]}"; do
		[ "kernel $n" = "$1" ] && want=
	done
	while IFS= read -r line; do
		case $line in
		NOTE:*) echo "NOTE: $1: ${line#NOTE: }"; continue ;;
		esac
		if [ $shown -lt 50 ]; then
			extra+=("$1: $line")
			shown=$((shown + 1))
		else
			more=$((more + 1))
		fi
	done < <(reports "$2" "$allow" "$want" "${3:-}")
	[ $more = 0 ] || extra+=("$1: and $more more report lines")
}

for console in "${consoles[@]}"; do
	name=kernel
	case $console in *:*) name="kernel ${console%%:*}"; console=${console#*:} ;; esac
	if [ -f "$console" ]; then
		console_reports "$name" "$console"
	else
		extra+=("$name: no console log $console")
	fi
	# the first boot of a guest booted twice (qemu/run.sh)
	stale=$(dirname "$console")/$STALE_INT3
	if [ -f "$stale" ]; then
		echo "NOTE: $name: booted twice: the first boot died of QEMU's stale int3 ($STALE_INT3)"
		console_reports "$name (first boot)" "$stale" 1
	fi
done
for expect in "${expects[@]}"; do
	list=${expect%%:*} f=${expect#*:}
	[ -f "$f" ] || continue		# reported below as missing
	if [ ! -s "$list" ]; then
		extra+=("$list: no list of kselftests")
		continue
	fi
	ran=$(tr -d '\r' < "$f" |
		sed -n 's/^\(not \)\{0,1\}ok [0-9]* selftests: \([^:]*\): \([^ ]*\).*/\2:\3/p')
	while read -r t; do
		grep -qxF -- "$t" <<<"$ran" ||
			extra+=("$(basename "$f"): kselftest $t did not run")
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$list")
done

for ef in "${expect_files[@]}"; do
	list=${ef%%:*} dir=${ef#*:}
	if [ ! -s "$list" ]; then
		extra+=("$list: no list of host tests")
		continue
	fi
	want=$(grep -v '^[[:space:]]*\(#\|$\)' "$list")
	while read -r t; do
		[ -z "$t" ] || [ -f "$dir/$t.tap" ] ||
			extra+=("$t.tap: did not run (listed in $(basename "$list"))")
	done <<<"$want"
	for f in "$dir"/host-*.tap; do
		[ -f "$f" ] || continue
		t=$(basename "$f" .tap)
		grep -qxF -- "$t" <<<"$want" ||
			extra+=("$t.tap: not in $(basename "$list"), the list of the host tests")
	done
done

counts=$(mktemp)
skips=$(mktemp)
trap 'rm -f "$counts" "$skips"' EXIT
for f in "$@"; do
	[ -f "$f" ] || { extra+=("$f: missing"); continue; }
	rc=0
	[ -f "${f%.tap}.rc" ] && rc=$(cat "${f%.tap}.rc")
	ctl=0
	for c in "${controlled[@]}"; do [ "$c" = "$f" ] && ctl=1; done
	awk -v file="$(basename "$f")" -v counts="$counts" -v skips="$skips" \
	    -v rc="$rc" -v ctl="$ctl" '
	function depth(s,   d) {
		d = 0
		while (substr(s, 1, 2) == "# ") { s = substr(s, 3); d++ }
		rest = s
		return d
	}
	function fail(msg,   i) {
		nfail++; print "FAIL: " file ": " msg
		for (i = 1; i <= ndiag; i++) print "      " diag[i]
		ndiag = 0
	}
	function skipped(name) {
		if (ctl) {
			fail("skipped in the guest the project configures: " name)
			return
		}
		nskip++; print "SKIP: " file ": " name
		print file ": " name >> skips
	}
	function reset(d) {
		cnt[d] = 0; bad[d] = 0; plan[d] = ""; late[d] = 0; skipplan[d] = ""
	}
	function close_children(d, name, ok, skip,   c) {
		# results at depth d+1 belong to this one
		c = d + 1
		if (plan[c] == 0 && plan[c] != "" && skipplan[c] == "")
			fail(name ": a plan of no tests, without a SKIP")
		else if (plan[c] != "" && cnt[c] < plan[c])
			fail(name ": only " cnt[c] " of " plan[c] " results reported")
		else if (plan[c] != "" && cnt[c] > plan[c])
			fail(name ": " cnt[c] " results, more than the plan (" plan[c] ")")
		else if (!ok && bad[c] == 0)
			fail(name ": failed without a failing test")
		else if (skip && bad[c] == 0)
			skipped(name)
		reset(c)
	}
	# the end of a top-level document: its results against its plan
	function close_doc(   what) {
		what = ndoc > 1 ? "document " ndoc ": " : ""
		if (skipplan[0] != "") {
			skipped(what "skipped whole: " skipplan[0])
		} else if (plan[0] == 0 && plan[0] != "") {
			fail(what "a plan of no tests, without a SKIP")
		} else if (plan[0] == "" && cnt[0] == 0) {
			fail(what "no test results")
		} else if (plan[0] == "") {
			fail(what "no plan (" cnt[0] " results): the test ended early")
		} else if (cnt[0] < plan[0]) {
			fail(what "only " cnt[0] " of " plan[0] " results reported")
		} else if (cnt[0] > plan[0]) {
			fail(what cnt[0] " results, more than the plan (" plan[0] ")")
		}
		reset(0)
	}
	BEGIN { ndoc = 1 }
	{
		sub(/\r$/, "")
		d = depth($0)
		if (d == 0 && rest ~ /^TAP version/) {
			if (NR > 1 && (cnt[0] > 0 || plan[0] != "" || started)) {
				close_doc()
				ndoc++
			}
			started = 1
			next
		}
		if (rest ~ /^1\.\.[0-9]+/) {
			split(substr(rest, 4), a, /[^0-9]/)
			if (plan[d] != "")
				fail("a second plan (" rest ") after 1.." plan[d])
			# a plan may also come last, after the results
			late[d] = cnt[d] > 0
			plan[d] = a[1] + 0
			if (plan[d] == 0 && rest ~ /# *[Ss][Kk][Ii][Pp]/) {
				skipplan[d] = rest
				sub(/^1\.\.0 *# *[Ss][Kk][Ii][Pp] */, "", skipplan[d])
			}
			next
		}
		if (rest ~ /^Bail out!/) { fail(rest); next }
		if (rest !~ /^(not )?ok( |$)/) {
			# keep the harness diagnostics of the running test
			if (d > 0 && rest !~ /^ *(RUN|OK|FAIL|SKIP) / &&
			    rest !~ /^(TAP version|selftests:|timeout set|overriding timeout|Starting|Totals|PASSED|FAILED|$)/ &&
			    ndiag < 5)
				diag[++ndiag] = rest
			next
		}
		ok = rest !~ /^not /
		name = rest
		sub(/^(not )?ok */, "", name)
		num = match(name, /^[0-9]+/) ? substr(name, 1, RLENGTH) : ""
		sub(/^[0-9]* *(- )?/, "", name)
		if (late[d])
			fail(name ": a result after the plan that ended the results")
		if (num != "" && num + 0 != cnt[d] + 1)
			fail(name ": numbered " num ", expected " cnt[d] + 1)
		skip = (name ~ /# *[Ss][Kk][Ii][Pp]/)
		if (cnt[d + 1] > 0 || plan[d + 1] != "") {
			close_children(d, name, ok, skip)
		} else if (skip) {
			skipped(name)
		} else if (ok) {
			npass++
		} else {
			fail(name)
			nbad++
		}
		cnt[d]++
		if (!ok && !skip) bad[d]++
		ndiag = 0
	}
	END {
		close_doc()
		if (rc != 0 && nbad == 0)
			fail("exited with status " rc " without a failed result")
		printf "%d %d %d\n", npass, nfail, nskip >> counts
	}' "$f" || extra+=("$f: cannot be parsed")
done

pass=0 failed=0 skipped=0
while read -r p fl s; do
	pass=$((pass + p)) failed=$((failed + fl)) skipped=$((skipped + s))
done < "$counts"
for e in "${extra[@]}"; do
	echo "FAIL: $e"
	failed=$((failed + 1))
done
[ -s "$skips" ] && echo "skipped: $(paste -s -d ';' "$skips" | sed 's/;/; /g')"
echo "$pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$pass" -gt 0 ]
