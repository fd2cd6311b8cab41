# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers for the shell tests, sourced: ok RC DESCRIPTION, skip WHY,
# diag FILE... (the files as "# " lines). $n counts the results; the
# test prints "1..$n" at its end.
n=0
ok() {	# ok RC DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
diag() { sed 's/^/# /' "$@"; }
