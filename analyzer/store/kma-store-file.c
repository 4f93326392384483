// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-file.c - the files outputs are written to. kma_store_probe: is a
 * file a report.db written by kma? Read from its header bytes (and, for the
 * oldest, its tables, opened immutable), so that probing never changes the
 * file; the output guard (kma-output.c) uses it before anything is replaced.
 * kma_tmpfile_beside: the temporary an output (report.db, the --html page) is
 * written to and renamed from, so that it is whole or absent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sqlite3.h>
#include "kma-store.h"

char *kma_store_immutable_uri(const char *path)
{
	char *uri = malloc(strlen(path) * 3 + 16), *p;

	if (!uri)
		return NULL;
	p = uri + sprintf(uri, "file:%s", *path == '/' ? "//" : "");
	for (; *path; path++) {
		if (*path == '%' || *path == '?' || *path == '#')
			p += sprintf(p, "%%%02X", (unsigned char)*path);
		else
			*p++ = *path;
	}
	strcpy(p, "?immutable=1");
	return uri;
}

/* 1 when the database at path has the tables every kma report.db had since version 1. */
static int has_kma_tables(const char *path)
{
	static const char sql[] =
		"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND"
		" name IN ('trace', 'callers', 'allocations', 'unknown_frees')";
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	char *uri = kma_store_immutable_uri(path);
	int ret = 0;

	/* immutable: no locks, and a hot journal is not rolled back into the file */
	if (!uri || sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
				    NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		ret = sqlite3_column_int(st, 0) == 4;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(uri);
	return ret;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int kma_store_probe(const char *path, char *why, size_t len)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char h[100];
	uint32_t app_id;
	ssize_t n;
	int fd;

	/* the header, as bytes: opening a foreign database with SQLite could change it */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	n = read(fd, h, sizeof(h));
	if (n < 0) {
		snprintf(why, len, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, magic, sizeof(magic))) {
		snprintf(why, len, "not an SQLite database");
		return 0;
	}
	/* header offsets 60 and 68, big-endian (https://sqlite.org/fileformat.html) */
	app_id = be32(h + 68);
	if (app_id == KMA_APPLICATION_ID)
		return 1;
	if (app_id) {
		snprintf(why, len, "an SQLite database of another program, "
			 "application_id 0x%08" PRIx32, app_id);
		return 0;
	}
	/* older kma set no application_id: then schema version 1 and its tables */
	if (be32(h + 60) == 1 && has_kma_tables(path))
		return 1;
	snprintf(why, len, "an SQLite database not written by kma");
	return 0;
}

int kma_tmpfile_beside(const char *path, char **tmp_path)
{
	mode_t mask;
	int fd, err;

	/* the pid in the name: a later run can tell an orphan (kma_tmpfile_sweep) */
	if (asprintf(tmp_path, "%s.tmp-%ld-XXXXXX", path, (long)getpid()) < 0) {
		*tmp_path = NULL;
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(*tmp_path);
	if (fd < 0) {
		err = errno;
		free(*tmp_path);
		*tmp_path = NULL;
		errno = err;
		return -1;
	}
	/*
	 * A failure of fchmod is no reason to stop: file systems without Unix
	 * modes (vfat, some FUSE) refuse it, and the file is only less readable.
	 */
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	return fd;
}

int kma_tmpfile_sweep(const char *path)
{
	char *dir = strdup(path), *slash, *prefix, *end;
	const char *base;
	struct dirent *d;
	size_t plen;
	DIR *dh;
	long pid;
	int n = 0;

	if (!dir)
		return -1;
	slash = strrchr(dir, '/');
	base = slash ? path + (slash - dir) + 1 : path;
	if (slash)
		slash[slash == dir] = '\0';	/* "/x" is in "/" */
	if (asprintf(&prefix, "%s.tmp-", base) < 0) {
		free(dir);
		return -1;
	}
	plen = strlen(prefix);
	dh = opendir(slash ? dir : ".");
	while (dh && (d = readdir(dh))) {
		if (strncmp(d->d_name, prefix, plen))
			continue;
		/* ours: PID-XXXXXX; an older name without a pid cannot be judged */
		errno = 0;
		pid = strtol(d->d_name + plen, &end, 10);
		if (errno || pid <= 0 || *end != '-' || strlen(end + 1) != 6)
			continue;
		if (pid == getpid() || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		if (!unlinkat(dirfd(dh), d->d_name, 0))
			n++;
	}
	if (dh)
		closedir(dh);
	free(prefix);
	free(dir);
	return dh ? n : -1;
}
