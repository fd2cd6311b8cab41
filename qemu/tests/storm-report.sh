#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The proof that make check cannot turn green on a broken run, on the
# debug kernel: boot it with an initramfs from which every kselftest but
# kmsg_storm.sh was removed (as a collection that failed to build would
# be), and make LKDTM provoke a WARNING halfway through the storm
# (KMSG_STORM_INJECT), where the storm keeps its own messages off the
# console. ktap-summary.sh, given what make check gives it, must fail
# that boot: for the WARNING, for the console line inside the storm's
# quiet window, and for each kselftest that did not run. TAP output.
#
# Environment: KERNEL (the debug kernel's bzImage), STAGING (the debug
# guest's initramfs tree, build/initramfs-debug), KSFT_LIST
# (qemu/kselftests), ACCEL, TIMEOUT (seconds for the boot), TOOLS and
# DOCS_DB (kmsg and the docs database whose report classes the summary
# finds the WARNING with).
set -u
here=$(dirname "$(realpath "$0")")
qemu=$(dirname "$here")
. "$qemu/../tools/tests/tap.sh"
tmp=$(mktemp -d)
tap_begin 'rm -rf "$tmp"'
tap_plan 6
kernel=${KERNEL:?KERNEL: the debug kernel}
staging=${STAGING:?STAGING: the debug initramfs tree}
list=$(realpath "${KSFT_LIST:-$qemu/kselftests}")
kmsg=${TOOLS:?TOOLS: the tools build}/kmsg
db=${DOCS_DB:?DOCS_DB: the docs database}

# The initramfs without the other kselftests: their files and their
# lines of the runner's list
cp -a "$staging" "$tmp/root"
ksft=$tmp/root/kselftest
grep -v '^[[:space:]]*\(#\|$\)' "$list" | grep -vx 'kmsg:kmsg_storm.sh' > "$tmp/removed"
while IFS=: read -r c t; do
	rm -f "$ksft/$c/$t"
done < "$tmp/removed"
grep -vxF -f "$tmp/removed" "$ksft/kselftest-list.txt" > "$tmp/list"
cp "$tmp/list" "$ksft/kselftest-list.txt"
(cd "$tmp/root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 > "$tmp/initrd.gz"
[ "$(cat "$ksft/kselftest-list.txt")" = "kmsg:kmsg_storm.sh" ]
ok $? "the initramfs runs kmsg_storm.sh alone ($(wc -l < "$tmp/removed") kselftests removed)"

rc=0
"$qemu/run.sh" --accel "${ACCEL:-tcg}" --timeout "${TIMEOUT:-900}" --mode check \
	--mem 1024 --append "no5lvl KMSG_STORM_INJECT=WARNING KMSG_STORM_ROUNDS=20" \
	"$kernel" "$tmp/initrd.gz" "$tmp/boot" > "$tmp/run.log" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/run.log"
# what make check gives the summary of a debug guest
out=$("$qemu/ktap-summary.sh" --console "debug:$tmp/boot/console.log" \
	--guest-rc "debug:$rc" --expect "$list:$tmp/boot/guest.log" \
	--controlled "$tmp/boot/guest.log" \
	--require-window kmsg_storm.sh --allow "$qemu/console.allow" \
	--kmsg "$kmsg" --docs-db "$db" \
	"$tmp/boot/guest.log")
src=$?
echo "$out" | sed 's/^/# summary: /'
[ -f "$tmp/boot/guest.log" ] &&
	grep -q '^\(not \)\{0,1\}ok [0-9]* selftests: kmsg: kmsg_storm.sh' "$tmp/boot/guest.log"
ok $? "the storm ran"

[ $src = 1 ] && ! grep -q '^0 passed\|, 0 failed,' <<<"$out"
ok $? "the summary is red (exit status $src)"

grep -q '^FAIL: kernel debug: WARNING: .*lkdtm' <<<"$out"
ok $? "the summary names the WARNING LKDTM provoked inside the storm"

# the WARNING came between the storm's quiet markers
awk '/ktap-summary: quiet begin kmsg_storm.sh/ { q = 1 }
     /ktap-summary: quiet end/ { q = 0 }
     /WARNING: .*lkdtm/ && q { found = 1 }
     END { exit !found }' "$tmp/boot/console.log" 2>/dev/null &&
	grep -q '^FAIL: kernel debug: BUG: on the console in quiet window kmsg_storm.sh' <<<"$out"
ok $? "the WARNING was inside the storm's quiet window, which the summary says"

missing=0
while read -r t; do
	grep -qxF "FAIL: guest.log: kselftest $t did not run" <<<"$out" ||
		{ echo "# not named: $t"; missing=$((missing + 1)); }
done < "$tmp/removed"
[ $missing = 0 ]
ok $? "the summary names each removed kselftest as not run"
tap_end
