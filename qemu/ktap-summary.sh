#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ktap-summary.sh [--console [NAME:]LOG]... [--guest-rc [NAME:]N]... FILE...
#
# Read (K)TAP output -- host test suites and the guest's kselftest run,
# where nested results carry one "# " per level -- and print each failed
# or skipped test, then one closing line:
#
#   N passed, N failed, N skipped
#
# Only leaf results are counted: a kselftest binary's "ok 1 selftests: x"
# stands for the results nested under it. A binary that reports fewer
# results than its plan, fails without any failed result under it, or a
# "Bail out!" counts as one failure. With --console, the kernel log is
# searched for oopses, BUGs, WARNINGs, panics and sanitizer reports, each
# counted as a failure. A test that provokes such a report on purpose
# brackets it in the kernel log with
#
#   ktap-summary: expect begin TEXT
#   ktap-summary: expect end
#
# (written to /dev/kmsg); in between, reports that contain TEXT are not
# failures. A begin without an end is one. --guest-rc is run.sh's exit
# status: a timeout (124) or a guest that never reported (125) is a
# failure. Both may be given once per guest boot; NAME labels the boot's
# reports.
#
# Exit status: 0 when nothing failed and something passed, 1 otherwise.
set -uo pipefail

consoles=() guest_rcs=()
while [ $# -gt 0 ]; do
	case $1 in
	--console) consoles+=("$2"); shift 2 ;;
	--guest-rc) guest_rcs+=("$2"); shift 2 ;;
	*) break ;;
	esac
done

# The console log without the expected reports (see above)
expected_filter() {
	awk '
	{ sub(/\r$/, "") }
	/ktap-summary: expect begin / {
		if (text != "") print "BUG: expected report did not end: " text
		text = $0; sub(/.*ktap-summary: expect begin /, "", text)
		next
	}
	/ktap-summary: expect end/ { text = ""; next }
	text != "" && index($0, text) { next }
	{ print }
	END { if (text != "") print "BUG: expected report did not end: " text }
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
for console in "${consoles[@]}"; do
	name=kernel
	case $console in *:*) name="kernel ${console%%:*}"; console=${console#*:} ;; esac
	if [ -f "$console" ]; then
		while IFS= read -r line; do
			extra+=("$name: ${line#*] }")
		done < <(expected_filter "$console" |
			grep -E 'Oops|BUG:|WARNING:|Kernel panic|general protection fault|UBSAN:|KASAN:|KFENCE:|kernel BUG|Call Trace:|watchdog: BUG|INFO: task .* blocked|possible .*locking|DEBUG_LOCKS_WARN_ON' |
			grep -v 'Call Trace:' | head -n 20)
	else
		extra+=("$name: no console log $console")
	fi
done

counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
for f in "$@"; do
	[ -f "$f" ] || { extra+=("$f: missing"); continue; }
	awk -v file="$(basename "$f")" -v counts="$counts" '
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
	function close_children(d, name, ok) {
		# results at depth d+1 belong to this one
		if (plan[d + 1] != "" && cnt[d + 1] < plan[d + 1])
			fail(name ": only " cnt[d + 1] " of " plan[d + 1] " results reported")
		else if (!ok && bad[d + 1] == 0)
			fail(name ": failed without a failing test")
		cnt[d + 1] = 0; bad[d + 1] = 0; plan[d + 1] = ""
	}
	{
		d = depth($0)
		if (rest ~ /^1\.\.[0-9]+/) {
			split(substr(rest, 4), a, /[^0-9]/)
			# a plan may also come last, after the results
			if (cnt[d] == 0) bad[d] = 0
			plan[d] = a[1] + 0
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
		sub(/^(not )?ok *[0-9]* *(- )?/, "", name)
		skip = (name ~ /# *[Ss][Kk][Ii][Pp]/)
		if (cnt[d + 1] > 0 || plan[d + 1] != "") {
			close_children(d, name, ok)
		} else if (skip) {
			nskip++; print "SKIP: " file ": " name
		} else if (ok) {
			npass++
		} else {
			fail(name)
		}
		cnt[d]++
		if (!ok && !skip) bad[d]++
		ndiag = 0
	}
	END {
		if (plan[0] != "" && cnt[0] < plan[0])
			fail("only " cnt[0] " of " plan[0] " results reported")
		if (plan[0] == "" && cnt[0] == 0)
			fail("no test results")
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
echo "$pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$pass" -gt 0 ]
