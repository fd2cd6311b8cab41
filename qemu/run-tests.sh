#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh OUTDIR TEST...
#
# Run each host test, its TAP output (stdout and stderr) to
# OUTDIR/host-NAME.tap and its exit status to OUTDIR/host-NAME.rc, where
# NAME is the test's path with / as -. A test that runs longer than
# TEST_TIMEOUT seconds (1800) is killed (status 124 or 137). A failing
# test does not stop the others: ktap-summary.sh judges them all, the
# exit status with the output.
set -u
out=$1
shift
for t in "$@"; do
	n=$(echo "$t" | tr / -)
	n=${n%.sh}
	echo "  TEST    $t"
	rc=0
	timeout --kill-after=10 "${TEST_TIMEOUT:-1800}" "$t" \
		> "$out/host-$n.tap" 2>&1 < /dev/null || rc=$?
	echo "$rc" > "$out/host-$n.rc"
done
