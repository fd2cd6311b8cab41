/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer targets of tools/fuzz share: the entry point, and a
 * temporary directory for the targets whose code under test reads files.
 */
#ifndef KMSG_FUZZ_H
#define KMSG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * A directory of this process's own under $TMPDIR (else /tmp), removed
 * at exit with what is in it (no subdirectories of subdirectories).
 */
const char *fuzz_tmpdir(void);

/* Write @size bytes to @path (replaced); aborts on an error */
void fuzz_write(const char *path, const uint8_t *data, size_t size);

#endif /* KMSG_FUZZ_H */
