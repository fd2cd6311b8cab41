// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_ids, first build: three messages. The second build (ids_b) has
 * the same messages in other lines and functions and one reworded; the
 * selftest checks which identifiers stay.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/printk.h>

static int __init kmsg_ids_init(void)
{
	pr_info("first message %d\n", 1);
	pr_warn("second message %s\n", "x");
	pr_err("third message\n");
	return 0;
}

static void __exit kmsg_ids_exit(void)
{
}

module_init(kmsg_ids_init);
module_exit(kmsg_ids_exit);

MODULE_DESCRIPTION("kmsg selftests: identifiers across builds, first build");
MODULE_LICENSE("GPL");
