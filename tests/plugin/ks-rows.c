// SPDX-License-Identifier: GPL-2.0
/*
 * ks-rows.c - read a trace's rows through libkshark as KernelShark does,
 * with plugin_kma.so loaded both ways (libtraceevent plugin through
 * TRACEEVENT_PLUGIN_DIR, KernelShark plugin through PLUGIN_SO), asking for
 * the info strings in a chosen order. tests/t-kshark.sh checks the output.
 *
 *   ks-rows PLUGIN_SO TRACE ORDER
 *
 * ORDER: "time" (the loaded order), "reverse", or a number: the seed of a
 * shuffle (a fixed generator, so a seed gives the same order everywhere).
 * Prints one line per row, in time order whatever ORDER was:
 * "<ts> <cpu> <event>: <info>". Exit 1 on any failure.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkshark.h>
#include <libkshark-plugin.h>
#include <libkshark-tepdata.h>

/* xorshift64: the same sequence on every libc, unlike rand() */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static size_t *make_order(size_t n, const char *how)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	uint64_t seed;
	size_t i, j, t;
	char *end;

	if (!order)
		return NULL;
	for (i = 0; i < n; i++)
		order[i] = strcmp(how, "reverse") ? i : n - 1 - i;
	if (!strcmp(how, "time") || !strcmp(how, "reverse"))
		return order;
	seed = strtoull(how, &end, 0);
	if (end == how || *end) {
		free(order);
		return NULL;
	}
	seed = seed * 2654435761ULL + 1;	/* never 0 */
	for (i = n; i > 1; i--) {
		j = next_rand(&seed) % i;
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	return order;
}

static int load_plugin(struct kshark_context *ctx, int sd, const char *so)
{
	struct kshark_data_stream *stream = kshark_get_data_stream(ctx, sd);
	struct kshark_plugin_list *plugin;
	struct kshark_dpi_list *dpi;

	void *h;

	if (!stream)
		return -1;
	/*
	 * A plugin_kma.so without the KernelShark side: rows print as the
	 * libtraceevent side alone prints them (and the checks fail). Not
	 * handed to libkshark, whose failure path would dlclose() the .so
	 * under libtraceevent's feet.
	 */
	h = dlopen(so, RTLD_NOW);
	if (!h)
		return -1;
	if (!dlsym(h, KSHARK_PLOT_PLUGIN_INITIALIZER_NAME)) {
		fprintf(stderr, "ks-rows: %s is no KernelShark plugin\n", so);
		return 0;
	}
	plugin = kshark_register_plugin(ctx, "kma", so);
	if (!plugin || !plugin->process_interface)
		return -1;
	dpi = kshark_register_plugin_to_stream(stream, plugin->process_interface, true);
	if (!dpi || kshark_handle_dpi(stream, dpi, KSHARK_PLUGIN_INIT) <= 0)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	char **info;
	size_t *order;
	ssize_t n, i;
	int sd;

	if (argc != 4) {
		fprintf(stderr, "usage: ks-rows PLUGIN_SO TRACE time|reverse|SEED\n");
		return 2;
	}
	if (!kshark_instance(&ctx))
		return 1;
	sd = kshark_open(ctx, argv[2]);
	if (sd < 0) {
		fprintf(stderr, "ks-rows: %s: cannot open\n", argv[2]);
		return 1;
	}
	if (load_plugin(ctx, sd, argv[1])) {
		fprintf(stderr, "ks-rows: %s: cannot load the plugin\n", argv[1]);
		return 1;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	if (n <= 0) {
		fprintf(stderr, "ks-rows: %s: no entries\n", argv[2]);
		return 1;
	}
	order = make_order((size_t)n, argv[3]);
	info = calloc((size_t)n, sizeof(*info));
	if (!order || !info) {
		fprintf(stderr, "ks-rows: bad order '%s' or out of memory\n", argv[3]);
		return 1;
	}
	for (i = 0; i < n; i++)
		info[order[i]] = kshark_get_info(rows[order[i]]);
	for (i = 0; i < n; i++) {
		char *name = kshark_get_event_name(rows[i]);

		printf("%" PRId64 " %d %s: %s\n", rows[i]->ts, rows[i]->cpu,
		       name ? name : "?", info[i] ? info[i] : "");
		free(name);
		free(info[i]);
		free(rows[i]);
	}
	free(rows);
	free(info);
	free(order);
	kshark_close_all(ctx);
	kshark_free(ctx);
	return 0;
}
