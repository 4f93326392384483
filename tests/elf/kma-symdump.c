// SPDX-License-Identifier: GPL-2.0
/*
 * kma-symdump - test helper for kma-symtab, compared by tests/t-symbols.sh
 * with trace-cmd's own output:
 *   kma-symdump text TRACE     the kallsyms text kma reads from TRACE
 *   kma-symdump sites TRACE    call_site of every record, in trace-cmd report
 *                              order, as "sym+0xoff" (or "0xADDR: why")
 *   kma-symdump syms TRACE     the text symbols: "addr size module name"
 *   kma-symdump tep KALLSYMS   looks up offsets 1, size/2 and size-1 of every
 *                              text symbol of a kallsyms text file with kma and
 *                              with libtraceevent: prints where they differ
 *                              (another name at the same address is allowed)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "kma-huge.h"
#include "reader/kma-tracedat.h"
#include "reader/kma-zlib.h"
#include "sites/kma-symtab.h"

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	const struct kma_symtab *st = data;
	struct tep_event *ev = tep_find_event_by_record(tep, rec);
	struct tep_format_field *f = ev ? tep_find_field(ev, "call_site") : NULL;
	char why[KMA_SYMTAB_WHY_MAX];
	const struct kma_sym *s;
	unsigned long long v;
	uint64_t off;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return 0;
	s = kma_symtab_lookup(st, v, &off);
	if (s)
		printf("%s+0x%" PRIx64 "\n", s->name, off);
	else
		printf("0x%llx: %s\n", v, kma_symtab_why(st, v, why, sizeof(why)));
	return 0;
}

/* Within kma's bounds, libtraceevent must give the same symbol (kma-symtab.h). */
static int tep_compare(const char *path)
{
	struct tep_handle *tep = tep_alloc();
	struct kma_symtab *st;
	size_t len = 0, cap = 1 << 20, i, n, bad = 0, checked = 0, aliases = 0;
	char *text = malloc(cap);
	FILE *f = fopen(path, "r");

	if (!f || !text || !tep)
		return 1;
	while ((n = fread(text + len, 1, cap - len, f)) > 0)
		if ((len += n) == cap && !(text = realloc(text, cap *= 2)))
			return 1;
	fclose(f);
	text = realloc(text, len + 1);
	text[len] = '\0';
	st = kma_symtab_from_text(text, len);
	tep_parse_kallsyms(tep, text);
	for (i = 0; st && i < kma_symtab_count(st); i++) {
		const struct kma_sym *s = kma_symtab_at(st, i);
		uint64_t size = s->size ? s->size : KMA_SYMTAB_TAIL;
		uint64_t offs[3] = { 1, size / 2, size - 1 };
		int k;

		for (k = 0; k < 3; k++) {
			uint64_t a = s->addr + offs[k];
			const char *t = tep_find_function(tep, a);

			if (!offs[k] || offs[k] >= size)
				continue;
			checked++;
			/* tep misses the highest symbol, and may stop at a bad line */
			if (!t && (i + 1 == kma_symtab_count(st) || !s->size))
				continue;
			/* several names at one address: kma keeps the first non-marker */
			if (t && strcmp(t, s->name) && tep_find_function_address(tep, a) == s->addr) {
				aliases++;
				continue;
			}
			if (!t || strcmp(t, s->name) || tep_find_function_address(tep, a) != s->addr) {
				if (bad++ < 20)
					printf("0x%" PRIx64 ": kma %s+0x%" PRIx64 ", libtraceevent %s\n",
					       a, s->name, offs[k], t ? t : "(none)");
			}
		}
	}
	printf("%zu addresses checked, %zu differ, %zu named by another alias\n", checked, bad,
	       aliases);
	kma_symtab_free(st);
	tep_free(tep);
	free(text);
	return bad || !checked;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct kma_symtab *st = NULL;
	struct kma_err err;
	char *text;
	size_t len, i;

	if (argc != 3) {
		fprintf(stderr, "usage: kma-symdump text|sites|syms TRACE | tep KALLSYMS\n");
		return 2;
	}
	if (!strcmp(argv[1], "tep"))
		return tep_compare(argv[2]);
	kma_zlib_register();	/* "sites" opens zlib files through libtracecmd */
	/* the kallsyms as the analyzer reads them: the reader's walker, then the parser */
	if (kma_td_kallsyms(argv[2], &text, &len, &err) || !(st = kma_symtab_from_text(text, len))) {
		fprintf(stderr, "kma-symdump: %s: %s\n", argv[2], text ? "out of memory" : err.msg);
		kma_huge_free(text, text ? len + 1 : 0);
		return 1;
	}
	if (!strcmp(argv[1], "text")) {
		fwrite(text, 1, len, stdout);
	} else if (!strcmp(argv[1], "syms")) {
		for (i = 0; i < kma_symtab_count(st); i++) {
			const struct kma_sym *s = kma_symtab_at(st, i);

			printf("%016" PRIx64 " %" PRIx64 " %s %s\n", s->addr, s->size,
			       s->module ? s->module : "-", s->name);
		}
	} else if (!strcmp(argv[1], "sites")) {
		tracecmd_set_loglevel(TEP_LOG_NONE);
		h = tracecmd_open(argv[2], TRACECMD_FL_LOAD_NO_PLUGINS);
		if (!h) {
			fprintf(stderr, "kma-symdump: tracecmd_open failed\n");
			return 1;
		}
		tracecmd_iterate_events(h, NULL, 0, on_record, st);
		tracecmd_close(h);
	}
	kma_symtab_free(st);
	kma_huge_free(text, len + 1);
	return 0;
}
