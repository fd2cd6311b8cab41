// SPDX-License-Identifier: GPL-2.0
/*
 * kmsgtest - emit identified kernel messages on demand
 *
 * Each message of component "kmsgtest" is printed when its number is
 * written to <debugfs>/kmsgtest/fire; "all" prints every one of them in
 * order. Between them the messages use every printk conversion class, so
 * tools that decode or rebuild kmsg messages can be tested against what
 * the kernel really printed.
 *
 * Writing "N" to fire_irq prints message N from hard interrupt context
 * (an irq_work); writing "COUNT" to fire_cpus prints message 16 COUNT
 * times on every online CPU at once, in the IPI of on_each_cpu().
 * Writing "N" to fire_softirq prints message N from a timer, in softirq
 * context; on x86, writing "N" to fire_nmi prints it from an NMI the CPU
 * sends to itself.
 *
 * Writing "SECONDS" to block keeps the writing task in uninterruptible
 * sleep for that long, at most KMSGTEST_BLOCK_MAX seconds: with a short
 * kernel.hung_task_timeout_secs, the hung task detector reports it.
 */

#define KMSG_COMPONENT "kmsgtest"

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kmsg.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nmi.h>
#include <linux/platform_device.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#endif

#define KMSGTEST_LONG_LEN	1500
#define KMSGTEST_BLOCK_MAX	300

static int devno = 0x4711;
static int status = 1;
static char kmsgtest_long[KMSGTEST_LONG_LEN + 1];
/* Four bytes without a NUL, followed by more bytes that are not one */
static const struct {
	char text[4];
	char more[4];
} kmsgtest_unterminated = { { 'w', 'x', 'y', 'z' }, { '!', '!', '!', '!' } };
static struct platform_device *kmsgtest_pdev;
static struct dentry *kmsgtest_dir;

/* Target of the %ps and %pS conversions: stays a real function */
static noinline void kmsgtest_target(void)
{
	barrier();
}

static int kmsgtest_fire(unsigned int nr)
{
	struct device *dev = &kmsgtest_pdev->dev;
	const char *null = NULL;

	/* a NULL string the compiler cannot see, nor warn about */
	OPTIMIZER_HIDE_VAR(null);
	void *ptr = (void *)0xffff8880deadbeefUL;

	switch (nr) {
	case 1:
		kmsg_info(1, "device %x has status %i\n", devno, status);
		break;
	case 2:
		kmsg_err(2, "device %x not online\n", devno);
		break;
	case 3:
		kmsg_warn(3, "signed %d unsigned %u octal %o hex %X\n",
			  -42, 4000000000U, 0755, 0xbeefU);
		break;
	case 4:
		kmsg_notice(4, "long %lx ullong %llu llong %lld\n",
			    0xdeadbeefUL, ULLONG_MAX, LLONG_MIN);
		break;
	case 5:
		kmsg_debug(5, "size %zu ssize %zd short %hd char %hhu\n",
			   (size_t)4096, (ssize_t)-1, 70000, 511);
		break;
	case 6:
		kmsg_crit(6, "char '%c' string '%s' null '%s' percent 100%%\n",
			  'K', "kmsg", null);
		break;
	case 7:
		kmsg_alert(7, "width [%8d] [%-8d] [%08x] [%+d] [% d] [%#x] [%#o] [%#x]\n",
			   42, 42, 0xabc, 5, 5, 0xff, 8, 0);
		break;
	case 8:
		kmsg_info(8, "star [%*d] [%-*d] [%.*s] [%*.*s] [%.3d] [%5.1s]\n",
			  6, 42, 6, 42, 3, "abcdef", 6, 2, "xyz", 5, "pq");
		break;
	case 9:
		kmsg_warn(9, "pointers %p %px %ps %pS\n", ptr, ptr,
			  kmsgtest_target, kmsgtest_target);
		break;
	case 10:
		kmsg_err(10, "errors %pe %pe\n", ERR_PTR(-ENODEV),
			 ERR_PTR(-EINVAL));
		break;
	case 11:
		kmsg_info(11, "long string %s\n", kmsgtest_long);
		break;
	case 12:
		kmsg_notice(12, "a message without arguments\n");
		break;
	case 13:
		kmsg_emerg(13, "emergency drill %d of %d, no action needed\n",
			   1, 3);
		break;
	case 14:
		printk(KMSG_WARNING(14) "prefix form %s\n", "still works");
		break;
	case 15:
		kmsg_info(15, "buffer [%.*s] [%.2s]\n", 4,
			  kmsgtest_unterminated.text, kmsgtest_unterminated.text);
		break;
	case 16:
		/* an NMI counts as hard interrupt context too */
		kmsg_info(16, "context %s cpu %d\n",
			  in_nmi() ? "nmi" : in_hardirq() ? "hardirq" :
			  in_serving_softirq() ? "softirq" : "task",
			  raw_smp_processor_id());
		break;
	case 20:
		kmsg_dev_err(dev, 20, "device %x: request %d timed out\n",
			     devno, 5);
		break;
	case 21:
		kmsg_dev_info(dev, 21, "device %x: %u of %u paths online\n",
			      devno, 2, 4);
		break;
	default:
		return -EINVAL;
	}

	return 0;
}

/* The file operations of a debugfs file that kmsgtest_<name>_write() serves */
#define KMSGTEST_WRITE_FOPS(name)					\
static const struct file_operations kmsgtest_##name##_fops = {		\
	.owner = THIS_MODULE,						\
	.write = kmsgtest_##name##_write,				\
	.llseek = noop_llseek,						\
}

static const unsigned int kmsgtest_numbers[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21,
};

static ssize_t kmsgtest_fire_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	char cmd[16];
	unsigned int nr;
	size_t len = min(count, sizeof(cmd) - 1);
	int i, ret;

	if (copy_from_user(cmd, buf, len))
		return -EFAULT;
	cmd[len] = '\0';
	strim(cmd);

	if (!strcmp(cmd, "all")) {
		for (i = 0; i < ARRAY_SIZE(kmsgtest_numbers); i++)
			kmsgtest_fire(kmsgtest_numbers[i]);
		return count;
	}

	ret = kstrtouint(cmd, 10, &nr);
	if (ret)
		return ret;
	ret = kmsgtest_fire(nr);

	return ret ? ret : count;
}

KMSGTEST_WRITE_FOPS(fire);

static unsigned int kmsgtest_irq_nr;
static int kmsgtest_irq_ret;

static void kmsgtest_irq_fn(struct irq_work *work)
{
	kmsgtest_irq_ret = kmsgtest_fire(kmsgtest_irq_nr);
}

static DEFINE_IRQ_WORK(kmsgtest_irq_work, kmsgtest_irq_fn);

/* Message N from hard interrupt context */
static ssize_t kmsgtest_fire_irq_write(struct file *file,
				       const char __user *buf, size_t count,
				       loff_t *ppos)
{
	int ret = kstrtouint_from_user(buf, count, 10, &kmsgtest_irq_nr);

	if (ret)
		return ret;
	kmsgtest_irq_ret = -EINPROGRESS;
	if (!irq_work_queue(&kmsgtest_irq_work))
		return -EBUSY;
	irq_work_sync(&kmsgtest_irq_work);

	return kmsgtest_irq_ret ? kmsgtest_irq_ret : count;
}

KMSGTEST_WRITE_FOPS(fire_irq);

static void kmsgtest_cpu_fn(void *info)
{
	unsigned int i, count = *(unsigned int *)info;

	for (i = 0; i < count; i++)
		kmsgtest_fire(16);
}

/* Message 16, COUNT times on every online CPU at once */
static ssize_t kmsgtest_fire_cpus_write(struct file *file,
					const char __user *buf, size_t count,
					loff_t *ppos)
{
	unsigned int n;
	int ret = kstrtouint_from_user(buf, count, 10, &n);

	if (ret)
		return ret;
	if (n > 100000)
		return -E2BIG;
	on_each_cpu(kmsgtest_cpu_fn, &n, 1);

	return count;
}

KMSGTEST_WRITE_FOPS(fire_cpus);

static unsigned int kmsgtest_softirq_nr;
static int kmsgtest_softirq_ret;
static DEFINE_MUTEX(kmsgtest_softirq_lock);
static DECLARE_COMPLETION(kmsgtest_softirq_done);

static void kmsgtest_timer_fn(struct timer_list *timer)
{
	kmsgtest_softirq_ret = kmsgtest_fire(kmsgtest_softirq_nr);
	complete(&kmsgtest_softirq_done);
}

static DEFINE_TIMER(kmsgtest_timer, kmsgtest_timer_fn);

/* Message N from softirq context: a timer that expires at once */
static ssize_t kmsgtest_fire_softirq_write(struct file *file,
					   const char __user *buf,
					   size_t count, loff_t *ppos)
{
	unsigned int nr;
	int ret = kstrtouint_from_user(buf, count, 10, &nr);

	if (ret)
		return ret;
	mutex_lock(&kmsgtest_softirq_lock);
	kmsgtest_softirq_nr = nr;
	reinit_completion(&kmsgtest_softirq_done);
	mod_timer(&kmsgtest_timer, jiffies);
	wait_for_completion(&kmsgtest_softirq_done);
	ret = kmsgtest_softirq_ret;
	mutex_unlock(&kmsgtest_softirq_lock);

	return ret ? ret : count;
}

KMSGTEST_WRITE_FOPS(fire_softirq);

#ifdef CONFIG_X86_LOCAL_APIC
/* The message an NMI of ours is to print, 0 when none is pending */
static unsigned int kmsgtest_nmi_nr;
static int kmsgtest_nmi_ret;
static DEFINE_MUTEX(kmsgtest_nmi_lock);

static int kmsgtest_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	unsigned int nr = xchg(&kmsgtest_nmi_nr, 0);

	if (!nr)
		return NMI_DONE;
	/* pairs with smp_load_acquire() in kmsgtest_fire_nmi_write() */
	smp_store_release(&kmsgtest_nmi_ret, kmsgtest_fire(nr));

	return NMI_HANDLED;
}

/* Message N from NMI context: an NMI this CPU sends itself */
static ssize_t kmsgtest_fire_nmi_write(struct file *file,
				       const char __user *buf, size_t count,
				       loff_t *ppos)
{
	unsigned int nr;
	int i, ret = kstrtouint_from_user(buf, count, 10, &nr);

	if (ret)
		return ret;
	if (!nr)
		return -EINVAL;

	mutex_lock(&kmsgtest_nmi_lock);
	WRITE_ONCE(kmsgtest_nmi_ret, -EINPROGRESS);
	WRITE_ONCE(kmsgtest_nmi_nr, nr);
	__apic_send_IPI_self(NMI_VECTOR);
	/* normally handled before the IPI write returns; wait up to 1 s */
	for (i = 0; i < 1000; i++) {
		/* pairs with the release in the handler: its result is final */
		ret = smp_load_acquire(&kmsgtest_nmi_ret);
		if (ret != -EINPROGRESS)
			break;
		usleep_range(1000, 2000);
	}
	if (ret == -EINPROGRESS) {
		/* withdraw the request if no NMI took it */
		xchg(&kmsgtest_nmi_nr, 0);
		ret = -ETIMEDOUT;
	}
	mutex_unlock(&kmsgtest_nmi_lock);

	return ret ? ret : count;
}

KMSGTEST_WRITE_FOPS(fire_nmi);

static int kmsgtest_nmi_init(void)
{
	int ret = register_nmi_handler(NMI_LOCAL, kmsgtest_nmi_handler, 0,
				       "kmsgtest");

	if (!ret)
		debugfs_create_file("fire_nmi", 0200, kmsgtest_dir, NULL,
				    &kmsgtest_fire_nmi_fops);
	return ret;
}

static void kmsgtest_nmi_exit(void)
{
	unregister_nmi_handler(NMI_LOCAL, "kmsgtest");
}
#else
static int kmsgtest_nmi_init(void)
{
	return 0;
}

static void kmsgtest_nmi_exit(void)
{
}
#endif /* CONFIG_X86_LOCAL_APIC */

/* Sleep in TASK_UNINTERRUPTIBLE, as a task stuck on I/O would */
static ssize_t kmsgtest_block_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	unsigned int seconds;
	int ret = kstrtouint_from_user(buf, count, 10, &seconds);

	if (ret)
		return ret;
	if (seconds > KMSGTEST_BLOCK_MAX)
		return -E2BIG;
	msleep(seconds * MSEC_PER_SEC);

	return count;
}

KMSGTEST_WRITE_FOPS(block);

static int __init kmsgtest_init(void)
{
	int i, ret;

	for (i = 0; i < KMSGTEST_LONG_LEN; i++)
		kmsgtest_long[i] = 'a' + i % 26;

	kmsgtest_pdev = platform_device_register_simple("kmsgtest", -1,
							NULL, 0);
	if (IS_ERR(kmsgtest_pdev))
		return PTR_ERR(kmsgtest_pdev);

	kmsgtest_dir = debugfs_create_dir("kmsgtest", NULL);
	debugfs_create_file("fire", 0200, kmsgtest_dir, NULL,
			    &kmsgtest_fire_fops);
	debugfs_create_file("fire_irq", 0200, kmsgtest_dir, NULL,
			    &kmsgtest_fire_irq_fops);
	debugfs_create_file("fire_cpus", 0200, kmsgtest_dir, NULL,
			    &kmsgtest_fire_cpus_fops);
	debugfs_create_file("fire_softirq", 0200, kmsgtest_dir, NULL,
			    &kmsgtest_fire_softirq_fops);
	debugfs_create_file("block", 0200, kmsgtest_dir, NULL,
			    &kmsgtest_block_fops);
	ret = kmsgtest_nmi_init();
	if (ret) {
		debugfs_remove(kmsgtest_dir);
		platform_device_unregister(kmsgtest_pdev);
	}

	return ret;
}

static void __exit kmsgtest_exit(void)
{
	kmsgtest_nmi_exit();
	debugfs_remove(kmsgtest_dir);
	irq_work_sync(&kmsgtest_irq_work);
	timer_delete_sync(&kmsgtest_timer);
	platform_device_unregister(kmsgtest_pdev);
}

module_init(kmsgtest_init);
module_exit(kmsgtest_exit);

/*
 * Documentation of the kmsgtest messages, beside the code. Message 14 is
 * in the prefix form, a plain printk() that the kmsg index does not list.
 */

/*
 * message
 * @0: Device number of the device.
 * @1: Status of the device: 0 offline, 1 online, 2 broken.
 *
 * Description:
 * Information about the status of the virtual kmsgtest device.
 *
 * User Response:
 * If the device is broken, replace it.
 */
KMSG_DOC(kmsgtest, 1, "device %x has status %i");

/*
 * message
 * @0: Device number of the device.
 *
 * Description:
 * An operation was attempted on the kmsgtest device, but the device is not
 * online. The operation failed.
 *
 * User Response:
 * Set the device online and retry the operation.
 */
KMSG_DOC(kmsgtest, 2, "device %x not online");

/*
 * message
 * @0: A negative number.
 * @1: A large unsigned number.
 * @2: A number printed in octal.
 * @3: A number printed in upper-case hexadecimal.
 *
 * Description:
 * Test message for the integer conversions of printk.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 3, "signed %d unsigned %u octal %o hex %X");

/*
 * message
 * @0: An unsigned long in hexadecimal.
 * @1: The largest unsigned long long.
 * @2: The smallest long long.
 *
 * Description:
 * Test message for the long and long long conversions.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 4, "long %lx ullong %llu llong %lld");

/*
 * message
 * @0: A size_t.
 * @1: A negative ssize_t.
 * @2: An int printed as a short.
 * @3: An int printed as an unsigned char.
 *
 * Description:
 * Test message for the size and the narrowing conversions.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 5, "size %zu ssize %zd short %hd char %hhu");

/*
 * message
 * @0: A character.
 * @1: A string.
 * @2: A NULL string, printed as (null).
 *
 * Description:
 * Test message for characters, strings and the percent sign.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 6, "char '%c' string '%s' null '%s' percent 100%%");

/*
 * message
 * @0: Right-aligned number.
 * @1: Left-aligned number.
 * @2: Zero-padded hexadecimal number.
 * @3: Number with its sign.
 * @4: Number with a space for its sign.
 * @5: Hexadecimal number with 0x.
 * @6: Octal number with a leading 0.
 * @7: Zero with 0x.
 *
 * Description:
 * Test message for flags and field widths.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 7, "width [%8d] [%-8d] [%08x] [%+d] [% d] [%#x] [%#o] [%#x]");

/*
 * message
 * @0: Number with a width from the arguments.
 * @1: Left-aligned number with a width from the arguments.
 * @2: String with a precision from the arguments.
 * @3: String with width and precision from the arguments.
 * @4: Number with a precision.
 * @5: String with a width and a precision.
 *
 * Description:
 * Test message for widths and precisions given as arguments.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 8, "star [%*d] [%-*d] [%.*s] [%*.*s] [%.3d] [%5.1s]");

/*
 * message
 * @0: A pointer, hashed unless the kernel runs with no_hash_pointers.
 * @1: The same pointer, unhashed.
 * @2: A function, by name.
 * @3: The same function, with offset and size.
 *
 * Description:
 * Test message for the pointer conversions.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 9, "pointers %p %px %ps %pS");

/*
 * message
 * @0: An error pointer.
 * @1: Another error pointer.
 *
 * Description:
 * Test message for error pointers, printed by name.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 10, "errors %pe %pe");

/*
 * message
 * @0: A string of 1500 characters.
 *
 * Description:
 * Test message longer than a printk record: the kernel log keeps its first
 * 1021 characters.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 11, "long string %s");

/*
 * message
 *
 * Description:
 * Test message without arguments.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 12, "a message without arguments");

/*
 * message
 * @0: Number of the drill.
 * @1: Number of drills.
 *
 * Description:
 * Test message at the emergency level. It is printed on every console.
 *
 * User Response:
 * None: it is a drill.
 */
KMSG_DOC(kmsgtest, 13, "emergency drill %d of %d, no action needed");

/*
 * message
 * @0: A buffer without terminating NUL, bounded by its length.
 * @1: The same buffer, bounded by a fixed precision.
 *
 * Description:
 * Test message for strings that are not NUL-terminated. Tools reading the
 * kmsg trace event must see exactly the bytes within the precision.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 15, "buffer [%.*s] [%.2s]");

/*
 * message
 * @0: The context the message was printed in: task, softirq, hardirq or
 *     nmi.
 * @1: The CPU it was printed on.
 *
 * Description:
 * Test message printed from interrupt context and from every CPU at once.
 *
 * User Response:
 * None.
 */
KMSG_DOC(kmsgtest, 16, "context %s cpu %d");

/*
 * message
 * @0: Device number of the device.
 * @1: Number of the request.
 *
 * Description:
 * A request to the kmsgtest device did not complete in time. The request
 * failed.
 *
 * User Response:
 * Check the device; retry the request.
 */
KMSG_DOC(kmsgtest, 20, "device %x: request %d timed out");

/*
 * message
 * @0: Device number of the device.
 * @1: Paths online.
 * @2: Paths configured.
 *
 * Description:
 * Not all paths to the kmsgtest device are online. The device still works,
 * with less redundancy.
 *
 * User Response:
 * Bring the missing paths online.
 */
KMSG_DOC(kmsgtest, 21, "device %x: %u of %u paths online");

MODULE_DESCRIPTION("Emit identified kernel messages on demand");
MODULE_LICENSE("GPL");
