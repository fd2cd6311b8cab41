# SPDX-License-Identifier: GPL-2.0
#
# kmsg-doc's sources, relative to tools/, and the pkg-config packages it
# links with: included by tools/Makefile and tools/doctests/Makefile.
# $(KMSG_DOC_TOP) is the path of tools/ from the including Makefile.

KMSG_DOC_SRCS := $(addprefix $(KMSG_DOC_TOP)kmsg-doc/,kmsg-doc.c load.c check.c \
	coverage.c build-db.c diff.c auto-id.c journal-catalog.c stock.c) \
	$(addprefix $(KMSG_DOC_TOP)lib/,kmsg_catalog.c kmsg_index.c kmsg_srcdoc.c \
	kmsg_db.c kmsg_strbuf.c kmsg_jcatalog.c kmsg_docs.c kmsg_journal.c \
	kmsg_id.c kmsg_diff.c kmsg_unpack.c kmsg_sites.c kmsg_flow.c kmsg_dwarf.c kmsg_modmap.c \
	kmsg_render.c kmsg_errname.c)
KMSG_DOC_HDRS := $(KMSG_DOC_TOP)kmsg-doc/kmsg-doc.h $(wildcard $(KMSG_DOC_TOP)lib/*.h)
KMSG_DOC_PKGS := libelf sqlite3 libarchive libdw
# Zydis (libzydis-dev), the x86 decoder of kmsg_flow.c, has no pkg-config file
KMSG_DOC_LIBS := -lZydis
