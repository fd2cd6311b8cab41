// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_paths - plain kernel messages of every path to printk(), printed
 * once when the module is loaded, for the kmsg:kmsg selftests.
 *
 * Nothing here knows about kmsg: these are the calls that any driver
 * makes. The selftest loads the module with the event on, unloads it,
 * and checks that every /dev/kmsg record the module made is rebuilt,
 * byte for byte, from the events with its sequence number.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

static int kmsg_paths_target;
/* longer than a printk record: no more of it recorded than printed */
static char kmsg_paths_long[1500];

static __printf(1, 2) void kmsg_paths_wrap(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	/* an argument after the %pV: stored after the message's */
	pr_warn("wrapped (%s): %pV (%d)\n", "outer", &vaf, 7);
	va_end(args);
}

/* What netdev_printk() does for a net device with a parent device */
static __printf(2, 3) void kmsg_paths_netdev(struct device *dev,
					      const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_printk_emit(LOGLEVEL_WARNING, dev, "%s %s %s: %pV",
			dev_driver_string(dev), dev_name(dev), "kpath0", &vaf);
	va_end(args);
}

static void kmsg_paths_device(void)
{
	struct platform_device *pdev;
	struct device *bare;

	pdev = platform_device_register_simple("kmsg_paths", -1, NULL, 0);
	if (!IS_ERR(pdev)) {
		dev_err(&pdev->dev, "device error %d on %s\n", -5, "port 1");
		dev_info(&pdev->dev, "device info, no arguments\n");
		dev_printk(KERN_NOTICE, &pdev->dev, "dev_printk at notice %u\n", 7);
		dev_err_probe(&pdev->dev, -ENODEV, "probe failed for %s\n", "kmsg");
		dev_printk_emit(LOGLEVEL_INFO, &pdev->dev, "dev_printk_emit %d\n", 5);
		kmsg_paths_netdev(&pdev->dev, "link %s at %u Mb/s\n", "up", 1000);
		platform_device_unregister(pdev);
	}

	/* A device without a driver, bus or class: an empty driver string */
	bare = root_device_register("kmsg_paths_bare");
	if (!IS_ERR(bare)) {
		dev_warn(bare, "bare device message %d\n", 42);
		root_device_unregister(bare);
	}
}

static void kmsg_paths_pointers(void)
{
	static const u8 ip4[4] = { 192, 168, 1, 2 };
	static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

	pr_info("pointers %p %pK %px\n", &kmsg_paths_target,
		&kmsg_paths_target, &kmsg_paths_target);
	pr_info("address %pI4 mac %pM\n", ip4, mac);
	pr_info("errors %pe %pe %pe\n", ERR_PTR(-ENOMEM), ERR_PTR(-EIO),
		ERR_PTR(-4095));
	/* not an error pointer: printed, and recorded, as a hashed %p */
	pr_info("not an error %pe\n", &kmsg_paths_target);
}

/* In an interrupt, with kptr_restrict 1, printk() prints "pK-error" */
static void kmsg_paths_irq(struct irq_work *work)
{
	pr_info("pointers in an interrupt %p %pK %-10pK|\n", &kmsg_paths_target,
		&kmsg_paths_target, NULL);
}

static DEFINE_IRQ_WORK(kmsg_paths_irq_work, kmsg_paths_irq);

static int __init kmsg_paths_init(void)
{
	int i;

	pr_info("pr_info with pr_fmt, %d and %s\n", 1, "two");
	pr_err("pr_err with pr_fmt\n");
	pr_notice("pr_notice %llu %lld %zu %c\n", 18446744073709551615ULL,
		  -9223372036854775807LL - 1, (size_t)4096, 'k');
	printk(KERN_WARNING "printk with a level %x\n", 0xbeef);
	printk("printk without a level %u\n", 3);
	pr_debug("pr_debug is not printed without DEBUG\n");

	for (i = 0; i < 3; i++)
		pr_info_once("once, whatever i is (%d)\n", i);
	for (i = 0; i < 3; i++)
		pr_warn_ratelimited("ratelimited %d\n", i);

	pr_info("continued:");
	pr_cont(" one");
	pr_cont(" %s", "two");
	pr_cont(" %d\n", 3);

	pr_info("no trailing newline %d", 1);
	pr_info("after a message without newline\n");

	kmsg_paths_wrap("inner %s %d", "format", 99);
	kmsg_paths_pointers();
	irq_work_queue(&kmsg_paths_irq_work);
	irq_work_sync(&kmsg_paths_irq_work);
	kmsg_paths_device();

	pr_info("UTF-8: Grüße, 日本語 %s\n", "ü");
	pr_info("width [%8d] [%-8d] [%08x] [%.3s] [%*d]\n", 42, 42, 0xabc,
		"abcdef", 6, 7);
	pr_info("two\nlines %d\n", 2);
	/* printk() drops one newline: the format's, else an argument's */
	pr_info("a blank line follows\n\n");
	pr_info("%s", "newline from the argument\n");
	pr_info("%s\n", "newline in the argument and the format\n");
	memset(kmsg_paths_long, 'x', sizeof(kmsg_paths_long) - 1);
	pr_info("long %s\n", kmsg_paths_long);
	pr_info("kmsg_paths done\n");
	return 0;
}

static void __exit kmsg_paths_exit(void)
{
}

module_init(kmsg_paths_init);
module_exit(kmsg_paths_exit);

MODULE_DESCRIPTION("Plain kernel messages of every path to printk(), for the kmsg selftests");
MODULE_LICENSE("GPL");
