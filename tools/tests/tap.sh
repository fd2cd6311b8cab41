# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# TAP helpers for the shell tests, sourced.
#
#   tap_begin [CLEANUP]	"TAP version 13", and an exit trap: a test that
#			ends before tap_end -- exit, a set -u or set -e
#			abort, SIGTERM, SIGINT, SIGHUP -- ends with
#			"Bail out!", its exit status and how many results
#			it printed, and exits non-zero. CLEANUP, a
#			command, runs at the exit whatever happened: a
#			test sets no trap of its own, as that would
#			replace this one.
#   tap_plan N		the plan first, when the count is known
#   ok RC DESCRIPTION	a result: ok when RC is 0; $n counts them
#   skip WHY		a counted skip, only for what the project does
#			not control (what make deps installs is no reason)
#   diag [FILE...]	the files, or stdin, as "# " lines; before the
#			result they explain
#   bail WHY		"Bail out! WHY", the exit status 1
#   tap_end		the plan "1..$n" (after tap_plan: a bail-out if
#			the count differs); the exit trap is disarmed
n=0
_tap_state=
_tap_plan=
_tap_cleanup=
_tap_signal=

ok() {	# ok RC DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
diag() { sed 's/^/# /' "$@"; }

_tap_exit() {
	local rc=$? what
	trap - EXIT
	if [ "$_tap_state" = running ]; then
		if [ -n "$_tap_signal" ]; then
			what="killed by SIG$_tap_signal (exit status $rc)"
		else
			what="exited with status $rc"
		fi
		if [ -n "$_tap_plan" ]; then
			what="$what after $n of $_tap_plan results"
		else
			what="$what after $n results, before its plan"
		fi
		[ $rc = 0 ] && rc=1
		echo "Bail out! $0 $what"
	fi
	# after the verdict: a cleanup that fails cannot hide it
	[ -n "$_tap_cleanup" ] && eval "$_tap_cleanup"
	exit $rc
}

tap_begin() {	# tap_begin [CLEANUP]
	_tap_cleanup=${1:-}
	_tap_state=running
	trap _tap_exit EXIT
	trap '_tap_signal=TERM; exit 143' TERM
	trap '_tap_signal=INT; exit 130' INT
	trap '_tap_signal=HUP; exit 129' HUP
	echo "TAP version 13"
}

tap_plan() { _tap_plan=$1; echo "1..$1"; }

bail() {	# bail WHY
	_tap_state=bailed
	echo "Bail out! $*"
	exit 1
}

tap_end() {
	if [ -z "$_tap_plan" ]; then
		echo "1..$n"
	elif [ "$n" != "$_tap_plan" ]; then
		bail "$0: $n results, $_tap_plan planned"
	fi
	_tap_state=ended
}
