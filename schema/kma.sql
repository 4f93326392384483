-- kma report.db schema, version 7 (PRAGMA user_version).
-- Documented in docs/kma-report.db.5 (man 5 kma-report.db); every table, view and column below is described there.
-- Addresses and pointers are TEXT '0x<hex>' as trace-cmd prints them (kernel addresses do
-- not fit SQLite's signed 64-bit INTEGER); timestamps are INTEGER nanoseconds of the trace clock.
-- Version 2 stores the allocations and unknown frees as integers (alloc_rows,
-- unknown_free_rows, and dictionaries); the views allocations and unknown_frees show them
-- with version 1's columns and values.
-- Version 3 adds the call stacks (ftrace:kernel_stack events): tables stacks and
-- stack_frames, the stack ids of alloc_shapes (an allocation's stack and its free's are
-- part of its shape: no byte more per row) and unknown_free_rows (NULL: no stack), the
-- columns stack_id (and free_stack_id) at the end of the views allocations and
-- unknown_frees, and the view stack_stats. Every version 1/2 column is unchanged.
-- Version 4 writes callers.file/line NULL when unknown and names kmalloc caches by family.
-- Version 5 adds tables and views only (the timeline, the page allocator, CPU -> node map
-- and cross-node counts); every version 4 table, view and column is unchanged.
-- Version 6 adds tables only (ring_damage: the damage skipped in each CPU's ring-buffer
-- data; counters_*: the kernel's own counters beside the trace);
-- every version 5 table, view and column is unchanged.
-- Version 7 adds the percpu and vmalloc allocators (tables kinds, kind_totals,
-- kind_callers, kind_alloc_rows; views kind_stats, kind_caller_stats) and the column kind
-- at the end of the view allocations, which also shows those allocators' allocations and,
-- with --pages, the page allocations; every version 6 table and column is unchanged, and
-- allocations' slab rows are version 6's.
-- Added within version 7: the tables shape_totals, task_totals, stack_totals and
-- cache_totals (the counts of alloc_rows per shape, task, call stack and cache group, made
-- as the rows are written), which the views shape_counts, cache_stats, task_stats,
-- stack_stats and sizing_advice now read instead of alloc_rows (same rows). A version 7
-- file written before has neither the tables nor these views' new text: its views still
-- count alloc_rows, and kma-push counts them too. Also added within version 7: the column
-- stacks.stack_key (each stack's key in the fleet store); without it kma-push hashes the
-- frames itself.

PRAGMA user_version = 7;
-- "kmaR": marks the file as a kma report.db (kma-analyze -o replaces only such files).
-- KMA_APPLICATION_ID in analyzer/kma-store.h; older kma wrote 0 here.
PRAGMA application_id = 1802330450;

-- One row: facts about the trace file and the run.
CREATE TABLE trace (
	file		TEXT NOT NULL,	-- path as given to kma-analyze
	buffer		TEXT,		-- buffer read: 'top' or an instance name (-B); NULL live
	file_version	INTEGER,	-- trace.dat format version (6, 7)
	compression	TEXT,		-- e.g. 'zstd', NULL when uncompressed
	kernel_release	TEXT,		-- `uname -r` of the traced machine, from the file
	uname		TEXT,		-- full uname line stored in the file
	cpus		INTEGER,	-- CPUs in the file
	long_size	INTEGER,	-- sizeof(long) of the traced kernel
	big_endian	INTEGER,	-- 1 when the file is big-endian
	first_ts	INTEGER,	-- timestamp of the first event read, ns
	last_ts		INTEGER,	-- timestamp of the last event read, ns
	events		INTEGER,	-- records read (all events)
	kmem_events	INTEGER,	-- kmem alloc/free records read (including ignored ones)
	ignored_events	INTEGER,	-- kmem events left out by --kmalloc-only
	kmalloc_only	INTEGER,	-- 1 when run with --kmalloc-only
	frees		INTEGER,	-- every free event: matched + unknown + null
	matched_frees	INTEGER,	-- frees that closed a live allocation
	unknown_frees	INTEGER,	-- frees of a pointer that was not live
	null_frees	INTEGER,	-- frees of a pointer <= 0x10 (kfree(NULL), ZERO_SIZE_PTR)
	failed_allocs	INTEGER,	-- allocation events with ptr 0
	peak_bytes	INTEGER,	-- highest net (live bytes) during the trace
	peak_ts		INTEGER,	-- when it was first reached
	temporary_ns	INTEGER,	-- threshold of callers.temporary
	marker_prefix	TEXT,		-- trace markers starting with it start a generation
	kma_version	TEXT,		-- version of kma-analyze that wrote this file
	kmalloc_flags	TEXT,		-- gfp bits read from the trace that pick kmalloc caches
	kmalloc_warning	TEXT		-- why a kmalloc cache family is not told apart, or NULL
);

-- Generations: generation 0 ('start') runs from the trace start to the first marker, each
-- marker 'kma: LABEL' starts the next one.
CREATE TABLE generations (
	id		INTEGER PRIMARY KEY,
	ts		INTEGER NOT NULL,	-- marker timestamp; first_ts of the trace for 0
	label		TEXT NOT NULL,
	allocs		INTEGER NOT NULL,	-- allocations made in it
	bytes		INTEGER NOT NULL,	-- their bytes_alloc
	live		INTEGER NOT NULL,	-- of those, still live at the end of the trace
	live_bytes	INTEGER NOT NULL,
	frees		INTEGER NOT NULL	-- free events (matched, unknown, null) in it
);

-- Modules loaded or unloaded during the trace (module:module_load / module_free events).
CREATE TABLE modules (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL,
	load_ts		INTEGER,		-- NULL: loaded before the trace
	free_ts		INTEGER,		-- NULL: not unloaded during the trace
	left_allocs	INTEGER NOT NULL,	-- its call sites' allocations live at the unload
	left_bytes	INTEGER NOT NULL,
	left_live	INTEGER NOT NULL,	-- of those, still live at the end of the trace
	left_live_bytes	INTEGER NOT NULL
);

-- Records read, per event (every event in the file that has records).
CREATE TABLE event_counts (
	event		TEXT PRIMARY KEY,	-- 'system:event': 'kmem:kmalloc', 'ftrace:print', ...
	count		INTEGER NOT NULL
);

-- Losses the file reports, per CPU.
CREATE TABLE lost_events (
	cpu		INTEGER PRIMARY KEY,
	page_missed	INTEGER NOT NULL,	-- sum of known missed-event counts on buffer pages
	missed_unknown	INTEGER NOT NULL,	-- pages flagged with missed events of unknown count
	overrun		INTEGER NOT NULL,	-- 'overrun' of the per-CPU stats (overwritten events)
	commit_overrun	INTEGER NOT NULL,	-- 'commit overrun' of the per-CPU stats
	dropped		INTEGER NOT NULL,	-- 'dropped events' of the per-CPU stats
	lost		INTEGER NOT NULL	-- max(page_missed, overrun) + commit_overrun + dropped
);

-- Damage in the ring-buffer data that kma skipped, per CPU (all zero on a whole trace).
-- Added within version 5: a version 5 file written before has no such table.
CREATE TABLE ring_damage (
	cpu		INTEGER PRIMARY KEY,
	short_records	INTEGER NOT NULL,	-- records too short for their event format
	overlong_records INTEGER NOT NULL,	-- records running past the end of their page
	zero_pages	INTEGER NOT NULL,	-- all-zero ring-buffer pages
	jump_pages	INTEGER NOT NULL,	-- pages skipped: their time out of line with the CPU's
	jump_records	INTEGER NOT NULL,	-- the records on those pages
	jump_offset	INTEGER,		-- the first such page's offset, NULL when none
	jump_inflated	INTEGER			-- 1: jump_offset is in the CPU's inflated data
);

-- One row per allocating call site (also call sites whose every allocation failed).
CREATE TABLE callers (
	id		INTEGER PRIMARY KEY,
	caller		TEXT NOT NULL,		-- 'symbol+0xoffset' from the trace's kallsyms, or '0x<hex>'
	address		TEXT NOT NULL,		-- call_site, '0x<hex>'
	total		INTEGER NOT NULL,	-- sum of bytes_alloc
	slack		INTEGER NOT NULL,	-- sum of bytes_alloc - bytes_req
	net		INTEGER NOT NULL,	-- bytes_alloc still live at the end of the trace
	allocs		INTEGER NOT NULL,
	frees		INTEGER NOT NULL,	-- traced frees of this caller's allocations
	implicit_frees	INTEGER NOT NULL,	-- allocations closed by a new alloc at their ptr
	failed_allocs	INTEGER NOT NULL,	-- allocation events with ptr 0
	live		INTEGER NOT NULL,	-- allocations still live at the end of the trace
	live_slack	INTEGER NOT NULL,	-- slack of those
	module		TEXT,			-- module of the call site, NULL: vmlinux
	temporary	INTEGER NOT NULL,	-- traced frees within trace.temporary_ns of the alloc
	life_min	INTEGER,		-- alloc -> traced free, ns (NULL: no traced free)
	life_avg	INTEGER,		-- (integer mean)
	life_max	INTEGER,
	net_at_peak	INTEGER NOT NULL,	-- its live bytes at trace.peak_ts
	age_min		INTEGER,		-- age of its live allocations at the end, ns
	age_avg		INTEGER,		-- (NULL when none is live)
	age_median	INTEGER,		-- (of an even count: mean of the middle two)
	age_max		INTEGER,
	grew_generations INTEGER NOT NULL,	-- generations at whose end its net was higher
	max_growth_run	INTEGER NOT NULL,	-- longest run of consecutive such generations
	leak_suspect	INTEGER NOT NULL,	-- 1: leak_class = 'suspect'
	leak_confidence	TEXT NOT NULL,		-- high, medium, low; none when not a suspect
	leak_why	TEXT,			-- the verdict's reasons in words (NULL: no net)
	leak_class	TEXT NOT NULL,		-- suspect, cache growth, too few generations, none
	left_by_unload	INTEGER NOT NULL,	-- allocations live when its module was unloaded (all unloads)
	left_by_unload_bytes INTEGER NOT NULL,
	left_live	INTEGER NOT NULL,	-- of those, still live at the end
	left_live_bytes	INTEGER NOT NULL,
	symbol		TEXT,			-- function of the call site; NULL when unresolved
	offset		INTEGER,		-- call_site - symbol address
	file		TEXT,			-- source file (with --vmlinux/--modules-dir or -dbg)
	line		INTEGER,
	inlined		TEXT,			-- inlined function the call site is in
	symbol_note	TEXT,			-- why the call site is unresolved
	line_note	TEXT			-- why file/line are NULL although debug info was given
);

-- Storage of the allocations: integers only, read through the view allocations below.
-- Dictionaries first: event kinds (fixed), slab caches, tasks, free call sites and
-- allocation shapes.

-- The kmem event names; id = enum kma_ev_type of lib/kma-event.h (rows written by kma).
CREATE TABLE event_kinds (
	id		INTEGER PRIMARY KEY,	-- 0 kmalloc ... 5 kmem_cache_free, 6 implicit
	name		TEXT NOT NULL
);

-- Slab cache names the events carry.
CREATE TABLE caches (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL
);

-- Tasks: each distinct (pid, comm) of an allocation or an unknown free.
CREATE TABLE tasks (
	id		INTEGER PRIMARY KEY,
	pid		INTEGER NOT NULL,
	comm		TEXT			-- from the trace's saved cmdlines
);

-- Call sites of frees (of allocations and unknown frees), one per address.
CREATE TABLE free_sites (
	id		INTEGER PRIMARY KEY,
	caller		TEXT NOT NULL,		-- as callers.caller
	address		TEXT NOT NULL		-- '0x<hex>'
);

-- Allocation shapes: what repeats per call site (event, sizes, gfp, node, cache, accounted,
-- and since version 3 the call stacks of the allocation and of its free), each distinct
-- combination once; an allocation row names its shape.
CREATE TABLE alloc_shapes (
	id		INTEGER PRIMARY KEY,
	caller_id	INTEGER NOT NULL,	-- callers.id
	alloc_event	INTEGER NOT NULL,	-- event_kinds.id: 0 kmalloc ... 3 kmem_cache_alloc_node
	accounted	INTEGER,		-- 1 __GFP_ACCOUNT, 0 not; NULL: no such field
	bytes_req	INTEGER NOT NULL,
	bytes_alloc	INTEGER NOT NULL,
	gfp_flags	INTEGER NOT NULL,
	node		INTEGER,		-- NULL: no node field, or -1
	cache_id	INTEGER,		-- caches.id; NULL: the event has no cache name
	stack_id	INTEGER,		-- stacks.id of the allocation; NULL: no stack
	free_stack_id	INTEGER,		-- stacks.id of the traced free; NULL: none
	kmalloc_type	INTEGER			-- kmalloc_types.id from gfp_flags; NULL: not kmalloc
);

-- The kmalloc cache families (version 4), as the kernel's kmalloc_type() picks them from
-- the gfp flags: DMA, then RECLAIMABLE, then ACCOUNT (see kma-report.db(5)).
CREATE TABLE kmalloc_types (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL,		-- 'normal', 'cgroup', 'reclaim', 'dma'
	prefix		TEXT NOT NULL		-- the cache name before its size
);
INSERT INTO kmalloc_types VALUES (0, 'normal', 'kmalloc-'), (1, 'cgroup', 'kmalloc-cg-'),
	(2, 'reclaim', 'kmalloc-rcl-'), (3, 'dma', 'dma-kmalloc-');

-- The kmalloc cache of each (family, size) of the shapes without a cache name, and of
-- every kmalloc shape, named by kma's own rule (rows written by kma at the end, as
-- event_kinds: the size classes and kmalloc-large are written once, in C).
-- Added within version 6: a version 6 file written before has no such table.
CREATE TABLE kmalloc_caches (
	kmalloc_type	INTEGER NOT NULL,	-- COALESCE(alloc_shapes.kmalloc_type, 0)
	bytes_alloc	INTEGER NOT NULL,	-- alloc_shapes.bytes_alloc
	name		TEXT NOT NULL,		-- 'kmalloc-64', 'kmalloc-cg-1k', 'kmalloc-large'
	PRIMARY KEY (kmalloc_type, bytes_alloc)
);

-- One row per (non-failed) allocation, in the order they ended (freed, or live at the end).
CREATE TABLE alloc_rows (
	id		INTEGER PRIMARY KEY,
	ptr		INTEGER NOT NULL,	-- the pointer's 64 bits as a signed integer
	shape_id	INTEGER NOT NULL,	-- alloc_shapes.id
	alloc_ts	INTEGER NOT NULL,
	alloc_cpu	INTEGER NOT NULL,
	task_id		INTEGER NOT NULL,	-- tasks.id of the allocating task
	generation	INTEGER NOT NULL,
	life		INTEGER,		-- free_ts - alloc_ts; NULL while live
	free_cpu	INTEGER,		-- NULL: live, or the same as alloc_cpu
	free_pid	INTEGER,		-- NULL: live, or the same as the allocating pid
	free_site_id	INTEGER,		-- free_sites.id; NULL: live or implicit free
	free_kind	INTEGER			-- event_kinds.id - 4: 0 kfree, 1 kmem_cache_free,
						-- 2 implicit; NULL while live
);

-- The counts of alloc_rows, made by kma as it writes the rows and written at the end, so
-- that the views below (and kma-push) need not read every row. Added within version 7:
-- a version 7 file written before has no such tables (its views count alloc_rows).
-- Per shape with allocations: shape_counts' numbers.
CREATE TABLE shape_totals (
	shape_id	INTEGER PRIMARY KEY,	-- alloc_shapes.id
	allocs		INTEGER NOT NULL,	-- its alloc_rows
	live		INTEGER NOT NULL,	-- of those, life NULL (live at the end)
	frees		INTEGER NOT NULL,	-- free_kind 0 or 1 (kfree, kmem_cache_free)
	implicit_frees	INTEGER NOT NULL	-- free_kind 2 (implicit)
);

-- Per task (tasks.id) with allocations: its alloc_rows' sums, each row's shape's sizes.
CREATE TABLE task_totals (
	task_id		INTEGER PRIMARY KEY,	-- tasks.id of the allocating task
	total		INTEGER NOT NULL,	-- sum of bytes_alloc
	slack		INTEGER NOT NULL,	-- sum of bytes_alloc - bytes_req (as task_stats)
	net		INTEGER NOT NULL,	-- bytes_alloc of the live ones
	allocs		INTEGER NOT NULL,
	frees		INTEGER NOT NULL,	-- traced frees (free_kind 0, 1)
	implicit_frees	INTEGER NOT NULL	-- free_kind 2
);

-- Per allocation stack (alloc_shapes.stack_id; NULL: none) with allocations: stack_stats's
-- numbers (slack never negative, as the matcher counts it).
CREATE TABLE stack_totals (
	stack_id	INTEGER,		-- stacks.id; NULL: no stack (one row per stack)
	total		INTEGER NOT NULL,
	slack		INTEGER NOT NULL,
	net		INTEGER NOT NULL,
	allocs		INTEGER NOT NULL,
	frees		INTEGER NOT NULL,
	implicit_frees	INTEGER NOT NULL,
	live		INTEGER NOT NULL
);

-- Per cache group (what cache_stats names: the event's cache, else the kmalloc cache of the
-- size and family) with allocations: the shapes' counts times their sizes.
CREATE TABLE cache_totals (
	cache_id	INTEGER,		-- alloc_shapes.cache_id; NULL: none
	kmalloc_type	INTEGER,		-- alloc_shapes.kmalloc_type; NULL: not kmalloc
	bytes_alloc	INTEGER NOT NULL,	-- alloc_shapes.bytes_alloc
	total		INTEGER NOT NULL,
	slack		INTEGER NOT NULL,	-- bytes_alloc - bytes_req summed (as cache_stats)
	net		INTEGER NOT NULL,
	allocs		INTEGER NOT NULL,
	frees		INTEGER NOT NULL,
	implicit_frees	INTEGER NOT NULL
);

-- One row per free of a pointer that was not live (allocated before the trace, or its
-- allocation event was lost).
CREATE TABLE unknown_free_rows (
	id		INTEGER PRIMARY KEY,
	ts		INTEGER NOT NULL,
	cpu		INTEGER NOT NULL,
	task_id		INTEGER NOT NULL,	-- tasks.id
	ptr		INTEGER NOT NULL,	-- as alloc_rows.ptr
	site_id		INTEGER NOT NULL,	-- free_sites.id
	kind		INTEGER NOT NULL,	-- event_kinds.id: 4 kfree, 5 kmem_cache_free
	stack_id	INTEGER			-- stacks.id of the free; NULL: no stack
);

-- Call stacks (version 3): each distinct stack of the ftrace:kernel_stack events paired
-- with a kmem event, the tracing frames dropped, once. Written at the end of the run.
CREATE TABLE stacks (
	id		INTEGER PRIMARY KEY,	-- alloc_shapes.stack_id, free_stack_id, ...
	depth		INTEGER NOT NULL,	-- frames: stack_frames.depth 0 .. depth - 1
	hash		TEXT NOT NULL,		-- kma's 64-bit hash of the addresses, '0x<hex>'
	folded		TEXT NOT NULL,		-- functions outermost first joined by ';'
	stack_key	BLOB			-- the key of the stack in the fleet store:
						-- SHA-256 of depth and frames, 32 bytes
);

-- The frames of each stack; depth 0 is the innermost frame (the allocator).
CREATE TABLE stack_frames (
	stack_id	INTEGER NOT NULL,	-- stacks.id
	depth		INTEGER NOT NULL,	-- 0: innermost
	address		TEXT NOT NULL,		-- return address, '0x<hex>'
	function	TEXT,			-- symbol from the trace's kallsyms; NULL: unresolved
	offset		INTEGER,		-- address - the symbol's address; NULL: unresolved
	PRIMARY KEY (stack_id, depth)
) WITHOUT ROWID;

-- The allocators (version 7): the slab allocator's rows are in alloc_rows, the page
-- allocator's in page_alloc_rows (--pages), percpu's and vmalloc's in kind_alloc_rows;
-- ids are enum kma_kind of lib/kma-event.h.
CREATE TABLE kinds (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL,		-- 'slab', 'page', 'percpu', 'vmalloc' (--kind)
	alloc_event	TEXT,			-- the allocation event (NULL: several, slab)
	free_event	TEXT			-- the free event (NULL: several, slab)
);
INSERT INTO kinds VALUES (0, 'slab', NULL, NULL), (1, 'page', 'mm_page_alloc', 'mm_page_free'),
	(2, 'percpu', 'percpu_alloc_percpu', 'percpu_free_percpu'),
	(3, 'vmalloc', 'alloc_vmap_area', 'free_vmap_area_noflush');

-- One row per allocator the trace has events of (slab always, page with --pages), the
-- numbers of kma-analyze's "Kernel memory by allocator" and more, written at the end.
CREATE TABLE kind_totals (
	kind		INTEGER PRIMARY KEY,	-- kinds.id
	allocs		INTEGER NOT NULL,	-- successful allocations
	total		INTEGER NOT NULL,	-- their bytes
	net		INTEGER NOT NULL,	-- bytes live at the end of the trace
	live		INTEGER NOT NULL,	-- allocations live at the end
	peak		INTEGER NOT NULL,	-- the kind's own highest net
	peak_ts		INTEGER,		-- when first reached; NULL: never above 0
	frees		INTEGER NOT NULL,	-- traced frees that closed a live allocation
	implicit_frees	INTEGER NOT NULL,	-- allocations closed by a new one at their key
	unknown_frees	INTEGER NOT NULL,	-- frees of a key that was not live
	null_frees	INTEGER NOT NULL,	-- frees of a key <= 0x10
	failed_allocs	INTEGER NOT NULL	-- failed allocations (no bytes)
);

-- The percpu and vmalloc allocators' callers (version 7), as callers is the slab
-- allocator's: one row per (kind, caller), written at the end.
-- module was added within version 7 (the module of the caller, as callers.module is a
-- slab caller's): a version 7 file written before has no such column, and kma-diff
-- --kind percpu|vmalloc -g module refuses it (kma-push sends NULL).
CREATE TABLE kind_callers (
	kind		INTEGER NOT NULL,	-- kinds.id
	id		INTEGER NOT NULL,	-- kind_alloc_rows.caller_id
	caller		TEXT NOT NULL,		-- 'symbol+0xoffset', '0x<hex>' or '[no stack]'
	address		TEXT NOT NULL,		-- the caller's address, '0x<hex>' ('0x0': none)
	total		INTEGER NOT NULL,	-- sum of bytes
	net		INTEGER NOT NULL,	-- bytes still live at the end of the trace
	allocs		INTEGER NOT NULL,
	frees		INTEGER NOT NULL,	-- traced frees of its allocations
	implicit_frees	INTEGER NOT NULL,
	failed_allocs	INTEGER NOT NULL,
	live		INTEGER NOT NULL,	-- allocations still live at the end
	life_min	INTEGER,		-- alloc -> traced free, ns (NULL: no traced free)
	life_avg	INTEGER,
	life_max	INTEGER,
	net_at_peak	INTEGER NOT NULL,	-- its live bytes when the kind's net peaked
	module		TEXT,			-- module of the caller, NULL: vmlinux or unresolved
	PRIMARY KEY (kind, id)
) WITHOUT ROWID;

-- One row per successful percpu or vmalloc allocation (version 7), in the order they
-- ended, as alloc_rows is for the slab allocator.
CREATE TABLE kind_alloc_rows (
	id		INTEGER PRIMARY KEY,
	kind		INTEGER NOT NULL,	-- kinds.id: 2 percpu, 3 vmalloc
	ptr		INTEGER NOT NULL,	-- percpu pointer or vmap area start, as alloc_rows.ptr
	caller_id	INTEGER NOT NULL,	-- kind_callers.id of (kind, caller_id)
	bytes_alloc	INTEGER NOT NULL,	-- the bytes kma counts (see kma-report.db(5))
	gfp_flags	INTEGER,		-- NULL: the event has none
	alloc_ts	INTEGER NOT NULL,
	alloc_cpu	INTEGER NOT NULL,
	task_id		INTEGER NOT NULL,	-- tasks.id
	generation	INTEGER NOT NULL,
	life		INTEGER,		-- free_ts - alloc_ts; NULL while live
	free_cpu	INTEGER,		-- NULL: live
	free_pid	INTEGER,		-- NULL: live
	implicit	INTEGER,		-- 1: closed by a new allocation at ptr; NULL while live
	stack_id	INTEGER,		-- stacks.id of the allocation; NULL: no stack
	free_stack_id	INTEGER			-- stacks.id of the traced free; NULL: none
);

-- Every allocator's allocations: the slab allocator's as version 1 stored them (same
-- columns, order and values; version 3 appends stack_id and free_stack_id), then, with
-- the column kind (version 7), percpu's, vmalloc's and the page allocator's (--pages),
-- whose ids follow the slab allocator's. Columns a kind has not are NULL.
CREATE VIEW allocations AS
	SELECT r.id AS id, printf('0x%x', r.ptr) AS ptr, sh.caller_id AS caller_id,
	       c.caller AS caller, ae.name AS alloc_event, sh.bytes_req AS bytes_req,
	       sh.bytes_alloc AS bytes_alloc, sh.gfp_flags AS gfp_flags, sh.node AS node,
	       k.name AS cache, sh.accounted AS accounted,
	       r.alloc_ts AS alloc_ts, r.alloc_cpu AS alloc_cpu, t.pid AS pid, t.comm AS comm,
	       r.generation AS generation, r.alloc_ts + r.life AS free_ts,
	       CASE WHEN r.life IS NOT NULL THEN COALESCE(r.free_cpu, r.alloc_cpu) END AS free_cpu,
	       CASE WHEN r.life IS NOT NULL THEN COALESCE(r.free_pid, t.pid) END AS free_pid,
	       s.caller AS free_caller, s.address AS free_address, fk.name AS free_kind,
	       sh.stack_id AS stack_id, sh.free_stack_id AS free_stack_id, 'slab' AS kind
	FROM alloc_rows AS r
	CROSS JOIN alloc_shapes AS sh ON sh.id = r.shape_id
	JOIN callers AS c ON c.id = sh.caller_id
	JOIN event_kinds AS ae ON ae.id = sh.alloc_event
	JOIN tasks AS t ON t.id = r.task_id
	LEFT JOIN caches AS k ON k.id = sh.cache_id
	LEFT JOIN free_sites AS s ON s.id = r.free_site_id
	LEFT JOIN event_kinds AS fk ON fk.id = r.free_kind + 4
UNION ALL
	SELECT r.id + (SELECT COALESCE(MAX(id), 0) FROM alloc_rows) AS id,
	       printf('0x%x', r.ptr) AS ptr, NULL AS caller_id, c.caller AS caller,
	       kd.alloc_event AS alloc_event, NULL AS bytes_req,
	       r.bytes_alloc AS bytes_alloc, r.gfp_flags AS gfp_flags, NULL AS node,
	       NULL AS cache, NULL AS accounted, r.alloc_ts AS alloc_ts, r.alloc_cpu AS alloc_cpu,
	       t.pid AS pid, t.comm AS comm, r.generation AS generation,
	       r.alloc_ts + r.life AS free_ts, r.free_cpu AS free_cpu, r.free_pid AS free_pid,
	       NULL AS free_caller, NULL AS free_address,
	       CASE r.implicit WHEN 0 THEN kd.free_event WHEN 1 THEN 'implicit' END AS free_kind,
	       r.stack_id AS stack_id, r.free_stack_id AS free_stack_id, kd.name AS kind
	FROM kind_alloc_rows AS r
	JOIN kind_callers AS c ON c.kind = r.kind AND c.id = r.caller_id
	JOIN kinds AS kd ON kd.id = r.kind
	JOIN tasks AS t ON t.id = r.task_id
UNION ALL
	SELECT r.rowid + (SELECT COALESCE(MAX(id), 0) FROM alloc_rows) +
		(SELECT COALESCE(MAX(id), 0) FROM kind_alloc_rows) AS id,
	       printf('0x%x', r.pfn) AS ptr, NULL AS caller_id,
	       COALESCE(sh.function, '[no stack]') AS caller, 'mm_page_alloc' AS alloc_event,
	       NULL AS bytes_req, (1 << sh.page_order) * pt.page_size AS bytes_alloc, sh.gfp_flags AS gfp_flags,
	       NULL AS node, NULL AS cache, NULL AS accounted, r.alloc_ts AS alloc_ts,
	       NULL AS alloc_cpu, sh.pid AS pid, sh.comm AS comm, r.generation AS generation,
	       r.free_ts AS free_ts, NULL AS free_cpu, NULL AS free_pid, NULL AS free_caller,
	       NULL AS free_address,
	       CASE r.free_kind WHEN 0 THEN 'mm_page_free' WHEN 1 THEN 'implicit' END AS free_kind,
	       NULL AS stack_id, NULL AS free_stack_id, 'page' AS kind
	FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id
	CROSS JOIN page_trace AS pt;

-- Per allocator (version 7): kind_totals by name, in kinds.id order.
CREATE VIEW kind_stats AS
	SELECT k.name AS kind, t.allocs AS allocs, t.total AS total, t.net AS net,
	       t.peak AS peak, t.peak_ts AS peak_ts, t.live AS live, t.frees AS frees,
	       t.implicit_frees AS implicit_frees, t.unknown_frees AS unknown_frees,
	       t.null_frees AS null_frees, t.failed_allocs AS failed_allocs
	FROM kind_totals AS t JOIN kinds AS k ON k.id = t.kind ORDER BY t.kind;

-- Per caller of every allocator but the page allocator (page_stats is its own, by caller
-- function): caller_stats with the kind; slack NULL where the kind has none.
CREATE VIEW kind_caller_stats AS
	SELECT 'slab' AS kind, caller, address, total, slack, net, allocs, frees, implicit_frees
	FROM callers WHERE allocs > 0
UNION ALL
	SELECT k.name AS kind, c.caller AS caller, c.address AS address, c.total AS total,
	       NULL AS slack, c.net AS net, c.allocs AS allocs, c.frees AS frees,
	       c.implicit_frees AS implicit_frees
	FROM kind_callers AS c JOIN kinds AS k ON k.id = c.kind WHERE c.allocs > 0;

CREATE VIEW unknown_frees AS
	SELECT u.id AS id, u.ts AS ts, u.cpu AS cpu, t.pid AS pid, t.comm AS comm,
	       printf('0x%x', u.ptr) AS ptr, s.caller AS caller, s.address AS address,
	       k.name AS free_kind, u.stack_id AS stack_id
	FROM unknown_free_rows AS u
	JOIN tasks AS t ON t.id = u.task_id
	JOIN free_sites AS s ON s.id = u.site_id
	JOIN event_kinds AS k ON k.id = u.kind;

CREATE VIEW caller_stats AS
	SELECT caller, address, total, slack, net, allocs, frees, implicit_frees
	FROM callers WHERE allocs > 0;

CREATE VIEW summary AS
	SELECT
		(SELECT COALESCE(SUM(total), 0) FROM callers) AS total,
		(SELECT COALESCE(SUM(slack), 0) FROM callers) AS slack,
		(SELECT COALESCE(SUM(net), 0) FROM callers) AS net,
		(SELECT COALESCE(SUM(allocs), 0) FROM callers) AS allocs,
		t.frees AS frees,
		t.unknown_frees AS unknown_frees,
		t.null_frees AS null_frees,
		(SELECT COALESCE(SUM(implicit_frees), 0) FROM callers) AS implicit_frees,
		t.failed_allocs AS failed_allocs,
		(SELECT COUNT(*) FROM callers WHERE allocs > 0) AS callers,
		(SELECT COALESCE(SUM(lost), 0) FROM lost_events) AS lost_events
	FROM trace AS t;

CREATE VIEW generation_stats AS
	SELECT id AS generation, label, ts, allocs, bytes, live, live_bytes, frees
	FROM generations;

CREATE VIEW leak_suspects AS
	SELECT caller, address, module, net, live, age_min, age_avg, age_max, grew_generations,
	       max_growth_run, implicit_frees, leak_confidence AS confidence, leak_why AS why,
	       age_median
	FROM callers WHERE leak_suspect = 1;

-- What each module unload left behind, per call site: allocations of the module's call
-- sites live at the unload (a module unloaded twice has rows for each unload).
CREATE TABLE module_leftovers (
	module_id	INTEGER NOT NULL REFERENCES modules(id),
	module		TEXT NOT NULL,
	caller_id	INTEGER NOT NULL REFERENCES callers(id),
	caller		TEXT NOT NULL,
	address		TEXT NOT NULL,
	allocs		INTEGER NOT NULL,	-- live at the unload
	bytes		INTEGER NOT NULL,
	still_live	INTEGER NOT NULL,	-- of those, still live at the end of the trace
	still_live_bytes INTEGER NOT NULL
);

-- Lifetimes of traced frees per caller; median and p99 by nearest rank (ceil(p * n)).
-- On alloc_rows: free kinds 0 and 1 are kfree and kmem_cache_free.
CREATE VIEW caller_lifetimes AS
	WITH l AS (
		SELECT sh.caller_id AS caller_id, r.life AS life,
		       ROW_NUMBER() OVER (PARTITION BY sh.caller_id ORDER BY r.life) AS rn,
		       COUNT(*) OVER (PARTITION BY sh.caller_id) AS n
		FROM alloc_rows AS r CROSS JOIN alloc_shapes AS sh ON sh.id = r.shape_id
		WHERE r.free_kind IN (0, 1))
	SELECT c.caller, c.address, MAX(l.n) AS frees, MIN(l.life) AS min_ns,
	       MAX(CASE WHEN l.rn = (l.n + 1) / 2 THEN l.life END) AS median_ns,
	       MAX(CASE WHEN l.rn = (l.n * 99 + 99) / 100 THEN l.life END) AS p99_ns,
	       MAX(l.life) AS max_ns, c.temporary
	FROM l JOIN callers AS c ON c.id = l.caller_id
	GROUP BY l.caller_id;

-- Groupings: function/module/file_stats sum callers; cache_stats and task_stats read the
-- sums of alloc_rows per cache group and per task (cache_totals, task_totals).
CREATE VIEW function_stats AS
	SELECT COALESCE(c.symbol, c.caller) AS function, c.module,
	       SUM(c.total) AS total, SUM(c.slack) AS slack, SUM(c.net) AS net,
	       SUM(c.allocs) AS allocs, SUM(c.frees) AS frees, SUM(c.implicit_frees) AS implicit_frees
	FROM callers AS c WHERE c.allocs > 0 GROUP BY 1, 2;

CREATE VIEW module_stats AS
	SELECT CASE WHEN c.module IS NOT NULL THEN c.module
		    WHEN c.symbol IS NOT NULL THEN 'vmlinux' ELSE '[unknown]' END AS module,
	       SUM(c.total) AS total, SUM(c.slack) AS slack, SUM(c.net) AS net,
	       SUM(c.allocs) AS allocs, SUM(c.frees) AS frees, SUM(c.implicit_frees) AS implicit_frees
	FROM callers AS c WHERE c.allocs > 0 GROUP BY 1;

CREATE VIEW file_stats AS
	SELECT COALESCE(c.file, '[unknown]') AS file,
	       SUM(c.total) AS total, SUM(c.slack) AS slack, SUM(c.net) AS net,
	       SUM(c.allocs) AS allocs, SUM(c.frees) AS frees, SUM(c.implicit_frees) AS implicit_frees
	FROM callers AS c WHERE c.allocs > 0 GROUP BY 1;

-- Slab cache of each allocation: the event's cache name, else the kmalloc cache its size
-- and flags pick (kmalloc-64, kmalloc-cg-64, kmalloc-rcl-64, dma-kmalloc-64, kmalloc-large).
CREATE VIEW allocation_caches AS
	SELECT r.id AS id,
	       CASE WHEN sh.cache_id IS NOT NULL THEN k.name ELSE kc.name END AS cache
	FROM alloc_rows AS r CROSS JOIN alloc_shapes AS sh ON sh.id = r.shape_id
	LEFT JOIN caches AS k ON k.id = sh.cache_id
	LEFT JOIN kmalloc_caches AS kc
	ON kc.kmalloc_type = COALESCE(sh.kmalloc_type, 0) AND kc.bytes_alloc = sh.bytes_alloc;

-- Allocations per shape: how many, still live, closed by a traced free, implicitly freed
-- (the table shape_totals, counted as alloc_rows was written: the same rows as a GROUP BY
-- shape_id over alloc_rows). cache_stats and stack_stats start from it.
CREATE VIEW shape_counts AS
	SELECT shape_id, allocs, live, frees, implicit_frees FROM shape_totals;

-- cache_stats names the groups of cache_totals, task_stats the tasks of task_totals,
-- sizing_advice multiplies the counts per shape (shape_totals) by the shape's sizes: the
-- same rows as summing the view allocations. sizing_advice keeps only its shapes' rows.
CREATE VIEW cache_stats AS
	SELECT CASE WHEN g.cache_id IS NOT NULL THEN k.name ELSE kc.name END AS cache,
	       SUM(g.total) AS total, SUM(g.slack) AS slack, SUM(g.net) AS net,
	       SUM(g.allocs) AS allocs, SUM(g.frees) AS frees,
	       SUM(g.implicit_frees) AS implicit_frees
	FROM cache_totals AS g LEFT JOIN caches AS k ON k.id = g.cache_id
	LEFT JOIN kmalloc_caches AS kc
	ON kc.kmalloc_type = COALESCE(g.kmalloc_type, 0) AND kc.bytes_alloc = g.bytes_alloc
	GROUP BY 1;

CREATE VIEW task_stats AS
	SELECT t.pid AS pid, t.comm AS comm, SUM(g.total) AS total, SUM(g.slack) AS slack,
	       SUM(g.net) AS net, SUM(g.allocs) AS allocs, SUM(g.frees) AS frees,
	       SUM(g.implicit_frees) AS implicit_frees
	FROM task_totals AS g JOIN tasks AS t ON t.id = g.task_id GROUP BY t.pid, t.comm;

-- Sizing advice: kmalloc slack per caller and (bytes_req, bytes_alloc). A dedicated
-- kmem_cache holds objects of bytes_req rounded up to 8 bytes (SLUB's minimum alignment).
CREATE VIEW sizing_advice AS
	WITH g AS (
		SELECT sh.caller_id AS caller_id, sh.bytes_req AS bytes_req,
		       sh.bytes_alloc AS bytes_alloc, sh.kmalloc_type AS kmalloc_type,
		       SUM(n.allocs) AS allocs, SUM(n.live) AS live
		FROM shape_totals AS n JOIN alloc_shapes AS sh ON sh.id = n.shape_id
		WHERE sh.alloc_event IN (0, 1) AND sh.bytes_alloc > ((sh.bytes_req + 7) / 8) * 8
		GROUP BY sh.caller_id, sh.bytes_req, sh.bytes_alloc, sh.kmalloc_type)
	SELECT c.caller AS caller, g.bytes_req AS bytes_req, g.bytes_alloc AS bytes_alloc,
	       (SELECT name FROM kmalloc_caches WHERE kmalloc_type = COALESCE(g.kmalloc_type, 0)
		AND bytes_alloc = g.bytes_alloc) AS kmalloc_cache,
	       g.allocs AS allocs, g.live AS live,
	       g.allocs * (g.bytes_alloc - g.bytes_req) AS slack,
	       ((g.bytes_req + 7) / 8) * 8 AS dedicated_size,
	       g.allocs * (g.bytes_alloc - ((g.bytes_req + 7) / 8) * 8) AS saved_bytes,
	       g.live * (g.bytes_alloc - ((g.bytes_req + 7) / 8) * 8) AS saved_live_bytes
	FROM g CROSS JOIN callers AS c ON c.id = g.caller_id;

-- Per call stack (version 3): one row per alloc_shapes.stack_id of the allocations, NULL
-- ('[no stack]') for those without one: the table stack_totals, named. Counted per shape
-- first; slack as the matcher counts it (never negative), so the sums are summary's total,
-- slack, net, allocs and implicit_frees, and frees adds up to trace.matched_frees
-- (callers.frees).
CREATE VIEW stack_stats AS
	SELECT g.stack_id AS stack_id, COALESCE(s.folded, '[no stack]') AS folded,
	       g.total AS total, g.slack AS slack, g.net AS net, g.allocs AS allocs,
	       g.frees AS frees, g.implicit_frees AS implicit_frees, g.live AS live
	FROM stack_totals AS g LEFT JOIN stacks AS s ON s.id = g.stack_id;

-- The over-time series, as the HTML report draws them: the trace cut into at
-- most 2048 bins of one width (1 us doubled until the trace fits), from the first event on;
-- bin N is [ts, ts + width_ns). Only allocations made during the trace count: live_bytes
-- starts at 0 and ends at summary.net; the sums of allocs and alloc_bytes are summary's
-- allocs and total.
CREATE TABLE timeline (
	bin		INTEGER PRIMARY KEY,
	ts		INTEGER NOT NULL,	-- bin start (first event's ts + bin * width_ns)
	width_ns	INTEGER NOT NULL,
	allocs		INTEGER NOT NULL,	-- allocations made in the bin
	alloc_bytes	INTEGER NOT NULL,	-- their bytes_alloc
	frees		INTEGER NOT NULL,	-- allocations closed in the bin (traced or implicit free)
	free_bytes	INTEGER NOT NULL,	-- their bytes_alloc
	live_bytes	INTEGER NOT NULL,	-- live bytes at the end of the bin
	live_max	INTEGER NOT NULL	-- highest live bytes within the bin
);

-- Live bytes at the end of each bin of the top callers (up to 8, by net then total; rank 0
-- first) and of all the other callers together (caller '[other]', caller_id NULL).
CREATE TABLE timeline_callers (
	bin		INTEGER NOT NULL,	-- timeline.bin
	rank		INTEGER NOT NULL,
	caller_id	INTEGER,		-- callers.id; NULL: the others
	caller		TEXT NOT NULL,
	live_bytes	INTEGER NOT NULL,
	PRIMARY KEY (bin, rank)
);
-- Page allocations (kma-analyze --pages). Empty without --pages: the tables are
-- always there, so that queries need not ask. mm_page_alloc paired with mm_page_free by pfn
-- (kma-analyze(1), PAGES). Integers only; the view page_allocations renders them.
-- One row: the page allocator facts of the run.
CREATE TABLE page_trace (
	page_size	INTEGER NOT NULL,	-- PAGE_SIZE: the trace header's page size
	by_pointer	INTEGER NOT NULL,	-- 1: the events carry a struct page pointer, no pfn
	alloc_events	INTEGER NOT NULL,	-- mm_page_alloc records (failed ones included)
	free_events	INTEGER NOT NULL,	-- mm_page_free records
	batched_events	INTEGER NOT NULL,	-- mm_page_free_batched: counted, no frees
	zone_locked_events INTEGER NOT NULL,	-- mm_page_alloc_zone_locked: no allocations
	pcpu_drain_events INTEGER NOT NULL,	-- mm_page_pcpu_drain: no frees
	failed_allocs	INTEGER NOT NULL,	-- pfn -1 (NULL page)
	unknown_frees	INTEGER NOT NULL,	-- frees of a pfn not live
	unknown_pages	INTEGER NOT NULL,	-- their pages, by their own order
	peak_pages	INTEGER NOT NULL,	-- most pages live at once
	peak_ts		INTEGER,		-- when first reached
	stacks		INTEGER NOT NULL	-- allocations with a stack
);

-- What page allocations share (order, flags, migrate type, task, caller): one row each.
CREATE TABLE page_shapes (
	id		INTEGER PRIMARY KEY,
	page_order	INTEGER NOT NULL,
	gfp_flags	INTEGER NOT NULL,
	gfp		TEXT,			-- gfp_flags as the kernel prints them
	migratetype	INTEGER NOT NULL,	-- -1: the event has none
	pid		INTEGER NOT NULL,
	comm		TEXT,
	function	TEXT,			-- first frame outside the page allocator; NULL: no stack
	stack		TEXT			-- the folded stack; NULL: none
);

-- One row per successful page allocation (failed ones are counted in page_trace).
CREATE TABLE page_alloc_rows (
	alloc_ts	INTEGER NOT NULL,
	free_ts		INTEGER,		-- NULL: live at the end of the trace
	pfn		INTEGER NOT NULL,	-- the struct page pointer when by_pointer (as signed)
	free_kind	INTEGER,		-- 0 mm_page_free, 1 implicit (new alloc at the pfn), NULL live
	shape_id	INTEGER NOT NULL REFERENCES page_shapes (id),
	generation	INTEGER NOT NULL	-- kma markers before the allocation
);

CREATE VIEW page_allocations AS
	SELECT r.rowid AS id, r.alloc_ts AS alloc_ts, r.free_ts AS free_ts,
	       CASE WHEN t.by_pointer THEN NULL ELSE r.pfn END AS pfn,
	       CASE WHEN t.by_pointer THEN printf('0x%x', r.pfn) ELSE NULL END AS page,
	       sh.page_order AS page_order, 1 << sh.page_order AS pages,
	       (1 << sh.page_order) * t.page_size AS bytes,
	       sh.gfp AS gfp, printf('0x%x', sh.gfp_flags) AS gfp_flags,
	       sh.migratetype AS migratetype, sh.pid AS pid, sh.comm AS comm,
	       sh.function AS function, sh.stack AS stack,
	       CASE r.free_kind WHEN 0 THEN 'mm_page_free' WHEN 1 THEN 'implicit' END AS free_kind,
	       r.free_ts - r.alloc_ts AS age_ns, r.generation AS generation
	FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id
	CROSS JOIN page_trace AS t;

-- Per caller function, order, gfp flags and migrate type, as perf kmem stat --page
-- --caller lists them: pages and bytes allocated, freed and live at the end.
CREATE VIEW page_stats AS
	SELECT COALESCE(sh.function, '[no stack]') AS function, sh.page_order AS page_order,
	       sh.gfp AS gfp, sh.migratetype AS migratetype, COUNT(*) AS allocs,
	       SUM(1 << sh.page_order) AS pages,
	       SUM(1 << sh.page_order) * (SELECT page_size FROM page_trace) AS bytes,
	       SUM(r.free_ts IS NOT NULL) AS frees,
	       SUM(CASE WHEN r.free_ts IS NULL THEN 1 << sh.page_order ELSE 0 END) AS live_pages
	FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id
	GROUP BY sh.function, sh.page_order, sh.gfp, sh.migratetype;

-- Live pages over time (kma-analyze --pages): the timeline table's bins and rules for page
-- allocations. Bin 0 starts at the first page event (any kind); bins are 1 us doubled
-- until the trace fits in 2048; bin N is [ts, ts + width_ns). An allocation counts in the
-- bin of its alloc_ts, its free (mm_page_free or implicit) in the bin of its free_ts;
-- live_pages starts at 0 and ends at the live pages of page_allocations. Empty without
-- page events or without --pages.
CREATE TABLE page_timeline (
	bin		INTEGER PRIMARY KEY,
	ts		INTEGER NOT NULL,	-- bin start (first page event's ts + bin * width_ns)
	width_ns	INTEGER NOT NULL,
	allocs		INTEGER NOT NULL,	-- page allocations made in the bin (failed: none)
	alloc_pages	INTEGER NOT NULL,	-- their pages (1 << order each)
	frees		INTEGER NOT NULL,	-- allocations closed in the bin (traced or implicit)
	free_pages	INTEGER NOT NULL,	-- their pages
	live_pages	INTEGER NOT NULL,	-- live pages at the end of the bin
	live_max	INTEGER NOT NULL,	-- most live pages within the bin
	live_bytes	INTEGER NOT NULL	-- live_pages * page_trace.page_size
);

-- Live pages at the end of each bin of the top tasks (comm; up to 8, by live pages at the
-- end, then pages allocated; rank 0 first) and of all the other tasks together ('[other]').
CREATE TABLE page_timeline_tasks (
	bin		INTEGER NOT NULL,	-- page_timeline.bin
	rank		INTEGER NOT NULL,
	comm		TEXT NOT NULL,
	live_pages	INTEGER NOT NULL,
	PRIMARY KEY (bin, rank)
);

-- The same by caller function (the first stack frame outside the page allocator, as
-- page_allocations.function) when the trace has stacks: the top functions, '[no stack]'
-- for allocations without one, '[other]' for the rest. Empty without stacks.
CREATE TABLE page_timeline_functions (
	bin		INTEGER NOT NULL,	-- page_timeline.bin
	rank		INTEGER NOT NULL,
	function	TEXT NOT NULL,
	live_pages	INTEGER NOT NULL,
	PRIMARY KEY (bin, rank)
);

-- Per generation (kma markers), as the generations table is for slab objects: the page
-- allocations made in it and, of those, the ones still live at the end of the trace
-- (a free counts in the allocation's generation). Failed allocations are in page_trace only.
CREATE VIEW page_generations AS
	SELECT r.generation AS generation,
	       COALESCE(g.label, CASE r.generation WHEN 0 THEN 'start' END) AS label,
	       COUNT(*) AS allocs, SUM(1 << sh.page_order) AS pages,
	       SUM(r.free_ts IS NULL) AS live_allocs,
	       SUM(CASE WHEN r.free_ts IS NULL THEN 1 << sh.page_order ELSE 0 END) AS live_pages,
	       SUM(CASE WHEN r.free_ts IS NULL THEN 1 << sh.page_order ELSE 0 END) *
		(SELECT page_size FROM page_trace) AS live_bytes
	FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id
	LEFT JOIN generations AS g ON g.id = r.generation
	GROUP BY r.generation;

-- Cross-CPU frees per caller (perf kmem stat's "Cross CPU allocations"): of the
-- allocations a traced kfree/kmem_cache_free ended, those freed on another CPU than the
-- one that allocated them. Implicit frees and live allocations are in no row. The node an
-- object landed on is not in the trace (the *_node events give the node asked for only).
CREATE VIEW cross_cpu_stats AS
	SELECT c.caller AS caller, COUNT(*) AS frees,
	       SUM(r.free_cpu IS NOT NULL AND r.free_cpu <> r.alloc_cpu) AS cross_cpu_frees,
	       ROUND(100.0 * SUM(r.free_cpu IS NOT NULL AND r.free_cpu <> r.alloc_cpu) / COUNT(*),
		     1) AS cross_cpu_pct
	FROM alloc_rows AS r JOIN alloc_shapes AS sh ON sh.id = r.shape_id
	JOIN callers AS c ON c.id = sh.caller_id
	WHERE r.free_kind IN (0, 1)
	GROUP BY sh.caller_id;

-- The CPU -> NUMA node map (S23): kma-record's "kma-topology:" marker, or --cpu-nodes.
-- Empty when neither gave one; node NULL: a CPU the map does not name.
CREATE TABLE cpu_nodes (
	cpu		INTEGER PRIMARY KEY,
	node		INTEGER
);

-- Allocations asking for a node per caller (node not NULL: kmalloc_node and
-- kmem_cache_alloc_node, any allocation from 6.1 on, NUMA_NO_NODE excluded), and those
-- made on a CPU of another node (perf kmem stat's cross allocations). No rows without a map.
CREATE VIEW cross_node_stats AS
	SELECT c.caller AS caller, COUNT(*) AS node_allocs,
	       SUM(n.node IS NOT NULL AND n.node <> sh.node) AS cross_node,
	       SUM(n.node IS NULL) AS unmapped
	FROM alloc_rows AS r JOIN alloc_shapes AS sh ON sh.id = r.shape_id
	JOIN callers AS c ON c.id = sh.caller_id
	LEFT JOIN cpu_nodes AS n ON n.cpu = r.alloc_cpu
	WHERE sh.node IS NOT NULL AND sh.node >= 0 AND EXISTS (SELECT 1 FROM cpu_nodes)
	GROUP BY sh.caller_id;

-- The kernel's own counters beside the trace (version 6; kma-analyze --counters, empty
-- without it): kma-record's start and end snapshots of /proc/slabinfo, /proc/meminfo and
-- /proc/allocinfo (trace markers kma-slabinfo:, kma-meminfo:, kma-allocinfo:), and the
-- trace's change over the same interval: from the first part of the start snapshot to the
-- first part of the end snapshot of the same kind. The rows of a kind are there only when
-- both its snapshots are complete (used = 1 in counters_snapshots).
CREATE TABLE counters_snapshots (
	kind		TEXT,		-- 'slabinfo', 'meminfo', 'allocinfo'
	phase		TEXT,		-- 'start', 'end'
	ts		INTEGER,	-- its first part's timestamp
	parts		INTEGER,	-- PARTS as the parts say (meminfo: 1)
	parts_seen	INTEGER,	-- distinct parts in the trace
	complete	INTEGER,	-- 1: every part once, none malformed
	used		INTEGER,	-- 1: both snapshots of the kind complete, start first
	why		TEXT		-- not complete: why ("part 2/3 missing"); else NULL
);

-- Per slab cache: slabinfo's active objects at start and end beside the trace's
-- allocations, frees and implicit frees between them. Every slabinfo cache has a row;
-- a cache the trace names that slabinfo lacks has one too: state 'merged' (counted in
-- target, the one slabinfo cache of its object size) or 'merged-unknown'.
CREATE TABLE counters_slab (
	cache		TEXT,
	state		TEXT,		-- 'slabinfo', 'merged', 'merged-unknown'
	target		TEXT,		-- merged: the slabinfo cache it is counted in
	objsize		INTEGER,	-- slabinfo's; a trace-only cache's bytes_alloc; NULL: unknown
	kernel_start	INTEGER,	-- active objects; NULL for trace-only caches
	kernel_end	INTEGER,
	kernel_delta	INTEGER,	-- kernel_end - kernel_start
	trace_allocs	INTEGER,
	trace_frees	INTEGER,	-- traced frees (kfree, kmem_cache_free)
	trace_implicit	INTEGER,	-- implicit frees (an allocation at a live pointer)
	trace_delta	INTEGER,	-- allocs - frees - implicit (+ the caches merged into it)
	untraced	INTEGER		-- kernel_delta - trace_delta: moved without a kmem event
);

-- /proc/meminfo's fields in bytes (the kernel's kB x 1024); the Slab row has the
-- trace's slab bytes allocated - freed between the snapshots beside it.
CREATE TABLE counters_meminfo (
	field		TEXT,		-- 'Slab', 'SReclaimable', 'SUnreclaim', 'Percpu', 'VmallocUsed'
	kernel_start	INTEGER,	-- bytes
	kernel_end	INTEGER,
	kernel_delta	INTEGER,
	trace_delta	INTEGER,	-- Slab only, else NULL
	untraced	INTEGER		-- Slab only: kernel_delta - trace_delta
);

-- /proc/allocinfo per function (the tags with its func:NAME summed; an entry absent from
-- a snapshot counts 0 there) beside kma's net bytes for the call sites in that function.
-- Functions where nothing changed on either side have no row.
CREATE TABLE counters_allocinfo (
	function	TEXT,
	tags		INTEGER,	-- allocinfo tags of the function
	kernel_start	INTEGER,	-- bytes
	kernel_end	INTEGER,
	kernel_delta	INTEGER,
	kernel_calls_delta INTEGER,
	trace_allocs	INTEGER,	-- allocations of its call sites between the snapshots
	trace_net	INTEGER,	-- their bytes - the bytes of its allocations freed then
	untraced	INTEGER		-- kernel_delta - trace_net
);
