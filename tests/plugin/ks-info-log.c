// SPDX-License-Identifier: GPL-2.0
/*
 * ks-info-log.c - LD_PRELOAD into kernelshark: logs each info string the
 * GUI asks libkshark for (the rows it displays, in the order it displays
 * them) to $KMA_KS_INFO_LOG, one "<ts> <cpu> <event>: <info>" line each, as
 * ks-rows prints rows. tests/t-kshark.sh checks them: what the GUI shows
 * comes through KernelShark's own data path, no OCR needed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <libkshark.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

char *kshark_get_info(const struct kshark_entry *entry)
{
	static char *(*real)(const struct kshark_entry *);
	const char *path = getenv("KMA_KS_INFO_LOG");
	char *info, *name;
	FILE *f;

	if (!real)
		real = (char *(*)(const struct kshark_entry *))dlsym(RTLD_NEXT, "kshark_get_info");
	if (!real)
		return NULL;
	info = real(entry);
	if (!path || !entry)
		return info;
	name = kshark_get_event_name(entry);
	pthread_mutex_lock(&log_lock);
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%" PRId64 " %d %s: %s\n", entry->ts, entry->cpu,
			name ? name : "?", info ? info : "");
		fclose(f);
	}
	pthread_mutex_unlock(&log_lock);
	free(name);
	return info;
}
