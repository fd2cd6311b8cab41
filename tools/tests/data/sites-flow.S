/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code patterns of lib/kmsg_flow.c for tests/sites.sh, in assembly so
 * that no compiler version changes them: the formats of each printk call
 * are the loads of its format register that reach it along the code's
 * paths.  Assembled with gcc -c into a module-like object.
 */
	.section .modinfo, "a"
	.string "name=flowtest"

	.section .rodata.str1.1, "aMS", @progbits, 1
.Lbranch_a:	.string "\0013branch a %d\n"
.Lbranch_b:	.string "\0013branch b %d\n"
.Lmoved:	.string "\0016moved %d\n"
.Lclobbered:	.string "\0014clobbered\n"
.Lfar:		.string "\0016far\n"
.Lcmov:		.string "\0015cmov\n"
.Lrip:		.string "\0016rip %s\n"
.Ldev:		.string "dev %d\n"
.Lleaf:		.string "\0014leaf %d\n"
.Lwrites:	.string "\0014written\n"
.Ltail:		.string "\0014tail\n"

	.text
/* two branches' formats, one call the compiler shared between them */
	.globl f_merged
	.type f_merged, @function
f_merged:
	test %edi, %edi
	je 1f
	mov $.Lbranch_a, %rdi
	jmp 2f
1:	mov $.Lbranch_b, %rdi
	xor %esi, %esi
2:	jmp _printk
	.size f_merged, . - f_merged

/* a format kept in a register a call preserves, then copied */
	.globl f_moved
	.type f_moved, @function
f_moved:
	push %rbx
	mov $.Lmoved, %rbx
	call other
	mov %rbx, %rdi
	mov %eax, %esi
	pop %rbx
	jmp _printk
	.size f_moved, . - f_moved

/* not a site: the call between clobbers the load's register */
	.globl f_clobbered
	.type f_clobbered, @function
f_clobbered:
	mov $.Lclobbered, %rdi
	call other
	jmp _printk
	.size f_clobbered, . - f_clobbered

/* a load far before its call, past a loop's backward jump */
	.globl f_far
	.type f_far, @function
f_far:
	mov $.Lfar, %rdi
	mov $100, %ecx
3:	.fill 300, 1, 0x90
	dec %ecx
	jne 3b
	call _printk
	ret
	.size f_far, . - f_far

/* a conditional move: either format; one through %rip */
	.globl f_cmov
	.type f_cmov, @function
f_cmov:
	lea .Lrip(%rip), %rax
	mov $.Lcmov, %rdi
	test %esi, %esi
	cmovne %rax, %rdi
	jmp _printk
	.size f_cmov, . - f_cmov

/* a device's format in %rsi, loaded before a jump back to the call */
	.globl f_dev_back
	.type f_dev_back, @function
f_dev_back:
	test %esi, %esi
	jne 5f
4:	call _dev_err
	ret
5:	mov $.Ldev, %rsi
	jmp 4b
	.size f_dev_back, . - f_dev_back

/*
 * A call of a local function that calls nothing leaves the registers it
 * does not write (gcc -fipa-ra keeps values there); not one that writes
 * the format's register
 */
	.type keeps_rdi, @function
keeps_rdi:
	xor %eax, %eax
	ret
	.size keeps_rdi, . - keeps_rdi

	.type writes_rdi, @function
writes_rdi:
	mov $1, %edi
	ret
	.size writes_rdi, . - writes_rdi

	.globl f_leaf
	.type f_leaf, @function
f_leaf:
	mov $.Lleaf, %rdi
	call keeps_rdi
	mov %eax, %esi
	jmp _printk
	.size f_leaf, . - f_leaf

	.globl f_not_leaf
	.type f_not_leaf, @function
f_not_leaf:
	mov $.Lwrites, %rdi
	call writes_rdi
	jmp _printk
	.size f_not_leaf, . - f_not_leaf

/*
 * Not a site: a tail call's jump (its target a relocation's) does not go
 * to the instruction after it, the call there is reached only with the
 * caller's %rdi
 */
	.globl f_tail
	.type f_tail, @function
f_tail:
	test %esi, %esi
	jne 7f
	mov $.Ltail, %rdi
	jmp other
7:	call _printk
	ret
	.size f_tail, . - f_tail
