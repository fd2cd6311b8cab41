/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_flow - the constant values an argument register of a call may hold,
 * from the code's control flow.
 *
 * A section of x86-64 code is decoded (with Zydis) from each function's
 * start; each instruction records the general registers it writes, and
 * whether it loads a constant address into one (mov $imm32,%r64 or lea
 * disp32(%rip),%r64) or copies one register into another.  From a call,
 * the search walks backwards over every path (the instruction before it,
 * if it falls through, and every jump to it) and follows the register
 * through copies until an instruction defines it: a constant load is a
 * value the register may hold at the call; anything else (a call, which
 * may change the registers the ABI does not preserve, another write, the
 * start of a function) ends that path with no value.  A call of a
 * function of the same code that calls nothing changes only what that
 * function writes: gcc keeps values in the other registers across it
 * (-fipa-ra).  So a format
 * loaded in one branch and printed by a call that the compiler shared
 * between branches, or loaded long before the call, or copied through
 * another register, is found; a path no direct jump leads along (a jump
 * table, a static key's nop) is not followed.  Each search is bounded.
 */
#ifndef KMSG_FLOW_H
#define KMSG_FLOW_H

#include <stddef.h>
#include <stdint.h>

struct kmsg_flow;

/* x86-64 register numbers, as the encoding numbers them */
enum {
	KMSG_RAX, KMSG_RCX, KMSG_RDX, KMSG_RBX, KMSG_RSP, KMSG_RBP, KMSG_RSI,
	KMSG_RDI, KMSG_R8, KMSG_R9, KMSG_R10, KMSG_R11, KMSG_R12, KMSG_R13,
	KMSG_R14, KMSG_R15,
};

/* Instructions one search visits at most */
#define KMSG_FLOW_STEPS	4096

/*
 * Decode the @n bytes of code at @text, loaded at address @base (0 in a
 * relocatable object), from each of the @nstarts offsets @starts (sorted:
 * the functions' starts; an instruction that would cross one is not
 * decoded, and no path runs into one from the code before it).  @relocs
 * (sorted, @nrelocs): the offsets of the fields a relocation fills in (a
 * relocatable object's): a jump or call through one goes where the flow
 * cannot tell.  NULL if out of memory or @n is 4 GiB or more.
 */
struct kmsg_flow *kmsg_flow_new(const unsigned char *text, size_t n,
				uint64_t base, const uint64_t *starts,
				size_t nstarts, const uint64_t *relocs,
				size_t nrelocs);
void kmsg_flow_free(struct kmsg_flow *f);

/* A constant load reaching a call */
struct kmsg_flow_load {
	uint64_t at;		/* offset of the load */
	uint64_t field;		/* offset of its 4-byte immediate or displacement */
	uint64_t value;		/* the address it loads (base + ... for lea) */
};

/*
 * The constant loads of register @reg (KMSG_RDI, ...) that reach the
 * instruction at offset @at, nearest first, at most @max in @v: their
 * number, or -1 if no instruction starts at @at
 */
int kmsg_flow_loads(struct kmsg_flow *f, uint64_t at, int reg,
		    struct kmsg_flow_load *v, int max);

#endif
