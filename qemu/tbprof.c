// SPDX-License-Identifier: GPL-2.0
/*
 * tbprof - a QEMU TCG plugin that counts the guest instructions executed
 * from each translation block of the kernel, for qemu/tbprof.sh.
 *
 * At exit it writes "ADDRESS COUNT" lines (hexadecimal address of the
 * block, instructions executed in it) to the file given as out=PATH.
 * Only kernel addresses (vmlinux and modules) are counted.
 *
 * Debian's QEMU 7.2 loads plugins but ships no qemu-plugin.h: the few
 * functions of its plugin API used here (version 1) are declared below.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb,
				    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* x86_64: the kernel's text and its modules lie above this */
#define KERNEL_START	0xffffffff80000000ULL
#define CHUNK		65536

struct block {
	uint64_t vaddr;
	uint64_t count;		/* added to by the translated code */
};

/* Chunks, never moved: the translated code holds pointers into them */
static struct block **chunks;
static size_t nblocks, nchunks;
static const char *out_path = "tbprof.out";
static int failed;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	(void)id;
	if (va < KERNEL_START || failed)
		return;
	if (nblocks % CHUNK == 0) {
		struct block **c = realloc(chunks, (nchunks + 1) * sizeof(*c));

		if (!c || !(c[nchunks] = calloc(CHUNK, sizeof(**c)))) {
			if (c)
				chunks = c;
			failed = 1;
			return;
		}
		chunks = c;
		nchunks++;
	}
	b = &chunks[nblocks / CHUNK][nblocks % CHUNK];
	nblocks++;
	b->vaddr = va;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count,
						 qemu_plugin_tb_n_insns(tb));
}

static void done(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	size_t i;

	(void)id;
	(void)userdata;
	if (!f) {
		perror(out_path);
		return;
	}
	if (failed)
		fprintf(f, "# out of memory: counts incomplete\n");
	for (i = 0; i < nblocks; i++) {
		const struct block *b = &chunks[i / CHUNK][i % CHUNK];

		if (b->count)
			fprintf(f, "%016llx %llu\n",
				(unsigned long long)b->vaddr,
				(unsigned long long)b->count);
	}
	if (fclose(f))
		perror(out_path);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else {
			fprintf(stderr, "tbprof: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, done, NULL);
	return 0;
}
