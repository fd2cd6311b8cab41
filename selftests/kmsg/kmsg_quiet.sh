# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The quiet console of the storms, sourced by kmsg_storm.sh and
# kmsg_follow.sh (installed next to them: TEST_FILES). A storm is printed
# at info, which the console would take minutes to print under TCG: the
# console is set to show warnings and above, and the storm is bracketed
# on it by "ktap-summary: quiet begin/end", a window in which
# ktap-summary.sh fails the run on any console line.
#
#   quiet_console CLEANUP	the console at level 5 (warnings and above)
#				until the test ends, whatever ends it: the
#				EXIT trap evaluates CLEANUP (a command: what
#				the test leaves running, its files), restores
#				the console level and ends a quiet window left
#				open. SIGTERM (the runner's timeout) and SIGINT
#				exit through it: busybox sh runs the EXIT trap
#				on a signal only through a trap of it. The
#				test sets no trap of its own, as that would
#				replace these.
#   quiet_begin NAME [TEXT]	"ktap-summary: quiet begin NAME" on the console;
#				with TEXT, console lines that contain TEXT
#				are expected in the window ("ktap-summary:
#				expect begin TEXT"): only those, and a stack
#				dump only after such a report; any other
#				report still fails, and a stack dump after a
#				"printk messages dropped" line too
#   quiet_end			"ktap-summary: quiet end", and the end of
#				what quiet_begin expected
_quiet_cleanup=
_quiet_saved=
_quiet_open=
_quiet_expect=

quiet_begin() {	# quiet_begin NAME [TEXT]
	_quiet_open=1
	echo "ktap-summary: quiet begin $1" > /dev/kmsg
	if [ -n "${2:-}" ]; then
		_quiet_expect=1
		echo "ktap-summary: expect begin $2" > /dev/kmsg
	fi
}

quiet_end() {
	[ -n "$_quiet_expect" ] && echo "ktap-summary: expect end" > /dev/kmsg
	_quiet_expect=
	echo "ktap-summary: quiet end" > /dev/kmsg
	_quiet_open=
}

_quiet_exit() {
	eval "$_quiet_cleanup"
	echo "$_quiet_saved" > /proc/sys/kernel/printk
	[ -n "$_quiet_open" ] && quiet_end
}

quiet_console() {	# quiet_console CLEANUP
	_quiet_cleanup=$1
	read -r _quiet_saved < /proc/sys/kernel/printk
	trap _quiet_exit EXIT
	trap 'exit 143' TERM
	trap 'exit 130' INT
	echo "5 4 1 7" > /proc/sys/kernel/printk
}
