#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of ktap-summary.sh: each ktap/NAME.tap (with NAME.console as the
# kernel log, NAME.guest-rc as run.sh's status, NAME.rc as the exit
# status of the test that wrote NAME.tap and NAME.args as more options,
# when present) must give exactly NAME.expected, and exit 0 only when
# nothing failed. Then of
# bench-table.sh: each bench/NAME.log must give bench/NAME.expected, and
# exit 0 only when that is a table. TAP output. The consoles' reports
# are found by kmsg reports: TOOLS and DOCS_DB as the Makefile sets.
set -u
here=$(dirname "$(realpath "$0")")
summary=$here/../ktap-summary.sh
cases=("$here"/ktap/*.tap)
kmsg=${TOOLS:-$here/../../build/tools}/kmsg
db=${DOCS_DB:-$here/../../build/docs-db/kmsg.db}
if [ ! -x "$kmsg" ] || [ ! -s "$db" ]; then
	echo "TAP version 13"
	echo "Bail out! no $kmsg or $db (make tools docs-db)"
	exit 1
fi
bench=("$here"/bench/*.log)
echo "TAP version 13"
# host tests that end early, run as make check runs them
aborts=(killed hung unbound)
echo "1..$((${#cases[@]} + ${#bench[@]} + ${#aborts[@]}))"
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
	args=(--kmsg "$kmsg" --docs-db "$db")
	[ -f "$here/ktap/$name.console" ] && args+=(--console "$here/ktap/$name.console")
	[ -f "$here/ktap/$name.guest-rc" ] && args+=(--guest-rc "$(cat "$here/ktap/$name.guest-rc")")
	# NAME.args: more options, one per line, @DIR@ for ktap/ (a second
	# guest boot; a directory ktap/NAME/ of a case's files, such as a
	# guest's output directory or make check's, which the glob of cases
	# does not reach)
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

# A host test killed, timed out or aborted midway, after two results and
# before its plan: qemu/run-tests.sh keeps its status, and the summary
# of what it wrote is red.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in "${aborts[@]}"; do
	{
		echo '#!/bin/bash'
		echo 'set -u'
		echo 'printf "TAP version 13\nok 1 a\nok 2 b\n"'
		case $a in
		killed) echo 'kill -KILL $$' ;;
		hung) echo 'sleep 60' ;;
		unbound) echo 'echo "$undefined"' ;;
		esac
		echo 'echo 1..3'
	} > "$tmp/$a.sh"
	chmod +x "$tmp/$a.sh"
	(cd "$tmp" && TEST_TIMEOUT=2 "$here/../run-tests.sh" "$tmp" "./$a.sh" >/dev/null 2>&1)
	out=$("$summary" "$tmp/host-.-$a.tap")
	rc=$?
	n=$((n + 1))
	if [ $rc = 1 ] && grep -q "^FAIL: host-.-$a.tap: no plan" <<<"$out" &&
	   grep -q "^FAIL: host-.-$a.tap: exited with status [1-9]" <<<"$out" &&
	   grep -q '^2 passed, 2 failed' <<<"$out"; then
		echo "ok $n a host test $a midway turns the summary red"
	else
		echo "$out" | sed 's/^/# /'
		echo "# exit status $rc, want 1"
		echo "not ok $n a host test $a midway turns the summary red"
	fi
done
