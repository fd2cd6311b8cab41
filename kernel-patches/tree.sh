#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Keep build/linux, a git tree of Debian's linux-source-6.12 with the
# kmsg series applied, in step with kernel-patches/.
#
#   tree.sh prepare BUILD PATCHDIR   unpack (when needed) and apply the series
#   tree.sh export  BUILD PATCHDIR   write the tree's commits back as patches
#
# The pristine tree is committed and tagged "base". The series is applied
# with git am; the state after applying is remembered in BUILD/series.stamp
# so that an unchanged series is not applied again (that would touch every
# patched file and rebuild much of the kernel). Commits a developer made in
# build/linux are never thrown away: if they are not exported and the
# series changed under them, prepare stops and says so.
set -euo pipefail

cmd=${1:?usage: tree.sh prepare|export BUILD PATCHDIR}
build=$(realpath -m "${2:?BUILD}")
patchdir=$(realpath "${3:?PATCHDIR}")
tree=$build/linux
tarball=/usr/src/linux-source-6.12.tar.xz
stamp=$build/series.stamp

die() { echo "tree.sh: $*" >&2; exit 1; }
g() { git -C "$tree" "$@"; }

series_files() {
	[ -f "$patchdir/series" ] || return 0
	grep -v '^[[:space:]]*\(#\|$\)' "$patchdir/series" | sed "s|^|$patchdir/|"
}

# Hash of the series as it is in kernel-patches/
series_hash() {
	local f
	{ cat "$patchdir/series" 2>/dev/null || true
	  for f in $(series_files); do
		[ -f "$f" ] || die "series names $f, which does not exist"
		cat "$f"
	  done; } | sha256sum | cut -d' ' -f1
}

# Hash of what the tree's commits would export as
tree_hash() {
	local tmp
	tmp=$(mktemp -d)
	format_patches "$tmp"
	(cd "$tmp" && cat series $(cat series)) | sha256sum | cut -d' ' -f1
	rm -rf "$tmp"
}

# The series as git format-patch writes it, except that a blank context
# line is written empty rather than as a single space (git am reads both),
# so that no line of a patch file ends in whitespace.
format_patches() {
	local out=$1
	g format-patch -q --zero-commit --no-signature -o "$out" base..HEAD \
		>/dev/null
	sed -i 's/^ $//' "$out"/*.patch 2>/dev/null || true
	(cd "$out" && ls -1 | grep '\.patch$' > series || true)
}

source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null ||
		die "linux-source-6.12 is not installed"
}

unpack() {
	local version=$1
	echo "  UNPACK  $tarball ($version)"
	rm -rf "$tree" "$build/linux-source-6.12" "$stamp"
	mkdir -p "$build"
	tar -C "$build" -xf "$tarball"
	mv "$build/linux-source-6.12" "$tree"
	# Debian's .gitignore ignores the whole top level; drop that part so
	# that new files can be committed as in any kernel tree.
	sed -i '/^# Debian packaging: ignore everything/,$d' "$tree/.gitignore"
	g init -q -b kmsg
	g config user.name >/dev/null || g config user.name "kmsg build"
	g config user.email >/dev/null || g config user.email "kmsg@localhost"
	g add -A
	g commit -q -m "Linux $(make -s -C "$tree" kernelversion) (Debian linux-source-6.12 $version)"
	g tag base
	echo "$version" > "$build/linux.version"
}

apply_series() {
	local f
	g am --abort >/dev/null 2>&1 || true
	g reset -q --hard base
	g clean -qfd
	for f in $(series_files); do
		if ! g am -q --keep-cr "$f" >/dev/null 2>&1; then
			g am --abort >/dev/null 2>&1 || true
			die "patch does not apply to $(cat "$build/linux.version"): $(basename "$f")"
		fi
		echo "  APPLY   $(basename "$f")"
	done
}

prepare() {
	local version want have
	version=$(source_version)
	if [ ! -d "$tree/.git" ] || [ "$(cat "$build/linux.version" 2>/dev/null)" != "$version" ]; then
		[ -d "$tree/.git" ] && [ -f "$stamp" ] &&
			[ "$(g rev-parse HEAD)" != "$(sed -n 2p "$stamp")" ] &&
			die "linux-source-6.12 is now $version, but build/linux has unexported commits: run 'make patches' first"
		unpack "$version"
	fi
	echo "  KERNEL  Linux $(make -s -C "$tree" kernelversion), Debian linux-source-6.12 $version"

	want=$(series_hash)
	if [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$want" ]; then
		[ "$(g rev-parse HEAD)" = "$(sed -n 2p "$stamp")" ] && return 0
		echo "  NOTE    build/linux has commits not in kernel-patches/ (run 'make patches' to export them)"
		return 0
	fi
	if [ -f "$stamp" ] && [ "$(g rev-parse HEAD)" != "$(sed -n 2p "$stamp")" ]; then
		have=$(tree_hash)
		[ "$have" = "$want" ] ||
			die "kernel-patches/ changed, and build/linux has commits that are not in it; run 'make patches' or reset build/linux"
	else
		apply_series
	fi
	printf '%s\n%s\n' "$want" "$(g rev-parse HEAD)" > "$stamp"
}

export_series() {
	local tmp
	[ -d "$tree/.git" ] || die "no build/linux: run 'make kernel' first"
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "build/linux has uncommitted changes: commit them first"
	tmp=$(mktemp -d)
	format_patches "$tmp"
	find "$patchdir" -maxdepth 1 -name '*.patch' ! -name '0000-cover-letter.patch' -delete
	cp "$tmp"/*.patch "$tmp/series" "$patchdir/" 2>/dev/null || cp "$tmp/series" "$patchdir/"
	rm -rf "$tmp"
	sed 's/^/  PATCH   /' "$patchdir/series"
	printf '%s\n%s\n' "$(series_hash)" "$(g rev-parse HEAD)" > "$stamp"
}

# build/linux.head: the tree's HEAD, rewritten only when it changes, for
# make to reconfigure on
record_head() {
	local head
	head=$(g rev-parse HEAD)
	[ "$(cat "$build/linux.head" 2>/dev/null)" = "$head" ] ||
		echo "$head" > "$build/linux.head"
}

case $cmd in
prepare) prepare; record_head ;;
export) export_series ;;
*) die "unknown command $cmd" ;;
esac
