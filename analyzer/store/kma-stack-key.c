// SPDX-License-Identifier: GPL-2.0
/*
 * kma-stack-key.c - a call stack's fleet key. The bytes hashed: the depth in
 * decimal and '\n', then per frame, innermost first, its address, function
 * and offset, each 'n' for NULL or 'v' and its text, tab-ended; a stack of
 * no frame hashes as one frame of three NULLs (the outer join the first
 * stores' keys were made with). Through libcrypto: its SHA instructions hash
 * the keys of 122k stacks in a third of plain C's time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "kma-stack-key.h"

struct kma_stack_key {
	EVP_MD_CTX	*ctx;
	EVP_MD		*md;	/* fetched once: EVP_sha256() would fetch it at each init */
	char		*b;	/* the stack's bytes, hashed in one call */
	size_t		n, cap;
	int		fields, nomem;
};

struct kma_stack_key *kma_stack_key_alloc(void)
{
	struct kma_stack_key *k = calloc(1, sizeof(*k));

	if (k && (!(k->ctx = EVP_MD_CTX_new()) || !(k->md = EVP_MD_fetch(NULL, "SHA256", NULL)))) {
		kma_stack_key_free(k);
		return NULL;
	}
	return k;
}

void kma_stack_key_free(struct kma_stack_key *k)
{
	if (!k)
		return;
	EVP_MD_CTX_free(k->ctx);
	EVP_MD_free(k->md);
	free(k->b);
	free(k);
}

static int add(struct kma_stack_key *k, const void *d, size_t n)
{
	if (!n)		/* an empty blob's pointer may be NULL */
		return 0;
	if (k->n + n > k->cap) {
		size_t c = k->cap ? k->cap : 1024;
		char *b;

		while (c < k->n + n)
			c *= 2;
		b = realloc(k->b, c);
		if (!b) {
			k->nomem = 1;
			return -1;
		}
		k->b = b;
		k->cap = c;
	}
	memcpy(k->b + k->n, d, n);
	k->n += n;
	return 0;
}

void kma_stack_key_begin(struct kma_stack_key *k, int64_t depth)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%lld\n", (long long)depth);

	k->n = 0;
	k->fields = 0;
	k->nomem = 0;
	add(k, num, (size_t)n);
}

int kma_stack_key_field(struct kma_stack_key *k, const void *v, size_t n)
{
	k->fields++;
	if (!v)
		return add(k, "n\t", 2);
	return add(k, "v", 1) || add(k, v, n) || add(k, "\t", 1) ? -1 : 0;
}

int kma_stack_key_end(struct kma_stack_key *k, unsigned char out[32])
{
	unsigned int len = 0;

	if (!k->fields)
		add(k, "n\tn\tn\t", 6);
	if (k->nomem)
		return -1;
	if (!EVP_DigestInit_ex(k->ctx, k->md, NULL) || !EVP_DigestUpdate(k->ctx, k->b, k->n) ||
	    !EVP_DigestFinal_ex(k->ctx, out, &len) || len != 32)
		return -1;
	return 0;
}
