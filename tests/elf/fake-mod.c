// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for a kernel module (an ET_REL object installed as
 * fake-mod.ko, "[fake_mod]" in kallsyms) in the kma-dwarf tests.
 */
#define __always_inline inline __attribute__((always_inline))

void *kmalloc_stub(unsigned long size);

static __always_inline void *mod_helper(unsigned long n)
{
	return kmalloc_stub(n + 8);
}

void *mod_alloc(unsigned long n);
void *mod_alloc2(unsigned long n);

void *mod_alloc(unsigned long n)
{
	void *p = kmalloc_stub(n);

	if (!p)
		p = mod_helper(n);
	return p;
}

void *mod_alloc2(unsigned long n)
{
	void *p = mod_helper(n * 4);

	return p;
}
