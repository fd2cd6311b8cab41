# SPDX-License-Identifier: GPL-2.0
#
# kmsg: identifiers for Linux kernel messages.
#
#   make demo      build everything, boot the guest, show the messages
#   make check     host tests, then the kselftests in the guest
#
#   make kernel    unpack Debian's linux-source-6.12, apply kernel-patches/,
#                  configure (tinyconfig + qemu/kernel.config) and build
#   make patches   export the commits of build/linux to kernel-patches/
#   make initramfs the guest's initramfs: busybox, modules, kselftests
#   make bench     benchmarks (guest: cost of a message next to printk;
#                  host: kmsg-doc build-db of 10^5 messages, also make bench-db;
#                  kmsg dmesg --json with Debian's database, its start-up,
#                  size and make distro-db time, also make bench-dmesg)
#   make kmsg-check  the checker: are the build's messages documented?
#   make docs-db   the docs database of this build (build/docs-db/kmsg.db)
#   make distro-db the database of a stock Debian kernel package, as Debian
#                  ships it: DISTRO_KERNEL (linux-image-6.12.118+deb12-amd64-
#                  unsigned; any linux-image-*-unsigned), in build/distro-db/;
#                  make distro-db-6.1: Debian 12's 6.1 (DISTRO_KERNEL_61), the
#                  kernel of the real machines' logs of tools/tests/hwlogs/
#   make man       a man page per message, and a printable manual
#   make deps      install the Debian packages all of this needs
#   make fuzz      the tools' fuzz targets, each for FUZZ_SECONDS (60)
#   make install   the tools, man pages, plugin, systemd unit and, once
#                  built (make docs-db), the database, the message man
#                  pages and the journal catalog; make uninstall
#   make kernel-debug  the same series with KASAN, UBSAN, lockdep, KFENCE
#                  (qemu/kernel-debug.config) in build/obj-debug; make
#                  check runs the kselftests on it too
#
#   make stock-boot  Debian's own kernel (DISTRO_DEB, the linux-image .deb)
#                  booted unmodified with a few of its modules: its log in
#                  build/stock/ (qemu/stock-boot.sh)
#
# Variables: PREFIX (/usr/local) and DESTDIR for make install.
# Variables: JOBS (parallel jobs), ACCEL (tcg|kvm|auto), TIMEOUT (guest
# boot limit in seconds), V=1 (verbose kernel build).

SHELL := /bin/bash
.DELETE_ON_ERROR:

TOP := $(CURDIR)
BUILD := $(TOP)/build
KSRC := $(BUILD)/linux
KOBJ := $(BUILD)/obj
MODROOT := $(BUILD)/modroot
KSELFTEST := $(BUILD)/kselftest
INITRD := $(BUILD)/initramfs.cpio.gz
BZIMAGE := $(KOBJ)/arch/x86/boot/bzImage
# the debug guest: the same tree and series, another configuration
KOBJ_DEBUG := $(BUILD)/obj-debug
MODROOT_DEBUG := $(BUILD)/modroot-debug
KSELFTEST_DEBUG := $(BUILD)/kselftest-debug
INITRD_DEBUG := $(BUILD)/initramfs-debug.cpio.gz
BZIMAGE_DEBUG := $(KOBJ_DEBUG)/arch/x86/boot/bzImage

JOBS ?= $(shell nproc)
ACCEL ?= tcg
TIMEOUT ?= 600
export CCACHE_DIR ?= $(BUILD)/ccache

# $(call kmake,OBJ): make in the tree, output in OBJ
kmake = $(MAKE) -C $(KSRC) O=$(1) -j$(JOBS) \
	$(if $(shell command -v ccache),CC="ccache gcc") $(if $(V),V=1,-s)
KMAKE = $(call kmake,$(KOBJ))

DEB_PKGS := linux-source-6.12 gcc make libc6-dev flex bison bc libelf-dev libzydis-dev python3 \
	libssl-dev cpio kmod busybox-static qemu-system-x86 ccache git \
	xz-utils file perl gzip rsync time pkg-config libtraceevent-dev libtracefs-dev \
	libtracecmd-dev trace-cmd libsqlite3-dev sqlite3 zlib1g-dev man-db \
	clang libclang-rt-14-dev libsystemd-dev systemd-journal-remote locales \
	dpkg-dev binutils bsdutils libarchive-dev libdw-dev zstd lz4 bzip2 systemd strace

.PHONY: all deps kernel patches selftests tools initramfs demo bench bench-db bench-dmesg \
	distro-db distro-db-6.1 check deb \
	kmsg-check docs-db man fuzz install uninstall kernel-debug \
	selftests-debug initramfs-debug host-tests guest-check record-tests \
	guest-check-debug storm-report stock-boot stock-check clean distclean

all: demo

# Check the Debian packages; install the missing ones when root, else
# print the apt-get line and stop.
deps:
	@missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "Missing packages. Run:"; \
			echo "  sudo apt-get install -y --no-install-recommends" $$missing; \
			exit 1; \
		fi; \
		echo "  APT     install" $$missing; \
		mkdir -p $(BUILD); \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends $$missing >$(BUILD)/apt.log 2>&1 || \
		{ apt-get update -q >>$(BUILD)/apt.log 2>&1 && \
		  apt-get install -y -q --no-install-recommends $$missing >>$(BUILD)/apt.log 2>&1; } || \
		{ tail -n 20 $(BUILD)/apt.log; exit 1; }; \
	fi

# --- kernel -----------------------------------------------------------------

kernel: deps
	@kernel-patches/tree.sh prepare $(BUILD) kernel-patches
	@$(MAKE) -s --no-print-directory $(KOBJ)/.config
	@echo "  BUILD   bzImage modules (JOBS=$(JOBS))"
	@$(KMAKE) bzImage modules
	@rm -rf $(MODROOT)
	@$(KMAKE) INSTALL_MOD_PATH=$(MODROOT) modules_install >/dev/null
	@echo "  KERNEL  $$(cat $(KOBJ)/include/config/kernel.release) -> $(BZIMAGE)"

# Reconfigure when the fragment or the tree (HEAD) changed.
$(KOBJ)/.config: qemu/kernel.config qemu/kconfig.sh $(BUILD)/linux.head
	@echo "  CONFIG  tinyconfig + qemu/kernel.config"
	@qemu/kconfig.sh $(KSRC) $(KOBJ) $(TOP)/qemu/kernel.config

patches:
	@kernel-patches/tree.sh export $(BUILD) kernel-patches

# The debug kernel: built after the main one, from the same tree
kernel-debug: kernel
	@$(MAKE) -s --no-print-directory $(KOBJ_DEBUG)/.config
	@echo "  BUILD   debug bzImage modules (JOBS=$(JOBS))"
	@$(call kmake,$(KOBJ_DEBUG)) bzImage modules
	@rm -rf $(MODROOT_DEBUG)
	@$(call kmake,$(KOBJ_DEBUG)) INSTALL_MOD_PATH=$(MODROOT_DEBUG) modules_install >/dev/null
	@echo "  KERNEL  $$(cat $(KOBJ_DEBUG)/include/config/kernel.release) -> $(BZIMAGE_DEBUG)"

$(KOBJ_DEBUG)/.config: qemu/kernel.config qemu/kernel-debug.config qemu/kconfig.sh \
		$(BUILD)/linux.head
	@echo "  CONFIG  tinyconfig + qemu/kernel.config + qemu/kernel-debug.config"
	@# an option both set is the debug one's (kconfig would warn of the override)
	@cat qemu/kernel.config qemu/kernel-debug.config | tac | \
		awk -F= '!/^CONFIG_/ || !seen[$$1]++' | tac > $(BUILD)/kernel-debug.fragment
	@qemu/kconfig.sh $(KSRC) $(KOBJ_DEBUG) $(BUILD)/kernel-debug.fragment

# --- Debian's stock kernel --------------------------------------------------
# Its vmlinuz and modules, unmodified, under QEMU (TCG): the whole log as
# /dev/kmsg records (build/stock/kmsg.raw) and dmesg -r text.
# The package make distro-db fetched for DISTRO_KERNEL, unless DISTRO_DEB
# names another; else any linux-image package there (one line: a second
# ?= never applies, as the first defines it even when empty)
DISTRO_DEB ?= $(firstword $(wildcard $(BUILD)/distro/$(DISTRO_KERNEL)_*.deb) \
	$(wildcard $(BUILD)/distro/linux-image-*-unsigned_*.deb))
stock-boot:
	@[ -n "$(DISTRO_DEB)" ] || { echo "stock-boot: set DISTRO_DEB to a linux-image .deb, or run make distro-db first" >&2; exit 1; }
	@qemu/stock-boot.sh --timeout $(if $(filter-out 600,$(TIMEOUT)),$(TIMEOUT),300) $(DISTRO_DEB) $(BUILD)/stock

# --- guest ------------------------------------------------------------------

# The selftests live in selftests/; they are built and installed the
# kernel's standard way, from a copy in the tree's tools/testing/selftests.
# qemu/kselftests lists every test the guests must run: the project's
# own collections and the kernel's that cover code the series changes
# (lib: test_printf for vsprintf and vbin_printf). The kernel's install
# succeeds when any one collection builds; a test of the list that was
# not installed stops the build here.
KSFT_LIST := qemu/kselftests
KSFT_TESTS := $(shell grep -v '^[[:space:]]*\(\#\|$$\)' $(KSFT_LIST))
KSFT_TARGETS := $(sort $(foreach t,$(KSFT_TESTS),$(firstword $(subst :, ,$(t)))))
# $(call install-selftests,OBJ,DIR): build the selftests (their test
# modules against the kernel in OBJ) and install them in DIR
define install-selftests
	@$(call kmake,$(1)) headers >/dev/null
	@rm -rf $(2)
	@$(MAKE) -s -C $(KSRC)/tools/testing/selftests \
		TARGETS="$(KSFT_TARGETS)" \
		KHDR_INCLUDES="-isystem $(1)/usr/include" \
		KMSG_LIB=$(TOP)/tools/lib KDIR=$(1) \
		USERLDFLAGS=-static INSTALL_PATH=$(2) install >/dev/null
	@for t in $(KSFT_TESTS); do \
		[ -x $(2)/$${t%%:*}/$${t#*:} ] || \
		{ echo "KSFT: $$t ($(KSFT_LIST)) was not installed in $(2)" >&2; exit 1; }; \
	done
	@[ "$$(sort $(2)/kselftest-list.txt)" = "$$(printf '%s\n' $(KSFT_TESTS) | sort)" ] || \
		{ echo "KSFT: $(2)/kselftest-list.txt is not the list of $(KSFT_LIST):" >&2; \
		  diff <(printf '%s\n' $(KSFT_TESTS) | sort) <(sort $(2)/kselftest-list.txt) >&2; exit 1; }
endef

selftests: kernel
	@for t in selftests/*/; do \
		rsync -a --delete --exclude-from=$$t.gitignore $$t \
			$(KSRC)/tools/testing/selftests/$$(basename $$t)/; \
		grep -qx "/tools/testing/selftests/$$(basename $$t)/" $(KSRC)/.git/info/exclude || \
			echo "/tools/testing/selftests/$$(basename $$t)/" >> $(KSRC)/.git/info/exclude; \
	done
	@echo "  KSFT    $(KSFT_TARGETS)"
	$(call install-selftests,$(KOBJ),$(KSELFTEST))

# the same selftests, their modules built for the debug kernel
selftests-debug: selftests kernel-debug
	@echo "  KSFT    $(KSFT_TARGETS) (debug kernel)"
	$(call install-selftests,$(KOBJ_DEBUG),$(KSELFTEST_DEBUG))

# --- tools ------------------------------------------------------------------

TOOLS := $(BUILD)/tools
tools: deps
	@echo "  TOOLS   kmsg plugin_kmsg.so kmsg-static"
	@$(MAKE) -s -C tools O=$(TOOLS) all static

# The parsers of the tools under libFuzzer (clang, ASan, UBSan), each for
# FUZZ_SECONDS; make check runs each briefly (tools/fuzz/run.sh).
FUZZ_SECONDS ?= 60
fuzz: deps
	@$(MAKE) -s -C tools O=$(TOOLS) FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz

# Install what is built (no kernel build): make install [PREFIX=/usr]
# [DESTDIR=DIR]; the database, its man pages and catalog once make
# docs-db built it. The PREFIX of make uninstall must be the same.
PREFIX ?= /usr/local
INSTALL_VARS = O=$(TOOLS) PREFIX=$(PREFIX) $(if $(DESTDIR),DESTDIR=$(abspath $(DESTDIR))) \
	$(if $(wildcard $(DOCS_DB)),DOCS_DB=$(DOCS_DB))
install:
	@$(MAKE) -s -C tools $(INSTALL_VARS) install
uninstall:
	@$(MAKE) -s -C tools $(INSTALL_VARS) uninstall

# A Debian package of the same (PREFIX=/usr, the database included), in
# build/deb/: dpkg -i build/deb/kmsg_*.deb
deb: tools docs-db
	@tools/deb.sh $(BUILD)/deb/tools $(DOCS_DB) $(BUILD)/deb

# --- message documentation ---------------------------------------------------

DOCS_DB := $(BUILD)/docs-db/kmsg.db
# vmlinux, its modules, and the selftests' kmsgtest, whose messages the
# demo and the tests explain
KMSGTEST_KO := $(KSELFTEST)/kmsg/test_modules/kmsgtest.ko
KMSG_DOC_ARGS = --srctree $(KSRC) --catalog docs-db/catalog $(KOBJ)/vmlinux $(MODROOT) \
	$(KMSGTEST_KO)

# The checker over what was compiled: vmlinux and every module
kmsg-check: selftests tools
	@$(TOOLS)/kmsg-doc check $(KMSG_DOC_ARGS)

docs-db: selftests tools
	@mkdir -p $(dir $(DOCS_DB))
	@$(TOOLS)/kmsg-doc build-db --out $(DOCS_DB) \
		--release "$$(cat $(KOBJ)/include/config/kernel.release)" $(KMSG_DOC_ARGS)
	@echo "  DOCS    $(DOCS_DB)"

# MANPATH=build/man man kmsgtest.2; build/man/kmsg-manual.html
man: docs-db
	@$(TOOLS)/kmsg manual --db $(DOCS_DB) $(BUILD)/man

GUEST_FILES = qemu/demo.sh:/demo.sh qemu/bench.sh:/bench.sh \
	qemu/record.sh:/record.sh $(TOOLS)/kmsg-static:/usr/bin/kmsg \
	$(DOCS_DB):/usr/share/kmsg/kmsg.db elf:/usr/bin/trace-cmd \
	qemu/console.allow:/usr/share/kmsg-tests/console.allow
initramfs: selftests tools docs-db
	@qemu/mkinitramfs.sh $(INITRD) $(BUILD)/initramfs $(MODROOT) \
		$(KSELFTEST) $(GUEST_FILES)

initramfs-debug: selftests-debug tools docs-db
	@qemu/mkinitramfs.sh $(INITRD_DEBUG) $(BUILD)/initramfs-debug \
		$(MODROOT_DEBUG) $(KSELFTEST_DEBUG) $(GUEST_FILES)

RUN = qemu/run.sh --accel $(ACCEL) --timeout $(TIMEOUT)

demo: initramfs
	@rc=0; $(RUN) --mode demo $(BZIMAGE) $(INITRD) $(BUILD)/demo || rc=$$?; \
	sed '/^KMSG-GUEST-DONE/d' $(BUILD)/demo/guest.log; \
	echo "(kernel console: $(BUILD)/demo/console.log)"; exit $$rc

# The cost of a message inside the guest, as ratios to printk(), measured
# twice: first in executed instructions (-icount 0: the guest's clock
# counts instructions, so the figures are the same in every run), then in
# time as TCG runs it on this host. Then, on a trace.dat of 10^6 events
# recorded in the guest, kmsg report against trace-cmd report with
# plugin_kmsg.so.
BENCH := $(BUILD)/bench
bench: initramfs
	@mkdir -p $(BENCH)/icount
	@rc=0; $(RUN) --accel tcg --mode bench --mem 2048 --icount 0 $(BZIMAGE) $(INITRD) \
		$(BENCH)/icount || rc=$$?; \
	echo "In the guest, instructions executed (QEMU -icount 0), median of 9 runs of 20000 messages:"; \
	qemu/bench-table.sh instr $(BENCH)/icount/guest.log && [ $$rc = 0 ]
	@rm -f $(BENCH)/disk.img && truncate -s 2G $(BENCH)/disk.img
	@rc=0; $(RUN) --mode bench --mem 2048 --disk $(BENCH)/disk.img $(BZIMAGE) \
		$(INITRD) $(BENCH) || rc=$$?; \
	echo "In the guest, time under TCG, median of 9 runs of 20000 messages:"; \
	qemu/bench-table.sh ns $(BENCH)/guest.log && [ $$rc = 0 ]
	@echo "Targets: event off (kmsg-off) <= 1.01x printk; on (printk-on, dev-on, kmsg-on) <= 1.20x the same message off"
	@tar xf $(BENCH)/disk.img -C $(BENCH) bench.dat
	@tools/bench.sh $(TOOLS) $(BENCH)/bench.dat
	@tools/bench-db.sh $(TOOLS)
	@$(MAKE) --no-print-directory bench-dmesg

# the host part alone: kmsg-doc build-db of 10^5 generated messages
bench-db: tools
	@tools/bench-db.sh $(TOOLS)

# The database of Debian's stock kernel: the image, its -dbg package and
# the linux-source of the same version come from Debian's archive
DISTRO_KERNEL ?= linux-image-6.12.118+deb12-amd64-unsigned
DISTRO_DB := $(BUILD)/distro-db
DISTRO_RELEASE = $(patsubst linux-image-%-unsigned,%,$(DISTRO_KERNEL))
distro-db: deps tools
	@KMSG_DOC=$(TOOLS)/kmsg-doc tools/distro-db.sh $(DISTRO_KERNEL) $(DISTRO_DB) \
		$(BUILD)/distro $(if $(wildcard $(KSRC)/Makefile),$(KSRC))

# Debian 12's own kernel, 6.1: the real laptops' and desktops' logs of
# tools/tests/hwlogs ran one of its builds
DISTRO_KERNEL_61 ?= linux-image-6.1.0-57-amd64-unsigned
DISTRO_DB_61 = $(DISTRO_DB)/$(patsubst linux-image-%-unsigned,%,$(DISTRO_KERNEL_61)).db
distro-db-6.1: deps tools
	@KMSG_DOC=$(TOOLS)/kmsg-doc tools/distro-db.sh $(DISTRO_KERNEL_61) $(DISTRO_DB) \
		$(BUILD)/distro

# kmsg dmesg --json at distribution scale, on the host, on logs of the
# database's kernel: DB, the database of Debian's stock kernel (make
# distro-db), LOG, its log (the kernel booted in the guest, qemu/stock/);
# then Debian 12's 6.1 database and the real machines' logs of
# tools/tests/hwlogs
DB ?= $(DISTRO_DB)/$(DISTRO_RELEASE).db
LOG ?= qemu/stock/kmsg.raw
bench-dmesg: distro-db distro-db-6.1
	@tools/bench-dmesg.sh $(TOOLS) $(DB) $(LOG)
	@tools/bench-dmesg.sh $(TOOLS) $(DISTRO_DB_61) $(wildcard tools/tests/hwlogs/*.dmesg)

# --- tests ------------------------------------------------------------------

HOST_TESTS := $(wildcard qemu/tests/run.sh kernel-patches/tests/*.sh) \
	tools/tests/run.sh tools/doctests/run.sh docs-db/tests/run.sh \
	tools/fuzz/run.sh tools/tests/install.sh tools/tests/journal.sh \
	tools/tests/manpage.sh tools/tests/otlp.sh tools/tests/deb.sh \
	tools/tests/limits.sh tools/tests/tap-trap.sh tools/tests/dwarf.sh \
	tools/tests/dbselect.sh tools/tests/sites.sh tools/tests/unpack.sh \
	tools/tests/distro-db.sh tools/tests/docs-session.sh tools/tests/follow.sh \
	tools/tests/service.sh tools/tests/hwlogs.sh tools/tests/snapshot.sh \
	tools/tests/reports.sh tools/tests/compare.sh
# host tests of what the guest recorded (trace.dat, /dev/kmsg text)
RECORD_TESTS := tools/tests/guest-record.sh tools/tests/guest-boot-log.sh
CHECK := $(BUILD)/check

# What the summary asks of every guest console: the storms' quiet windows
# (selftests/kmsg), the emulator's own lines excused in them
SUMMARY_CONSOLE_ARGS := --require-window kmsg_storm.sh \
	--require-window small.overrun --require-window kmsg_follow.sh \
	--allow qemu/console.allow --kmsg $(TOOLS)/kmsg --docs-db $(DOCS_DB)

# The kselftests run twice: on the guest kernel, then on the debug kernel
# (KASAN, UBSAN, lockdep, KFENCE), where any report they print fails;
# each guest must run every kselftest of qemu/kselftests. Then the proof
# that a report in the storm and a missing kselftest turn this red. The
# host tests' TAP files must be those of qemu/host-tests, none missing,
# none more.
check: host-tests guest-check record-tests guest-check-debug storm-report stock-check
	@qemu/ktap-summary.sh --console $(CHECK)/console.log \
		--guest-rc "$$(cat $(CHECK)/guest.rc)" \
		--console debug:$(CHECK)/debug/console.log \
		--guest-rc "debug:$$(cat $(CHECK)/debug/guest.rc)" \
		--console stock:$(CHECK)/stock/console.log --no-windows stock \
		--guest-rc "stock:$$(cat $(CHECK)/stock/boot.rc)" \
		--expect $(KSFT_LIST):$(CHECK)/guest.log \
		--expect $(KSFT_LIST):$(CHECK)/debug/guest-debug.log \
		--controlled $(CHECK)/guest.log \
		--controlled $(CHECK)/debug/guest-debug.log \
		--expect-files qemu/host-tests:$(CHECK) \
		$(SUMMARY_CONSOLE_ARGS) \
		$(CHECK)/host-*.tap $(CHECK)/guest.log $(CHECK)/debug/guest-debug.log

# run-tests DIR TESTS: each test's TAP output in DIR/host-<name>.tap, its
# exit status in DIR/host-<name>.rc
run-tests = KSRC=$(KSRC) KOBJ=$(KOBJ) TOOLS=$(TOOLS) RECORD=$(CHECK)/record \
	MODROOT=$(MODROOT) KMSGTEST_KO=$(KMSGTEST_KO) DOCS_DB=$(DOCS_DB) \
	DISTRO_DB=$(DISTRO_DB)/$(DISTRO_RELEASE).db DISTRO_DEB=$(DISTRO_DEB) \
	DISTRO_DB_61=$(DISTRO_DB_61) DISTRO_CACHE=$(BUILD)/distro qemu/run-tests.sh $(1) $(2)

host-tests: kernel tools docs-db distro-db distro-db-6.1
	@rm -rf $(CHECK) && mkdir -p $(CHECK)
	@$(call run-tests,$(CHECK),$(HOST_TESTS))

guest-check: initramfs host-tests
	@rm -f $(CHECK)/disk.img && truncate -s 256M $(CHECK)/disk.img
	@rc=0; $(RUN) --mode check --disk $(CHECK)/disk.img $(BZIMAGE) \
		$(INITRD) $(CHECK) || rc=$$?; \
	echo $$rc > $(CHECK)/guest.rc
	@mkdir -p $(CHECK)/record && \
		tar xf $(CHECK)/disk.img -C $(CHECK)/record 2>/dev/null || true

record-tests: guest-check
	@$(call run-tests,$(CHECK),$(RECORD_TESTS))

# Debian's stock kernel booted in the guest, its log identified with the
# database of its package against qemu/stock/truth.tsv; the same boot
# followed live in the guest by kmsg dmesg --follow with that database,
# then run as kmsg-journal.service runs it, into journald and OTLP,
# through an overrun, a restart and a kill -9 (qemu/stock/service.sh).
# stock-boot.sh's status (the guest's rc) is kept for stock-guest.sh.
stock-check: host-tests distro-db
	@rm -rf $(CHECK)/stock
	@rc=0; qemu/stock-boot.sh --timeout 400 \
		--follow $(TOOLS)/kmsg $(DISTRO_DB)/$(DISTRO_RELEASE).db \
		$(DISTRO_DEB) $(CHECK)/stock > $(CHECK)/stock.log 2>&1 || \
		{ rc=$$?; tail -n 20 $(CHECK)/stock.log; }; \
	mkdir -p $(CHECK)/stock && echo $$rc > $(CHECK)/stock/boot.rc
	@STOCK=$(CHECK)/stock $(call run-tests,$(CHECK),tools/tests/stock-log.sh tools/tests/stock-guest.sh)

# The debug kernel runs about ten times slower under TCG. It boots with
# 4-level page tables (no5lvl): with LA57 (-cpu max), an interrupt while
# identify_cpu() has cleared the CPU's feature bits makes KASAN take a
# per-CPU address for a wild access (seen once, on a loaded host).
DEBUG_TIMEOUT ?= 1800
guest-check-debug: initramfs-debug record-tests
	@mkdir -p $(CHECK)/debug
	@rc=0; $(RUN) --timeout $(DEBUG_TIMEOUT) --mode check --mem 1024 \
		--append no5lvl $(BZIMAGE_DEBUG) \
		$(INITRD_DEBUG) $(CHECK)/debug || rc=$$?; \
	echo $$rc > $(CHECK)/debug/guest.rc; \
	cp $(CHECK)/debug/guest.log $(CHECK)/debug/guest-debug.log 2>/dev/null || true

# A third boot, of the debug kernel, whose summary must be red: the
# storm alone, with a WARNING provoked inside it (qemu/tests/storm-report.sh)
storm-report: initramfs-debug guest-check-debug
	@KERNEL=$(BZIMAGE_DEBUG) STAGING=$(BUILD)/initramfs-debug KSFT_LIST=$(KSFT_LIST) \
		ACCEL=$(ACCEL) TIMEOUT=900 TOOLS=$(TOOLS) DOCS_DB=$(DOCS_DB) \
		qemu/run-tests.sh $(CHECK) qemu/tests/storm-report.sh

clean:
	rm -rf $(BUILD)/check $(BUILD)/demo $(BUILD)/initramfs $(INITRD) \
		$(KSELFTEST) $(MODROOT) $(BUILD)/initramfs-debug $(INITRD_DEBUG) \
		$(KSELFTEST_DEBUG) $(MODROOT_DEBUG)

distclean:
	rm -rf $(BUILD)
