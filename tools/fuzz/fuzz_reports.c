// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg reports (kmsg/reports.c) on any bytes: the whole scan of a log,
 * its headers matched, its reports' frames, titles and fields, text and
 * JSON output (to /dev/null). The report classes are those of
 * docs-db/catalog/report.kmsg as this target was written, the skip list
 * its first entries, a row of each other kind of report_frames. Input: a
 * console log, any bytes.
 */
/* first: it defines _GNU_SOURCE (memmem) before any header */
#include "../kmsg/reports.c"

#include "fuzz.h"

const char *prog = "fuzz_reports";

/* reports_main() is not run: no docs database here */
struct kmsg_docs *docs_open(const struct options *o, char *err, size_t errlen)
{
	(void)o;
	snprintf(err, errlen, "no database");
	return NULL;
}

int kmsg_docs_report_formats(struct kmsg_docs *docs,
			     int (*cb)(void *ctx, const char **col), void *ctx)
{
	(void)docs; (void)cb; (void)ctx;
	return -1;
}

int kmsg_docs_report_frames(struct kmsg_docs *docs,
			    int (*cb)(void *ctx, const char **col), void *ctx)
{
	(void)docs; (void)cb; (void)ctx;
	return -1;
}

const char *kmsg_docs_errmsg(const struct kmsg_docs *docs)
{
	(void)docs;
	return "";
}

void kmsg_docs_close(struct kmsg_docs *docs)
{
	(void)docs;
}

static const char *const formats[][9] = {
	{ "hung_task.1", "INFO: task hung", "INFO: task %s:%d blocked for more than %ld seconds.", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: CPU: %d PID: %d at %pS", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: CPU: %d PID: %d at %s:%d %pS", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: CPU: %d PID: %d at %s:%d %pS()", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: %s:%d at %pS, CPU#%d: %s/%d", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: [%s] %s:%d at %pS, CPU#%d: %s/%d", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: at %s:%d %pS()", "", "", "1", "0", "0", "" },
	{ "report.1", "WARNING", "WARNING: at %pS()", "", "", "1", "0", "0", "" },
	{ "report.10", "KFENCE: use-after-free %s", "BUG: KFENCE: use-after-free %s in %pS", "", "", "1", "0", "0", "" },
	{ "report.11", "KFENCE: memory corruption", "BUG: KFENCE: memory corruption in %pS", "", "", "1", "0", "0", "" },
	{ "report.12", "KFENCE: invalid %s", "BUG: KFENCE: invalid %s in %pS", "", "", "1", "0", "0", "" },
	{ "report.13", "KFENCE: invalid free", "BUG: KFENCE: invalid free in %pS", "", "", "1", "0", "0", "" },
	{ "report.14", "KMSAN: %s", "BUG: KMSAN: %s in %pSb", "", "", "1", "0", "0", "" },
	{ "report.14", "KMSAN: %s", "BUG: KMSAN: %s in %pS", "", "", "1", "0", "0", "" },
	{ "report.15", "KCSAN: %s", "BUG: KCSAN: %s in %pS", "", "", "1", "0", "0", "" },
	{ "report.15", "KCSAN: %s", "BUG: KCSAN: %s in %ps / %ps", "", "", "1", "0", "0", "" },
	{ "report.16", "possible deadlock", "WARNING: possible circular locking dependency detected", "", "", "1", "0", "0", "" },
	{ "report.16", "possible deadlock", "[ INFO: possible circular locking dependency detected ]", "", "", "1", "0", "0", "" },
	{ "report.17", "possible deadlock", "WARNING: possible recursive locking detected", "", "", "1", "0", "0", "" },
	{ "report.17", "possible deadlock", "[ INFO: possible recursive locking detected ]", "", "", "1", "0", "0", "" },
	{ "report.18", "possible deadlock", "WARNING: %s-safe -> %s-unsafe lock order detected", "", "", "1", "0", "0", "" },
	{ "report.18", "possible deadlock", "WARNING: possible irq lock inversion dependency detected", "", "", "1", "0", "0", "" },
	{ "report.19", "inconsistent lock state", "WARNING: inconsistent lock state", "", "", "1", "0", "0", "" },
	{ "report.19", "inconsistent lock state", "[ INFO: inconsistent lock state ]", "", "", "1", "0", "0", "" },
	{ "report.2", "KASAN: %s", "BUG: KASAN: %s in %pS", "", "", "1", "0", "0", "" },
	{ "report.2", "KASAN: %s", "BUG: KASAN: %s in %pS at addr %p", "", "", "1", "0", "0", "" },
	{ "report.2", "KASAN: %s", "BUG: KASAN: %s on address %p", "", "", "1", "0", "0", "" },
	{ "report.20", "WARNING: suspicious RCU usage", "WARNING: suspicious RCU usage", "", "", "1", "0", "0", "" },
	{ "report.20", "WARNING: suspicious RCU usage", "[ INFO: suspicious RCU usage. ]", "", "", "1", "0", "0", "" },
	{ "report.21", "INFO: rcu detected stall", "rcu: INFO: %s detected stalls on CPUs/tasks:", "", "", "1", "0", "0", "" },
	{ "report.21", "INFO: rcu detected stall", "INFO: %s detected stalls on CPUs/tasks:", "", "", "1", "0", "0", "" },
	{ "report.21", "INFO: rcu detected stall", "rcu: INFO: %s self-detected stall on CPU", "", "", "1", "0", "0", "" },
	{ "report.21", "INFO: rcu detected stall", "INFO: %s self-detected stall on CPU", "", "", "1", "0", "0", "" },
	{ "report.21", "INFO: rcu detected stall", "INFO: %s detected stall on CPU", "", "", "1", "0", "0", "" },
	{ "report.22", "BUG: sleeping function called from invalid context", "BUG: sleeping function called from invalid context at %s:%d", "", "", "1", "0", "0", "" },
	{ "report.23", "BUG: scheduling while atomic", "BUG: scheduling while atomic: %s/%d/0x%08x", "", "", "1", "0", "0", "" },
	{ "report.24", "kernel panic: %s", "Kernel panic - not syncing: %s", "", "", "1", "0", "0", "" },
	{ "report.25", "memory leak", "unreferenced object 0x%08lx (size %zu):", "", "", "1", "0", "0", "" },
	{ "report.26", "PANIC: double fault", "PANIC: double fault, error_code: 0x%lx", "", "", "1", "0", "0", "" },
	{ "report.27", "BUG: Bad page state", "BUG: Bad page state in process %s  pfn:%05lx", "", "", "1", "0", "0", "" },
	{ "report.28", "BUG: using %s%s() in preemptible code", "BUG: using %s%s() in preemptible [%08x] code: %s/%d", "", "", "1", "0", "0", "" },
	{ "report.29", "WARNING: bad unlock balance", "WARNING: bad unlock balance detected!", "", "", "1", "0", "0", "" },
	{ "report.29", "WARNING: bad unlock balance", "[ BUG: bad unlock balance detected! ]", "", "", "1", "0", "0", "" },
	{ "report.3", "kernel BUG", "kernel BUG at %s:%u!", "", "", "1", "0", "0", "" },
	{ "report.3", "kernel BUG", "Kernel BUG at %pB [verbose debug info unavailable]", "", "", "1", "0", "0", "" },
	{ "report.3", "kernel BUG", "kernel BUG at %s:%d!", "", "", "1", "0", "0", "" },
	{ "report.30", "WARNING: held lock freed", "WARNING: held lock freed!", "", "", "1", "0", "0", "" },
	{ "report.30", "WARNING: held lock freed", "[ BUG: held lock freed! ]", "", "", "1", "0", "0", "" },
	{ "report.31", "WARNING: still has locks held", "WARNING: %s/%d still has locks held!", "", "", "1", "0", "0", "" },
	{ "report.32", "WARNING: nested lock was not taken", "WARNING: Nested lock was not taken", "", "", "1", "0", "0", "" },
	{ "report.33", "WARNING: lock held when returning to user space", "WARNING: lock held when returning to user space!", "", "", "1", "0", "0", "" },
	{ "report.34", "INFO: trying to register non-static key", "INFO: trying to register non-static key.", "", "", "1", "0", "0", "" },
	{ "report.35", "WARNING: refcount bug", "refcount_t: underflow; use-after-free.", "", "", "1", "0", "0", "" },
	{ "report.35", "WARNING: refcount bug", "refcount_t: saturated; leaking memory.", "", "", "1", "0", "0", "" },
	{ "report.35", "WARNING: refcount bug", "refcount_t: addition on 0; use-after-free.", "", "", "1", "0", "0", "" },
	{ "report.35", "WARNING: refcount bug", "refcount_t: decrement hit 0; leaking memory.", "", "", "1", "0", "0", "" },
	{ "report.35", "WARNING: refcount bug", "refcount_t: increment on 0; use-after-free.", "", "", "1", "0", "0", "" },
	{ "report.36", "WARNING: ODEBUG bug", "ODEBUG: %s %s (active state %u) object: %p object type: %s hint: %pS", "", "", "1", "0", "0", "" },
	{ "report.36", "WARNING: ODEBUG bug", "ODEBUG: %s %s (active state %u) object type: %s hint: %pS", "", "", "1", "0", "0", "" },
	{ "report.37", "BUG: spinlock %s", "BUG: spinlock %s on CPU#%d, %s/%d", "", "", "1", "0", "0", "" },
	{ "report.38", "kernel panic: stack is corrupted", "stack-protector: Kernel stack is corrupted in: %pB", "", "", "1", "0", "0", "" },
	{ "report.39", "BUG: workqueue lockup", "BUG: workqueue lockup - pool%s", "", "", "1", "0", "0", "" },
	{ "report.4", "%s", "Oops: %s: %04lx [#%d]%s%s%s%s%s", "", "", "1", "0", "0", "" },
	{ "report.4", "%s", "%s: %04lx [#%d]%s%s%s%s%s", "", "", "1", "0", "0", "" },
	{ "report.4", "%s", "%s: %04lx [#%d] %s%s%s%s%s", "", "", "1", "0", "0", "" },
	{ "report.5", "BUG: unable to handle kernel paging request", "BUG: unable to handle page fault for address: %px", "", "", "1", "0", "0", "" },
	{ "report.5", "BUG: unable to handle kernel paging request", "BUG: unable to handle kernel paging request at %px", "", "", "1", "0", "0", "" },
	{ "report.5", "BUG: unable to handle kernel paging request", "BUG: unable to handle kernel paging request at %p", "", "", "1", "0", "0", "" },
	{ "report.6", "BUG: unable to handle kernel NULL pointer dereference", "BUG: kernel NULL pointer dereference, address: %px", "", "", "1", "0", "0", "" },
	{ "report.6", "BUG: unable to handle kernel NULL pointer dereference", "BUG: unable to handle kernel NULL pointer dereference at %px", "", "", "1", "0", "0", "" },
	{ "report.6", "BUG: unable to handle kernel NULL pointer dereference", "BUG: unable to handle kernel NULL pointer dereference at %p", "", "", "1", "0", "0", "" },
	{ "report.7", "UBSAN: %s", "UBSAN: %s in %s:%d:%d", "", "", "1", "0", "0", "" },
	{ "report.8", "UBSAN: undefined-behaviour", "UBSAN: Undefined behaviour in %s:%d:%d", "", "", "1", "0", "0", "" },
	{ "report.9", "KFENCE: out-of-bounds %s", "BUG: KFENCE: out-of-bounds %s in %pS", "", "", "1", "0", "0", "" },
	{ "watchdog.1", "BUG: hard lockup", "watchdog: Watchdog detected hard LOCKUP on cpu %d", "", "", "1", "0", "0", "" },
	{ "watchdog.2", "BUG: soft lockup", "watchdog: BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]", "", "", "1", "0", "0", "" },
	{ "watchdog.2", "BUG: soft lockup", "BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]", "", "", "1", "0", "0", "" },
	{ "watchdog.2", "BUG: soft lockup", "NMI watchdog: BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]", "", "", "1", "0", "0", "" },
	{ "watchdog.2", "BUG: soft lockup", "BUG: soft lockup - CPU#%d stuck for %ds! [%s:%d]", "", "", "1", "0", "0", "" },
	{ "watchdog.2", "BUG: soft lockup", "NMI watchdog: BUG: soft lockup - CPU#%d stuck for %ds! [%s:%d]", "", "", "1", "0", "0", "" }
};

/* global skips of report_frames, as regular expressions */
static const char *const skips[] = {
	"^____kasan_",
	"^___might_sleep$",
	"^___slab_alloc$",
	"^__alloc_pages",
	"^__asan_",
	"^__bad_area_nosemaphore$",
	"^__cond_resched",
	"^__copy_from_user",
	"^__copy_to_user",
	"^__debug_check_no_obj_freed$",
	"^__debug_object_",
	"^__die$",
	"^__die_body$",
	"^__do_kmalloc",
	"^__do_page_fault$",
	"^__do_softirq$",
	"^__down",
	"^__down_",
	"^__dump_stack$",
	"^__flush_work$",
	"^__flush_workqueue$",
	"^__folio_put$",
	"^__free_pages$",
	"^__free_pages_ok$",
	"^__hrtimer_",
	"^__irq_exit_rcu$",
	"^__kasan_",
	"^__kcsan_",
	"^__kfence_",
	"^__kmalloc",
	"^__kmalloc_node",
	"^__kmem_cache_alloc",
	"^__kmemleak_",
	"^__kmsan_",
	"^__kvmalloc",
	"^__list_add_valid",
	"^__list_del_entry_valid",
	"^__local_bh_enable",
	"^__lock_",
	"^__lock_acquire$",
	"^__lock_release$",
	"^__lockdep_",
	"^__might_fault$",
	"^__might_resched$",
	"^__might_sleep$",
	"^__msan_",
	"^__mutex_lock",
	"^__mutex_unlock",
	"^__percpu_down_",
	"^__raw_read_lock",
	"^__raw_spin_lock",
	"^__raw_write_lock",
	"^__rcu_",
	"^__refcount_",
	"^__report_bug$",
	"^__run_timers$",
	"^__rwsem_",
	"^__sanitizer_cov_",
	"^__schedule$",
	"^__schedule_bug$",
};

static struct rp rp_text, rp_json;

static void setup(struct rp *r, bool json)
{
	size_t i;

	r->m = kmsg_match_new();
	if (!r->m)
		abort();
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (add_format(r, (const char **)formats[i]))
			abort();
	for (i = 0; i < sizeof(skips) / sizeof(skips[0]); i++) {
		const char *col[3] = { "skip", "", skips[i] };

		if (add_frame(r, col))
			abort();
	}
	{
		/* one row of each other kind, on the classes above */
		static const char *const rows[][3] = {
			{ "strip", "", "^__se_sys_" },
			{ "corrupt", "", "^should_fail(slab)?$" },
			{ "after", "report.21", "apic_timer_interrupt" },
			{ "anchor", "report.21", "do_syscall_|process_one_work" },
			{ "name", "report.21", "smp_call_function=smp_call_function" },
			{ "name", "hung_task.1", "synchronize_(rcu|net)=synchronize_rcu" },
			{ "name", "hung_task.1", "rtnl_lock=" },
			{ "line", "report.16", "at:" },
			{ "continues", "report.4", "report.5" },
			{ "ignore", "report.3", "kasan: bad access" },
			{ "skip", "report.1", "^__warn" },
		};

		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			if (add_frame(r, (const char **)rows[i]))
				abort();
		if (rp_prepare(r))
			abort();
	}
	if (kmsg_match_build(r->m))
		abort();
	r->json = json;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	setup(&rp_text, false);
	setup(&rp_json, true);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a heap copy of exactly @size bytes: ASan sees any overread */
	char *buf = malloc(size ? size : 1);

	if (!buf)
		abort();
	memcpy(buf, data, size);
	scan(&rp_text, "log", buf, size);
	scan(&rp_json, "log", buf, size);
	free(buf);
	return 0;
}
