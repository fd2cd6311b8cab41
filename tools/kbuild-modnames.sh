#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild-modnames.sh SRCTREE CONFIG OUTDIR > MAP
#
# kbuild's own view of the KBUILD_MODNAME of every object built into
# vmlinux for a given .config, without compiling the kernel: OUTDIR (made
# if needed, SRCTREE is never written) is configured with CONFIG
# (olddefconfig), then "make -n vmlinux_o" walks the tree as a build
# would, "prepare" (objtool, headers) assumed done, and prints every
# compile command; each one's -o and -DKBUILD_MODNAME are the map:
#
#	path/obj.o modname source
#
# one line an object, sorted by object; the source is relative to
# SRCTREE (or to OUTDIR when generated). The modname is exactly what the
# compiler would see: composite objects (ext4-y := super.o ...) give
# their module's name, an object in several composites "a:b", a plain
# built-in object its base name. Objects of modules (obj-m) are not
# listed. Exits non-zero, saying why, if make fails other than at the
# link that a dry run cannot do (vmlinux.a does not exist).
#
# MAKE (make) and the usual kbuild variables (ARCH, CC, LLVM) from the
# environment; the compiler matters: Kconfig asks it what it supports.
set -u
set -o pipefail

if [ $# != 3 ]; then
	echo "usage: $0 SRCTREE CONFIG OUTDIR > MAP" >&2
	exit 2
fi
src=$(realpath -e "$1") || exit 1
config=$(realpath -e "$2") || exit 1
out=$3
[ -f "$src/Makefile" ] && [ -f "$src/scripts/Makefile.build" ] ||
	{ echo "$1: not a kernel source tree" >&2; exit 1; }
[ -r "$config" ] || { echo "$2: cannot read" >&2; exit 1; }
mkdir -p "$out" && out=$(realpath "$out") || exit 1
[ "$out" != "$src" ] || { echo "$out: OUTDIR is SRCTREE" >&2; exit 1; }
make=${MAKE:-make}
cd "$out" || exit 1

# Kconfig asks pahole its version (CONFIG_DEBUG_INFO_BTF needs one, and
# objects such as net/xfrm/xfrm_state_bpf.o need BTF): the one CONFIG was
# made with answers, whatever this machine has. A dry run never runs it.
args=()
pv=$(sed -n 's/^CONFIG_PAHOLE_VERSION=\([1-9][0-9]*\)$/\1/p' "$config")
if [ -n "$pv" ]; then
	printf '#!/bin/sh\necho v%d.%d\n' $((pv / 100)) $((pv % 100)) > pahole-version
	chmod +x pahole-version
	args+=("PAHOLE=$out/pahole-version")
fi

cmp -s "$config" .config || cp "$config" .config || exit 1
if ! $make -s -C "$src" O="$out" "${args[@]}" olddefconfig > kbuild-modnames.log 2>&1; then
	sed "s|^|$config: olddefconfig: |" kbuild-modnames.log >&2
	exit 1
fi
# what this machine's toolchain changed: said, as it may change objects
diff <(grep '^CONFIG_' "$config" | grep -v '_VERSION=\|_VERSION_TEXT=' | LC_ALL=C sort) \
	<(grep '^CONFIG_' .config | grep -v '_VERSION=\|_VERSION_TEXT=' | LC_ALL=C sort) |
	sed -n "s|^< |$config: not kept by olddefconfig here: |p;
		s|^> |$config: added by olddefconfig here: |p" >&2

# In OUTDIR itself and with --no-print-directory the top Makefile does
# not call itself again, so -o prepare reaches the make that has it.
# A host program of scripts/ that a rule names as a prerequisite
# (scripts/asn1_compiler for x509.asn1.c) must exist in the directory's
# own make: those that "make scripts" would link are empty files here.
$make --no-print-directory -n "${args[@]}" scripts > kbuild-modnames.n \
	2> kbuild-modnames.err ||
	{ sed "s|^|$out: make -n scripts: |" kbuild-modnames.err >&2; exit 1; }
grep -oE "(HOSTLD|HOSTCC|HOSTCXX) +scripts/[^' ]*'" kbuild-modnames.n |
	sed "s/^[A-Z]* *//; s/'$//" | grep -v '\.o$\|\.\.' | LC_ALL=C sort -u |
	while read -r prog; do
		[ -e "$prog" ] || { mkdir -p "$(dirname "$prog")" && : > "$prog"; } || exit 1
	done || exit 1
$make --no-print-directory -n -o prepare "${args[@]}" vmlinux_o \
	> kbuild-modnames.n 2> kbuild-modnames.err
rc=$?
# the dry run ends at vmlinux.a, which it did not make
if [ $rc != 0 ] &&
	! { [ "$(tail -n 2 kbuild-modnames.err | grep -c "vmlinux.a\|vmlinux_o")" = 2 ] &&
	    ! grep -v "vmlinux.a\|vmlinux_o\|warning:" kbuild-modnames.err | grep -q .; }; then
	sed "s|^|$out: make -n: |" kbuild-modnames.err >&2
	exit 1
fi

# A compile prints its command twice: run, then quoted again into its
# .cmd file; the first -DKBUILD_MODNAME='"name"' is the unquoted one.
# With CONFIG_MODVERSIONS an object's genksyms step (gcc -E
# -D__GENKSYMS__) has one too, without -c -o, and so do the compile
# tests of lib/test_fortify (TEST ...log): no other -o of an object.
sed -n "s|.*-DKBUILD_MODNAME='\"\([^\"]*\)\"'.* -c -o \([^ ]*\.o\) \([^ ;]*\).*|\2 \1 \3|p" \
	kbuild-modnames.n | sed "s| $src/| |" | LC_ALL=C sort -u > kbuild-modnames.map
found=$(grep -- "-DKBUILD_MODNAME='\"" kbuild-modnames.n | grep -c -- " -c -o ")
other=$(grep -- "-DKBUILD_MODNAME='\"" kbuild-modnames.n | grep -v -- " -c -o " |
	grep -v -- "-D__GENKSYMS__" | grep -c -- " -o [^ ]*\.o[ ;]")
listed=$(wc -l < kbuild-modnames.map)
dups=$(cut -d' ' -f1 kbuild-modnames.map | uniq -d | head -n 3)
if [ "$listed" = 0 ] || [ "$found" != "$listed" ] || [ "$other" != 0 ] ||
	[ -n "$dups" ]; then
	echo "$out/kbuild-modnames.n: $found compiles with a KBUILD_MODNAME," \
		"$other other commands with one, $listed objects read${dups:+, twice: $dups}" >&2
	exit 1
fi
cat kbuild-modnames.map
