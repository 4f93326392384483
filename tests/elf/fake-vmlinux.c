// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for vmlinux in the kma-dwarf tests: call sites of an allocator,
 * some of them inside a function inlined twice. Linked at 0xffffffff81000000
 * by kernel.lds; tests/t-symbols.sh finds the calls with objdump and checks
 * kma's file:line against addr2line.
 */
#define __always_inline inline __attribute__((always_inline))
#define __noinline __attribute__((noinline))

void *kmalloc_stub(unsigned long size);

void * __noinline kmalloc_stub(unsigned long size)
{
	asm volatile("" : : : "memory");
	return (void *)size;
}

static __always_inline void *alloc_inlined(unsigned long n)
{
	void *p = kmalloc_stub(n * 2);

	return p;
}

void *alloc_direct(unsigned long n)
{
	void *p = kmalloc_stub(n);

	if (!p)
		p = kmalloc_stub(n + 1);
	return p;
}

void *alloc_via_inline(unsigned long n)
{
	void *a = alloc_inlined(n);

	if (a)
		a = alloc_inlined(n + 3);
	return a;
}

/* the same static name as in fake-vmlinux2.c: rebasing by name is ambiguous */
static void * __noinline dup_name(unsigned long n)
{
	return kmalloc_stub(n + 5);
}

void *use_dup1(unsigned long n)
{
	return dup_name(n);
}

void _start(void);

void _start(void)
{
	alloc_direct(1);
	alloc_via_inline(2);
	use_dup1(3);
	for (;;)
		;
}
