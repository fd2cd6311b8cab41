// SPDX-License-Identifier: GPL-2.0
#define KMSG_COMPONENT "kmsgbuild"
#include <linux/kmsg.h>

void kmsgbuild_bad(int n);
void kmsgbuild_bad(int n)
{
	kmsg_err(n, "not a literal\n");
}
