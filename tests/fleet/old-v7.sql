-- A report.db as kma-analyze wrote it before the tables shape_totals, task_totals,
-- stack_totals and cache_totals and the column stacks.stack_key (added within version 7):
-- the tables and the column dropped and the views that read them made again with their
-- text of then, counting alloc_rows (kept here as it was released).
-- tests/t-fleet.sh pushes such a copy: kma-push must count its rows and hash its stacks
-- itself.
ALTER TABLE stacks DROP COLUMN stack_key;
DROP VIEW shape_counts;
DROP VIEW cache_stats;
DROP VIEW task_stats;
DROP VIEW sizing_advice;
DROP VIEW stack_stats;
DROP TABLE shape_totals;
DROP TABLE task_totals;
DROP TABLE stack_totals;
DROP TABLE cache_totals;

-- Allocations per shape: how many, still live, closed by a traced free, implicitly freed.
-- cache_stats and stack_stats start from it.
CREATE VIEW shape_counts AS
	SELECT shape_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live,
	       COUNT(CASE WHEN free_kind < 2 THEN 1 END) AS frees,
	       COUNT(CASE WHEN free_kind = 2 THEN 1 END) AS implicit_frees
	FROM alloc_rows GROUP BY shape_id;

-- cache_stats, task_stats and sizing_advice count alloc_rows per shape (and task) first,
-- then multiply by the shape's sizes and name the few groups: the same rows as summing
-- the view allocations. sizing_advice keeps only the rows of its shapes before sorting.
CREATE VIEW cache_stats AS
	WITH n AS (SELECT * FROM shape_counts),
	g AS (
		SELECT sh.cache_id AS cache_id, sh.bytes_alloc AS bytes_alloc,
		       sh.kmalloc_type AS kmalloc_type, SUM(n.allocs * sh.bytes_alloc) AS total,
		       SUM(n.allocs * (sh.bytes_alloc - sh.bytes_req)) AS slack,
		       SUM(n.live * sh.bytes_alloc) AS net, SUM(n.allocs) AS allocs,
		       SUM(n.frees) AS frees, SUM(n.implicit_frees) AS implicit_frees
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id
		GROUP BY sh.cache_id, sh.bytes_alloc, sh.kmalloc_type)
	SELECT CASE WHEN g.cache_id IS NOT NULL THEN k.name ELSE kc.name END AS cache,
	       SUM(g.total) AS total, SUM(g.slack) AS slack, SUM(g.net) AS net,
	       SUM(g.allocs) AS allocs, SUM(g.frees) AS frees,
	       SUM(g.implicit_frees) AS implicit_frees
	FROM g LEFT JOIN caches AS k ON k.id = g.cache_id
	LEFT JOIN kmalloc_caches AS kc
	ON kc.kmalloc_type = COALESCE(g.kmalloc_type, 0) AND kc.bytes_alloc = g.bytes_alloc
	GROUP BY 1;

CREATE VIEW task_stats AS
	WITH n AS (
		SELECT task_id, shape_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live,
		       COUNT(CASE WHEN free_kind < 2 THEN 1 END) AS frees,
		       COUNT(CASE WHEN free_kind = 2 THEN 1 END) AS implicit_frees
		FROM alloc_rows GROUP BY task_id, shape_id),
	g AS (
		SELECT n.task_id AS task_id, SUM(n.allocs * sh.bytes_alloc) AS total,
		       SUM(n.allocs * (sh.bytes_alloc - sh.bytes_req)) AS slack,
		       SUM(n.live * sh.bytes_alloc) AS net, SUM(n.allocs) AS allocs,
		       SUM(n.frees) AS frees, SUM(n.implicit_frees) AS implicit_frees
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id GROUP BY n.task_id)
	SELECT t.pid AS pid, t.comm AS comm, SUM(g.total) AS total, SUM(g.slack) AS slack,
	       SUM(g.net) AS net, SUM(g.allocs) AS allocs, SUM(g.frees) AS frees,
	       SUM(g.implicit_frees) AS implicit_frees
	FROM g JOIN tasks AS t ON t.id = g.task_id GROUP BY t.pid, t.comm;

-- Sizing advice: kmalloc slack per caller and (bytes_req, bytes_alloc). A dedicated
-- kmem_cache holds objects of bytes_req rounded up to 8 bytes (SLUB's minimum alignment).
CREATE VIEW sizing_advice AS
	WITH n AS (
		SELECT shape_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live
		FROM alloc_rows
		WHERE shape_id IN (SELECT id FROM alloc_shapes WHERE alloc_event IN (0, 1)
				   AND bytes_alloc > ((bytes_req + 7) / 8) * 8)
		GROUP BY shape_id),
	g AS (
		SELECT sh.caller_id AS caller_id, sh.bytes_req AS bytes_req,
		       sh.bytes_alloc AS bytes_alloc, sh.kmalloc_type AS kmalloc_type,
		       SUM(n.allocs) AS allocs, SUM(n.live) AS live
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id
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
-- ('[no stack]') for those without one. Counted per shape first, as cache_stats; slack as
-- the matcher counts it (never negative), so the sums are summary's total, slack, net,
-- allocs and implicit_frees, and frees adds up to trace.matched_frees (callers.frees).
CREATE VIEW stack_stats AS
	WITH n AS (SELECT * FROM shape_counts),
	g AS (
		SELECT sh.stack_id AS stack_id, SUM(n.allocs * sh.bytes_alloc) AS total,
		       SUM(n.allocs * MAX(sh.bytes_alloc - sh.bytes_req, 0)) AS slack,
		       SUM(n.live * sh.bytes_alloc) AS net, SUM(n.allocs) AS allocs,
		       SUM(n.frees) AS frees, SUM(n.implicit_frees) AS implicit_frees,
		       SUM(n.live) AS live
		FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id GROUP BY sh.stack_id)
	SELECT g.stack_id AS stack_id, COALESCE(s.folded, '[no stack]') AS folded,
	       g.total AS total, g.slack AS slack, g.net AS net, g.allocs AS allocs,
	       g.frees AS frees, g.implicit_frees AS implicit_frees, g.live AS live
	FROM g LEFT JOIN stacks AS s ON s.id = g.stack_id;
