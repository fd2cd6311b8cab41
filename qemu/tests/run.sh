#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of ktap-summary.sh: each ktap/NAME.tap (with NAME.console as the
# kernel log and NAME.rc as run.sh's status, when present) must give
# exactly NAME.expected, and exit 0 only when nothing failed. TAP output.
set -u
here=$(dirname "$(realpath "$0")")
summary=$here/../ktap-summary.sh
cases=("$here"/ktap/*.tap)
echo "TAP version 13"
echo "1..${#cases[@]}"
n=0
for t in "${cases[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .tap)
	args=()
	[ -f "$here/ktap/$name.console" ] && args+=(--console "$here/ktap/$name.console")
	[ -f "$here/ktap/$name.rc" ] && args+=(--guest-rc "$(cat "$here/ktap/$name.rc")")
	out=$("$summary" "${args[@]}" "$t")
	rc=$?
	want_rc=1
	tail -n 1 "$here/ktap/$name.expected" | grep -q ' 0 failed' && want_rc=0
	if [ "$out" = "$(cat "$here/ktap/$name.expected")" ] && [ $rc = $want_rc ]; then
		echo "ok $n ktap-summary $name"
	else
		diff <(echo "$out") "$here/ktap/$name.expected" | sed 's/^/# /'
		echo "# exit status $rc, want $want_rc"
		echo "not ok $n ktap-summary $name"
	fi
done
