#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lib/kmsg_sites.c, the printk call sites of a kernel without a printk
# index, through sites_dump (built here with ASan and UBSan):
#  - a module-like object compiled from data/sites-module.c: its sites,
#    exactly; stripped, with its DWARF in another copy (kmsg-doc
#    build-db --dbg-modules): the line of each call, and a copy of
#    another build refused;
#  - damaged copies of it: a clear "FILE: problem", no crash;
#  - the guest kernel (KOBJ, MODROOT), which has a printk index: the
#    sites found in vmlinux and its modules against the index's (format,
#    level, device), recall at least SITES_RECALL percent (measured:
#    99.8 for vmlinux, 99.0 for the modules) and at most SITES_EXTRA sites
#    the index does not have.  The index's entries whose format no code
#    loads are left out (sites_dump --live): the index keeps the entry of
#    a call the compiler removed as dead (228 of vmlinux's 3321: a config
#    option's branch, CONFIG_DEFAULT_INIT's "Default init %s failed").
#    Skipped without a kernel build.
# TAP output.
set -u
here=$(dirname "$(realpath "$0")")
. "$here/tap.sh"
tmp=$(mktemp -d)
tap_begin 'rm -rf "$tmp"'
out=${TOOLS:-$here/../../build/tools}/tests
recall_min=${SITES_RECALL:-99}
extra_max=${SITES_EXTRA:-5}

if ! make -s -C "$here" O="$out" "$out/sites_dump" > "$tmp/build.log" 2>&1; then
	diag "$tmp/build.log"
	bail "sites_dump does not build"
fi
dump=$out/sites_dump

gcc -O2 -mcmodel=kernel -fno-pic -fno-pie -mgeneral-regs-only -c -o "$tmp/m.o" "$here/data/sites-module.c"
ok $? "the test module compiles"
"$dump" "$tmp/m.o" > "$tmp/m.out" 2> "$tmp/m.err"
rc=$?
T=$'\t'
cat > "$tmp/m.want" <<EOT
printk${T}3${T}-${T}0${T}sitetest${T}f_printk${T}:0${T}.text${T}"hello %d"
dev${T}3${T}%s %s: ${T}0${T}sitetest${T}f_dev${T}:0${T}.text${T}"bad %d"
dev${T}6${T}%s %s: ${T}0${T}sitetest${T}f_lvl${T}:0${T}.text${T}"lvl"
printk${T}4${T}-${T}1${T}sitetest${T}f_cont${T}:0${T}.text${T}" cont"
netdev${T}4${T}%s %s %s%s: ${T}0${T}sitetest${T}f_net${T}:0${T}.text${T}"net %s"
dev_err_probe${T}3${T}%s %s: error %pe: ${T}0${T}sitetest${T}f_probe${T}:0${T}.text${T}"probe"
printk${T}4${T}-${T}0${T}sitetest${T}f_not${T}:0${T}.text${T}"after"
printk${T}6${T}-${T}0${T}sitetest${T}t_info${T}:0${T}.text${T}"Tag: %pV"
printk${T}4${T}-${T}0${T}sitetest${T}t_printk${T}:0${T}.text${T}"%sTDEV %p: %pV"
dyndbg_dev${T}7${T}%s %s: ${T}0${T}sitetest${T}f_dbg${T}sites-module.c:42${T}0${T}"dbg %d"
EOT
diff "$tmp/m.want" "$tmp/m.out" > "$tmp/m.diff"
r=$?
[ $rc = 0 ] || diag "$tmp/m.err"
[ $r = 0 ] || diag "$tmp/m.diff"
[ $rc = 0 ] && [ $r = 0 ]
ok $? "the test module: each site, kind, level, prefix, format, func, dynamic debug line"

# the control flow (kmsg_flow.c): code patterns in assembly, each call's
# formats those loaded into its format register on a path to it
gcc -c -o "$tmp/flow.o" "$here/data/sites-flow.S" &&
	"$dump" "$tmp/flow.o" > "$tmp/flow.out" 2> "$tmp/flow.err"
rc=$?
cat > "$tmp/flow.want" <<EOT
printk${T}3${T}-${T}0${T}flowtest${T}f_merged${T}:0${T}.text${T}"branch a %d"
printk${T}3${T}-${T}0${T}flowtest${T}f_merged${T}:0${T}.text${T}"branch b %d"
printk${T}6${T}-${T}0${T}flowtest${T}f_moved${T}:0${T}.text${T}"moved %d"
printk${T}6${T}-${T}0${T}flowtest${T}f_far${T}:0${T}.text${T}"far"
printk${T}5${T}-${T}0${T}flowtest${T}f_cmov${T}:0${T}.text${T}"cmov"
printk${T}6${T}-${T}0${T}flowtest${T}f_cmov${T}:0${T}.text${T}"rip %s"
dev${T}3${T}%s %s: ${T}0${T}flowtest${T}f_dev_back${T}:0${T}.text${T}"dev %d"
printk${T}4${T}-${T}0${T}flowtest${T}f_leaf${T}:0${T}.text${T}"leaf %d"
EOT
diff "$tmp/flow.want" "$tmp/flow.out" > "$tmp/flow.diff"
r=$?
[ $rc = 0 ] || diag "$tmp/flow.err"
[ $r = 0 ] || diag "$tmp/flow.diff"
[ $rc = 0 ] && [ $r = 0 ]
ok $? "control flow: two branches' formats at one shared call, a format copied from a register a call preserves, none where a call clobbers it, a load far before a loop, both of a cmov, a jump back to a device call, a call of a local function that leaves the register alone and none of one that writes it, none through a tail call's jump"

# the wrappers it defines, and the sites of their calls: the caller's
# format after the text before the wrapper's %pV, at the wrapper's level
# or the one its caller passes ("%s" first: the level, printing nothing)
"$dump" --wrappers "$tmp/m.o" > "$tmp/w.out" 2> "$tmp/w.err"
rc=$?
grep -v '^[a-z_]*	[0-9]	.*	"' "$tmp/w.out" | grep -v '^wrap' > "$tmp/w.got"
grep '^wrap' "$tmp/w.out" >> "$tmp/w.got"
cat > "$tmp/w.want" <<EOT
# wrapper acpi_info sitetest reg 0 level -1 "ACPI: %pV"
# wrapper t_info sitetest reg 0 level -1 "Tag: %pV"
# wrapper t_printk sitetest reg 2 level -1 "%sTDEV %p: %pV"
wrap${T}6${T}Tag: ${T}0${T}sitetest${T}f_wrapped${T}:0${T}.text${T}"wrapped %d"
wrap${T}3${T}TDEV %p: ${T}0${T}sitetest${T}f_wrapped${T}:0${T}.text${T}"oops %s"
wrap${T}6${T}ACPI: ${T}0${T}sitetest${T}f_wrapped${T}:0${T}.text${T}"%u tables"
EOT
diff "$tmp/w.want" "$tmp/w.got" > "$tmp/w.diff"
r=$?
[ $r = 0 ] || diag "$tmp/w.diff"
[ $rc = 0 ] && [ $r = 0 ]
ok $? "wrappers: t_info() (format in %rdi) and t_printk() (in %rdx, after a level), found from their prologues, acpi_info() by its name, and their calls: the callers' formats"

# the modules' DWARF (build-db --dbg-modules): the same module with its
# debug information, as a -dbg package ships it, gives each site of the
# module read (stripped, as the image package ships it) the file and line
# of its call; a module of another build (its build id differs) is refused
kdoc=$(dirname "$dump")/../kmsg-doc
mkdir -p "$tmp/dbg" "$tmp/dbg2" "$tmp/ship"
gcc -g -O2 -mcmodel=kernel -fno-pic -fno-pie -mgeneral-regs-only -c \
	-o "$tmp/g.o" "$here/data/sites-module.c" &&
	ld -r --build-id=sha1 -o "$tmp/dbg/sitetest.ko" "$tmp/g.o" &&
	objcopy --strip-debug "$tmp/dbg/sitetest.ko" "$tmp/ship/sitetest.ko" &&
	gcc -g -O1 -mcmodel=kernel -fno-pic -fno-pie -mgeneral-regs-only -c \
		-o "$tmp/g2.o" "$here/data/sites-module.c" &&
	ld -r --build-id=sha1 -o "$tmp/dbg2/sitetest.ko" "$tmp/g2.o" ||
	bail "the test module with DWARF does not build"
"$kdoc" build-db --out "$tmp/dbg.db" --release t --dbg-modules "$tmp/dbg" \
	"$tmp/ship/sitetest.ko" > "$tmp/dbg.out" 2>&1
rc=$?
sqlite3 -batch -noheader -separator ' ' "$tmp/dbg.db" \
	"SELECT file, line, function, format FROM messages
	 WHERE kind NOT LIKE 'dyndbg%' ORDER BY line" > "$tmp/dbg.got" 2>&1
# the lines of the calls in the source, one call per line (a dynamic debug
# site's file and line are its descriptor's)
grep -n '_printk(\|_dev_err(\|_dev_printk(\|netdev_warn(\|dev_err_probe(\|t_info(\|t_printk(\|acpi_info(' \
	"$here/data/sites-module.c" | cut -d: -f1 > "$tmp/dbg.calls"
bad=$(awk 'NR == FNR { call[$1] = 1; next }
	$1 != "sites-module.c" && $1 !~ /\/sites-module\.c$/ || !($2 in call)' \
	"$tmp/dbg.calls" "$tmp/dbg.got" | wc -l)
nsites=$(wc -l < "$tmp/dbg.got")
[ $rc = 0 ] || diag "$tmp/dbg.out"
[ "$bad" = 0 ] || diag "$tmp/dbg.got"
[ $rc = 0 ] && [ "$nsites" -ge 12 ] && [ "$bad" = 0 ]
ok $? "--dbg-modules: each of the $nsites sites of the stripped module is at the line of its call, from the module's DWARF ($bad elsewhere)"
"$kdoc" build-db --out "$tmp/dbg2.db" --release t --dbg-modules "$tmp/dbg2" \
	"$tmp/ship/sitetest.ko" > "$tmp/dbg2.out" 2>&1
rc=$?
[ $rc != 0 ] && [ ! -e "$tmp/dbg2.db" ] &&
	grep -q "^$tmp/dbg2: sitetest.ko: not the module sitetest of $tmp/ship/sitetest.ko: its build id is [0-9a-f]*, that of the module read [0-9a-f]*$" "$tmp/dbg2.out"
ok $? "--dbg-modules of another build: refused, said, no database ($(head -n 1 "$tmp/dbg2.out" | cut -c 1-300))"

# without name= in .modinfo (kernels before 5.3): kbuild's name of the
# module file, not the file's name: snd-foo.ko.xz is snd_foo
gcc -O2 -mcmodel=kernel -fno-pic -fno-pie -DNO_MODINFO_NAME -c \
	-o "$tmp/snd-foo.ko.xz" "$here/data/sites-module.c" &&
	"$dump" "$tmp/snd-foo.ko.xz" > "$tmp/noname.out" 2>&1
# (a dynamic debug descriptor names its module itself)
awk -F '\t' '$1 !~ /^dyndbg/ { print $5 }' "$tmp/noname.out" | sort -u > "$tmp/noname.mods"
[ "$(cat "$tmp/noname.mods")" = snd_foo ]
ok $? "no name= in .modinfo: the module is named as kbuild names it, snd_foo (got: $(tr '\n' ' ' < "$tmp/noname.mods"))"

# damage FILE WHAT: a copy of the module with one field changed
damage() {
	python3 - "$tmp/m.o" "$tmp/bad.o" "$1" <<'PY'
import struct, sys
src, dst, what = sys.argv[1:4]
b = bytearray(open(src, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shnum, shstrndx = struct.unpack_from('<HH', b, 0x3c)
secs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * 64) for i in range(shnum)]
strs = secs[shstrndx][4]
def name(s):
    o = strs + s[0]
    return b[o:b.index(b'\0', o)].decode()
byname = {name(s): s for s in secs}
if what == 'reloffset':
    struct.pack_into('<Q', b, byname['.rela.text'][4], 0x7fffff00)
elif what == 'relsym':
    struct.pack_into('<Q', b, byname['.rela.text'][4] + 8, 0xffff << 32 | 2)
elif what == 'strptr':
    r = byname['.rela__dyndbg'][4]
    struct.pack_into('<q', b, r + 3 * 24 + 16, 1 << 40)
elif what == 'shoff':
    struct.pack_into('<Q', b, 0x28, len(b) - 10)
elif what == 'secsize':
    i = [name(s) for s in secs].index('.text')
    struct.pack_into('<Q', b, shoff + i * 64 + 32, 1 << 40)
open(dst, 'wb').write(b)
PY
}
check_bad() {	# check_bad DESCRIPTION PATTERN
	"$dump" "$tmp/bad.o" > "$tmp/bad.out" 2> "$tmp/bad.err"
	rc=$?
	[ $rc = 1 ] && grep -q "^$tmp/bad.o: $2" "$tmp/bad.err" && [ ! -s "$tmp/bad.out" ]
	r=$?
	[ $r = 0 ] || { echo "exit status $rc"; cat "$tmp/bad.err"; } | diag
	ok $r "$1: \"$(head -n 1 "$tmp/bad.err" | sed "s|$tmp/||")\""
}
head -c 40 "$tmp/m.o" > "$tmp/bad.o"
check_bad "truncated ELF header" "truncated ELF header"
head -c 2000 "$tmp/m.o" > "$tmp/bad.o"
check_bad "truncated file" "section headers beyond the end of the file"
damage shoff
check_bad "section headers out of the file" "section headers beyond the end"
damage secsize
check_bad "a section beyond the end" "section .text .* beyond the end of the file"
damage reloffset
check_bad "a relocation beyond its section" "relocation section .rela.text: entry 0: offset 0x7fffff00 beyond section .text"
damage relsym
check_bad "a relocation's bad symbol" "relocation section .rela.text: entry 0: bad symbol index 65535"
damage strptr
check_bad "a descriptor's string pointer out of range" "section __dyndbg: not an array of struct _ddebug"
objcopy --strip-all "$tmp/m.o" "$tmp/bad.o" 2>/dev/null
check_bad "an object without symbols" "no symbol table"

# the guest kernel against its printk index
kobj=${KOBJ:-$here/../../build/obj}
modroot=${MODROOT:-$here/../../build/modroot}
key() { awk -F'\t' '!/^#/ { print $2 "\t" ($3 == "-" ? 0 : 1) "\t" $9 }' "$@" | sort -u; }
compare() {	# compare WHAT INDEX LIVE-INDEX SITES: recall and extra sites
	local want=$tmp/$1.want all=$tmp/$1.all got=$tmp/$1.got common extra total pct
	key "$2" > "$all"
	key "$3" > "$want"
	# the kinds the index has; the curated ids' "component.N: " as it drops it
	grep -aP '^(printk|dev|dev_err_probe)\t' "$4" |
		sed -E 's/\t"[a-z_]+\.[0-9]+: /\t"/' | key > "$got"
	total=$(wc -l < "$want")
	common=$(comm -12 "$want" "$got" | wc -l)
	extra=$(comm -13 "$all" "$got" | wc -l)
	pct=$((total ? common * 1000 / total : 0))
	[ "$total" -gt 0 ] && [ "$pct" -ge $((recall_min * 10)) ] && [ "$extra" -le "$extra_max" ]
	r=$?
	[ $r = 0 ] || { echo "missed:"; comm -23 "$want" "$got" | head -n 20
			echo "not in the index:"; comm -13 "$all" "$got" | head -n 20; } | diag
	ok $r "$1: $common of the $total sites of the printk index that code loads the format of found ($((pct / 10)).$((pct % 10))%, at least $recall_min%; $(($(wc -l < "$all") - total)) more are dead code), $extra not in it (at most $extra_max)"
}
if [ -f "$kobj/vmlinux" ]; then
	"$dump" --index "$kobj/vmlinux" > "$tmp/v.index" 2> "$tmp/v.err" &&
		"$dump" --index --live "$kobj/vmlinux" > "$tmp/v.live" 2>> "$tmp/v.err" &&
		"$dump" "$kobj/vmlinux" > "$tmp/v.sites" 2>> "$tmp/v.err"
	r=$?
	[ $r = 0 ] || diag "$tmp/v.err"
	ok $r "the guest vmlinux: its index and its sites"
	compare vmlinux "$tmp/v.index" "$tmp/v.live" "$tmp/v.sites"
else
	skip "no guest kernel build ($kobj/vmlinux)"
	skip "no guest kernel build ($kobj/vmlinux)"
fi
mapfile -t kos < <(find "$modroot" -name '*.ko' 2>/dev/null | sort)
if [ ${#kos[@]} -gt 0 ]; then
	"$dump" --index "${kos[@]}" > "$tmp/k.index" 2> "$tmp/k.err" &&
		"$dump" --index --live "${kos[@]}" > "$tmp/k.live" 2>> "$tmp/k.err" &&
		"$dump" "${kos[@]}" > "$tmp/k.sites" 2>> "$tmp/k.err"
	r=$?
	[ $r = 0 ] || diag "$tmp/k.err"
	ok $r "the guest's ${#kos[@]} modules: their index and their sites"
	compare modules "$tmp/k.index" "$tmp/k.live" "$tmp/k.sites"
else
	skip "no guest modules ($modroot)"
	skip "no guest modules ($modroot)"
fi
tap_end
