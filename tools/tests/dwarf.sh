#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg_dwarf and kmsg_modmap through tools/tests/dwarf_where: a program of
# two "objects" kbuild would name differently (a.o, modname a, and the
# composite foo-y := mod/x.o mod/y.o, modname foo), built with -g; the
# instructions at known labels give their exact unit, object, modname,
# line and function (one inlined from a header); a file without DWARF and
# a malformed map give their clear errors; the same objects unlinked, read
# as the modules of a -dbg package are, give the file and line of an offset
# in .text. TAP output. TOOLS: the tools' build directory.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
out=${TOOLS:-$here/../../build/tools}/tests
where=$out/dwarf_where

mkdir -p "$out" "$tmp/src/mod"
if ! make -s -C "$here" O="$out" "$where" > "$tmp/build.log" 2>&1; then
	diag "$tmp/build.log"
	bail "dwarf_where does not build"
fi

# asm labels mark one instruction each, on a known line
cat > "$tmp/src/a.c" <<'C'
int ext;
__attribute__((noinline)) int fn_a(int v)
{
	asm volatile(".globl here_a\nhere_a: nop");
	return v + ext;
}
int x_fn(int v);
int y_fn(int v);
int main(int argc, char **argv)
{
	(void)argv;
	return fn_a(argc) + x_fn(argc) + y_fn(argc);
}
C
cat > "$tmp/src/mod/hdr.h" <<'C'
extern int ext;
static inline __attribute__((always_inline)) int helper(int v)
{
	asm volatile(".globl here_inl\nhere_inl: nop");
	return v * 3 + ext;
}
C
cat > "$tmp/src/mod/x.c" <<'C'
#include "hdr.h"
__attribute__((noinline)) int x_fn(int v)
{
	return helper(v) + 1;
}
C
cat > "$tmp/src/mod/y.c" <<'C'
__attribute__((noinline)) int y_fn(int v)
{
	asm volatile(".globl here_y\nhere_y: nop");
	return v - 1;
}
C
printf '%s\n' "a.o a a.c" "mod/x.o foo mod/x.c" "mod/y.o foo mod/y.c" > "$tmp/map"
for f in a mod/x mod/y; do
	gcc -g -O1 -c -o "$tmp/src/$f.o" "$tmp/src/$f.c" || bail "gcc -c $f.c"
done
gcc -g -no-pie -o "$tmp/prog" "$tmp/src/a.o" "$tmp/src/mod/x.o" "$tmp/src/mod/y.o" ||
	bail "gcc: link"
addr() { nm "$tmp/prog" | awk -v s="$1" '$3 == s { print $1 }'; }
a=$(addr here_a) inl=$(addr here_inl) y=$(addr here_y)
[ -n "$a" ] && [ -n "$inl" ] && [ -n "$y" ] || bail "labels not found in $tmp/prog"

check() {	# check ADDR EXPECTED DESCRIPTION: the fields after the address
	local got
	got=$("$where" --map "$tmp/map" --srctree "$tmp/src" "$tmp/prog" "$1" 2>&1 |
		cut -f2-)
	[ "$got" = "$2" ]
	local rc=$?
	[ $rc = 0 ] || printf 'expected: %s\ngot:      %s\n' "$2" "$got" | diag
	ok $rc "$3"
}
s=$tmp/src
check "$a" "$s/a.c	a.o	a	$s/a.c:4	fn_a	fn_a" \
	"a plain object: unit a.c, object a.o, modname a, a.c:4, fn_a"
check "$inl" "$s/mod/x.c	mod/x.o	foo	$s/mod/hdr.h:4	helper	x_fn" \
	"inlined from a header: unit mod/x.c, modname foo, hdr.h:4, helper in x_fn"
check "$y" "$s/mod/y.c	mod/y.o	foo	$s/mod/y.c:3	y_fn	y_fn" \
	"the composite's other object: mod/y.o, modname foo"
check 10 "none" "an address of no unit: none"

# a source of two objects of other modnames; a unit kbuild does not list
printf '%s\n' "a.o a a.c" "other/a.o b a.c" > "$tmp/map2"
got=$("$where" --map "$tmp/map2" "$tmp/prog" "$a" "$y" | cut -f4 | tr '\n' ' ')
[ "$got" = "ambiguous unknown " ]
ok $? "a source of two modnames is ambiguous, a unit not listed unknown (got: $got)"

# errors
gcc -O1 -o "$tmp/nodwarf" "$tmp/src/mod/y.c" -Dy_fn=main 2> /dev/null ||
	bail "gcc without -g"
err=$("$where" "$tmp/nodwarf" 400000 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && [[ "$err" == "$tmp/nodwarf: no DWARF debug information"* ]]
ok $? "a file without DWARF: exit 1, \"FILE: no DWARF debug information\" (got: $err)"
err=$("$where" "$tmp/map" 400000 2>&1 >/dev/null)
[ $? = 1 ] && [ "$err" = "$tmp/map: not an ELF file" ]
ok $? "a file that is not ELF: \"FILE: not an ELF file\" (got: $err)"
err=$("$where" "$tmp/src/a.o" 0 2>&1 >/dev/null)
[ $? = 1 ] && [[ "$err" == "$tmp/src/a.o: a relocatable object"* ]]
ok $? "an unlinked object is refused, said (got: $err)"

# a relocatable object read as a module of a -dbg package is: an offset
# in a section gives the file and line of its line tables, relocated
relcheck() {	# relcheck OBJECT LABEL EXPECTED DESCRIPTION
	local off got
	off=$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }')
	got=$("$where" --section .text "$1" "$off" 2>&1 | cut -f2-)
	[ -n "$off" ] && [ "$got" = "$3" ]
	local rc=$?
	[ $rc = 0 ] || printf 'expected: %s\ngot:      %s\n' "$3" "$got" | diag
	ok $rc "$4"
}
relcheck "$s/a.o" here_a "-	-	-	$s/a.c:4	-	-" \
	"a relocatable object: an offset in .text is a.c:4"
relcheck "$s/mod/x.o" here_inl "-	-	-	$s/mod/hdr.h:4	-	-" \
	"a relocatable object: code inlined from a header is the header's line"
got=$("$where" --section .text "$s/mod/y.o" 100000 2>&1)
[ "$got" = "100000	none" ]
ok $? "an offset past the section: none (got: $got)"
got=$("$where" --section .nosuch "$s/mod/y.o" 0 2>&1)
[ "$got" = "0	none" ]
ok $? "a section the object lacks: none (got: $got)"
gcc -O1 -c -o "$tmp/nodwarf.o" "$tmp/src/mod/y.c" || bail "gcc -c without -g"
err=$("$where" --section .text "$tmp/nodwarf.o" 0 2>&1 >/dev/null)
[ $? = 1 ] && [[ "$err" == "$tmp/nodwarf.o: no DWARF debug information"* ]]
ok $? "a relocatable object without DWARF: \"FILE: no DWARF debug information\" (got: $err)"
head -c 100 "$s/a.o" > "$tmp/cut.o"
err=$("$where" --section .text "$tmp/cut.o" 0 2>&1 >/dev/null)
[ $? = 1 ] && [ "$err" = "$tmp/cut.o: not a 64-bit ELF object" ]
ok $? "a cut relocatable object: \"FILE: not a 64-bit ELF object\" (got: $err)"

badmap() {	# badmap LINE2 PROBLEM: the second line is malformed
	printf 'a.o a a.c\n%b\n' "$1" > "$tmp/bad"
	err=$("$where" --map "$tmp/bad" 2>&1 >/dev/null)
	[ $? = 1 ] && [ "$err" = "$tmp/bad:2: $2" ]
	ok $? "map line \"$1\": \"MAP:2: $2\" (got: $err)"
}
badmap "b.o b" 'not three fields "OBJECT MODNAME SOURCE"'
badmap "b.o b b.c x" 'not three fields "OBJECT MODNAME SOURCE"'
badmap "b.c b b.c" "the object does not end in .o"
badmap "b.o b-c b.c" "a modname has only letters, digits, '_' and ':'"
badmap "b.o  b b.c" "fields not separated by one space"
badmap " b.o b b.c" "fields not separated by one space"
badmap "b.o b\\tx b.c" "a control character"
badmap "" "an empty line"
printf 'a.o a a.c\nb.o b b.c\na.o c c.c\n' > "$tmp/bad"
err=$("$where" --map "$tmp/bad" 2>&1 >/dev/null)
[ $? = 1 ] && [ "$err" = "$tmp/bad: object a.o listed twice" ]
ok $? "an object listed twice (got: $err)"
got=$("$where" --map "$tmp/map")
[ "$got" = "3 objects" ]
ok $? "a good map reads: $got"
tap_end
