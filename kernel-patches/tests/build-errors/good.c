// SPDX-License-Identifier: GPL-2.0
/* Every macro of <linux/kmsg.h>, used as documented: must build. */
#define KMSG_COMPONENT "kmsgbuild"
#include <linux/kmsg.h>
#include <linux/module.h>

void kmsgbuild_good(struct device *dev, int v);
void kmsgbuild_good(struct device *dev, int v)
{
	kmsg_emerg(1, "v %d\n", v);
	kmsg_alert(2, "v %d\n", v);
	kmsg_crit(3, "v %d\n", v);
	kmsg_err(4, "v %d\n", v);
	kmsg_warn(5, "v %d\n", v);
	kmsg_notice(6, "v %d\n", v);
	kmsg_info(7, "v %d\n", v);
	kmsg_debug(8, "no arguments\n");
	kmsg_dev_emerg(dev, 11, "v %d\n", v);
	kmsg_dev_alert(dev, 12, "v %d\n", v);
	kmsg_dev_crit(dev, 13, "v %d\n", v);
	kmsg_dev_err(dev, 14, "v %d\n", v);
	kmsg_dev_warn(dev, 15, "v %d\n", v);
	kmsg_dev_notice(dev, 16, "v %d\n", v);
	kmsg_dev_info(dev, 17, "v %d\n", v);
	kmsg_dev_debug(dev, 18, "v %d\n", v);
	printk(KMSG_ERR(21) "prefix form %d\n", v);
	printk(KMSG_WARN(22) "prefix form %d\n", v);
	printk(KMSG_WARNING(23) "prefix form %d\n", v);
	kmsg_info(0, "zero is a number\n");
	kmsg_info(999999999, "nine digits\n");
}

MODULE_DESCRIPTION("kmsg macros build test");
MODULE_LICENSE("GPL");
