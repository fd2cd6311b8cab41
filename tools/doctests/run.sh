#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of kmsg-doc: build it with ASan and UBSan, compile the fixtures
# (fixtures/*/msg.c, with fake_kmsg.h, into ET_REL objects like the
# kernel's), run kmsg-doc on them and compare with fixtures/*/expected.
# TAP on stdout; the exit status is 0 whatever the results (1 for a
# bail-out, as when kmsg-doc does not build).
#
# A fixture directory holds msg.c, optionally catalog/ (passed as
# --catalog), args (more options), expected (kmsg-doc's exact stdout),
# expected.stderr (its exact stderr, @OUT@ for the build directory).  The
# exit status must be 1 if an error is expected, else 0.
#
# TOOLS: the tools' build directory (default build/tools); everything is
# built in $TOOLS/doctests.
set -u
here=$(dirname "$(realpath "$0")")
out=${TOOLS:-$here/../../build/tools}/doctests
mkdir -p "$out"
out=$(realpath "$out")
work=$out/work
kd=$out/kmsg-doc
patch=$out/elfpatch
CC=${CC:-gcc}
FIXCFLAGS="-c -O2 -I$here"

# Sanitizer reports must not pass for kmsg-doc's own exit status 1.
export ASAN_OPTIONS=exitcode=99:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=exitcode=99:print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=exitcode=99

. "$here/../tests/tap.sh"
failed=0
tap_begin

not_ok() {	# not_ok NAME: a failed result
	failed=$((failed + 1))
	ok 1 "$1"
}

# result NAME COND-STATUS [diagnostic file...]: the files before a failure
result() {
	local name=$1 status=$2
	shift 2
	if [ "$status" = 0 ]; then
		ok 0 "$name"
	else
		for f in "$@"; do
			[ -s "$f" ] && diag < "$f"
		done
		not_ok "$name"
	fi
}

sanitizer_clean() {
	! grep -q "Sanitizer\|runtime error:" "$1"
}

rm -rf "$work"
mkdir -p "$work/fixtures"

make -s -C "$here" O="$out" all > "$work/build.log" 2>&1
result "kmsg-doc builds with ASan and UBSan, and with the production command (-O2 -Werror)" \
	$? "$work/build.log"
[ $failed = 0 ] || bail "kmsg-doc does not build"

# ---- fixtures compared with their expected output ----

compile() {	# compile DIR OBJ: in DIR, so that __FILE__ is "msg.c"
	(cd "$1" && $CC $FIXCFLAGS msg.c -o "$2") > "$work/cc.log" 2>&1
}

# the fixtures without expected output, each used by a test of its own
# below; any other is a test that would not run
own="corrupt diff modules vmlinux"
for dir in "$here"/fixtures/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	if [ ! -f "$dir/expected" ]; then
		[[ " $own " == *" $name "* ]] ||
			not_ok "fixture $name: no expected output (fixtures/$name/expected)"
		continue
	fi
	obj=$work/fixtures/$name.o
	if ! compile "$dir" "$obj"; then
		diag < "$work/cc.log"
		not_ok "fixture $name: compiles"
		continue
	fi
	args=(check --srctree .)
	[ -d "$dir/catalog" ] && args+=(--catalog catalog)
	if [ -f "$dir/args" ]; then
		read -r -a extra < "$dir/args"
		args+=("${extra[@]}")
	fi
	(cd "$dir" && "$kd" "${args[@]}" "$obj") > "$work/$name.out" 2> "$work/$name.err"
	rc=$?
	want=0
	if grep -q ": error: " "$dir/expected" ||
	   { [ -f "$dir/expected.stderr" ] && [ -s "$dir/expected.stderr" ]; }; then
		want=1
	fi
	sed -i "s|$out|@OUT@|g" "$work/$name.err"
	status=0
	{
		diff -u "$dir/expected" "$work/$name.out" || status=1
		if [ -f "$dir/expected.stderr" ]; then
			diff -u "$dir/expected.stderr" "$work/$name.err" || status=1
		elif [ -s "$work/$name.err" ]; then
			echo "unexpected stderr:"; cat "$work/$name.err"; status=1
		fi
		[ $rc = $want ] || { echo "exit status $rc, expected $want"; status=1; }
	} > "$work/$name.diff" 2>&1
	result "fixture $name: kmsg-doc ${args[*]}" $status "$work/$name.diff"
done

# ---- corrupt objects ----

corrupt=$here/fixtures/corrupt
base=$work/corrupt.o
compile "$corrupt" "$base"
for variant in truncated index-addend string-addend index-size nonul; do
	obj=$work/corrupt-$variant.o
	cp "$base" "$obj"
	case $variant in
	truncated)	head -c 1500 "$base" > "$obj" ;;
	index-addend)	"$patch" index-addend "$obj" 0x100000 ;;
	string-addend)	"$patch" string-addend "$obj" 0x7fffffff ;;
	index-size)	"$patch" index-size "$obj" 12 ;;
	nonul)		"$patch" nonul "$obj" ;;
	esac
	# the object is skipped; a good object given with it is still read
	(cd "$corrupt" && "$kd" check --srctree . "$obj" "$base") \
		> "$work/corrupt-$variant.out" 2> "$work/corrupt-$variant.err"
	rc=$?
	sed -i "s|$out|@OUT@|g" "$work/corrupt-$variant.err"
	status=0
	{
		diff -u "$corrupt/expected.$variant" "$work/corrupt-$variant.err" || status=1
		[ -s "$work/corrupt-$variant.out" ] &&
			{ echo "unexpected stdout:"; cat "$work/corrupt-$variant.out"; status=1; }
		[ $rc = 1 ] || { echo "exit status $rc, expected 1"; status=1; }
	} > "$work/corrupt-$variant.diff" 2>&1
	result "corrupt object ($variant): clear error, object skipped, exit 1" \
		$status "$work/corrupt-$variant.diff"
done

# ---- robustness: damaged objects, catalogs and sources never crash ----

fuzz() {	# fuzz NAME INPUT COUNT CMD...: CMD with @IN@ for the damaged copy
	local name=$1 input=$2 count=$3 i rc bad=0 ext
	shift 3
	ext=${input##*/}
	for i in $(seq 1 "$count"); do
		# a mutation that fails leaves no input: not a pass
		rm -f "$work/fuzz/$ext"
		if ! "$patch" mutate "$input" "$work/fuzz/$ext" "$i" $((i % 16 + 1)) \
			> "$work/fuzz.err" 2>&1 || [ ! -e "$work/fuzz/$ext" ]; then
			{ echo "seed $i: elfpatch mutate $input failed"; head -30 "$work/fuzz.err"; } > "$work/fuzz.diag"
			bad=1
			break
		fi
		"${@//@IN@/$work/fuzz/$ext}" > /dev/null 2> "$work/fuzz.err"
		rc=$?
		if { [ $rc != 0 ] && [ $rc != 1 ]; } || ! sanitizer_clean "$work/fuzz.err"; then
			{ echo "seed $i: exit status $rc"; head -30 "$work/fuzz.err"; } > "$work/fuzz.diag"
			bad=1
			break
		fi
	done
	result "robustness: $count damaged $name, exit 0 or 1, no sanitizer report" \
		$bad "$work/fuzz.diag"
}

mkdir -p "$work/fuzz"
good=$here/fixtures/good
fuzz objects "$base" 300 "$kd" check --srctree "$corrupt" @IN@
fuzz sources "$good/msg.c" 150 \
	"$kd" check --srctree "$work/fuzz" --catalog "$good/catalog" "$base"
fuzz catalogs "$good/catalog/fx.kmsg" 150 \
	"$kd" check --srctree "$good" --catalog "$work/fuzz" "$base"
fuzz error-laden-catalogs "$here/fixtures/catalog-errors/catalog/fx.kmsg" 100 \
	"$kd" check --srctree "$good" --catalog "$work/fuzz" "$base"
fuzz alias-catalogs "$here/fixtures/aliases/catalog/fx.kmsg" 100 \
	"$kd" check --srctree "$good" --catalog "$work/fuzz" "$base"
fuzz alias-error-catalogs "$here/fixtures/alias-errors/catalog/fx.kmsg" 100 \
	"$kd" check --srctree "$good" --catalog "$work/fuzz" "$base"

# ---- vmlinux: an executable (ET_EXEC), pointers as addresses ----

vml=$work/vmlinux
if (cd "$here/fixtures/vmlinux" && $CC -O2 -no-pie -Wl,--build-id -I"$here" \
	msg.c -o "$vml") > "$work/cc.log" 2>&1; then
	(cd "$here/fixtures/vmlinux" && "$kd" check --srctree . "$vml") \
		> "$work/vmlinux.out" 2>&1
	rc=$?
	status=0
	{ [ $rc = 0 ] && [ ! -s "$work/vmlinux.out" ]; } || status=1
	result "vmlinux (ET_EXEC): index read through virtual addresses, all documented" \
		$status "$work/vmlinux.out"

	want=$(readelf -n "$vml" | sed -n 's/.*Build ID: *//p')
	rm -f "$work/vmlinux.db"
	(cd "$here/fixtures/vmlinux" && "$kd" build-db --out "$work/vmlinux.db" \
		--release 6.12.0-test --srctree . "$vml") > "$work/vmlinux.out" 2>&1
	got=$(sqlite3 "$work/vmlinux.db" "SELECT value FROM build WHERE key = 'build_id';
		SELECT value FROM build WHERE key = 'release';
		SELECT DISTINCT object FROM messages; SELECT count(*) FROM messages;" 2>&1)
	expect=$(printf '%s\n6.12.0-test\nvmlinux\n2' "$want")
	status=0
	{ [ -n "$want" ] && [ "$got" = "$expect" ]; } || status=1
	printf 'got:\n%s\nexpected:\n%s\n' "$got" "$expect" >> "$work/vmlinux.out"
	result "build-db: build_id of vmlinux ($want), release, object 'vmlinux'" \
		$status "$work/vmlinux.out"
else
	diag < "$work/cc.log"
	not_ok "vmlinux fixture links"
fi

# ---- a module directory: *.ko searched, symbolic links not followed ----

mods=$work/modroot/lib/modules/6.12.0
mkdir -p "$mods/kernel/drivers" "$mods/kernel/fs" "$work/elsewhere"
good=$here/fixtures/good
cp "$work/fixtures/good.o" "$mods/kernel/drivers/fxgood.ko"
cp "$work/fixtures/good.o" "$mods/kernel/fs/fxplain.o"	# not a .ko: ignored
(cd "$good" && $CC $FIXCFLAGS -include "$here/fixtures/modules/modinfo.h" \
	msg.c -o "$mods/kernel/fs/fx-file-name.ko")
cp "$work/fixtures/good.o" "$work/elsewhere/fxlinked.ko"
ln -s "$work/elsewhere" "$mods/kernel/linked-dir"
ln -s "$work/elsewhere/fxlinked.ko" "$mods/kernel/fxlinked.ko"
ln -s "$work/modroot" "$mods/build"		# a loop if followed
rm -f "$work/modules.db"
(cd "$good" && "$kd" build-db --out "$work/modules.db" --srctree . \
	--catalog catalog "$work/modroot") > "$work/modules.out" 2>&1
rc=$?
got=$(sqlite3 "$work/modules.db" "SELECT object, count(*) FROM messages GROUP BY object ORDER BY object" 2>&1)
expect=$(printf 'fxgood|3\nfxmod|3')
status=0
{ [ $rc = 0 ] && [ "$got" = "$expect" ]; } || status=1
printf 'exit %s, got:\n%s\nexpected:\n%s\n' "$rc" "$got" "$expect" >> "$work/modules.out"
result "directory: *.ko found, .modinfo name= used, else the file name, links skipped" \
	$status "$work/modules.out"

# ---- build-db ----

db1=$work/db1/kmsg.db
db2=$work/db2/kmsg.db
mkdir -p "$work/db1" "$work/db2"
status=0
for db in "$db1" "$db2"; do
	(cd "$good" && "$kd" build-db --out "$db" --srctree . --catalog catalog \
		--release 6.12.118+ "$work/fixtures/good.o") >> "$work/db.out" 2>&1 || status=1
done
sqlite3 "$db1" .dump > "$work/db1.dump" 2>&1 || status=1
sqlite3 "$db2" .dump > "$work/db2.dump" 2>&1 || status=1
diff -u "$work/db1.dump" "$work/db2.dump" >> "$work/db.out" 2>&1 || status=1
[ -s "$work/db1.dump" ] || status=1
result "build-db twice: identical sqlite3 .dump" $status "$work/db.out"

if [ -s "$db1" ] && cmp -s "$db1" "$db2"; then
	ok 0 "build-db twice: identical files"
else
	not_ok "build-db twice: identical files"
fi

status=0
ls -A "$work/db1" > "$work/db.ls"
[ "$(cat "$work/db.ls")" = kmsg.db ] || status=1
result "build-db leaves no temporary file" $status "$work/db.ls"

q() {
	sqlite3 "$db1" "$1" 2>&1
}

check_query() {	# check_query DESC SQL EXPECTED
	local got
	got=$(q "$2")
	if [ "$got" = "$3" ]; then
		ok 0 "query: $1"
	else
		printf 'SQL: %s\ngot:\n%s\nexpected:\n%s\n' "$2" "$got" "$3" | diag
		not_ok "query: $1"
	fi
}

check_query "SELECT description FROM docs WHERE id" \
	"SELECT d.description FROM docs d WHERE d.id = 'fx.1';" \
	"$(printf 'The device is not online.\nAn operation on it failed.\n\nThe operation is not retried.')"
check_query "search MATCH" \
	"SELECT id FROM search WHERE search MATCH 'online' ORDER BY rank;" "fx.1"
check_query "search MATCH in a catalog's description" \
	"SELECT id FROM search WHERE search MATCH 'paragraph' ORDER BY rank;" "fx.3"
check_query "translation" \
	"SELECT format FROM translations WHERE id = 'fx.3' AND locale = 'ja';" \
	'%2$s の幅 [%1$*d]'
check_query "build rows" \
	"SELECT key || '=' || value FROM build ORDER BY key;" \
	"$(printf 'banner=\nbuild_id=\nrelease=6.12.118+\nschema=6\nsource=')"
check_query "docs rows: source, catalog, severity, see_also, line" \
	"SELECT id, source, file, line, quote(severity), see_also FROM docs ORDER BY id;" \
	"$(printf 'fx.1|source|msg.c|35|NULL|\nfx.2|source|msg.c|47|NULL|\nfx.3|catalog|catalog/fx.kmsg|2|'"'"'warn'"'"'|fx.1 fx.2')"
check_query "parameters, continued lines joined" \
	"SELECT id || ' @' || position || ' ' || text FROM parameters ORDER BY id, position;" \
	"$(printf 'fx.1 @0 number of the device\nfx.2 @0 number of the device\nfx.2 @1 its status, a negative errno value\nfx.3 @0 the width of something\nfx.3 @1 the name')"
check_query "messages: format without newline, level, device, object" \
	"SELECT id, level, format, file, line, function, object, device FROM messages;" \
	"$(printf 'fx.1|3|device %%x not online|msg.c|10|fx_probe|good|0\nfx.2|6|device %%x has status %%i (100%%%%)|msg.c|11|fx_probe|good|0\nfx.3|4|width [%%*d] of %%s|msg.c|12|fx_probe|good|1')"

# a failed build writes nothing, and keeps what was there
nodb=$work/nodb/kmsg.db
mkdir -p "$work/nodb"
(cd "$here/fixtures/docformat" && "$kd" build-db --out "$nodb" --srctree . \
	"$work/fixtures/docformat.o") > "$work/nodb.out" 2>&1
rc=$?
status=0
{ [ $rc = 1 ] && [ -z "$(ls -A "$work/nodb")" ]; } || status=1
grep -q "error: documented format of fx.1 differs" "$work/nodb.out" || status=1
ls -A "$work/nodb" >> "$work/nodb.out"
result "build-db with errors: exit 1, no output file, no temporary file" \
	$status "$work/nodb.out"

cp "$db1" "$nodb"
(cd "$here/fixtures/docformat" && "$kd" build-db --out "$nodb" --srctree . \
	"$work/fixtures/docformat.o") > "$work/nodb.out" 2>&1
status=0
cmp -s "$db1" "$nodb" || status=1
[ "$(ls -A "$work/nodb")" = kmsg.db ] || status=1
result "build-db with errors: an existing database stays as it was" \
	$status "$work/nodb.out"

(cd "$good" && "$kd" build-db --out "$work/nodb/other.db" --srctree . \
	--catalog catalog "$work/corrupt-index-addend.o" "$work/fixtures/good.o") \
	> "$work/nodb.out" 2>&1
rc=$?
status=0
{ [ $rc = 1 ] && [ ! -e "$work/nodb/other.db" ]; } || status=1
grep -q "corrupt printk index" "$work/nodb.out" || status=1
result "build-db with a corrupt object: exit 1, no output file" $status "$work/nodb.out"

# An input with nothing usable is an error naming it, never an empty
# database: a directory without kernel objects, objects without a printk
# index and no printk call, a damaged compressed kernel image
mkdir -p "$work/noindex/empty" "$work/noindex/mods"
printf 'int f(void) { return 0; }\n' > "$work/noindex/f.c"
gcc -c "$work/noindex/f.c" -o "$work/noindex/mods/a.ko" &&
	cp "$work/noindex/mods/a.ko" "$work/noindex/mods/b.ko"
{ head -c 514 /dev/zero; printf 'HdrS'; head -c 100 /dev/zero; } > "$work/noindex/vmlinuz"
status=0
for c in "empty:no kernel image or module (vmlinuz, vmlinux, *.ko)" \
	 "mods:no printk call site in its kernel images and modules, and no printk index" \
	 "mods/a.ko:no printk call site in its kernel images and modules, and no printk index" \
	 "vmlinuz:bzImage: no boot_flag 0xAA55 at 0x1FE"; do
	for cmd in build-db check; do
		rm -f "$work/noindex/out.db"
		args=("$cmd")
		[ "$cmd" = build-db ] && args+=(--out out.db)
		(cd "$work/noindex" && "$kd" "${args[@]}" "${c%%:*}") \
			> "$work/noindex.out" 2>&1
		rc=$?
		if [ $rc != 1 ] || [ -e "$work/noindex/out.db" ] ||
		   ! grep -qF "${c%%:*}: ${c#*:}" "$work/noindex.out"; then
			echo "$cmd ${c%%:*}: exit $rc" >> "$work/noindex.log"
			cat "$work/noindex.out" >> "$work/noindex.log"
			status=1
		fi
	done
done
result "build-db and check: an input with nothing usable is an error naming it" \
	$status "$work/noindex.log"

# ---- usage ----

status=0
for args in "" "frobnicate x.o" "check" "build-db x.o" "check --out x.db x.o" \
	    "check --template=html x.o" "build-db --out x.db --template=source x.o" \
	    "auto-id" "auto-id x" "auto-id x y z" "auto-id a-b x" "auto-id a.b x"; do
	# shellcheck disable=SC2086
	"$kd" $args > /dev/null 2>> "$work/usage.err"
	rc=$?
	[ $rc = 2 ] || { echo "kmsg-doc $args: exit $rc, expected 2"; status=1; }
done > "$work/usage.out"
result "usage errors: exit 2" $status "$work/usage.out"

# undocumented messages do not stop the database: they are in messages,
# not in docs, and reported as warnings
(cd "$here/fixtures/missing" && "$kd" build-db --out "$work/missing.db" \
	--srctree . "$work/fixtures/missing.o") > "$work/missing-db.out" 2>&1
status=$?
grep -q "warning: Missing description for: fx.1" "$work/missing-db.out" || status=1
[ "$(sqlite3 "$work/missing.db" "SELECT count(*) FROM messages WHERE id = 'fx.1'")" = 1 ] || status=1
[ "$(sqlite3 "$work/missing.db" "SELECT count(*) FROM docs WHERE id = 'fx.1'")" = 0 ] || status=1
result "build-db: an undocumented message is in messages, not in docs" \
	$status "$work/missing-db.out"

# ---- automatic ids and their aliases ----

# kmsg-doc auto-id MODNAME FORMAT: "MODNAME.h" and FNV-1a(FORMAT); the
# last three computed independently (python3, docs-db/FORMAT.md)
status=0
while IFS='|' read -r mod fmt want; do
	got=$("$kd" auto-id "$mod" "$fmt" 2>&1)
	[ "$got" = "$want" ] || { echo "auto-id $mod \"$fmt\": $got, expected $want"; status=1; }
done > "$work/auto-id.out" <<'EOT'
x||x.h811c9dc5
x|a|x.he40c292c
clocksource|clocksource: Switched to clocksource %s|clocksource.h58743ee5
oom_kill|%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%hd|oom_kill.h3196cc8e
oom_kill|Out of memory and no killable processes...|oom_kill.h923b9134
EOT
result "kmsg-doc auto-id: FNV-1a test vectors and real formats" $status "$work/auto-id.out"

aliases=$here/fixtures/aliases
adb=$work/aliases.db
(cd "$aliases" && "$kd" build-db --out "$adb" --srctree . --catalog catalog \
	"$work/fixtures/aliases.o") > "$work/aliases-db.out" 2>&1
status=$?
got=$(sqlite3 "$adb" "SELECT id, auto_id, modname, quote(format), position, file, line
	FROM aliases ORDER BY rowid" 2>&1)
expect="fx.5|fxdrv.h60fbad38|fxdrv|'fxdrv: link %d is down'|0|catalog/fx.kmsg|22
fx.10|fxdrv.h7938bce2|fxdrv|'fxdrv: device %s is offline'|0|catalog/fx.kmsg|7
fx.10|fxdrv.hc47d3668|fxdrv|'fxdrv: device %s went offline'|1|catalog/fx.kmsg|9
fx.10|fxold.h0badcafe|fxold|NULL|2|catalog/fx.kmsg|10
fx.11|fx_drv2.hb5e77fa2|fx_drv2|'  detail %u'|0|catalog/fx.kmsg|33
fx.1|fx.he26e31c9|fx|NULL|0|msg.c|12
fx.5|fx.hf2233749|fx|NULL|1|msg.c|14"
[ "$got" = "$expect" ] || status=1
printf 'got:\n%s\nexpected:\n%s\n' "$got" "$expect" >> "$work/aliases-db.out"
result "build-db: aliases, ids computed from modname and format, three wordings of fx.10, the kmsg_*() sites' automatic ids" \
	$status "$work/aliases-db.out"

lookup=$out/docs_lookup
check_lookup() {	# check_lookup DESC DB "ARGS" EXPECTED-STATUS EXPECTED-OUTPUT
	local got rc
	# shellcheck disable=SC2086
	got=$("$lookup" "$2" $3 2>&1)
	rc=$?
	if [ "$got" = "$5" ] && [ $rc = "$4" ]; then
		ok 0 "lookup: $1"
	else
		printf 'docs_lookup %s: exit %s, got:\n%s\nexpected (exit %s):\n%s\n' \
			"$3" "$rc" "$got" "$4" "$5" | diag
		not_ok "lookup: $1"
	fi
}

check_lookup "automatic id -> identifier (each wording)" "$adb" \
	"curated fxold.h0badcafe" 0 "fx.10"
check_lookup "automatic id -> identifier, the documented format's" "$adb" \
	"curated fxdrv.h7938bce2" 0 "fx.10"
check_lookup "an automatic id nobody documents" "$adb" \
	"curated fxdrv.h00000000" 1 "none"
check_lookup "identifier -> its automatic ids, in the catalog's order" "$adb" \
	"autos fx.10" 0 "fxdrv.h7938bce2 fxdrv fxdrv: device %s is offline
fxdrv.hc47d3668 fxdrv fxdrv: device %s went offline
fxold.h0badcafe fxold (none)"
check_lookup "identifier of a kmsg_*() message: its site's automatic id" "$adb" \
	"autos fx.1" 0 "fx.he26e31c9 fx (none)"
check_lookup "get an identifier: its forms; the level of its kmsg_*() site" "$adb" \
	"get fx.5" 0 "id fx.5
format fxdrv: link %d is down
level 4
file catalog/fx.kmsg:20
alias fxdrv.h60fbad38 fxdrv fxdrv: link %d is down
alias fx.hf2233749 fx (none)"
check_lookup "get an automatic id: the documentation of its identifier" "$adb" \
	"get fxdrv.hc47d3668" 0 "id fx.10
format fxdrv: device %s is offline
level 3
file catalog/fx.kmsg:5
alias fxdrv.h7938bce2 fxdrv fxdrv: device %s is offline
alias fxdrv.hc47d3668 fxdrv fxdrv: device %s went offline
alias fxold.h0badcafe fxold (none)"
check_lookup "translation of the documented format's automatic id" "$adb" \
	"tr fxdrv.h7938bce2 de_DE.UTF-8" 0 "fxdrv: Gerät %s ist offline"
check_lookup "no translation for another wording (checked against the format only)" \
	"$adb" "tr fxdrv.hc47d3668 de" 1 "none"

# every call site of the build, plain ones under their automatic ids
(cd "$here/fixtures/plain" && "$kd" build-db --out "$work/plain.db" \
	--srctree . "$work/fixtures/plain.o") > "$work/plain-db.out" 2>&1
status=$?
got=$(sqlite3 "$work/plain.db" "SELECT id, component, number, level, format,
	line, quote(prefix), cont, device FROM messages;
	SELECT count(DISTINCT id) FROM messages;
	SELECT value FROM build WHERE key = 'schema';
	SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'
	ORDER BY name" 2>&1)
expect="fx.1|fx|1|3|device %x not online|12|NULL|0|0
fxplain.h82f157ac|fxplain|0|4|fxplain: link %d is down|13|NULL|0|0
fxplain.h27a360b2|fxplain|0|4|no level %u|14|NULL|0|0
fxplain.h5b22be0a|fxplain|0|4| more|15|NULL|1|0
fxplain.h7b8dceba|fxplain|0|6|device ready after %lu ms|16|'%s %s: '|0|1
fxplain.h82f157ac|fxplain|0|4|fxplain: link %d is down|18|NULL|0|0
5
6
messages_format
messages_id"
[ "$got" = "$expect" ] || status=1
[ -s "$work/plain-db.out" ] && status=1	# no warnings for plain sites
printf 'got:\n%s\nexpected:\n%s\n' "$got" "$expect" >> "$work/plain-db.out"
result "build-db: every site, automatic ids, level 4 by default, KERN_CONT, device prefix" \
	$status "$work/plain-db.out"

# check --coverage --log --templates: counts per component over every
# site, the undocumented by how often the log has them, catalog templates
# that document the build once filled in
printf '%s\n' '[    1.000000] fxplain: link 3 is down' '<4>[    2.0] fxplain: link 4 is down' \
	'no level 7' 'fxdrv 0000:01: device ready after 10 ms' 'something else' > "$work/fx.log"
rm -rf "$work/tpl" "$work/tplcat"
(cd "$here/fixtures/plain" && "$kd" check --srctree . --coverage --log "$work/fx.log" \
	--templates "$work/tpl" "$work/fixtures/plain.o") > "$work/cov.out" 2>&1
status=$?
sed -i "s|$work|@WORK@|g" "$work/cov.out"
cat > "$work/cov.want" <<'EOT'
# Coverage: messages (distinct ids) per component
component                 messages  documented  undocumented
fx                               1           1             0
fxplain                          4           0             4
total                            5           1             4
# Undocumented messages in @WORK@/fx.log, most frequent first (approximate):
      2 fxplain.h82f157ac "fxplain: link %d is down"
      1 fxplain.h27a360b2 "no level %u"
      1 fxplain.h7b8dceba "device ready after %lu ms"
EOT
diff -u "$work/cov.want" "$work/cov.out" >> "$work/cov.diff" 2>&1 || status=1
[ "$(ls "$work/tpl")" = fxplain.kmsg ] || status=1
grep -c '^id: fxplain\.[1-4]$' "$work/tpl/fxplain.kmsg" | grep -qx 4 || status=1
sed -n 3p "$work/tpl/fxplain.kmsg" | grep -qx '# seen 2 times in the log' || status=1
grep -qx 'format: " more"' "$work/tpl/fxplain.kmsg" || status=1
mkdir -p "$work/tplcat"
sed -e 's/^description:$/description:\n Filled in./' -e 's/^parameter: @\([0-9]\)$/parameter: @\1 a value/' "$work/tpl/fxplain.kmsg" \
	> "$work/tplcat/fxplain.kmsg"
(cd "$here/fixtures/plain" && "$kd" check --srctree . --catalog "$work/tplcat" \
	--coverage "$work/fixtures/plain.o") > "$work/cov2.out" 2>&1 || status=1
grep -q '^total  *5  *5  *0$' "$work/cov2.out" || status=1
(cd "$here/fixtures/plain" && "$kd" check --srctree . --templates "$work/tpl" \
	"$work/fixtures/plain.o") > "$work/cov3.out" 2>&1
[ $? = 1 ] && grep -q 'fxplain.kmsg: File exists' "$work/cov3.out" || status=1
cat "$work/cov.diff" "$work/cov2.out" "$work/cov3.out" > "$work/cov.all" 2>/dev/null
result "check --coverage --log --templates: counts, log order, templates that document the build once filled in, none overwritten" \
	$status "$work/cov.all"

# a build printing an older wording: its automatic id is still the
# catalog's identifier
rdb=$work/reworded.db
(cd "$here/fixtures/reworded" && "$kd" build-db --out "$rdb" --srctree . \
	--catalog catalog "$work/fixtures/reworded.o") > "$work/reworded-db.out" 2>&1
status=$?
got=$(sqlite3 "$rdb" "SELECT m.id, a.id, a.position FROM messages m
	JOIN aliases a ON a.auto_id = m.id ORDER BY m.line" 2>&1)
expect="fxdrv.hc47d3668|fx.10|1
fxdrv.hb46064ec|fx.11|0"
[ "$got" = "$expect" ] || status=1
printf 'got:\n%s\nexpected:\n%s\n' "$got" "$expect" >> "$work/reworded-db.out"
result "build-db: an older wording keeps its identifier (fx.10), no error" \
	$status "$work/reworded-db.out"
check_lookup "reworded: the older wording's automatic id is documented by fx.10" \
	"$rdb" "curated fxdrv.hc47d3668" 0 "fx.10"
check_lookup "reworded: fx.10 has both wordings, its site is the older one's" "$rdb" \
	"get fx.10" 0 "id fx.10
format fxdrv: device %s is offline
level 3
file catalog/fx.kmsg:3
alias fxdrv.h7938bce2 fxdrv fxdrv: device %s is offline
alias fxdrv.hc47d3668 fxdrv fxdrv: device %s went offline"

# the generated build of make bench (gen-bench-db.sh), small: every
# message in, documented, the translations of the first entry
gen=$work/gen
rm -rf "$gen"
status=0
"$here/../gen-bench-db.sh" 2000 "$gen" > "$work/gen.out" 2>&1 || status=1
(cd "$gen" && "$kd" build-db --out "$gen/bench.db" --catalog catalog bench.o) \
	>> "$work/gen.out" 2>&1 || status=1
got=$(sqlite3 "$gen/bench.db" "SELECT count(*) FROM messages; SELECT count(*) FROM docs;
	SELECT count(*) FROM aliases; SELECT count(*) FROM translations;
	SELECT count(*) FROM messages m JOIN aliases a ON a.auto_id = m.id" 2>&1)
[ "$got" = "$(printf '2000\n2000\n2000\n2000\n2000')" ] || status=1
echo "got: $got" >> "$work/gen.out"
result "gen-bench-db.sh 2000: build-db takes 2000 documented messages, 2000 translations" \
	$status "$work/gen.out"

# a database of schema 1, without the aliases table, is still read
cp "$adb" "$work/schema1.db"
sqlite3 "$work/schema1.db" "DROP TABLE aliases; UPDATE build SET value = '1' WHERE key = 'schema'"
check_lookup "schema 1: no aliases, identifiers still found" "$work/schema1.db" \
	"get fx.10" 0 "id fx.10
format fxdrv: device %s is offline
level 3
file catalog/fx.kmsg:5"
check_lookup "schema 1: an automatic id is not documented" "$work/schema1.db" \
	"curated fxdrv.h7938bce2" 1 "none"

# ---- diff: two releases ----

# fixtures/diff/old and new are two builds, each with its catalog;
# fixtures/diff/report is the exact report of the databases of both
fxd=$here/fixtures/diff
dw=$work/diff
mkdir -p "$dw"
status=0
for s in old new; do
	compile "$fxd/$s" "$dw/$s.o" || { cat "$work/cc.log"; status=1; }
	(cd "$fxd/$s" && "$kd" build-db --out "$dw/$s.db" --srctree . \
		--catalog catalog "$dw/$s.o") || status=1
done > "$dw/build.out" 2>&1
result "diff: the fixture builds and their databases" $status "$dw/build.out"

# diff_run NAME WANT-RC ARGS...: stdout in $dw/NAME.out, stderr in .err
diff_run() {
	local name=$1 want=$2
	shift 2
	"$kd" diff "$@" > "$dw/$name.out" 2> "$dw/$name.err"
	local rc=$?
	echo "exit status $rc, expected $want" >> "$dw/$name.err"
	[ $rc = "$want" ] && sanitizer_clean "$dw/$name.err"
}

status=0
diff_run text 1 "$dw/old.db" "$dw/new.db" || status=1
diff -u "$fxd/report" "$dw/text.out" > "$dw/text.diff" 2>&1 || status=1
cat "$dw/text.err" >> "$dw/text.diff"
result "diff: removed, added, reworded (with the proposed catalog text), level and argument type changes; exit 1 when something breaks" \
	$status "$dw/text.diff"

# the same as JSON, one object per change
status=0
diff_run json 1 --json "$dw/old.db" "$dw/new.db" || status=1
python3 - "$dw/json.out" > "$dw/json.check" 2>&1 <<'PY' || status=1
import json, sys
got = [json.loads(l) for l in open(sys.argv[1])]
kinds = [(o["kind"], o.get("id") or o["old_id"], o["breaking"]) for o in got]
want = [("removed", "fxdiff.h310ba2bd", False),
        ("removed", "fxdiff.h4a2e3382", True),
        ("added", "fxdiff.h4c5051b8", False),
        ("reworded", "fxdiff.h7dc0d187", False),
        ("reworded", "fxdiff.hcfb865ab", True),
        ("reworded", "fxdiff.hd592297a", False),
        ("level", "fxdiff.h6ea109a9", True),
        ("argtype", "fxdiff.h7dc0d187", True)]
assert kinds == want, kinds
r = got[4]
assert r["new_id"] == "fxdiff.h022784b9" and r["old_curated_id"] == "fxd.2", r
assert r["proposal"].endswith('auto-id: fxdiff "fxdiff: link %d went down"\n'), r
assert r["similarity"] == 0.75, r
a = got[7]
assert (a["old_args"], a["new_args"]) == ("%u %u", "%s %u"), a
assert (got[6]["old_level"], got[6]["new_level"]) == ("info", "notice")
assert got[1]["curated_id"] == "fxd.4" and got[1]["documented"]
PY
cat "$dw/json.err" >> "$dw/json.check"
result "diff --json: one object per change, with kind, breaking and the proposal" \
	$status "$dw/json.check"

# the proposals pasted into the new catalog: fxd.2 keeps its identifier,
# the undocumented message gets one, and nothing else changes
status=0
rm -rf "$dw/pasted" && cp -r "$fxd/new" "$dw/pasted"
line=$(sed -n 's/^# add to the entry fxd.2 (catalog\/fxd.kmsg:\([0-9]*\)):$/\1/p' \
	"$dw/text.out")
sed -n '/^# add to the entry fxd.2 /,/^$/p' "$dw/text.out" | grep '^auto-id' \
	> "$dw/auto-id"
[ -n "$line" ] && sed -i "${line}r $dw/auto-id" "$dw/pasted/catalog/fxd.kmsg"
sed -n '/^# a new entry (fxdiff.kmsg):$/,/^$/p' "$dw/text.out" | \
	sed 's/^description:$/description: Bank mapping failed./' \
	> "$dw/pasted/catalog/fxdiff.kmsg"
(cd "$dw/pasted" && "$kd" build-db --out "$dw/pasted.db" --srctree . \
	--catalog catalog "$dw/new.o") > "$dw/pasted.out" 2>&1 || status=1
diff_run pasted-diff 1 "$dw/old.db" "$dw/pasted.db" || status=1
grep '^reworded fxdiff.hcfb865ab -> fxdiff.h022784b9 75% ' "$dw/pasted-diff.out" | \
	grep -q BREAKING && status=1
sqlite3 "$dw/pasted.db" "SELECT id FROM aliases WHERE auto_id IN
	('fxdiff.h022784b9', 'fxdiff.h6b536a75', 'fxdiff.h7dc0d187') ORDER BY auto_id" \
	> "$dw/pasted.ids" 2>&1
[ "$(cat "$dw/pasted.ids")" = "$(printf 'fxd.2\nfxdiff.1\nfxdiff.1')" ] || status=1
cat "$dw/pasted.ids" "$dw/pasted-diff.out" "$dw/pasted-diff.err" >> "$dw/pasted.out"
result "diff: the proposed catalog text, pasted, builds and keeps the curated ids" \
	$status "$dw/pasted.out"

# builds as OLD and NEW: the same build is no change (exit 0); another
# with only an added message and an undocumented rewording breaks nothing
status=0
diff_run same 0 "$dw/old.o" "$dw/old.o" || status=1
[ "$(cat "$dw/same.out")" = "# 0 removed, 0 added, 0 reworded, 0 level changes, 0 argument type changes; 0 breaking" ] || status=1
mkdir -p "$dw/calm"
sed -e 's/firmware version %s/firmware version is %s/' \
    -e 's|^\t/\* unchanged \*/$|\tPLAIN(INFO, "fxdiff: %u queues\\n");|' \
	"$fxd/old/msg.c" > "$dw/calm/msg.c"
(cd "$dw/calm" && $CC $FIXCFLAGS -I"$here" msg.c -o "$dw/calm.o") > "$dw/calm.cc" 2>&1 || status=1
diff_run calm 0 "$dw/old.o" "$dw/calm.o" || status=1
grep -c '^added \|^reworded ' "$dw/calm.out" | grep -qx 2 || status=1
grep -q BREAKING "$dw/calm.out" && status=1
cat "$dw/same.out" "$dw/same.err" "$dw/calm.cc" "$dw/calm.out" "$dw/calm.err" > "$dw/builds.out"
result "diff of builds: exit 0 without changes and with only non-breaking ones" \
	$status "$dw/builds.out"

# bad input: clear errors naming the file, exit 2
status=0
printf 'not a database\n' > "$dw/junk"
cp "$dw/old.db" "$dw/schema2.db"
sqlite3 "$dw/schema2.db" "UPDATE build SET value = '2' WHERE key = 'schema'"
cp "$dw/old.db" "$dw/badid.db"
sqlite3 "$dw/badid.db" "UPDATE messages SET id = 'no id' WHERE rowid = 1"
head -c 2048 "$dw/old.db" > "$dw/short.db"
for c in "junk:$dw/junk: not an ELF, a bzImage or compressed data" \
	"schema2.db:$dw/schema2.db: a docs database of schema \"2\", diff needs schema 3 to 6" \
	"badid.db:$dw/badid.db: table messages: malformed id \"no id\"" \
	"short.db:$dw/short.db: " "missing:$dw/missing: No such file or directory"; do
	f=${c%%:*} want=${c#*:}
	diff_run "bad-$f" 2 "$dw/old.db" "$dw/$f" || status=1
	grep -qF "$want" "$dw/bad-$f.err" || status=1
	cat "$dw/bad-$f.err"
done > "$dw/bad.out" 2>&1
diff_run usage 2 "$dw/old.db" >> "$dw/bad.out" 2>&1 || status=1
result "diff: not a database, wrong schema, malformed row, truncated file, missing file, usage: exit 2, named" \
	$status "$dw/bad.out"

tap_end
echo "# $((n - failed)) passed, $failed failed"
exit 0
