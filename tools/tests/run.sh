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
. "$here/tap.sh"

tap_begin
tap_plan $((${#tests[@]} + 1))
# each test_*.c is run
missing=
for c in "$here"/test_*.c; do
	c=$(basename "$c" .c)
	[[ " ${tests[*]} " == *" $c "* ]] || missing="$missing $c"
done
[ -z "$missing" ]
ok $? "every test_*.c of tools/tests is in the list of tests (missing:${missing:- none})"
if ! make -s -C "$here" O="$out" all > "$out.build.log" 2>&1; then
	diag "$out.build.log"
	bail "the host tests do not build"
fi
for t in "${tests[@]}"; do
	(cd "$here" && "$out/$t") > "$out/$t.tap" 2>&1
	rc=$?
	diag "$out/$t.tap"
	if [ $rc = 0 ]; then ok 0 "$t"; else ok 1 "$t # exit=$rc"; fi
done
tap_end
