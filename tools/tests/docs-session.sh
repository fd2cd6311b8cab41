#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The terminal sessions of the documentation, run: every ```console block
# of docs/support.md (DOC names another file), in order, in one shell, so
# that an export of one command holds for the next.  A line "$ COMMAND"
# is a command (a line ending in "\" continues it on the next); the lines
# after it, up to the next command or the end of the block, are its output
# (stdout and stderr as a terminal shows them), compared exactly: one
# result per command.  TAP output.
#
# The session runs in a directory of its own laid out as the source tree
# (qemu/stock/ of this tree, build/distro-db/RELEASE.db the database of
# Debian's stock kernel), with copies of TOOLS' kmsg and kmsg-doc first on
# PATH and HOME a directory of its own: its path is written /home/user in
# the output.  Nothing is installed on the machine.  DISTRO_DB: the
# database (make distro-db); TOOLS: the tools' build directory.
set -u
here=$(dirname "$(realpath "$0")")
top=$here/../..
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
tools=${TOOLS:-$top/build/tools}
doc=${DOC:-$top/docs/support.md}
db=${DISTRO_DB:-}
[ -n "$db" ] && [ -s "$db" ] || bail "no DISTRO_DB (make distro-db builds it)"
[ -x "$tools/kmsg" ] && [ -x "$tools/kmsg-doc" ] || bail "no kmsg, kmsg-doc in $tools (make tools)"
[ -s "$doc" ] || bail "no $doc"

# the blocks: commands to $tmp/cmd.N, the output the document shows to
# $tmp/want.N
awk -v dir="$tmp" '
	/^```console[ \t]*$/ { inblock = 1; next }
	inblock && /^```[ \t]*$/ { inblock = 0; cont = 0; next }
	!inblock { next }
	cont { print > (dir "/cmd." n); cont = /\\$/; next }
	/^\$ / {
		n++
		print substr($0, 3) > (dir "/cmd." n)
		printf "" > (dir "/want." n)
		cont = /\\$/
		next
	}
	n == 0 { print "output before the first command: " $0 > "/dev/stderr"; bad = 1; next }
	{ print > (dir "/want." n) }
	END { print n + 0 > (dir "/count"); exit bad }
' "$doc" || bail "$doc: a console block with output before its first command"
count=$(cat "$tmp/count")
[ "$count" -gt 0 ] || bail "$doc: no \`\`\`console block with a \"\$ \" command"
tap_plan "$count"

# the sandbox: the paths the session names, and the tools on PATH
box=$tmp/box
release=$(sqlite3 -batch -noheader "$db" "SELECT value FROM build WHERE key = 'release'") ||
	bail "$db: no release"
mkdir -p "$box/qemu/stock" "$box/build/distro-db" "$tmp/bin" "$tmp/home/user"
ln -s "$(realpath "$top/qemu/stock/kmsg.raw")" "$box/qemu/stock/kmsg.raw"
ln -s "$(realpath "$top/qemu/stock/dmesg.txt")" "$box/qemu/stock/dmesg.txt"
ln -s "$(realpath "$db")" "$box/build/distro-db/$release.db"
# copies: kmsg looks for a database next to its own path (../docs-db/,
# ../share/kmsg/), which must not be the build's
cp "$tools/kmsg" "$tools/kmsg-doc" "$tmp/bin/"
home=$tmp/home/user

# a kmsg.db installed in the tools' DATADIR (make install) is listed by
# every copy of kmsg: the session's output would not be the document's
datadir=$(cat "$tools/datadir.stamp" 2>/dev/null || echo /usr/local/share/kmsg)
if [ -e "$datadir/kmsg.db" ]; then
	for i in $(seq "$count"); do
		skip "$datadir/kmsg.db is installed here (make install): kmsg would list it too"
	done
	tap_end
	exit 0
fi

{
	echo "cd '$box' || exit 1"
	for i in $(seq "$count"); do
		printf '{\n%s\n} > %q 2>&1 < /dev/null\necho $? > %q\n' \
			"$(cat "$tmp/cmd.$i")" "$tmp/got.$i" "$tmp/rc.$i"
	done
} > "$tmp/session.sh"
env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 TERM=dumb \
	bash --norc --noprofile "$tmp/session.sh" > "$tmp/session.out" 2>&1 ||
	diag "$tmp/session.out"

for i in $(seq "$count"); do
	cmd=$(head -n 1 "$tmp/cmd.$i")
	if [ ! -e "$tmp/got.$i" ]; then
		ok 1 "\$ $cmd: not run"
		continue
	fi
	sed "s|$home|/home/user|g" "$tmp/got.$i" > "$tmp/norm.$i"
	if ! cmp -s "$tmp/want.$i" "$tmp/norm.$i"; then
		echo "exit status $(cat "$tmp/rc.$i"); - the document, + the tool:" | diag
		diff -u "$tmp/want.$i" "$tmp/norm.$i" | tail -n +3 | diag
		ok 1 "\$ $cmd"
	else
		ok 0 "\$ $cmd"
	fi
done
tap_end
