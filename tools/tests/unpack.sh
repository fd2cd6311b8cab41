#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmsg_unpack (tools/lib/kmsg_unpack.c) through its driver unpack_list,
# built with ASan and UBSan, on fixtures made here: a tiny module and
# vmlinux from gcc, compressed with xz, zstd, gzip; a bzImage around the
# vmlinux in each compression the kernel uses; a .deb made by dpkg-deb -b
# and the same tree as a directory. Each listing is compared whole with
# the one expected (sha256sum of what was compressed). Damaged inputs
# each give their one-line error, exit status 1, no sanitizer report.
# TAP output. TOOLS: the tools' build directory.
set -u
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
. "$here/tap.sh"
tap_begin 'rm -rf "$tmp"'
out=${TOOLS:-$here/../../build/tools}/tests
mkdir -p "$out"
if ! make -s -C "$here" O="$out" "$out/unpack_list" > "$tmp/build.log" 2>&1; then
	diag "$tmp/build.log"
	bail "unpack_list does not build"
fi
list=$out/unpack_list
cd "$tmp" || bail "no $tmp"

# --- fixtures -----------------------------------------------------------------
echo 'int f(void) { return 1; }' > mod.c
gcc -c -o mod.ko mod.c || bail "gcc -c"
echo 'int g(void) { return 2; }' > other.c
gcc -c -o other.ko other.c || bail "gcc -c"
printf 'void _start(void) { for (;;); }\n' > k.c
gcc -static -nostdlib -no-pie -o vmlinux k.c || bail "gcc -static"
xz -k --check=crc32 mod.ko && zstd -q -k other.ko && gzip -k -n mod.ko ||
	bail "xz, zstd, gzip"
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { stat -c %s "$1"; }
VERSION='1.0-test (nobody@example.org) #1 SMP Thu Jan  1 00:00:00 UTC 1970'

# bzimage OUT PAYLOAD [SETUP_SECTS [PAYLOAD_OFFSET_DELTA [TRAILER]]]: a
# bzImage (boot protocol 2.15) around the compressed PAYLOAD; TRAILER:
# the size_append bytes after it, as hex ("-": none, as for gzip)
bzimage() {
	python3 - "$@" "$VERSION" << 'EOF'
import struct, sys
out, payload = sys.argv[1], open(sys.argv[2], 'rb').read()
sects = int(sys.argv[3]) if len(sys.argv) > 4 else 1
delta = int(sys.argv[4]) if len(sys.argv) > 5 else 0
trailer = sys.argv[5] if len(sys.argv) > 6 else '-'
version = sys.argv[-1].encode() + b'\0'
if trailer != '-':
    payload += bytes.fromhex(trailer)
setup = bytearray((sects + 1) * 512)
setup[0x1f1] = sects
setup[0x1fe:0x200] = b'\x55\xaa'
setup[0x202:0x206] = b'HdrS'
struct.pack_into('<H', setup, 0x206, 0x020f)
struct.pack_into('<H', setup, 0x20e, 0x300 - 0x200)
setup[0x300:0x300 + len(version)] = version
pad = 64  # the decompressor's code before the payload
struct.pack_into('<II', setup, 0x248, pad + delta, len(payload))
open(out, 'wb').write(bytes(setup) + b'\x90' * pad + payload + b'\0' * 16)
EOF
}
le32() { python3 -c 'import struct,sys; print(struct.pack("<I", int(sys.argv[1])).hex())' "$1"; }
vsize=$(size vmlinux)
gzip -9 -n -c vmlinux > vmlinux.gz
bzimage vmlinuz-gzip vmlinux.gz 1 0 -
zstd -q -19 -c vmlinux > vmlinux.zst
bzimage vmlinuz-zstd vmlinux.zst 1 0 "$(le32 "$vsize")"
xz --check=crc32 -c vmlinux > vmlinux.xz
bzimage vmlinuz-xz vmlinux.xz 2 0 "$(le32 "$vsize")"
bzip2 -9 -c vmlinux > vmlinux.bz2
bzimage vmlinuz-bzip2 vmlinux.bz2 1 0 "$(le32 "$vsize")"
lzma -9 -c vmlinux > vmlinux.lzma
bzimage vmlinuz-lzma vmlinux.lzma 1 0 "$(le32 "$vsize")"
lz4 -q -l -9 -c vmlinux > vmlinux.lz4
bzimage vmlinuz-lz4 vmlinux.lz4 1 0 "$(le32 "$vsize")"

# a package's tree, and the package
mkdir -p tree/DEBIAN tree/boot tree/lib/modules/1.0-test/kernel/a/b \
	tree/lib/modules/1.0-test/kernel/c tree/usr/share/doc/linux-image-test
printf 'Package: linux-image-test\nVersion: 1.0\nArchitecture: all\nMaintainer: nobody <nobody@example.org>\nDescription: test\n' \
	> tree/DEBIAN/control
cp vmlinuz-zstd tree/boot/vmlinuz-1.0-test
echo 'ffffffffffffffff B The real System.map is elsewhere' > tree/boot/System.map-1.0-test
echo 'CONFIG_PRINTK=y' > tree/boot/config-1.0-test
cp mod.ko.xz tree/lib/modules/1.0-test/kernel/a/b/
cp other.ko.zst tree/lib/modules/1.0-test/kernel/c/
cp mod.ko.gz tree/lib/modules/1.0-test/kernel/c/third.ko.gz
echo 'not a module' > tree/usr/share/doc/linux-image-test/changelog
echo 'modules.dep' > tree/lib/modules/1.0-test/modules.dep
dpkg-deb --root-owner-group -Zxz -b tree test.deb > /dev/null 2> dpkg.err ||
	{ diag dpkg.err; bail "dpkg-deb -b"; }
dpkg-deb --root-owner-group -Zgzip -b tree test-gz.deb > /dev/null 2>&1 ||
	bail "dpkg-deb -Zgzip"
mkdir dir && cp -r tree/boot tree/lib tree/usr dir/ && mkdir empty

expect_tree() {	# the listing of the tree, names relative
	cat << EOF
System.map boot/System.map-1.0-test $(size tree/boot/System.map-1.0-test) $(sha tree/boot/System.map-1.0-test) none
config boot/config-1.0-test $(size tree/boot/config-1.0-test) $(sha tree/boot/config-1.0-test) none
vmlinux boot/vmlinuz-1.0-test $vsize $(sha vmlinux) zstd
version $VERSION
module lib/modules/1.0-test/kernel/a/b/mod.ko.xz $(size mod.ko) $(sha mod.ko) xz
module lib/modules/1.0-test/kernel/c/other.ko.zst $(size other.ko) $(sha other.ko) zstd
module lib/modules/1.0-test/kernel/c/third.ko.gz $(size mod.ko) $(sha mod.ko) gzip
EOF
}

# check DESCRIPTION EXPECTED-FILE unpack_list ARGS...: exit status 0, the
# exact listing, nothing on stderr
check() {
	local what=$1 exp=$2 rc
	shift 2
	"$list" "$@" > got 2> err
	rc=$?
	if [ $rc = 0 ] && cmp -s "$exp" got && [ ! -s err ]; then
		ok 0 "$what"
	else
		diff -u "$exp" got | diag
		diag err
		ok 1 "$what (exit status $rc)"
	fi
}

# fails DESCRIPTION EXPECTED-ERROR unpack_list ARGS...: exit status 1,
# nothing on stdout, the one line on stderr (a pattern: "~ERE")
fails() {
	local what=$1 exp=$2 rc good=1
	shift 2
	"$list" "$@" > got 2> err
	rc=$?
	if [ $rc = 1 ] && [ ! -s got ] && [ "$(wc -l < err)" = 1 ]; then
		if [ "${exp#\~}" != "$exp" ]; then
			grep -qE "${exp#\~}" err && good=0
		else
			[ "$(cat err)" = "$exp" ] && good=0
		fi
	fi
	[ $good = 0 ] || { echo "expected: $exp" | diag; diag err got; }
	ok $good "$what: $(head -c 200 err)"
}

# --- listings -----------------------------------------------------------------
for f in mod.ko mod.ko.xz other.ko.zst mod.ko.gz; do
	case $f in
	*.xz) c=xz o=mod.ko ;; *.zst) c=zstd o=other.ko ;;
	*.gz) c=gzip o=mod.ko ;; *) c=none o=mod.ko ;;
	esac
	echo "module $f $(size $o) $(sha $o) $c" > exp
	check "a module, $f ($c)" exp "$f"
done
echo "vmlinux vmlinux $vsize $(sha vmlinux) none" > exp
check "a plain ELF vmlinux" exp vmlinux
# a module by its ELF type whatever its name
cp mod.ko.xz renamed.bin
echo "module renamed.bin $(size mod.ko) $(sha mod.ko) xz" > exp
check "an ET_REL of no known name is a module" exp renamed.bin
for c in gzip zstd xz bzip2 lzma lz4; do
	printf 'vmlinux vmlinuz-%s %s %s %s\nversion %s\n' $c "$vsize" \
		"$(sha vmlinux)" $c "$VERSION" > exp
	check "a bzImage with a $c payload: its ELF and kernel_version" exp vmlinuz-$c
done
expect_tree > exp
check "a directory, walked in sorted order, other files ignored" exp dir
check "a .deb (data.tar.xz): the same members as the directory" exp test.deb
check "a .deb (data.tar.gz): the same" exp test-gz.deb
expect_tree | grep -E '^(vmlinux|version)' > exp
check "--kinds vmlinux: the image only" exp --kinds vmlinux test.deb
expect_tree | grep '^module' > exp
check "--kinds module of the directory: the modules only" exp --kinds module dir
printf '2 blobs %s bytes\nstopped: 42\n' \
	$(($(size tree/boot/config-1.0-test) + $(size tree/boot/System.map-1.0-test))) > exp
check "the callback's non-zero return stops the walk and is returned" exp \
	--count --stop-after 2 test.deb
"$list" --progress --count dir > got 2> err
rc=$?
[ $rc = 0 ] && [ "$(cat got)" = "6 blobs $(($(expect_tree | grep -v ^version |
	awk '{ s += $3 } END { print s }'))) bytes" ] && [ ! -s err ]
ok $? "--count: blobs and bytes of the directory"

# --- damaged inputs -----------------------------------------------------------
head -c $(($(size mod.ko.xz) / 2)) mod.ko.xz > trunc.ko.xz
fails "a truncated .ko.xz" "~^trunc\.ko\.xz: xz data: .+" trunc.ko.xz
head -c 20 mod.ko.xz > short.ko.xz
fails "a .ko.xz of 20 bytes" "~^short\.ko\.xz: xz .+" short.ko.xz
# after HdrS all 0xff: kernel_version points beyond the setup code
{ head -c $((0x206)) vmlinuz-zstd; head -c 2000 /dev/zero | tr '\0' '\377'; } > ff.bzimage
fails "0xff after HdrS" \
	"ff.bzimage: bzImage: kernel_version 0xffff: no string in the setup code" \
	ff.bzimage
python3 -c '
d = bytearray(open("vmlinuz-zstd", "rb").read())
d[0x1f1] = 255
open("sects.bzimage", "wb").write(d)'
fails "setup_sects beyond the file" \
	"sects.bzimage: bzImage: setup_sects 255: its protected-mode code at 131072 is beyond the end ($(size vmlinuz-zstd) bytes)" \
	sects.bzimage
python3 -c '
import random, sys
d = bytearray(open("vmlinuz-zstd", "rb").read())
r = random.Random(26)
for i in range(0x206, len(d)):
    d[i] = r.randrange(256)
open("garbage.bzimage", "wb").write(d)'
fails "random bytes after HdrS" "~^garbage\.bzimage: bzImage: " garbage.bzimage
bzimage far.bzimage vmlinux.zst 1 $((0xffffffff - 64)) "$(le32 "$vsize")"
fails "payload_offset beyond the file" \
	"~^far\.bzimage: bzImage: payload_offset 4294967295 \+ payload_length [0-9]+: beyond the end \([0-9]+ bytes\)$" \
	far.bzimage
bzimage badsize.bzimage vmlinux.zst 1 0 "$(le32 $((vsize + 1)))"
fails "a size_append that is not the decompressed size" \
	"badsize.bzimage: bzImage: the payload decompressed to $vsize bytes, its size field says $((vsize + 1))" \
	badsize.bzimage
echo 'this is not an ELF' | zstd -q -c > text.zst
bzimage text.bzimage text.zst 1 0 "$(le32 19)"
fails "a bzImage whose payload is no ELF" \
	"text.bzimage: not an ELF after zstd decompression of the bzImage payload" text.bzimage
head -c 300 /dev/zero > raw.bin
bzimage unknown.bzimage raw.bin 1 0 -
fails "a bzImage payload in no known compression" \
	"unknown.bzimage: bzImage: payload of 300 bytes in no known compression" unknown.bzimage
mkdir parts && (cd parts && ar x ../test.deb) || bail "ar x"
head -c $(($(size parts/data.tar.xz) - 100)) parts/data.tar.xz > parts/cut
mv parts/cut parts/data.tar.xz
(cd parts && ar rc ../cut-tar.deb debian-binary control.tar.xz data.tar.xz) || bail "ar rc"
fails "a .deb whose data.tar.xz is truncated" "~^cut-tar\.deb: data\.tar\.xz: .+" cut-tar.deb
head -c $(($(size test.deb) - 100)) test.deb > cut.deb
fails "a truncated .deb" "~^cut\.deb: .+" cut.deb
(cd parts && ar rc ../nodata.deb debian-binary control.tar.xz) || bail "ar rc"
fails "an ar archive without data.tar" \
	"nodata.deb: an ar archive without a data.tar member: not a .deb" nodata.deb
fails "an empty directory" \
	"empty: no kernel image or module (vmlinuz, vmlinux, *.ko)" empty
mkdir onlymap && cp tree/boot/System.map-1.0-test onlymap/
fails "a directory with a System.map only" \
	"onlymap: no kernel image or module (vmlinuz, vmlinux, *.ko)" onlymap
echo 'not an ELF' > fake.ko
fails "a .ko that is text" "fake.ko: not an ELF, a bzImage or compressed data" fake.ko
mkdir baddir && cp fake.ko baddir/ && cp mod.ko.xz baddir/
fails "a directory with a damaged module: the error names it" \
	"baddir/fake.ko: not an ELF, a bzImage or compressed data" baddir
cp vmlinux vmlinux.ko
fails "a .ko that is an ET_EXEC" \
	"vmlinux.ko: a module name, but an ELF of type 2, not ET_REL" vmlinux.ko
: > empty.ko
fails "an empty .ko" "empty.ko: an empty file" empty.ko
fails "a missing file" "missing.ko: No such file or directory" missing.ko
# a bomb: 16 MiB of zeros in a few KiB of xz, under a cap of 1 MiB
head -c $((16 << 20)) /dev/zero | xz -c > bomb.ko.xz
fails "a .ko.xz over the cap" \
	"bomb.ko.xz: decompresses to more than 1048576 bytes, the cap" --max 1048576 bomb.ko.xz
tap_end
