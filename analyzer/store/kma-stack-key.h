/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-stack-key.h - a call stack's key in the fleet store: the SHA-256 of its
 * depth and frames as report.db keeps them (kma-fleet(5)), computed by
 * kma-analyze as it writes stacks.stack_key and by kma-push for a report.db
 * written before that column: one definition of the bytes hashed.
 */
#ifndef KMA_STACK_KEY_H
#define KMA_STACK_KEY_H

#include <stddef.h>
#include <stdint.h>

struct kma_stack_key;

/* A context for many stacks; NULL: no memory or no SHA-256 in libcrypto. */
struct kma_stack_key *kma_stack_key_alloc(void);
void kma_stack_key_free(struct kma_stack_key *k);

/* A stack of @depth frames begun; then kma_stack_key_field for each field. */
void kma_stack_key_begin(struct kma_stack_key *k, int64_t depth);

/*
 * A frame's next field (address, function, offset, as report.db's text: the
 * offset in decimal), @v NULL for SQL NULL; 0, or -1: no memory.
 */
int kma_stack_key_field(struct kma_stack_key *k, const void *v, size_t n);

/* The key of the stack begun, into @out; 0, or -1 (no memory, libcrypto failed). */
int kma_stack_key_end(struct kma_stack_key *k, unsigned char out[32]);

#endif
