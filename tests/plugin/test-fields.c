// SPDX-License-Identifier: GPL-2.0
/*
 * test-fields.c - drive plugin_kma.so through libtraceevent with event
 * formats no real trace has: fields missing, records out of time order,
 * handles opened and closed in turn. tests/t-plugin.sh checks the output.
 *
 *   test-fields PLUGIN_DIR
 *
 * Prints one line per event: "<case>: <what the plugin printed>".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* kmalloc with neither bytes_req nor gfp_flags */
static const char fmt_kmalloc[] =
	"name: kmalloc\nID: 10\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_alloc;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"call_site=%pS ptr=%p bytes_alloc=%zu\", (void *)REC->call_site, REC->ptr, REC->bytes_alloc\n";

/* kmem_cache_alloc with every field, a cache name and gfp flags */
static const char fmt_cache_alloc[] =
	"name: kmem_cache_alloc\nID: 11\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:size_t bytes_req;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_alloc;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long gfp_flags;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:int node;\toffset:56;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"call_site=%pS ptr=%p name=%s bytes_req=%zu bytes_alloc=%zu gfp_flags=%s node=%d\", "
	"(void *)REC->call_site, REC->ptr, __get_str(name), REC->bytes_req, REC->bytes_alloc, "
	"(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", {0xcc0, \"GFP_KERNEL\"}, "
	"{0x100, \"__GFP_ZERO\"}) : \"none\", REC->node\n";

/* kfree without ptr */
static const char fmt_kfree[] =
	"name: kfree\nID: 12\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"call_site=%pS\", (void *)REC->call_site\n";

/* kmem_cache_free as the kernel has it */
static const char fmt_cache_free[] =
	"name: kmem_cache_free\nID: 13\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"call_site=%pS ptr=%p\", (void *)REC->call_site, REC->ptr\n";

/* kmalloc_node with no call_site */
static const char fmt_kmalloc_node[] =
	"name: kmalloc_node\nID: 14\nformat:\n" COMMON_FIELDS
	"\tfield:const void * ptr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_req;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_alloc;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long gfp_flags;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"ptr=%p\", REC->ptr\n";

/* mm_page_alloc with neither order nor migratetype */
static const char fmt_page_alloc[] =
	"name: mm_page_alloc\nID: 15\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long gfp_flags;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"pfn=0x%lx gfp_flags=%s\", REC->pfn, "
	"(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", {0xcc0, \"GFP_KERNEL\"}) : \"none\"\n";

/* mm_page_free as the kernel has it */
static const char fmt_page_free[] =
	"name: mm_page_free\nID: 16\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int order;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"pfn=0x%lx order=%d\", REC->pfn, REC->order\n";

static unsigned char data[128];

static void put64(int off, uint64_t v)
{
	memcpy(data + off, &v, 8);
}

static void header(int id)
{
	uint16_t type = id;
	int32_t pid = 42;

	memset(data, 0, sizeof(data));
	memcpy(data, &type, 2);
	memcpy(data + 4, &pid, 4);
}

static void show(struct tep_handle *tep, const char *what, uint64_t ts, int size)
{
	struct tep_record rec = { .ts = ts, .data = data, .size = size, .cpu = 0, .offset = ts };
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	printf("%s: %s\n", what, s.buffer);
	trace_seq_destroy(&s);
}

static void cache_alloc(struct tep_handle *tep, const char *what, uint64_t ts,
			uint64_t site, uint64_t ptr, uint64_t gfp)
{
	uint32_t loc = (uint32_t)(8 << 16) | 64;

	header(11);
	put64(8, site);
	put64(16, ptr);
	memcpy(data + 24, &loc, 4);
	put64(32, 100);
	put64(40, 128);
	put64(48, gfp);
	memset(data + 56, 0xff, 4);	/* node -1 */
	memcpy(data + 64, "kmalloc", 8);
	show(tep, what, ts, 72);
}

static void cache_free(struct tep_handle *tep, const char *what, uint64_t ts, uint64_t ptr)
{
	header(13);
	put64(8, 0xffffffff81001020ULL);
	put64(16, ptr);
	show(tep, what, ts, 24);
}

static struct tep_handle *open_tep(const char *dir)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev;	/* libtraceevent 1.7 writes through this pointer */

	if (!tep)
		exit(1);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	if (tep_parse_format(tep, &ev, fmt_kmalloc, sizeof(fmt_kmalloc) - 1, "kmem") ||
	    tep_parse_format(tep, &ev, fmt_cache_alloc, sizeof(fmt_cache_alloc) - 1, "kmem") ||
	    tep_parse_format(tep, &ev, fmt_kfree, sizeof(fmt_kfree) - 1, "kmem") ||
	    tep_parse_format(tep, &ev, fmt_cache_free, sizeof(fmt_cache_free) - 1, "kmem") ||
	    tep_parse_format(tep, &ev, fmt_kmalloc_node, sizeof(fmt_kmalloc_node) - 1, "kmem") ||
	    tep_parse_format(tep, &ev, fmt_page_alloc, sizeof(fmt_page_alloc) - 1, "kmem") ||
	    tep_parse_format(tep, &ev, fmt_page_free, sizeof(fmt_page_free) - 1, "kmem")) {
		fprintf(stderr, "test-fields: cannot parse the event formats\n");
		exit(1);
	}
	tep_register_function(tep, "alloc_thing", 0xffffffff81000000ULL, NULL);
	tep_register_function(tep, "free_thing", 0xffffffff81001000ULL, NULL);
	tep_register_function(tep, "zzz_end", 0xffffffff81002000ULL, NULL);
	(void)dir;
	return tep;
}

int main(int argc, char **argv)
{
	struct tep_plugin_list *plugins;
	struct tep_handle *tep;
	int round;

	if (argc != 2) {
		fprintf(stderr, "usage: test-fields PLUGIN_DIR\n");
		return 2;
	}
	setenv("TRACEEVENT_PLUGIN_DIR", argv[1], 1);

	/* Twice: a second handle after the first is gone must start clean. */
	for (round = 1; round <= 2; round++) {
		tep = open_tep(argv[1]);
		tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
		plugins = tep_load_plugins(tep);
		if (!plugins) {
			fprintf(stderr, "test-fields: no plugin in %s\n", argv[1]);
			return 1;
		}
		printf("round %d\n", round);

		header(10);
		put64(8, 0xffffffff81000010ULL);
		put64(16, 0xffff888000001000ULL);
		put64(24, 64);
		show(tep, "missing-req-gfp", 1000, 32);

		header(12);
		put64(8, 0xffffffff81001010ULL);
		show(tep, "missing-ptr", 2000, 16);

		header(14);
		put64(8, 0xffff888000001000ULL);
		put64(16, 10);
		put64(24, 16);
		put64(32, 0xcc0);
		show(tep, "missing-call-site", 3000, 40);

		cache_alloc(tep, "cache-alloc", 4000, 0xffffffff81000020ULL, 0xffff888000002000ULL, 0xdc0);
		cache_alloc(tep, "implicit", 5000, 0xffffffff81000030ULL, 0xffff888000002000ULL, 0);
		cache_free(tep, "matched-free", 5200, 0xffff888000002000ULL);
		cache_free(tep, "unknown-free", 5300, 0xffff888000002000ULL);
		cache_free(tep, "null-free", 5400, 0x10);
		/* Short record: the name's __data_loc and bytes_alloc are past its end. */
		header(11);
		{
			uint32_t loc = (uint32_t)(200 << 16) | 64;

			put64(8, 0xffffffff81000040ULL);
			put64(16, 0xffff888000003000ULL);
			memcpy(data + 24, &loc, 4);
		}
		show(tep, "short-record", 5500, 40);
		/*
		 * Pages: pfn 5 is a page, not a null free; an alloc without order
		 * closes as order-!; a record too short for its pfn prints '!'.
		 */
		header(15);
		put64(8, 5);
		put64(16, 0xcc0);
		show(tep, "page-alloc-no-order", 5600, 24);
		header(16);
		put64(8, 5);
		show(tep, "page-free-small-pfn", 5700, 20);
		show(tep, "page-free-again", 5800, 20);
		show(tep, "page-free-short", 5900, 8);

		/* Back in time, as a viewer printing rows on demand does. */
		cache_alloc(tep, "backwards", 4500, 0xffffffff81000050ULL, 0xffff888000004000ULL, 0x100);
		cache_free(tep, "after-backwards", 6000, 0xffff888000004000ULL);

		tep_unload_plugins(plugins, tep);
		tep_free(tep);
	}
	return 0;
}
