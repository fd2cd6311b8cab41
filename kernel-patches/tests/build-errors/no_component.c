// SPDX-License-Identifier: GPL-2.0
#include <linux/kmsg.h>

void kmsgbuild_bad(void);
void kmsgbuild_bad(void)
{
	kmsg_info(1, "no component\n");
}
