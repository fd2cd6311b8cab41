#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The TAP helpers (tap.sh) end every test with a verdict: a test that
# stops before its plan -- set -u, set -e, an exit, SIGTERM -- or whose
# results fall short of its plan ends with "Bail out!", its exit status
# and how many results it printed, exits non-zero and still runs its
# cleanup (data/tap-abort.sh, two results then each way of ending);
# qemu/ktap-summary.sh counts such an output as a failure. And every host
# test script uses them, none with an exit trap of its own that would
# replace theirs. TAP output.
set -u
here=$(dirname "$(realpath "$0")")
top=$(realpath "$here/../..")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
modes=(unbound errexit exit term planned short bail)
tap_plan $((${#modes[@]} + 3))

abort=$here/data/tap-abort.sh
# run MODE: its output in $tmp/MODE.out, its exit status in $rc
run() {
	local pid i
	touch "$tmp/$1.marker"
	if [ "$1" = term ]; then
		"$abort" term "$tmp/$1.marker" > "$tmp/$1.out" 2>&1 &
		pid=$!
		for i in $(seq 100); do
			[ -e "$tmp/$1.marker.ready" ] && break
			sleep 0.1
		done
		kill -TERM $pid
		wait $pid
	else
		"$abort" "$1" "$tmp/$1.marker" > "$tmp/$1.out" 2>&1
	fi
	rc=$?
}

for m in "${modes[@]}"; do
	case $m in
	exit)	want=" exited with status 0 after 2 results, before its plan" ;;
	term)	want=" killed by SIGTERM (exit status 143) after 2 results, before its plan" ;;
	planned) want=" exited with status 1 after 2 of 3 results" ;;
	short)	want=": 2 results, 3 planned" ;;
	bail)	want=": bailing out" ;;
	*)	want=" exited with status 1 after 2 results, before its plan" ;;
	esac
	# the test's name, but for what it says itself
	if [ $m = bail ]; then
		want="Bail out! tap-abort.sh$want"
	else
		want="Bail out! $abort$want"
	fi
	run $m
	[ $rc != 0 ] && [ "$(tail -n 1 "$tmp/$m.out")" = "$want" ] &&
		[ "$(grep -c '^ok [12] ' "$tmp/$m.out")" = 2 ] &&
		[ ! -e "$tmp/$m.marker" ]
	r=$?
	[ $r = 0 ] || diag "$tmp/$m.out"
	ok $r "tap-abort.sh $m: ends with \"Bail out! ...${want##*tap-abort.sh}\", exit status $rc, cleanup run"
done

# the good end: the plan, no bail-out, exit status 0, cleanup run
run end
[ $rc = 0 ] && [ "$(grep -v '^#' "$tmp/end.out" | tail -n 1)" = 1..2 ] &&
	! grep -q 'Bail out!' "$tmp/end.out" && [ ! -e "$tmp/end.marker" ]
r=$?
[ $r = 0 ] || diag "$tmp/end.out"
ok $r "tap-abort.sh end: ends with its plan 1..2, exit status $rc, cleanup run"

# the summary of the make check fails an aborted test, passes the good one
"$top/qemu/ktap-summary.sh" "$tmp/unbound.out" > "$tmp/summary.bad" 2>&1
bad=$?
"$top/qemu/ktap-summary.sh" "$tmp/end.out" > "$tmp/summary.good" 2>&1
good=$?
[ $bad != 0 ] && [ $good = 0 ]
r=$?
[ $r = 0 ] || diag "$tmp/summary.bad" "$tmp/summary.good"
ok $r "qemu/ktap-summary.sh: the test stopped by set -u fails (exit status $bad: $(tail -n 1 "$tmp/summary.bad")), the good one passes ($good)"

# every host test script: tap_begin and tap_end, no trap of its own
bad=
for f in "$here"/*.sh "$top/tools/doctests/run.sh" "$top/docs-db/tests/run.sh" \
	"$top/tools/fuzz/run.sh"; do
	# the sourced helpers
	case $(basename "$f") in tap.sh | lib.sh | stock_judge.sh) continue ;; esac
	name=${f#"$top/"}
	grep -q '^tap_begin\b' "$f" && grep -q '^tap_end$' "$f" || bad="$bad $name"
	grep -qE '(^|[;&|({]|then|do|else)[[:space:]]*trap[[:space:]]' "$f" && bad="$bad $name:trap"
done
[ -z "$bad" ]
ok $? "every host test script begins with tap_begin, ends with tap_end, sets no trap of its own (wrong:${bad:- none})"
tap_end
