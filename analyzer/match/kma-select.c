// SPDX-License-Identifier: GPL-2.0
/*
 * kma-select.c - the report filters: parse the patterns, classify events.
 *
 * A pattern is evaluated once per distinct call site, comm string or cache
 * name (the reader and the matcher intern those, so a pointer stands for
 * its text) and the verdict kept in a map: a trace has millions of events
 * but a few hundred of each.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-map.h"
#include "kma-select.h"

struct pat {
	char	*text;		/* as given, without the '!' */
	int	neg;
	int	has_re;
	regex_t	re;		/* caller */
	long	*pids;		/* pid: the list */
	size_t	nr_pids;
};

/* One key's verdict, kept beside its map: the same key again needs no lookup. */
struct memo {
	uint64_t	key;
	uint32_t	v;
	int		set;
};

struct kma_select {
	struct pat	*pats[KMA_SELK_NR];
	size_t		nr[KMA_SELK_NR];
	int		exclude_self;
	kma_resolve_fn	resolve;
	void		*resolve_ctx;
	/* cached verdicts, bit 0: the kind's patterns keep it, bit 1: the recorder's own */
	struct kma_map	sites;		/* call_site */
	struct kma_map	comms;		/* comm pointer */
	struct kma_map	caches;		/* cache name pointer */
	struct kma_map	classes;	/* kmalloc (no cache name): bytes_alloc, kmalloc type */
	int		maps_ok;
	/* the last call site's and comm's verdicts: a task allocates in runs */
	struct memo	site_memo;
	struct memo	comm_memo;
};

enum { V_KEEP = 1, V_SELF = 2 };

/* The recorder: trace-cmd, kma-record (a shell script: its comm is its name) and the
 * process it runs the command from (kma-record-run: markers, the reclaim), kma-analyze
 * --live, kma-mark; and the ring buffer's readers in the kernel, whatever task runs them. */
static const char * const self_comms[] = { "trace-cmd", "kma-record", "kma-record-run",
					   "kma-analyze", "kma-mark" };
static const char * const self_funcs[] = { "tracing_buffers_*", "ring_buffer_*", "trace_*" };

struct kma_select *kma_select_alloc(void)
{
	struct kma_select *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (kma_map_init(&s->sites, 64) || kma_map_init(&s->comms, 64) ||
	    kma_map_init(&s->caches, 64) || kma_map_init(&s->classes, 16)) {
		kma_select_free(s);
		return NULL;
	}
	s->maps_ok = 1;
	return s;
}

void kma_select_free(struct kma_select *s)
{
	size_t k, i;

	if (!s)
		return;
	for (k = 0; k < KMA_SELK_NR; k++) {
		for (i = 0; i < s->nr[k]; i++) {
			if (s->pats[k][i].has_re)
				regfree(&s->pats[k][i].re);
			free(s->pats[k][i].text);
			free(s->pats[k][i].pids);
		}
		free(s->pats[k]);
	}
	kma_map_release(&s->sites);
	kma_map_release(&s->comms);
	kma_map_release(&s->caches);
	kma_map_release(&s->classes);
	free(s);
}

/* "N[,N...]": every N a decimal pid >= 0. */
static int parse_pids(struct pat *p, struct kma_err *why)
{
	const char *q = p->text;
	char *end;
	long v;

	do {
		long *n = realloc(p->pids, (p->nr_pids + 1) * sizeof(*n));

		if (!n)
			return kma_err_nomem(why);
		p->pids = n;
		errno = 0;
		v = strtol(q, &end, 10);
		if (errno || end == q || v < 0 || v > INT32_MAX || (*end && *end != ','))
			return kma_err_set(why, KMA_ERR_OTHER, "--pid wants N[,N...], not '%s'",
					   p->text);
		p->pids[p->nr_pids++] = v;
		q = end + 1;
	} while (*end);
	return 0;
}

int kma_select_add(struct kma_select *s, enum kma_sel_kind kind, const char *arg,
		   struct kma_err *why)
{
	struct pat *n, *p;
	int neg = arg[0] == '!', err;

	n = realloc(s->pats[kind], (s->nr[kind] + 1) * sizeof(*n));
	if (!n)
		return kma_err_nomem(why);
	s->pats[kind] = n;
	p = &n[s->nr[kind]];
	memset(p, 0, sizeof(*p));
	p->neg = neg;
	p->text = strdup(arg + neg);
	if (!p->text)
		return kma_err_nomem(why);
	s->nr[kind]++;	/* from here on, kma_select_free() frees it */
	if (kind == KMA_SELK_PID)
		return parse_pids(p, why);
	if (kind == KMA_SELK_CALLER) {
		err = regcomp(&p->re, p->text, REG_EXTENDED | REG_NOSUB);
		if (err) {
			char msg[128];

			regerror(err, &p->re, msg, sizeof(msg));
			return kma_err_set(why, KMA_ERR_OTHER, "--caller '%s': %s", p->text, msg);
		}
		p->has_re = 1;
	}
	return 0;
}

void kma_select_exclude_self(struct kma_select *s, int on)
{
	s->exclude_self = on;
}

void kma_select_set_resolve(struct kma_select *s, kma_resolve_fn resolve, void *ctx)
{
	s->resolve = resolve;
	s->resolve_ctx = ctx;
}

int kma_select_active(const struct kma_select *s)
{
	size_t k;

	if (s->exclude_self)
		return 1;
	for (k = 0; k < KMA_SELK_NR; k++)
		if (s->nr[k])
			return 1;
	return 0;
}

int kma_select_is_self_comm(const char *comm)
{
	size_t i;

	for (i = 0; comm && i < sizeof(self_comms) / sizeof(self_comms[0]); i++)
		if (!strcmp(comm, self_comms[i]))
			return 1;
	return 0;
}

/* The function of "symbol+0xoff" (a name without '+' is taken whole). */
int kma_select_is_self_function(const char *caller)
{
	char fn[256];
	size_t i, n;

	if (!caller)
		return 0;
	n = strcspn(caller, "+ ");
	if (n >= sizeof(fn))
		return 0;
	memcpy(fn, caller, n);
	fn[n] = '\0';
	for (i = 0; i < sizeof(self_funcs) / sizeof(self_funcs[0]); i++)
		if (!fnmatch(self_funcs[i], fn, 0))
			return 1;
	return 0;
}

static int pat_match(const struct pat *p, enum kma_sel_kind kind, const char *str)
{
	if (kind == KMA_SELK_CALLER)
		return !regexec(&p->re, str, 0, NULL, 0);
	return !fnmatch(p->text, str, 0);
}

/* Does @str pass the patterns of @kind: no exclusion matches, and some inclusion if any. */
static int kind_keeps(const struct kma_select *s, enum kma_sel_kind kind, const char *str)
{
	int incl = 0, hit = 0;
	size_t i;

	for (i = 0; i < s->nr[kind]; i++) {
		const struct pat *p = &s->pats[kind][i];
		int m = pat_match(p, kind, str ? str : "");

		if (p->neg && m)
			return 0;
		if (!p->neg) {
			incl = 1;
			hit |= m;
		}
	}
	return !incl || hit;
}

static int pid_keeps(const struct kma_select *s, int pid)
{
	int incl = 0, hit = 0;
	size_t i, j;

	for (i = 0; i < s->nr[KMA_SELK_PID]; i++) {
		const struct pat *p = &s->pats[KMA_SELK_PID][i];
		int m = 0;

		for (j = 0; j < p->nr_pids; j++)
			m |= p->pids[j] == pid;
		if (p->neg && m)
			return 0;
		if (!p->neg) {
			incl = 1;
			hit |= m;
		}
	}
	return !incl || hit;
}

/* The cached verdict of @key in @map, or computed by @fn and kept. */
static uint32_t cached(struct kma_select *s, struct kma_map *map, uint64_t key,
		       uint32_t (*fn)(struct kma_select *s, const struct kma_event *ev),
		       const struct kma_event *ev)
{
	uint32_t *v = s->maps_ok ? kma_map_find(map, key) : NULL;
	uint32_t r;

	if (v)
		return *v;
	r = fn(s, ev);
	if (s->maps_ok)
		kma_map_put(map, key, r);	/* out of memory: computed again next time */
	return r;
}

/* cached(), the last key's verdict first: a verdict never changes once made */
static inline uint32_t memoed(struct kma_select *s, struct memo *m, struct kma_map *map,
			      uint64_t key,
			      uint32_t (*fn)(struct kma_select *s, const struct kma_event *ev),
			      const struct kma_event *ev)
{
	if (m->set && m->key == key)
		return m->v;
	m->v = cached(s, map, key, fn, ev);
	m->key = key;
	m->set = 1;
	return m->v;
}

static uint32_t site_verdict(struct kma_select *s, const struct kma_event *ev)
{
	char buf[32];
	const char *name = s->resolve ? s->resolve(s->resolve_ctx, ev->call_site) : NULL;

	if (!name) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, ev->call_site);
		name = buf;
	}
	return (kind_keeps(s, KMA_SELK_CALLER, name) ? V_KEEP : 0) |
	       (kma_select_is_self_function(name) ? V_SELF : 0);
}

static uint32_t comm_verdict(struct kma_select *s, const struct kma_event *ev)
{
	return (kind_keeps(s, KMA_SELK_COMM, ev->comm) ? V_KEEP : 0) |
	       (kma_select_is_self_comm(ev->comm) ? V_SELF : 0);
}

/* kmalloc-64 and kmalloc-cg-64 are two caches: the type is part of the key. */
static uint64_t class_key(const struct kma_event *ev)
{
	return ev->bytes_alloc << 2 | ((uint64_t)ev->kmalloc_type & 3);
}

static uint32_t cache_verdict(struct kma_select *s, const struct kma_event *ev)
{
	char buf[32];

	if (ev->cache)
		return kind_keeps(s, KMA_SELK_CACHE, ev->cache) ? V_KEEP : 0;
	kma_kmalloc_cache(buf, sizeof(buf), ev->kmalloc_type, ev->bytes_alloc);
	return kind_keeps(s, KMA_SELK_CACHE, buf) ? V_KEEP : 0;
}

unsigned int kma_select_event(void *ctx, const struct kma_event *ev)
{
	struct kma_select *s = ctx;
	uint32_t site = memoed(s, &s->site_memo, &s->sites, ev->call_site, site_verdict, ev);
	uint32_t comm = memoed(s, &s->comm_memo, &s->comms, (uint64_t)(uintptr_t)ev->comm,
			       comm_verdict, ev);
	int keep = (site & V_KEEP) && (comm & V_KEEP);
	int self = (site | comm) & V_SELF;

	if (keep && s->nr[KMA_SELK_PID])
		keep = pid_keeps(s, ev->pid);
	if (keep && s->nr[KMA_SELK_CACHE]) {
		if (ev->cache)
			keep = cached(s, &s->caches, (uint64_t)(uintptr_t)ev->cache,
				      cache_verdict, ev) & V_KEEP;
		else
			keep = cached(s, &s->classes, class_key(ev), cache_verdict, ev) & V_KEEP;
	}
	if (!keep)
		return KMA_SEL_OUT;
	if (!self)
		return 0;
	return KMA_SEL_SELF | (s->exclude_self ? KMA_SEL_OUT : 0);
}

unsigned int kma_select_free_event(void *ctx, const struct kma_event *ev)
{
	struct kma_select *s = ctx;
	uint32_t comm = memoed(s, &s->comm_memo, &s->comms, (uint64_t)(uintptr_t)ev->comm,
			       comm_verdict, ev);

	if (!(comm & V_KEEP) || (s->nr[KMA_SELK_PID] && !pid_keeps(s, ev->pid)))
		return KMA_SEL_OUT;
	if (!(comm & V_SELF))
		return 0;
	return KMA_SEL_SELF | (s->exclude_self ? KMA_SEL_OUT : 0);
}

int kma_select_frees_apply(const struct kma_select *s)
{
	return !s->nr[KMA_SELK_CALLER] && !s->nr[KMA_SELK_CACHE];
}

/* snprintf into buf at *at, never past len; *at keeps the length it needed. */
static void put(char *buf, size_t len, size_t *at, const char *fmt, const char *a,
		const char *b)
{
	int n = snprintf(*at < len ? buf + *at : NULL, *at < len ? len - *at : 0, fmt, a, b);

	if (n > 0)
		*at += (size_t)n;
}

/* One kind: "comm 'a' or 'b'" for the inclusions, then "comm !'c'" per exclusion. */
static void describe_kind(const struct kma_select *s, enum kma_sel_kind kind, char *buf,
			  size_t len, size_t *at)
{
	static const char * const names[] = { "comm", "pid", "caller", "cache" };
	const char *inc = kind == KMA_SELK_CALLER ? "~ '%s'%s" : kind == KMA_SELK_PID ?
			  "%s%s" : "'%s'%s";
	const char *exc = kind == KMA_SELK_CALLER ? "!~ '%s'%s" : kind == KMA_SELK_PID ?
			  "!%s%s" : "!'%s'%s";
	size_t i;
	int first = 1;

	for (i = 0; i < s->nr[kind]; i++) {
		if (s->pats[kind][i].neg)
			continue;
		if (first)
			put(buf, len, at, "%s%s ", *at ? ", " : "", names[kind]);
		else
			put(buf, len, at, " or%s%s ", "", "");
		put(buf, len, at, inc, s->pats[kind][i].text, "");
		first = 0;
	}
	for (i = 0; i < s->nr[kind]; i++) {
		if (!s->pats[kind][i].neg)
			continue;
		put(buf, len, at, "%s%s ", *at ? ", " : "", names[kind]);
		put(buf, len, at, exc, s->pats[kind][i].text, "");
	}
}

int kma_select_describe(const struct kma_select *s, char *buf, size_t len)
{
	size_t at = 0, k;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < KMA_SELK_NR; k++)
		describe_kind(s, (enum kma_sel_kind)k, buf, len, &at);
	if (s->exclude_self)
		put(buf, len, &at, "%s%s", at ? ", " : "", "not the recorder's own");
	return (int)at;
}
