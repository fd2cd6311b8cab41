/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmsg_modrel - which modules may print a device line of a driver.
 *
 * A device line ("iwlwifi 0000:00:14.3: Detected RF HR B5") names the
 * driver bound to the device.  The code printing it runs for that
 * device: the driver's module, a module it uses (iwlwifi's lines of
 * mac80211 code, ahci's of libahci), a module that uses it (iwlmvm's of
 * iwlwifi's device), or a module one of those uses; or code built into
 * vmlinux (the driver core, PCI).  A module outside that set (ftdi_sio's
 * "Detected %s", e1000's lines for an e1000e device) did not print it.
 *
 * The relation is read from the modules' .modinfo "depends=" lists (the
 * modules table of a stock kernel's database).  A driver name that is no
 * module's (a bus: "pci", "usb"; a class; a driver of vmlinux) and a site
 * of vmlinux or of an unknown object are allowed: only what the
 * dependencies rule out is refused.
 */
#ifndef KMSG_MODREL_H
#define KMSG_MODREL_H

#include <stdbool.h>
#include <stddef.h>

struct kmsg_modrel;

struct kmsg_modrel *kmsg_modrel_new(void);
void kmsg_modrel_free(struct kmsg_modrel *r);

/*
 * Add module @name and its dependencies @depends ("a,b", "" or NULL for
 * none).  0 or -ENOMEM.  A name added twice keeps its first list.
 */
int kmsg_modrel_add(struct kmsg_modrel *r, const char *name,
		    const char *depends);

/* Modules added */
size_t kmsg_modrel_count(const struct kmsg_modrel *r);

/*
 * May code of @object ("vmlinux" or a module's name) print a device line
 * of driver @driver (@len bytes, as the line prints it: '-' and '_' are
 * the same)?  False only when both are modules and @object is none of
 * @driver, its dependencies, the modules depending on it, and their
 * dependencies.
 */
bool kmsg_modrel_allows(struct kmsg_modrel *r, const char *driver,
			size_t len, const char *object);

#endif /* KMSG_MODREL_H */
