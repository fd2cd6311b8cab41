// SPDX-License-Identifier: GPL-2.0
#define KMSG_COMPONENT "kmsgbuild"
#include <linux/kmsg.h>

void kmsgbuild_bad(void);
void kmsgbuild_bad(void)
{
	kmsg_warn(1 + 2, "an expression\n");
}
