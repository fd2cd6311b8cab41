#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fuzz targets' smoke run, for make check: build them (clang, ASan,
# UBSan, libFuzzer) and run each for FUZZ_RUNS executions (at least 10^4)
# from the committed seeds in corpus/, with a fixed seed so that a run
# is repeatable.  A crash, a sanitizer report, a leak, a hang (over 10 s
# for one input) or more than 2 GiB of memory fails the target; the input
# is kept in $O/artifacts.  TAP on stdout; the exit status is 0 whatever
# the results (1 for a bail-out).
#
# O: the build directory (default build/tools/fuzz); TOOLS, as for the
# other tests, names its parent.
set -u
here=$(dirname "$(realpath "$0")")
. "$here/../tests/tap.sh"
out=${O:-${TOOLS:-$here/../../build/tools}/fuzz}
runs=${FUZZ_RUNS:-10000}
targets=(render event catalog srcdoc ksyms index docs tracedat id dmesg match diff unpack sites follow dwarf snap reports)
mkdir -p "$out/artifacts"
out=$(realpath "$out")
# the index, docs and unpack targets write each input to a file
[ -z "${TMPDIR:-}" ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm

tap_begin
tap_plan ${#targets[@]}
if ! make -s -C "$here" O="$out" all > "$out/build.log" 2>&1; then
	diag "$out/build.log"
	bail "the fuzz targets do not build (clang, libclang-rt-14-dev: make deps)"
fi
failed=0
for t in "${targets[@]}"; do
	work=$out/check-$t
	rm -rf "$work"
	mkdir -p "$work"
	start=$(date +%s%N)
	seeds=("$here/corpus/$t")
	# the doctests' fixtures: C sources with doc comments
	[ "$t" = srcdoc ] && seeds+=("$here/../doctests/fixtures")
	"$out/fuzz_$t" -runs="$runs" -seed=1 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" \
		"$work" "${seeds[@]}" > "$out/check-$t.log" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/check-$t.log")
	rm -rf "$work"
	if [ $rc = 0 ] && [ "${execs:-0}" -ge "$runs" ]; then
		ok 0 "$(printf 'fuzz_%s: %d executions in %d.%d s, no finding' \
			"$t" "$execs" $((ms / 1000)) $((ms % 1000 / 100)))"
	else
		failed=$((failed + 1))
		grep -v '^#\|^INFO\|^stat::' "$out/check-$t.log" | tail -n 40 | diag
		echo "# reproduce: $out/fuzz_$t $out/artifacts/$t-*"
		ok 1 "fuzz_$t: exit status $rc, ${execs:-0} executions"
	fi
done
tap_end
echo "# $((n - failed)) passed, $failed failed"
exit 0
