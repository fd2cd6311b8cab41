// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_flow - the constant values an argument register of a call may hold
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "kmsg_flow.h"

enum {
	K_OTHER,
	K_LOAD,		/* dst = a constant address */
	K_MOVE,		/* dst = src */
	K_CMOV,		/* dst = src, or unchanged */
	K_CALL,		/* clobbers the registers a call does not preserve */
	K_JCC,		/* a conditional jump: falls through */
	K_JMP,		/* a jump: no instruction after it runs next */
	K_END,		/* ret, an indirect jump, ud2, int3, hlt */
	K_BAD,		/* not an instruction */
};

/* rax, rcx, rdx, rsi, rdi, r8-r11: what a call may change */
#define CLOBBERED	0x0fc7

struct insn {
	uint32_t off;
	uint8_t len, kind, dst, src;
	uint16_t writes;	/* the registers it writes, a bit each */
	uint8_t field;		/* K_LOAD: offset of the immediate in it */
	bool rip;		/* K_LOAD: a displacement from the next one */
	bool ret;		/* K_END: a return */
	int64_t value;		/* K_LOAD: the immediate, or the displacement;
				 * K_CALL, K_JMP, K_JCC: the target, or -1 */
};

struct branch {
	uint32_t to, from;	/* target offset, index of the jump */
};

struct kmsg_flow {
	uint64_t base, n_bytes;
	struct insn *v;
	size_t n;
	uint64_t *starts;	/* the functions' starts */
	size_t nstarts;
	/* per instruction: 0, or 1 << 16 | what a call of it may change */
	uint32_t *callee;
	struct branch *br;
	size_t nbr;
	/* one search: the (instruction, register) pairs seen, a hash set */
	uint32_t *seen_key, *seen_gen;
	uint32_t gen;
};

#define SEEN_SIZE	(4 * KMSG_FLOW_STEPS)

static int gpr(ZydisRegister r)
{
	r = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);
	if (r >= ZYDIS_REGISTER_RAX && r <= ZYDIS_REGISTER_R15)
		return (int)(r - ZYDIS_REGISTER_RAX);
	return -1;
}

static bool is_gpr64(const ZydisDecodedOperand *op)
{
	return op->type == ZYDIS_OPERAND_TYPE_REGISTER &&
	       op->reg.value >= ZYDIS_REGISTER_RAX &&
	       op->reg.value <= ZYDIS_REGISTER_R15;
}

static void classify(struct insn *in, const ZydisDecodedInstruction *d,
		     const ZydisDecodedOperand *op, struct branch **br,
		     size_t *nbr, size_t *cap, size_t idx, size_t n, bool reloc)
{
	unsigned int i;

	for (i = 0; i < d->operand_count; i++) {
		int r;

		if (op[i].type != ZYDIS_OPERAND_TYPE_REGISTER ||
		    !(op[i].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
			continue;
		r = gpr(op[i].reg.value);
		if (r >= 0)
			in->writes |= (uint16_t)(1u << r);
	}
	switch (d->meta.category) {
	case ZYDIS_CATEGORY_CALL:
		in->kind = K_CALL;
		in->value = -1;
		if (!reloc && d->operand_count_visible >= 1 &&
		    op[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op[0].imm.is_relative)
			in->value = (int64_t)in->off + in->len + op[0].imm.value.s;
		return;
	case ZYDIS_CATEGORY_RET:
		in->kind = K_END;
		in->ret = true;
		return;
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
		in->kind = d->meta.category == ZYDIS_CATEGORY_COND_BR ? K_JCC : K_JMP;
		in->value = -1;
		if (d->operand_count_visible < 1 ||
		    op[0].type != ZYDIS_OPERAND_TYPE_IMMEDIATE ||
		    !op[0].imm.is_relative) {
			in->kind = K_END;
			return;
		}
		/* to another section, or a tail call: somewhere unknown */
		if (reloc)
			return;
		{
			int64_t t = (int64_t)in->off + in->len + op[0].imm.value.s;

			in->value = t;
			if (t < 0 || (uint64_t)t >= n)
				return;
			if (*nbr == *cap) {
				size_t nc = *cap ? 2 * *cap : 1024;
				struct branch *v = realloc(*br, nc * sizeof(*v));

				if (!v)
					return;
				*br = v;
				*cap = nc;
			}
			(*br)[*nbr].to = (uint32_t)t;
			(*br)[*nbr].from = (uint32_t)idx;
			(*nbr)++;
		}
		return;
	default:
		break;
	}
	if (d->mnemonic == ZYDIS_MNEMONIC_UD2 || d->mnemonic == ZYDIS_MNEMONIC_INT3 ||
	    d->mnemonic == ZYDIS_MNEMONIC_HLT) {
		in->kind = K_END;
		return;
	}
	if (d->operand_count_visible != 2 || !is_gpr64(&op[0]))
		return;
	if (d->mnemonic == ZYDIS_MNEMONIC_MOV &&
	    op[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
	    d->raw.imm[0].size == 32) {
		in->kind = K_LOAD;
		in->field = d->raw.imm[0].offset;
		in->value = op[1].imm.value.s;
	} else if (d->mnemonic == ZYDIS_MNEMONIC_LEA &&
		   op[1].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		   op[1].mem.base == ZYDIS_REGISTER_RIP &&
		   op[1].mem.index == ZYDIS_REGISTER_NONE &&
		   d->raw.disp.size == 32) {
		in->kind = K_LOAD;
		in->field = d->raw.disp.offset;
		in->value = op[1].mem.disp.value;
		in->rip = true;
	} else if (d->mnemonic == ZYDIS_MNEMONIC_MOV && is_gpr64(&op[1])) {
		in->kind = K_MOVE;
		in->src = (uint8_t)gpr(op[1].reg.value);
	} else if (d->meta.category == ZYDIS_CATEGORY_CMOV && is_gpr64(&op[1])) {
		in->kind = K_CMOV;
		in->src = (uint8_t)gpr(op[1].reg.value);
	} else {
		return;
	}
	in->dst = (uint8_t)gpr(op[0].reg.value);
}

static int br_cmp(const void *a, const void *b)
{
	const struct branch *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* Is there a relocation's field in [from, from + len)? */
static bool relocated(const uint64_t *relocs, size_t nrelocs, uint64_t from,
		      uint64_t len)
{
	size_t lo = 0, hi = nrelocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (relocs[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nrelocs && relocs[lo] < from + len;
}

struct kmsg_flow *kmsg_flow_new(const unsigned char *text, size_t n,
				uint64_t base, const uint64_t *starts,
				size_t nstarts, const uint64_t *relocs,
				size_t nrelocs)
{
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	ZydisDecodedInstruction d;
	ZydisDecoder dec;
	struct kmsg_flow *f;
	size_t cap = 0, bcap = 0, s = 0;
	uint64_t pos = 0;

	if (n >= UINT32_MAX ||
	    ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
					 ZYDIS_STACK_WIDTH_64)))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->base = base;
	f->n_bytes = n;
	f->starts = malloc((nstarts + 1) * sizeof(*starts));
	if (!f->starts)
		goto fail;
	memcpy(f->starts, starts, nstarts * sizeof(*starts));
	f->nstarts = nstarts;
	f->seen_key = calloc(SEEN_SIZE, sizeof(*f->seen_key));
	f->seen_gen = calloc(SEEN_SIZE, sizeof(*f->seen_gen));
	if (!f->seen_key || !f->seen_gen)
		goto fail;
	while (s < nstarts && starts[s] <= pos)
		s++;
	while (pos < n) {
		uint64_t stop = s < nstarts && starts[s] < n ? starts[s] : n;
		struct insn *in;

		if (f->n == cap) {
			size_t nc = cap ? 2 * cap : 4096;
			struct insn *v = realloc(f->v, nc * sizeof(*v));

			if (!v)
				goto fail;
			f->v = v;
			cap = nc;
		}
		in = &f->v[f->n];
		memset(in, 0, sizeof(*in));
		in->off = (uint32_t)pos;
		if (ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, text + pos, stop - pos,
						       &d, op))) {
			/* not code, or cut by the next function: no flow across */
			in->len = 1;
			in->kind = K_BAD;
		} else {
			in->len = d.length;
			classify(in, &d, op, &f->br, &f->nbr, &bcap, f->n, n,
				 relocated(relocs, nrelocs, pos, d.length));
		}
		f->n++;
		pos += in->len;
		if (pos == stop)
			while (s < nstarts && starts[s] <= pos)
				s++;
	}
	if (f->nbr > 1)
		qsort(f->br, f->nbr, sizeof(*f->br), br_cmp);
	return f;
fail:
	kmsg_flow_free(f);
	return NULL;
}

void kmsg_flow_free(struct kmsg_flow *f)
{
	if (!f)
		return;
	free(f->v);
	free(f->br);
	free(f->starts);
	free(f->callee);
	free(f->seen_key);
	free(f->seen_gen);
	free(f);
}

/* The instruction starting at offset at, or -1 */
static long insn_at(const struct kmsg_flow *f, uint64_t at)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->v[mid].off < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->v[lo].off == at ? (long)lo : -1;
}

/*
 * What a call at instruction p may change: what its callee writes if it
 * is a function of this code that calls nothing and returns (gcc keeps
 * values in the registers such a function leaves alone: -fipa-ra), else
 * every register the ABI does not preserve
 */
#define CALLEE_MAX	256

static uint16_t clobbers(struct kmsg_flow *f, const struct insn *p)
{
	uint16_t mask = 0;
	size_t s, i, k, hi;
	long t;

	if (p->value < 0 || (t = insn_at(f, (uint64_t)p->value)) < 0)
		return CLOBBERED;
	if (!f->callee) {
		f->callee = calloc(f->n, sizeof(*f->callee));
		if (!f->callee)
			return CLOBBERED;
	}
	if (f->callee[t])
		return (uint16_t)f->callee[t];
	f->callee[t] = 1u << 16 | CLOBBERED;
	/* only the start of a function, up to the next one */
	for (s = 0, hi = f->nstarts; s < hi;) {
		size_t mid = s + (hi - s) / 2;

		if (f->starts[mid] < (uint64_t)p->value)
			s = mid + 1;
		else
			hi = mid;
	}
	if (s == f->nstarts || f->starts[s] != (uint64_t)p->value)
		return CLOBBERED;
	for (i = (size_t)t, k = 0; i < f->n && k < CALLEE_MAX; i++, k++) {
		const struct insn *in = &f->v[i];

		if (s + 1 < f->nstarts && in->off >= f->starts[s + 1])
			break;
		if (in->kind == K_CALL || in->kind == K_BAD ||
		    (in->kind == K_END && !in->ret) ||
		    ((in->kind == K_JMP || in->kind == K_JCC) &&
		     (in->value < p->value || (uint64_t)in->value >= f->n_bytes ||
		      (s + 1 < f->nstarts && (uint64_t)in->value >= f->starts[s + 1]))))
			return CLOBBERED;
		mask |= in->writes;
	}
	if (i < f->n && k == CALLEE_MAX)
		return CLOBBERED;
	f->callee[t] = 1u << 16 | mask;
	return mask;
}

/* Does a function start at offset at? */
static bool is_start(const struct kmsg_flow *f, uint64_t at)
{
	size_t lo = 0, hi = f->nstarts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->starts[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nstarts && f->starts[lo] == at;
}

/* First time (instruction i, register r) is seen in this search? */
static bool first_visit(struct kmsg_flow *f, size_t i, int r)
{
	uint32_t key = (uint32_t)(i << 4 | (unsigned int)r) + 1;
	uint32_t h = (key * 2654435761u) % SEEN_SIZE;

	while (f->seen_gen[h] == f->gen) {
		if (f->seen_key[h] == key)
			return false;
		h = (h + 1) % SEEN_SIZE;
	}
	f->seen_gen[h] = f->gen;
	f->seen_key[h] = key;
	return true;
}

struct item {
	uint32_t i;
	int r;
};

int kmsg_flow_loads(struct kmsg_flow *f, uint64_t at, int reg,
		    struct kmsg_flow_load *v, int max)
{
	struct item work[KMSG_FLOW_STEPS];
	size_t head = 0, tail = 0, steps = 0;
	long start = insn_at(f, at);
	int nv = 0;

	if (start < 0)
		return -1;
	if (++f->gen == 0) {
		memset(f->seen_gen, 0, SEEN_SIZE * sizeof(*f->seen_gen));
		f->gen = 1;
	}
	/* breadth first: the nearest loads first */
	work[tail++] = (struct item){ (uint32_t)start, reg };
	while (head < tail && steps++ < KMSG_FLOW_STEPS) {
		struct item it = work[head++];
		const struct insn *cur = &f->v[it.i];
		struct branch key = { cur->off, 0 };
		size_t lo = 0, hi = f->nbr, np = 0;
		uint32_t preds[64];

		/* the instruction before it, if it runs into it (not a function's) */
		if (it.i > 0 && !is_start(f, cur->off)) {
			const struct insn *p = &f->v[it.i - 1];

			if (p->off + p->len == cur->off && p->kind != K_JMP &&
			    p->kind != K_END && p->kind != K_BAD)
				preds[np++] = it.i - 1;
		}
		/* the jumps to it */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (br_cmp(&f->br[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < f->nbr && f->br[lo].to == cur->off &&
		     np < sizeof(preds) / sizeof(preds[0]); lo++)
			preds[np++] = f->br[lo].from;
		while (np--) {
			const struct insn *p = &f->v[preds[np]];
			int r = it.r;

			if (!(p->writes & (1u << r))) {
				if (p->kind == K_CALL && (clobbers(f, p) & (1u << r)))
					continue;
			} else if (p->kind == K_LOAD && p->dst == r) {
				int k;

				for (k = 0; k < nv && v[k].at != p->off; k++)
					;
				if (k == nv && nv < max) {
					v[nv].at = p->off;
					v[nv].field = p->off + p->field;
					v[nv].value = (uint64_t)p->value;
					if (p->rip)
						v[nv].value += f->base + p->off + p->len;
					nv++;
				}
				continue;
			} else if ((p->kind == K_MOVE || p->kind == K_CMOV) &&
				   p->dst == r) {
				if (p->kind == K_CMOV && tail < KMSG_FLOW_STEPS &&
				    first_visit(f, preds[np], r))
					work[tail++] = (struct item){ preds[np], r };
				r = p->src;
			} else {
				continue;
			}
			if (tail < KMSG_FLOW_STEPS && first_visit(f, preds[np], r))
				work[tail++] = (struct item){ preds[np], r };
		}
	}
	return nv;
}
