#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the tools' host tests with ASan and UBSan and run them: each
# test binary's TAP nested under one result. TOOLS: the tools' build dir.
set -u
here=$(dirname "$(realpath "$0")")
out=${TOOLS:-$here/../../build/tools}/tests
tests=(test_render test_event test_json test_json_swar test_id test_ksyms test_tracedat
	test_catalog test_docs test_dmesg test_journal test_match)

echo "TAP version 13"
echo "1..${#tests[@]}"
if ! make -s -C "$here" O="$out" all > "$out.build.log" 2>&1; then
	sed 's/^/# /' "$out.build.log"
	echo "Bail out! the host tests do not build"
	exit 0
fi
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	(cd "$here" && "$out/$t") > "$out/$t.tap" 2>&1
	rc=$?
	sed 's/^/# /' "$out/$t.tap"
	if [ $rc = 0 ]; then
		echo "ok $n $t"
	else
		echo "not ok $n $t # exit=$rc"
	fi
done
