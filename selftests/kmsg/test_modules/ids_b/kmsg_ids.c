// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_ids, second build: the messages of ids_a in other lines and
 * functions, the third one reworded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/printk.h>

static noinline void kmsg_ids_third(void)
{
	pr_err("third message, reworded\n");
}

static noinline void kmsg_ids_second(void)
{
	/* moved, and a line further down */

	pr_warn("second message %s\n", "x");
}

static int __init kmsg_ids_init(void)
{
	kmsg_ids_third();
	pr_info("first message %d\n", 1);
	kmsg_ids_second();
	return 0;
}

static void __exit kmsg_ids_exit(void)
{
}

module_init(kmsg_ids_init);
module_exit(kmsg_ids_exit);

MODULE_DESCRIPTION("kmsg selftests: identifiers across builds, second build");
MODULE_LICENSE("GPL");
