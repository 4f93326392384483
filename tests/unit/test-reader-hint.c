// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's hints of events to come (kma_reader_set_hint()), which
 * kma-analyze turns into prefetches of its pointer indexes: each hint is a
 * slab or page event that the run's callback gets later, with the same type
 * and key fields; page events are hinted only when they are handed on; all
 * but a few of the events are hinted, with and without the reader's
 * threads; and the events handed on are the same with hints as without.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kma-event.h"
#include "match/kma-kind.h"
#include "reader/kma-reader.h"

struct seen {
	int		type;
	int		by_ptr;
	uint64_t	ptr;
	uint64_t	ts;		/* events only */
	size_t		at;		/* hints: events handed on before it */
};

struct run {
	struct seen	*ev, *hint;
	size_t		nr_ev, nr_hint, cap_ev, cap_hint;
};

static struct seen *push(struct seen **a, size_t *nr, size_t *cap)
{
	if (*nr == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		*a = realloc(*a, *cap * sizeof(**a));
		assert_non_null(*a);
	}
	return &(*a)[(*nr)++];
}

static int on_event(void *ctx, const struct kma_event *ev)
{
	struct run *r = ctx;
	struct seen *s;

	if (!kma_ev_is_page(ev->type) && kma_kind_of_event(ev->type) != KMA_KIND_SLAB)
		return 0;
	s = push(&r->ev, &r->nr_ev, &r->cap_ev);
	s->type = ev->type;
	s->by_ptr = ev->page_by_ptr;
	s->ptr = ev->ptr;
	s->ts = ev->ts;
	return 0;
}

static void on_hint(void *ctx, const struct kma_event *sketch)
{
	struct run *r = ctx;
	struct seen *s = push(&r->hint, &r->nr_hint, &r->cap_hint);

	s->type = sketch->type;
	s->by_ptr = sketch->page_by_ptr;
	s->ptr = sketch->ptr;
	s->at = r->nr_ev;
}

static char *fixture(const char *name)
{
	const char *dir = getenv("KMA_FIXTURES");
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", name);
	return path;
}

static void run_file(const char *name, int jobs, int pages, int hints, struct run *out)
{
	struct kma_file_opts fo = { .jobs = jobs };
	struct kma_err err;
	struct kma_reader *r;

	memset(out, 0, sizeof(*out));
	if (access(fixture(name), R_OK))
		skip();
	r = kma_reader_open_file(fixture(name), &fo, &err);
	assert_non_null(r);
	kma_reader_want_pages(r, pages);
	if (hints)
		kma_reader_set_hint(r, on_hint, out);
	assert_int_equal(kma_reader_run(r, on_event, out, NULL, NULL, &err), 0);
	kma_reader_close(r);
}

static void run_free(struct run *r)
{
	free(r->ev);
	free(r->hint);
}

/*
 * Every hint names an event handed on after it; the hints of one key come
 * in the order of its events, so each is matched to the first event of its
 * type and key not yet matched at or after the point it was given.
 */
static void check_hints(const struct run *r, int pages, size_t *page_hints)
{
	unsigned char *used = calloc(r->nr_ev ? r->nr_ev : 1, 1);
	size_t i, j;

	assert_non_null(used);
	*page_hints = 0;
	for (i = 0; i < r->nr_hint; i++) {
		const struct seen *h = &r->hint[i];

		assert_true(kma_ev_is_page(h->type) || kma_kind_of_event(h->type) == KMA_KIND_SLAB);
		if (kma_ev_is_page(h->type))
			(*page_hints)++;
		for (j = h->at; j < r->nr_ev; j++)
			if (!used[j] && r->ev[j].type == h->type && r->ev[j].ptr == h->ptr &&
			    r->ev[j].by_ptr == h->by_ptr)
				break;
		assert_true(j < r->nr_ev);	/* a hint of an event that never came */
		used[j] = 1;
	}
	if (!pages)
		assert_int_equal(*page_hints, 0);
	free(used);
}

static void test_hints(const char *name, int jobs)
{
	struct run plain, with, slab_only;
	size_t i, page_hints, page_events = 0;

	run_file(name, jobs, 1, 0, &plain);
	run_file(name, jobs, 1, 1, &with);
	/* the same events, in the same order, with hints as without */
	assert_int_equal(with.nr_ev, plain.nr_ev);
	for (i = 0; i < plain.nr_ev; i++) {
		assert_int_equal(with.ev[i].type, plain.ev[i].type);
		assert_true(with.ev[i].ptr == plain.ev[i].ptr && with.ev[i].ts == plain.ev[i].ts);
		page_events += kma_ev_is_page(plain.ev[i].type);
	}
	assert_int_equal(plain.nr_hint, 0);
	check_hints(&with, 1, &page_hints);
	assert_true(page_events > 0 && page_hints > 0);
	/* all but the first few records of each block of pages */
	assert_true(with.nr_hint * 10 >= with.nr_ev * 9);
	assert_true(with.nr_hint <= with.nr_ev);

	/* page events not handed on: not hinted either */
	run_file(name, jobs, 0, 1, &slab_only);
	check_hints(&slab_only, 0, &page_hints);
	assert_true(slab_only.nr_hint > 0);
	assert_int_equal(slab_only.nr_ev, plain.nr_ev - page_events);
	run_free(&plain);
	run_free(&with);
	run_free(&slab_only);
}

/* pages.dat: slab and page events, each followed by its kernel_stack record */
static void test_pages_merge(void **state)
{
	(void)state;
	test_hints("pages.dat", 1);
}

static void test_pages_threads(void **state)
{
	(void)state;
	test_hints("pages.dat", 2);
}

/* an uncompressed trace of slab events only */
static void test_v6_threads(void **state)
{
	struct run with;
	size_t page_hints;

	(void)state;
	run_file("basic-v6.dat", 2, 1, 1, &with);
	check_hints(&with, 1, &page_hints);
	assert_int_equal(page_hints, 0);
	assert_true(with.nr_ev > 10000 && with.nr_hint * 10 >= with.nr_ev * 9);
	run_free(&with);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_merge),
		cmocka_unit_test(test_pages_threads),
		cmocka_unit_test(test_v6_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
