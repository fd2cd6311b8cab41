#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-abort.sh MODE MARKER: a test of the TAP helpers' own, for
# tools/tests/tap-trap.sh. It prints two results, then, by MODE:
#   unbound	reads an unbound variable (set -u)
#   errexit	a command fails under set -e
#   exit	exit 0, before its plan
#   term	waits to be killed (touches MARKER.ready first)
#   planned	the plan first (3), then reads an unbound variable
#   short	the plan first (3), then tap_end
#   bail	bail
#   end	tap_end: a test that ends well
# The cleanup given to tap_begin removes MARKER.
set -u
. "$(dirname "$(realpath "$0")")/../tap.sh"
mode=$1 marker=$2
sleeper=
tap_begin 'rm -f "$marker"; [ -z "$sleeper" ] || kill $sleeper 2> /dev/null'
case $mode in planned|short) tap_plan 3 ;; esac
ok 0 "first"
ok 0 "second"
case $mode in
unbound|planned)
	# shellcheck disable=SC2154
	echo "$no_such_variable" ;;
errexit)
	set -e
	false ;;
exit)
	exit 0 ;;
term)
	sleep 60 &
	sleeper=$!
	touch "$marker.ready"
	wait $sleeper ;;
bail)
	bail "tap-abort.sh: bailing out" ;;
esac
tap_end
echo "# after the plan"
