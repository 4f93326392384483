// SPDX-License-Identifier: GPL-2.0
/* A second object of the test vmlinux: a static function whose name is also in fake-vmlinux.c. */
#define __noinline __attribute__((noinline))

void *kmalloc_stub(unsigned long size);

static void * __noinline dup_name(unsigned long n)
{
	void *p = kmalloc_stub(n);

	if (p)
		p = kmalloc_stub(n * 7);
	return p;
}

void *use_dup2(unsigned long n);

void *use_dup2(unsigned long n)
{
	return dup_name(n);
}
