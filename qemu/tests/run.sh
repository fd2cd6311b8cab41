#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of ktap-summary.sh: each ktap/NAME.tap (with NAME.console as the
# kernel log, NAME.rc as run.sh's status and NAME.args as more options,
# when present) must give
# exactly NAME.expected, and exit 0 only when nothing failed. Then of
# bench-table.sh: each bench/NAME.log must give bench/NAME.expected, and
# exit 0 only when that is a table. TAP output.
set -u
here=$(dirname "$(realpath "$0")")
summary=$here/../ktap-summary.sh
cases=("$here"/ktap/*.tap)
bench=("$here"/bench/*.log)
echo "TAP version 13"
echo "1..$((${#cases[@]} + ${#bench[@]}))"
n=0

# verdict TEST OUT RC WANT_RC EXPECTED: one TAP line, with the difference
verdict() {
	n=$((n + 1))
	if [ "$2" = "$(cat "$5")" ] && [ "$3" = "$4" ]; then
		echo "ok $n $1"
	else
		diff <(echo "$2") "$5" | sed 's/^/# /'
		echo "# exit status $3, want $4"
		echo "not ok $n $1"
	fi
}

for t in "${cases[@]}"; do
	name=$(basename "$t" .tap)
	args=()
	[ -f "$here/ktap/$name.console" ] && args+=(--console "$here/ktap/$name.console")
	[ -f "$here/ktap/$name.rc" ] && args+=(--guest-rc "$(cat "$here/ktap/$name.rc")")
	# NAME.args: more options, one per line, @DIR@ for ktap/ (a second
	# guest boot)
	[ -f "$here/ktap/$name.args" ] && mapfile -t -O ${#args[@]} args < \
		<(sed "s|@DIR@|$here/ktap|g" "$here/ktap/$name.args")
	out=$("$summary" "${args[@]}" "$t")
	rc=$?
	want_rc=1
	tail -n 1 "$here/ktap/$name.expected" | grep -q ' 0 failed' && want_rc=0
	verdict "ktap-summary $name" "$out" $rc $want_rc "$here/ktap/$name.expected"
done
for t in "${bench[@]}"; do
	name=$(basename "$t" .log)
	out=$(cd "$here/bench" && "$here/../bench-table.sh" instr "$name.log" 2>&1)
	rc=$?
	want_rc=1
	grep -q '^  printk ' "$here/bench/$name.expected" && want_rc=0
	verdict "bench-table $name" "$out" $rc $want_rc "$here/bench/$name.expected"
done
