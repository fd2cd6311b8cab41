#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg-journal.service on every kernel: its ExecStart runs kmsg live
# --journal where the kernel has the kmsg:kmsg event, else kmsg dmesg
# --follow --journal, and says which first.  The command line is taken
# from the unit as make install writes it, and run with KMSG_TRACEFS at a
# directory of the test's and a kmsg that only records how it was run:
# nothing touches this machine's tracefs or /dev/kmsg.  The unit is
# checked by systemd-analyze verify.  TAP output.  TOOLS: the tools'
# build directory.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
unit=$here/../kmsg-journal.service

mkdir -p "$tmp/bin"
cat > "$tmp/bin/kmsg" <<'SH'
#!/bin/sh
echo "kmsg $*" > "$KMSG_TEST_OUT"
SH
chmod +x "$tmp/bin/kmsg"
sed "s|@BINDIR@|$tmp/bin|g" "$unit" > "$tmp/kmsg-journal.service"

# ExecStart=, its continuation lines joined, as systemd reads it
cmd=$(awk '/^ExecStart=/ { on = 1; sub(/^ExecStart=/, "") }
	on { line = line $0; if (!sub(/\\$/, "", line)) { print line; exit } }' \
	"$tmp/kmsg-journal.service")
case $cmd in
"/bin/sh -c '"*"'") script=${cmd#/bin/sh -c \'}; script=${script%\'} ;;
*) bail "ExecStart is not the /bin/sh -c '...' this test knows: $cmd" ;;
esac
grep -qx 'StateDirectory=kmsg' "$tmp/kmsg-journal.service"
ok $? "the state of kmsg dmesg --follow has a directory of its own (StateDirectory=kmsg)"

# run TRACEFS: what the unit runs, its first line on stderr
run() {
	KMSG_TRACEFS=$1 KMSG_TEST_OUT=$tmp/ran /bin/sh -c "$script" 2> "$tmp/said"
}

mkdir -p "$tmp/series/events/kmsg/kmsg"
: > "$tmp/series/events/kmsg/kmsg/format"
run "$tmp/series"
ok $? "a kernel with kmsg:kmsg: the unit's command runs"
[ "$(cat "$tmp/ran")" = "kmsg live --journal" ] &&
	grep -qx 'kmsg-journal: the kernel has the kmsg:kmsg event: kmsg live --journal' "$tmp/said"
ok $? "a kernel with kmsg:kmsg: kmsg live --journal, and it says so"

mkdir -p "$tmp/stock/events/sched"
run "$tmp/stock"
ok $? "a stock kernel: the unit's command runs"
[ "$(cat "$tmp/ran")" = "kmsg dmesg --follow --journal" ] &&
	grep -qx "kmsg-journal: no kmsg:kmsg event in $tmp/stock: kmsg dmesg --follow --journal, /dev/kmsg identified with the database of $(uname -r)" "$tmp/said"
ok $? "a stock kernel: kmsg dmesg --follow --journal, and it says so"

if command -v systemd-analyze > /dev/null; then
	systemd-analyze verify "$tmp/kmsg-journal.service" > "$tmp/verify" 2>&1
	# its Documentation= man page is not installed here
	grep -v "Command 'man kmsg(1)' failed\|^$" "$tmp/verify" > "$tmp/wrong"
	[ ! -s "$tmp/wrong" ] || diag "$tmp/wrong"
	[ ! -s "$tmp/wrong" ]
	ok $? "systemd-analyze verify finds nothing wrong in the unit"
else
	bail "systemd-analyze is missing (systemd)"
fi
tap_end
