// SPDX-License-Identifier: GPL-2.0
/*
 * A module-like object for tests/sites.sh: calls of the printk family
 * with constant formats, and a dynamic debug descriptor as
 * include/linux/dynamic_debug.h lays it out with CONFIG_JUMP_LABEL (56
 * bytes).  Built with gcc -O2 -mcmodel=kernel -fno-pic -mgeneral-regs-only
 * -c, as the kernel's code (no SSE register saved by a variadic function).
 */
struct _ddebug {
	const char *modname, *function, *filename, *format;
	unsigned int lineno:18, class_id:6, flags:8;
	long key[2];
} __attribute__((aligned(8)));

extern int _printk(const char *fmt, ...);
extern void _dev_err(const void *dev, const char *fmt, ...);
extern void _dev_printk(const char *level, const void *dev, const char *fmt, ...);
extern void __dynamic_dev_dbg(struct _ddebug *d, const void *dev, const char *fmt, ...);
extern void netdev_warn(const void *dev, const char *fmt, ...);
extern int dev_err_probe(const void *dev, int err, const char *fmt, ...);
extern void other(const char *s);

static struct _ddebug dd __attribute__((used, section("__dyndbg"))) = {
	"sitetest", "f_dbg", "sites-module.c", "dbg %d\n", 42, 0x3f, 0, { 0, 0 }
};
#ifndef NO_MODINFO_NAME
const char modinfo[] __attribute__((section(".modinfo"))) = "name=sitetest";
#endif

void f_printk(int x) { _printk("\0013hello %d\n", x); }
void f_dev(void *dev, int x) { _dev_err(dev, "bad %d\n", x); }
void f_lvl(void *dev) { _dev_printk("\0016", dev, "lvl\n"); }
void f_dbg(void *dev, int x) { __dynamic_dev_dbg(&dd, dev, "dbg %d\n", x); }
void f_cont(void) { _printk("\001c cont\n"); }
void f_net(void *n) { netdev_warn(n, "net %s\n", "x"); }
int f_probe(void *dev) { return dev_err_probe(dev, -5, "probe\n"); }
/* not a format: the string goes to another function first */
void f_not(void) { other("not a format"); _printk("\0014after\n"); }

/*
 * Wrappers: variadic functions printing their format through a %pV, one
 * of a fixed level, one of the caller's level ("%s" first), and their
 * callers.  Their calls are sites of the callers' formats.
 */
typedef __builtin_va_list va_list;
struct va_format {
	const char *fmt;
	va_list *va;
};

void t_info(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	__builtin_va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	_printk("\0016Tag: %pV", &vaf);
	__builtin_va_end(args);
}

void t_printk(const char *level, const void *dev, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	__builtin_va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	_printk("%sTDEV %p: %pV\n", level, dev, &vaf);
	__builtin_va_end(args);
}

/* ACPICA's: it prints through a buffer, known by its name */
void acpi_info(const char *fmt, ...)
{
	va_list args;

	__builtin_va_start(args, fmt);
	other((const char *)&args);
	__builtin_va_end(args);
}

void f_wrapped(void *dev, int x)
{
	t_info("wrapped %d\n", x);
	t_printk("\0013", dev, "oops %s\n", "x");
	acpi_info("%u tables", x);
	other("end");
}
