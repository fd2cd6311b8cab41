// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg dmesg --follow's own readers (lib/kmsg_follow.c): the state file
 * and the boot id, both read from files a run finds, and the sequence
 * numbers of the records it reads.
 *
 * Input: the state file's text; parsed, then its bytes as the boot id,
 * then as a series of sequence numbers (8 bytes each, an all-ones one an
 * EPIPE), whose gaps must add up to what kmsg_follow counted.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "kmsg_follow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_follow_state st;
	struct kmsg_follow f = { 0 };
	char id[KMSG_BOOT_ID_LEN], err[256];
	unsigned long long missed = 0, first;
	size_t i;

	if (!kmsg_follow_state_parse((const char *)data, size, &st, err,
				     sizeof(err))) {
		if (strlen(st.boot_id) != KMSG_BOOT_ID_LEN - 1)
			abort();
		kmsg_follow_resume(&f, st.seq);
	} else if (!memchr(err, 0, sizeof(err))) {
		abort();
	}
	if (!kmsg_boot_id_parse((const char *)data, size, id) &&
	    strlen(id) != KMSG_BOOT_ID_LEN - 1)
		abort();
	for (i = 0; i + 8 <= size; i += 8) {
		unsigned long long seq;
		long long n;

		memcpy(&seq, data + i, 8);
		if (seq == ~0ULL) {
			kmsg_follow_overrun(&f);
			continue;
		}
		n = kmsg_follow_seq(&f, seq, &first);
		if (n < 0 && n != KMSG_FOLLOW_SKIP)
			abort();
		if (n > 0)
			missed += n;
	}
	if (missed != f.missed)
		abort();
	return 0;
}
