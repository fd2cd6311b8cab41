# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # n and failed: the sourcing test reads them
#
# The TAP results of the shell kselftests, sourced by kmsg_tool.sh,
# kmsg_storm.sh and kmsg_follow.sh (installed next to them: TEST_FILES).
#
#   ok RESULT DESCRIPTION	"ok N DESCRIPTION" if RESULT is 0, else
#				"not ok N DESCRIPTION" and failed=1; N counts
#				from 1
#   load_kmsgtest		load the test module kmsgtest (test_modules/,
#				next to the sourcing test) unless it is loaded
n=0
failed=0

ok() {	# ok RESULT DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=1
	fi
}

load_kmsgtest() {
	[ -d /sys/module/kmsgtest ] ||
		insmod "$(dirname "$0")/test_modules/kmsgtest.ko"
}
