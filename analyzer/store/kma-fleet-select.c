// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-select.c - run selectors (kma-trend(1), SELECTORS): parsed into a
 * struct kma_fleet_sel, then one query over kma_fleet.runs whose WHERE is
 * made of constant pieces, every value a parameter ($1, $2, ...).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kma-fleet-int.h"
#include "kma-fleet-select.h"

void kma_fleet_sel_init(struct kma_fleet_sel *s)
{
	memset(s, 0, sizeof(*s));
}

void kma_fleet_sel_free(struct kma_fleet_sel *s)
{
	size_t i;

	for (i = 0; i < s->nr_labels; i++) {
		free(s->labels[i].key);
		free(s->labels[i].value);
	}
	free(s->labels);
	free(s->runs);
	free(s->host);
	free(s->kernel);
	kma_fleet_sel_init(s);
}

/* A decimal count > 0 (no sign, no spaces, fits a long long). */
static int parse_pos(const char *p, long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*v = strtoll(p, &end, 10);
	return errno || *end || *v <= 0 ? -1 : 0;
}

static int add_runs(struct kma_fleet_sel *s, const char *list, struct kma_err *e)
{
	const char *p = list;
	char num[24];

	for (;;) {
		size_t n = strcspn(p, ",");
		long long *r;

		if (!n || n >= sizeof(num))
			return -1;
		memcpy(num, p, n);
		num[n] = 0;
		r = realloc(s->runs, (s->nr_runs + 1) * sizeof(*r));
		if (!r)
			return kma_err_nomem(e) - 1;
		s->runs = r;
		if (parse_pos(num, &r[s->nr_runs]))
			return -1;
		s->nr_runs++;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/*
 * YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC) as "YYYY-MM-DD HH:MM:00+00"; with
 * @end, the end of the day or minute named (its next one, not included).
 */
static int parse_time(const char *p, int end, char out[32])
{
	struct tm tm = { 0 }, chk;
	int y, mo, d, h = 0, mi = 0, len = 0;
	time_t t;

	if (sscanf(p, "%4d-%2d-%2d%n", &y, &mo, &d, &len) != 3 || len != 10)
		return -1;
	if (p[10]) {
		int l2 = 0;

		if (sscanf(p + 10, "T%2d:%2d%n", &h, &mi, &l2) != 2 || l2 != 6 || p[16])
			return -1;
	}
	for (int i = 0; i < (p[10] ? 16 : 10); i++)	/* digits where digits go */
		if (!isdigit((unsigned char)p[i]) && i != 4 && i != 7 && i != 10 && i != 13)
			return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	t = timegm(&tm);
	/* a date that does not exist (2026-02-30, 25:00) comes back changed */
	if (!gmtime_r(&t, &chk) || chk.tm_year != y - 1900 || chk.tm_mon != mo - 1 ||
	    chk.tm_mday != d || chk.tm_hour != h || chk.tm_min != mi)
		return -1;
	if (end)
		t += p[10] ? 60 : 86400;
	gmtime_r(&t, &chk);
	return strftime(out, 32, "%Y-%m-%d %H:%M:00+00", &chk) ? 0 : -1;
}

static int set_str(char **dst, const char *v, struct kma_err *e)
{
	char *c = strdup(v);

	if (!c)
		return kma_err_nomem(e);
	free(*dst);
	*dst = c;
	return 0;
}

static int add_label(struct kma_fleet_sel *s, const char *kv, struct kma_err *e)
{
	const char *eq = strchr(kv, '=');
	struct kma_fleet_sel_label *l;

	if (!eq || eq == kv)
		return -1;
	l = realloc(s->labels, (s->nr_labels + 1) * sizeof(*l));
	if (!l)
		return kma_err_nomem(e) - 1;
	s->labels = l;
	l += s->nr_labels;
	l->key = strndup(kv, eq - kv);
	l->value = strdup(eq + 1);
	if (!l->key || !l->value) {
		free(l->key);
		free(l->value);
		return kma_err_nomem(e) - 1;
	}
	s->nr_labels++;
	return 0;
}

/* 0, -1 (not a selector: a usage error), or -2 (out of memory, @e set) */
static int add(struct kma_fleet_sel *s, const char *w, struct kma_err *e)
{
	if (!strcmp(w, "latest")) {
		s->last = 1;
		return 0;
	}
	if (!strncmp(w, "last=", 5))
		return parse_pos(w + 5, &s->last);
	if (!strncmp(w, "run=", 4))
		return add_runs(s, w + 4, e);
	if (!strncmp(w, "host=", 5))
		return set_str(&s->host, w + 5, e) ? -2 : 0;
	if (!strncmp(w, "kernel=", 7))
		return set_str(&s->kernel, w + 7, e) ? -2 : 0;
	if (!strncmp(w, "label:", 6))
		return add_label(s, w + 6, e);
	if (!strncmp(w, "since=", 6))
		return parse_time(w + 6, 0, s->since);
	if (!strncmp(w, "until=", 6))
		return parse_time(w + 6, 1, s->until);
	return -1;
}

int kma_fleet_sel_add(struct kma_fleet_sel *s, const char *word, struct kma_err *e)
{
	int r = add(s, word, e);

	if (r == -1)
		return kma_err_set(e, KMA_ERR_OTHER, "'%s' is not a run selector (run=ID[,ID...], "
				   "host=H, kernel=RELEASE, label:KEY=VALUE, since=DATE, until=DATE, "
				   "last=N, latest; DATE is YYYY-MM-DD[THH:MM], UTC)", word);
	return r ? -1 : 0;
}

/* The query and its parameters, grown as conditions are added. */
struct q {
	char		sql[2048];	/* the conditions, then the whole query */
	const char	*params[64];
	int		n;
	char		runs[24 * 8 + 8];	/* "{1,2,3}" when short enough ... */
	char		*runs_heap;		/* ... else here */
	char		last[24];
};

/* Appends " AND " @piece, whose "$N" placeholders are the next parameters. */
static int cond(struct q *q, const char *fmt, int nparams, ...)
{
	size_t len = strlen(q->sql);
	char piece[512];
	va_list ap;
	int i;

	if (q->n + nparams > (int)(sizeof(q->params) / sizeof(q->params[0])))
		return -1;
	/* the placeholders numbered from the next parameter */
	snprintf(piece, sizeof(piece), fmt, q->n + 1, q->n + 2);
	if (len + strlen(piece) + 8 >= sizeof(q->sql))
		return -1;
	snprintf(q->sql + len, sizeof(q->sql) - len, " AND %s", piece);
	va_start(ap, nparams);
	for (i = 0; i < nparams; i++)
		q->params[q->n++] = va_arg(ap, const char *);
	va_end(ap);
	return 0;
}

/* run=: an array literal of the checked ids, one parameter */
static const char *runs_param(struct q *q, const struct kma_fleet_sel *s)
{
	size_t cap = s->nr_runs * 24 + 3, len = 1, i;
	char *buf = cap <= sizeof(q->runs) ? q->runs : (q->runs_heap = malloc(cap));

	if (!buf)
		return NULL;
	buf[0] = '{';
	for (i = 0; i < s->nr_runs; i++)
		len += snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", s->runs[i]);
	snprintf(buf + len, cap - len, "}");
	return buf;
}

static int build(struct q *q, const struct kma_fleet_sel *s, struct kma_err *e)
{
	const char *runs = NULL;
	char where[sizeof(q->sql) - 256];
	size_t i;
	int r = 0;

	if (s->nr_runs && !(runs = runs_param(q, s)))
		return kma_err_nomem(e);
	if (runs)
		r |= cond(q, "r.run_id = ANY($%d::bigint[])", 1, runs);
	if (s->host)
		r |= cond(q, "r.host = $%d", 1, s->host);
	if (s->kernel)
		r |= cond(q, "r.kernel_release = $%d", 1, s->kernel);
	for (i = 0; i < s->nr_labels && !r; i++)
		r |= cond(q, "EXISTS (SELECT 1 FROM kma_fleet.run_labels l WHERE "
			  "l.run_id = r.run_id AND l.key = $%d AND l.value = $%d)", 2,
			  s->labels[i].key, s->labels[i].value);
	if (*s->since)
		r |= cond(q, "r.pushed_at >= $%d::timestamptz", 1, s->since);
	if (*s->until)
		r |= cond(q, "r.pushed_at < $%d::timestamptz", 1, s->until);
	if (r || strlen(q->sql) >= sizeof(where))
		return kma_err_set(e, KMA_ERR_OTHER, "too many run selectors");
	strcpy(where, q->sql);
	if (!s->last) {
		snprintf(q->sql, sizeof(q->sql), "SELECT r.run_id FROM kma_fleet.runs r WHERE true%s "
			 "ORDER BY r.pushed_at, r.run_id", where);
		return 0;
	}
	/* the N latest, then put back oldest first */
	snprintf(q->last, sizeof(q->last), "%lld", s->last);
	q->params[q->n++] = q->last;
	snprintf(q->sql, sizeof(q->sql), "SELECT s.run_id FROM (SELECT r.run_id, r.pushed_at "
		 "FROM kma_fleet.runs r WHERE true%s ORDER BY r.pushed_at DESC, r.run_id DESC "
		 "LIMIT $%d) s ORDER BY s.pushed_at, s.run_id", where, q->n);
	return 0;
}

int kma_fleet_select(struct kma_fleet *f, const struct kma_fleet_sel *s, long long **ids,
		     size_t *nr, struct kma_err *e)
{
	struct q q = { 0 };
	PGresult *res;
	int i, n;

	*ids = NULL;
	*nr = 0;
	if (build(&q, s, e)) {
		free(q.runs_heap);
		return -1;
	}
	res = kma_fleet_query(f, q.sql, q.n, q.params, PGRES_TUPLES_OK, e);
	free(q.runs_heap);
	if (!res)
		return -1;
	n = PQntuples(res);
	if (n && !(*ids = malloc(n * sizeof(**ids)))) {
		PQclear(res);
		return kma_err_nomem(e);
	}
	for (i = 0; i < n; i++)
		(*ids)[i] = strtoll(PQgetvalue(res, i, 0), NULL, 10);
	*nr = n;
	PQclear(res);
	return 0;
}
