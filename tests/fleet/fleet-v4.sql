-- The fleet schema of version 4, as kma-push --init created it before version 5
-- (git show abddb5f:schema/fleet.sql): t-fleet upgrades a store made from it.
-- kma fleet store: the central PostgreSQL (15) schema kma-push writes, version 4.
-- Documented in docs/kma-fleet.5 (man 5 kma-fleet); every table, column and function
-- below is described there. Created by kma-push --init (compiled into kma-push), in one
-- transaction; kma-push refuses a database whose kma_fleet.schema_version is newer.
--
-- A run's rows live in partitions of their own (LIST by run_id, one partition per run
-- and table, made by kma_fleet.add_run_partition as the run is pushed): dropping a run
-- (kma_fleet.drop_run) drops its partitions, no DELETE of millions of rows. Stacks are
-- kept once for all runs, by content (stack_key: SHA-256 of the frames), one row each
-- with its frames in arrays (a row per frame made a push of many new stacks slow).
-- Names a trace carries are text, except the task names (comm), which the kernel does
-- not hold to any encoding: bytea, byte for byte as the trace has them.

CREATE SCHEMA kma_fleet;

-- One row: the version of this schema.
CREATE TABLE kma_fleet.schema_version (
	one		boolean PRIMARY KEY DEFAULT true CHECK (one),
	version		integer NOT NULL
);
INSERT INTO kma_fleet.schema_version (version) VALUES (4);

-- One row per run pushed.
CREATE TABLE kma_fleet.runs (
	run_id		bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	trace_id	text NOT NULL,		-- SHA-256 (hex) of the file pushed
	source		text NOT NULL CHECK (source IN ('trace', 'report.db')),
	options		text NOT NULL,		-- the analysis options, in one canonical line
	host		text,			-- the traced machine's node name (from uname)
	kernel_release	text,
	uname		text,
	start_ns	bigint,			-- first event's timestamp, trace clock, ns
	duration_ns	bigint,			-- last event's timestamp - first's
	pushed_at	timestamptz NOT NULL DEFAULT now(),
	file		text,			-- the file as given to kma-push
	kma_version	text,			-- kma-analyze's that wrote the report.db
	push_version	text NOT NULL,		-- kma-push's
	allocations	boolean NOT NULL,	-- pushed with --allocations
	events		bigint,
	total		bigint,			-- the report.db's summary
	slack		bigint,
	net		bigint,
	allocs		bigint,
	frees		bigint,
	unknown_frees	bigint,
	failed_allocs	bigint,
	lost_events	bigint,
	peak_bytes	bigint,
	UNIQUE (trace_id, options)
);

-- Labels given with kma-push --label KEY=VALUE.
CREATE TABLE kma_fleet.run_labels (
	run_id		bigint NOT NULL REFERENCES kma_fleet.runs ON DELETE CASCADE,
	key		text NOT NULL,
	value		text NOT NULL,
	PRIMARY KEY (run_id, key)
);
CREATE INDEX run_labels_key_value ON kma_fleet.run_labels (key, value);

-- Call stacks, once for all runs: stack_key is the SHA-256 of the frames (address,
-- function, offset of each, innermost first). The frames are the arrays, element 1 the
-- innermost; the view stack_frames has them one row each.
CREATE TABLE kma_fleet.stacks (
	stack_key	bytea PRIMARY KEY,
	depth		integer NOT NULL,
	folded		text NOT NULL,		-- functions outermost first joined by ';'
	addresses	bigint[] NOT NULL,	-- return addresses' 64 bits as signed integers
	functions	text[] NOT NULL,	-- NULL element: unresolved
	offsets		bigint[] NOT NULL	-- address - the function's; NULL: unresolved
);

-- A stack's frames one row each, address as '0x<hex>' (the rows of version 2's table).
CREATE VIEW kma_fleet.stack_frames AS
	SELECT s.stack_key, (f.n - 1)::integer AS depth, '0x' || to_hex(f.address) AS address,
	       f.function, f."offset"
	FROM kma_fleet.stacks AS s,
	     unnest(s.addresses, s.functions, s.offsets) WITH ORDINALITY
		AS f (address, function, "offset", n);

-- Per run and call site: report.db's callers, with the leak verdicts.
CREATE TABLE kma_fleet.callers (
	run_id		bigint NOT NULL,
	caller		text NOT NULL,		-- 'symbol+0xoffset' or '0x<hex>'
	address		text NOT NULL,
	module		text,
	symbol		text,
	file		text,
	line		bigint,
	total		bigint NOT NULL,
	slack		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL,
	failed_allocs	bigint NOT NULL,
	live		bigint NOT NULL,
	grew_generations bigint NOT NULL,
	max_growth_run	bigint NOT NULL,
	age_median	bigint,
	leak_class	text NOT NULL,
	leak_confidence	text NOT NULL,
	leak_why	text
) PARTITION BY LIST (run_id);

-- Per run and function (report.db's function_stats).
CREATE TABLE kma_fleet.functions (
	run_id		bigint NOT NULL,
	function	text NOT NULL,
	module		text,
	total		bigint NOT NULL,
	slack		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Per run and slab cache (report.db's cache_stats).
CREATE TABLE kma_fleet.caches (
	run_id		bigint NOT NULL,
	cache		text,
	total		bigint NOT NULL,
	slack		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Per run and task (report.db's task_stats); comm byte for byte.
CREATE TABLE kma_fleet.tasks (
	run_id		bigint NOT NULL,
	pid		bigint NOT NULL,
	comm		bytea,
	total		bigint NOT NULL,
	slack		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Per run and call stack (report.db's stack_stats); stack_key NULL: no stack.
CREATE TABLE kma_fleet.run_stacks (
	run_id		bigint NOT NULL,
	stack_key	bytea,
	total		bigint NOT NULL,
	slack		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL,
	live		bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Per run and generation (report.db's generations).
CREATE TABLE kma_fleet.generations (
	run_id		bigint NOT NULL,
	generation	bigint NOT NULL,
	ts		bigint NOT NULL,
	label		text NOT NULL,
	allocs		bigint NOT NULL,
	bytes		bigint NOT NULL,
	live		bigint NOT NULL,
	live_bytes	bigint NOT NULL,
	frees		bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Per run and timeline bin (report.db's timeline).
CREATE TABLE kma_fleet.timeline (
	run_id		bigint NOT NULL,
	bin		bigint NOT NULL,
	ts		bigint NOT NULL,
	width_ns	bigint NOT NULL,
	allocs		bigint NOT NULL,
	alloc_bytes	bigint NOT NULL,
	frees		bigint NOT NULL,
	free_bytes	bigint NOT NULL,
	live_bytes	bigint NOT NULL,
	live_max	bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Every allocation (kma-push --allocations only): report.db's view allocations, every
-- allocator's (kind); the columns a kind has not are NULL, as in the view.
CREATE TABLE kma_fleet.allocations (
	run_id		bigint NOT NULL,
	id		bigint NOT NULL,
	ptr		bigint NOT NULL,	-- the pointer's 64 bits as a signed integer
	caller		text NOT NULL,
	alloc_event	text NOT NULL,
	bytes_req	bigint,
	bytes_alloc	bigint NOT NULL,
	gfp_flags	bigint,
	node		bigint,
	cache		text,
	accounted	bigint,
	alloc_ts	bigint NOT NULL,
	alloc_cpu	bigint,
	pid		bigint NOT NULL,
	comm		bytea,
	generation	bigint NOT NULL,
	free_ts		bigint,
	free_cpu	bigint,
	free_pid	bigint,
	free_caller	text,
	free_kind	text,
	stack_key	bytea,
	free_stack_key	bytea,
	kmalloc_type	integer,		-- the kmalloc family (report.db's kmalloc_types.id)
	kind		text NOT NULL DEFAULT 'slab'	-- 'slab', 'page', 'percpu', 'vmalloc'
) PARTITION BY LIST (run_id);

-- Per run and allocator (report.db's kind_stats): slab always, page with --pages,
-- percpu and vmalloc when the trace has their events.
CREATE TABLE kma_fleet.kind_totals (
	run_id		bigint NOT NULL,
	kind		text NOT NULL,
	allocs		bigint NOT NULL,
	total		bigint NOT NULL,
	net		bigint NOT NULL,
	peak		bigint NOT NULL,
	peak_ts		bigint,
	live		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL,
	unknown_frees	bigint NOT NULL,
	null_frees	bigint NOT NULL,
	failed_allocs	bigint NOT NULL
) PARTITION BY LIST (run_id);

-- Per run, allocator and call site of the allocators beside slab (whose are in callers):
-- percpu and vmalloc from report.db's kind_callers, page by the caller function of its
-- allocations (page_alloc_rows, '[no stack]' without a stack).
CREATE TABLE kma_fleet.kind_callers (
	run_id		bigint NOT NULL,
	kind		text NOT NULL,
	caller		text NOT NULL,
	address		text,			-- '0x<hex>'; NULL: page (by function)
	total		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL,
	failed_allocs	bigint,			-- NULL: page (counted per run only)
	live		bigint NOT NULL
) PARTITION BY LIST (run_id);

-- version 4: kind keys
-- What kma-diff --kind page -g order|migrate|gfp|stack and kma-trend --kind K -k stack
-- read: a page allocation's order, migrate type, gfp flag names and folded stack
-- (report.db's page_shapes; NULL for the other kinds), and per run, allocator and call
-- stack the sums of the allocators beside slab. kma-push --init adds them to an older
-- store as these statements do.
ALTER TABLE kma_fleet.allocations ADD COLUMN page_order integer,
	ADD COLUMN migratetype integer,		-- -1: the event has none
	ADD COLUMN gfp text,			-- the flags as the kernel prints them
	ADD COLUMN page_stack text;		-- folded (page_shapes.stack); NULL: none

-- Per run, allocator (page, percpu, vmalloc) and call stack: stack_key a percpu or
-- vmalloc stack (kma_fleet.stacks), folded a page stack (report.db keeps its frames
-- folded only); both NULL: the allocations without a stack. frees as kind_callers'.
CREATE TABLE kma_fleet.kind_stacks (
	run_id		bigint NOT NULL,
	kind		text NOT NULL,
	stack_key	bytea,
	folded		text,
	total		bigint NOT NULL,
	net		bigint NOT NULL,
	allocs		bigint NOT NULL,
	frees		bigint NOT NULL,
	implicit_frees	bigint NOT NULL,
	live		bigint NOT NULL
) PARTITION BY LIST (run_id);
-- end of version 4: kind keys

-- The partition of TAB (one of the partitioned tables above) for RUN.
CREATE FUNCTION kma_fleet.add_run_partition(tab text, run bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	IF tab NOT IN ('callers', 'functions', 'caches', 'tasks', 'run_stacks', 'generations',
		       'timeline', 'allocations', 'kind_totals', 'kind_callers',
		       'kind_stacks') THEN
		RAISE EXCEPTION 'kma_fleet.add_run_partition: no such table %', tab;
	END IF;
	EXECUTE format('CREATE TABLE kma_fleet.%I PARTITION OF kma_fleet.%I FOR VALUES IN (%s)',
		       tab || '_r' || run, tab, run);
END $$;

-- A run removed: its partitions dropped, its runs and run_labels rows deleted. Stacks
-- no run names any more stay (kma_fleet.stacks is shared); delete them apart if wanted.
CREATE FUNCTION kma_fleet.drop_run(run bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	tab text;
BEGIN
	FOREACH tab IN ARRAY ARRAY['callers', 'functions', 'caches', 'tasks', 'run_stacks',
				   'generations', 'timeline', 'allocations', 'kind_totals',
				   'kind_callers', 'kind_stacks'] LOOP
		EXECUTE format('DROP TABLE IF EXISTS kma_fleet.%I', tab || '_r' || run);
	END LOOP;
	DELETE FROM kma_fleet.runs WHERE run_id = run;
END $$;
