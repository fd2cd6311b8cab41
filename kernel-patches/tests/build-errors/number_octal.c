// SPDX-License-Identifier: GPL-2.0
#define KMSG_COMPONENT "kmsgbuild"
#include <linux/kmsg.h>

void kmsgbuild_bad(struct device *dev);
void kmsgbuild_bad(struct device *dev)
{
	kmsg_dev_info(dev, 012, "leading zero: 012 would print as 012, mean 10\n");
}
