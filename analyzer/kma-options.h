/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-options.h - the options of kma-analyze: one struct with its defaults,
 * filled from the command line (kma-options.c).
 */
#ifndef KMA_OPTIONS_H
#define KMA_OPTIONS_H

#include <stdint.h>

#include "kma-event.h"
#include "report/kma-report-callers.h"
#include "report/kma-table.h"
#include "report/kma-report-folded.h"

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

/* one --comm/--pid/--caller/--cache argument (kma-select.h kinds). */
struct kma_sel_arg {
	int		kind;		/* enum kma_sel_kind */
	const char	*arg;
};

#define KMA_MAX_SEL_ARGS	64

/*
 * The report a run prints: one, named by the option that chose it (two
 * different ones are a usage error). --pages has its own tables and its own
 * --leaks, --peak, --lifetimes and --generations (kma-report-pages.h).
 */
enum kma_report {
	KMA_REPORT_CALLERS,	/* the default: the table by -g (--outstanding: what is live) */
	KMA_REPORT_LIST,	/* --list */
	KMA_REPORT_LEAKS,	/* --leaks */
	KMA_REPORT_LIFETIMES,	/* --lifetimes */
	KMA_REPORT_PEAK,	/* --peak */
	KMA_REPORT_GENERATIONS,	/* --generations */
	KMA_REPORT_LEFTOVERS,	/* --leftovers */
	KMA_REPORT_ADVICE,	/* --advice */
	KMA_REPORT_COUNTERS,	/* --counters: the trace beside the kernel's counters */
	KMA_REPORT_CROSS_CPU,	/* --cross-cpu: cross-CPU frees and cross-node allocations */
};

/* Every option in one place; kma_opts_parse() starts from the defaults. */
/* kma-analyze --help, ending with EXAMPLES (kma-options-help.c). */
extern const char kma_usage_text[];

struct kma_opts {
	const char	*input;		/* as messages name it */
	const char	*input_path;	/* NULL: input; '-': the copy of standard input */
	const char	*buffer;	/* NULL: top-level, else the one instance with kmem */
	const char	*output;
	int		no_db;
	int		force;		/* -o may replace a file that is not a report.db */
	enum kma_sort	sort;
	uint64_t	limit;
	int		kmalloc_only;
	int		quiet;
	int		count;		/* --count: the trace's events counted, nothing else */
	int		jobs;		/* reader threads, 0: the online CPUs */
	int		libtracecmd;	/* read through tracecmd_iterate_events() */
	const char	*marker_prefix;
	const char	*generation;	/* N or LABEL */
	int		outstanding;
	enum kma_report	report;
	const char	*report_opt;	/* the option that chose it; NULL: the default */
	int		leak_all;	/* --all */
	uint64_t	min_bytes;	/* --min-bytes */
	uint64_t	exact_lifetimes;	/* KMA_EXACT_LIFETIMES; 0: the default */
	int		no_probe;	/* KMA_HEADER_PROBE=0: no header probe child */
	int		live;
	double		duration;
	double		interval;
	unsigned int	buffer_kb;	/* --live's ring buffer per CPU; 0: sized to the machine */
	const char	*since, *until;
	uint64_t	temp_ns;
	uint64_t	young_ns;
	enum kma_group	group_by;
	enum kma_fmt	format;
	int		folded;		/* -f folded: flame graph input, by stack */
	enum kma_weight	weight;		/* of a folded line */
	int		group_set;	/* -g was given */
	int		weight_set;	/* --weight was given */
	const char	*vmlinux;
	const char	*modules_dir;
	const char	*kallsyms;	/* --kallsyms: the recording boot's /proc/kallsyms */
	const char	*symbols;	/* --symbols: System.map or vmlinux (perf.data) */
	/* filters and ordering */
	struct kma_sel_arg sel[KMA_MAX_SEL_ARGS];	/* in the order given */
	int		nr_sel;
	int		exclude_self;
	int		sort_set;	/* -s was given */
	/* leak verdicts */
	const char * const *cache_growth;	/* --cache-growth globs, NULL-terminated */
	/* --html FILE, the self-contained page (kma-html.c) */
	const char	*html;
	/* page allocations */
	int		pages;		/* --pages: the page report */
	int		page_group;	/* -g for --pages (enum kma_page_group), -1: default */
	const char	*group_arg;	/* -g as given, for a page grouping slabs lack */
	/* --kind: the allocators the caller tables report, 1 << enum kma_kind each */
	unsigned int	kinds;		/* after parsing never 0 (the default set) */
	const char	*kind_arg;	/* --kind as given; NULL: the default */
	/* cross-CPU frees and cross-node allocations */
	const char	*cpu_nodes;	/* --cpu-nodes LIST, checked; NULL: the trace's map */
};

/*
 * Sets @o to the defaults, then to what argv says. Returns -1 to go on, or
 * the exit status: 0 after --help or --version, 2 after a usage error (its
 * message already on stderr).
 */
int kma_opts_parse(int argc, char **argv, struct kma_opts *o);

#endif /* KMA_OPTIONS_H */
