/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-html.js - the script of the kma-analyze --html page.
 * Reads the JSON of the script element #kma-data and builds the page. Names from
 * the trace (callers, caches, tasks, modules, labels) are data: they are only
 * ever set as textContent, never as markup. On success the body gets
 * data-kma="ok"; an error goes into #kma-errors (the tests look for both).
 */
(function () {
	'use strict';

	/*
	 * Integers from 2^53 on (byte sums reach 2^63 - 1) lose digits as doubles: such a
	 * value becomes a Number object whose text (String(), as cells show it) is the
	 * JSON's own digits and whose value in arithmetic and comparisons is the nearest
	 * double (charts, bars). Needs JSON.parse's source text (Chromium 114 on); a
	 * browser without it shows the doubles.
	 */
	function exact(k, v, ctx) {
		var n;

		if (typeof v !== 'number' || Number.isSafeInteger(v) || !ctx ||
		    !/^[0-9]+$/.test(ctx.source))
			return v;
		n = new Number(v);	/* eslint-disable-line no-new-wrappers */
		n.toString = function () { return ctx.source; };
		return n;
	}

	var D = JSON.parse(document.getElementById('kma-data').textContent, exact);
	var app = document.getElementById('kma-app');
	var nrCharts = 0;
	var COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b',
		      '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

	/* An element with attributes and text; the text is never parsed as HTML. */
	function el(tag, attrs, text) {
		var e = document.createElement(tag), k;

		for (k in attrs || {})
			e.setAttribute(k, attrs[k]);
		if (text !== undefined && text !== null)
			e.textContent = String(text);
		return e;
	}

	function add(parent, child) {
		parent.appendChild(child);
		return child;
	}

	function bytes(n) {
		var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;

		while (n >= 1024 && i < u.length - 1) {
			n /= 1024;
			i++;
		}
		return (i ? n.toFixed(1) : String(n)) + ' ' + u[i];
	}

	// rounded half up to the microsecond, as kma's text and trace-cmd print times
	function secs(ns) {
		var us = Math.round(ns / 1000), f = String(us % 1e6);

		return Math.floor(us / 1e6) + '.' + '000000'.slice(f.length) + f + ' s';
	}

	function dur(ns) {
		if (ns < 1000)
			return ns + ' ns';
		if (ns < 1e6)
			return (ns / 1e3) + ' us';
		if (ns < 1e9)
			return (ns / 1e6) + ' ms';
		return (ns / 1e9) + ' s';
	}

	function section(id, title) {
		var s = add(app, el('section', { id: id }));

		add(s, el('h2', null, title));
		return s;
	}

	/*
	 * A table in a box that scrolls sideways (and down, when max-height is set by
	 * its class): on a narrow window a wide table scrolls inside the box instead of
	 * widening the page.
	 */
	function scrollBox(parent) {
		return add(parent, el('div', { 'class': 'kma-scroll' }));
	}

	/* A plain table: head is a list of column names, rows lists of cells. */
	function table(parent, id, head, rows, numeric) {
		var t = add(scrollBox(parent), el('table', { id: id, 'class': 'kma-table' }));
		var tr = add(add(t, el('thead')), el('tr')), tb = add(t, el('tbody'));

		head.forEach(function (h, i) {
			add(tr, el('th', numeric && numeric[i] ? { 'class': 'num' } : null, h));
		});
		rows.forEach(function (r) {
			var row = add(tb, el('tr'));

			r.forEach(function (c, i) {
				add(row, el('td', numeric && numeric[i] ? { 'class': 'num' } : null, c));
			});
		});
		return t;
	}

	function style() {
		add(document.head, el('style', null,
			'body{font:14px sans-serif;margin:1em 2em;color:#222}' +
			'h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}' +
			'.kma-table{border-collapse:collapse;font-size:13px}' +
			'.kma-table td,.kma-table th{padding:2px 8px;border-bottom:1px solid #eee;text-align:left}' +
			'.kma-table .num{text-align:right;font-variant-numeric:tabular-nums}' +
			'.kma-table th{cursor:pointer;background:#f4f4f4;position:sticky;top:0}' +
			'.warn{background:#fff3cd;border:1px solid #e0c060;padding:6px 10px}' +
			'.chart{position:relative;height:320px;max-width:1200px}' +
			'.small{position:relative;height:240px;max-width:600px;display:inline-block;width:48%}' +
			'#kma-flame{position:relative;max-width:1200px;font:11px monospace}' +
			'.kma-frame{position:absolute;height:17px;overflow:hidden;white-space:nowrap;' +
			'box-sizing:border-box;border:1px solid #fff;cursor:pointer;padding:0 3px;' +
			'background:#f2a65a}' +
			'.kma-frame:hover{background:#e8743b}' +
			'.controls{margin:6px 0}.controls *{margin-right:8px}' +
			'#kma-errors{color:#b00;white-space:pre}' +
			'[hidden]{display:none!important}.kma-scroll{overflow:auto;max-width:100%}' +
			'#kma-callers-box{max-height:80vh}' +
			'#kma-callers td,#kma-callers th{padding:2px 6px}' +
			'.kma-stack{white-space:nowrap}' +
			'.kma-short{display:inline-block;max-width:21em;overflow:hidden;' +
			'text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}' +
			'.kma-frames{font:12px monospace;white-space:nowrap;overflow-x:auto}' +
			'.kma-fold{font-size:11px;margin-left:4px;padding:0 4px;cursor:pointer}'));
	}

	/* --- summary ------------------------------------------------------ */
	function summary() {
		var s = section('kma-summary', 'Summary'), m = D.summary;
		// a --caller/--cache filter cannot select them: the whole trace's
		var whole = D.filter && m.unknown_frees_scope === 'trace' ? ' (whole trace)' : '';
		var rows = [
			['total bytes allocated', m.total, 'total'],
			['slack bytes allocated', m.slack, 'slack'],
			['net bytes allocated', m.net, 'net'],
			['number of allocs', m.allocs, 'allocs'],
			['number of frees', m.frees, 'frees'],
			['number of callers', m.callers, 'callers'],
			['number of unknown frees' + whole, m.unknown_frees, 'unknown_frees'],
			['number of null frees' + whole, m.null_frees, 'null_frees'],
			['number of implicit frees', m.implicit_frees, 'implicit_frees'],
			['number of failed allocs', m.failed_allocs, 'failed_allocs'],
			['number of lost events', m.lost_events, 'lost_events'],
			['peak of net bytes', D.peak.bytes, 'peak'],
		];
		var t = add(s, el('table', { 'class': 'kma-table' })), tb = add(t, el('tbody'));

		rows.forEach(function (r) {
			var tr = add(tb, el('tr'));

			add(tr, el('td', null, r[0]));
			add(tr, el('td', { 'class': 'num', id: 'sum-' + r[2] }, r[1]));
			add(tr, el('td', null, r[2] === 'callers' || /number/.test(r[0]) ? '' : bytes(r[1])));
		});
		add(s, el('p', null, 'Trace ' + D.file + (D.release ? ', kernel ' + D.release : '') +
			  ', ' + D.cpus + ' CPUs, ' + D.events + ' events over ' +
			  secs(D.last_ts - D.first_ts) + '; peak at ' +
			  secs(Math.max(D.peak.ts - D.first_ts, 0)) + '.'));
		if (D.filter)
			add(s, el('p', null, 'Filter: ' + D.filter));
		if (m.lost_events || m.lost_unknown_pages) {
			var w = 'WARNING: the trace lost ' + m.lost_events + ' events';

			if (m.lost_unknown_pages)
				w += ', and more on ' + m.lost_unknown_pages +
				     ' buffer pages that do not say how many';
			w += '. Frees of lost allocations count as unknown frees, and net includes ' +
			     'allocations whose free was lost. Record with a bigger buffer (-b) to avoid it.';
			add(s, el('p', { 'class': 'warn', id: 'kma-lost-warning' }, w));
		}
	}

	/* --- charts --------------------------------------------------------- */
	var T = D.timeline;

	function binX(i) {	/* seconds from the trace start, at the end of bin i */
		return (T.start + (i + 1) * T.width - D.first_ts) / 1e9;
	}

	/*
	 * A free place for a label of width w at line px: right of the line, or left
	 * of it where the right runs out of the chart, on the first of LABEL_ROWS rows
	 * where it overlaps no label already placed; null if none is free.
	 */
	var LABEL_ROWS = 4, LABEL_H = 12;

	function labelPlace(rows, px, w, area) {
		var x = px + 3 + w <= area.right ? px + 3 : px - 3 - w, r;
		var free = function (b) { return x + w + 2 <= b[0] || b[1] + 2 <= x; };

		if (x < area.left)
			x = area.left;
		for (r = 0; r < LABEL_ROWS; r++) {
			rows[r] = rows[r] || [];
			if (rows[r].every(free)) {
				rows[r].push([x, x + w]);
				return { x: x, y: area.top + 2 + LABEL_H * r };
			}
		}
		return null;
	}

	/*
	 * Generation marks and the peak as labelled vertical lines (Chart.js has none).
	 * Labels never overlap: each takes the first free row (labelPlace); the peak's
	 * is placed first, and a label with no free place is left out (its line stays;
	 * the generations table lists every marker).
	 */
	var markers = {
		id: 'kmaMarkers',
		afterDatasetsDraw: function (chart) {
			var x = chart.scales.x, area = chart.chartArea, ctx = chart.ctx;
			var marks = D.generations.slice(1).map(function (g) {
				return { t: (g[1] - D.first_ts) / 1e9, label: g[2], color: '#555' };
			});
			var rows = [];

			if (chart.options.kmaPeak && D.peak.bytes)
				marks.push({ t: (D.peak.ts - D.first_ts) / 1e9, label: 'peak', color: '#d00' });
			/* many markers: fainter lines, and at most about 30 labels */
			var every = Math.ceil(marks.length / 30), many = marks.length > 30;

			marks.sort(function (a, b) { return a.t - b.t; });
			marks.forEach(function (m, i) {
				m.px = x.getPixelForValue(m.t);
				m.shown = m.px >= area.left && m.px <= area.right;
				m.named = m.shown && (!many || !(i % every) || m.color === '#d00');
			});
			ctx.save();
			ctx.setLineDash([4, 3]);
			marks.forEach(function (m) {
				if (!m.shown)
					return;
				ctx.globalAlpha = many && m.label !== 'peak' ? 0.25 : 1;
				ctx.strokeStyle = m.color;
				ctx.beginPath();
				ctx.moveTo(m.px, area.top);
				ctx.lineTo(m.px, area.bottom);
				ctx.stroke();
			});
			ctx.globalAlpha = 1;
			ctx.font = '11px sans-serif';
			ctx.textBaseline = 'top';
			marks.filter(function (m) { return m.named && m.color === '#d00'; })
			     .concat(marks.filter(function (m) { return m.named && m.color !== '#d00'; }))
			     .forEach(function (m) {
				var p = labelPlace(rows, m.px, ctx.measureText(m.label).width, area);

				if (!p)
					return;
				ctx.fillStyle = m.color;
				ctx.fillText(m.label, p.x, p.y);
			});
			ctx.restore();
		},
	};

	function chart(parent, id, cls, config) {
		var box = add(parent, el('div', { 'class': cls }));
		var c = add(box, el('canvas', { id: id }));

		config.options = Object.assign({ animation: false, maintainAspectRatio: false,
						 responsive: true }, config.options || {});
		new Chart(c.getContext('2d'), config);	/* eslint-disable-line no-new */
		nrCharts++;
		return c;
	}

	/*
	 * The trace's time, first to last event, in seconds; the ticks in the unit that
	 * suits the span, so that a short trace does not read 1.000000E-6.
	 */
	function xAxis() {
		var max = Math.max((D.last_ts - D.first_ts) / 1e9, binX(0));
		var u = max >= 1 ? [1, 's'] : max >= 1e-3 ? [1e3, 'ms'] : [1e6, 'us'];

		return { type: 'linear', min: 0, max: max,
			 ticks: { callback: function (v) { return String(+(v * u[0]).toPrecision(6)); } },
			 title: { display: true, text: u[1] + ' from the trace start' } };
	}

	/*
	 * A y axis of bytes: ticks at a round step (1, 2 or 5 times a power of ten) of
	 * the binary unit that suits the largest value, labelled in it ("50 KiB", not
	 * 51,200). The step is set after the data's limits are known, and the top
	 * raised to a whole number of steps.
	 */
	var UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

	function byteTicks(axis) {
		var k = 0, u = 1, m, p, step;

		if (!(axis.min >= 0) || !(axis.max > 0))
			return;
		while (k < UNITS.length - 1 && axis.max >= u * 1024) {
			u *= 1024;
			k++;
		}
		m = axis.max / u / 6;
		p = Math.pow(10, Math.floor(Math.log10(m)));
		step = (m <= p ? 1 : m <= 2 * p ? 2 : m <= 5 * p ? 5 : 10) * p;
		if (!k && step < 1)
			step = 1;	/* bytes are whole */
		axis.kmaUnit = [u, UNITS[k], step];
		axis.min = 0;
		axis.max = Math.ceil(axis.max / u / step - 1e-9) * step * u;
	}

	function bytesAxis(title) {
		return {
			afterDataLimits: byteTicks,
			afterBuildTicks: function (axis) {
				var b = axis.kmaUnit, i, n;

				if (!b)
					return;
				n = Math.round(axis.max / b[0] / b[2]);
				axis.ticks = [];
				for (i = 0; i <= n; i++)
					axis.ticks.push({ value: i * b[2] * b[0] });
			},
			ticks: {
				callback: function (v) {
					var b = this.kmaUnit;

					return b ? +(v / b[0]).toPrecision(12) + ' ' + b[1] : bytes(v);
				},
			},
			title: { display: !!title, text: title },
		};
	}

	function xy(arr, scale) {
		return arr.map(function (v, i) {
			return { x: binX(i), y: v * (scale || 1) };
		});
	}

	function timeCharts() {
		var s = section('kma-time', 'Live bytes over time');
		var sets = [{ label: 'total live', data: xy(T.live), borderColor: '#000',
			      borderWidth: 2, pointRadius: 0 }];

		T.series.forEach(function (se, i) {
			sets.push({ label: se.name, data: xy(se.live), borderWidth: 1, pointRadius: 0,
				    borderColor: COLORS[i % COLORS.length] });
		});
		if (D.peak.bytes)
			sets.push({ label: 'peak ' + bytes(D.peak.bytes), type: 'scatter', pointRadius: 5,
				    borderColor: '#d00', backgroundColor: '#d00',
				    data: [{ x: (D.peak.ts - D.first_ts) / 1e9, y: D.peak.bytes }] });
		add(s, el('p', null, 'Bins of ' + dur(T.width) + ' (' + T.live.length + ' bins); ' +
			  'the top callers by net bytes, the rest as [other]; dashed lines: ' +
			  'generation markers and the peak.'));
		chart(s, 'kma-chart-live', 'chart', {
			type: 'line', data: { datasets: sets }, plugins: [markers],
			options: { kmaPeak: true, parsing: false, normalized: true,
				   scales: { x: xAxis(),
					     y: bytesAxis('live bytes') } },
		});
		add(s, el('h2', null, 'Allocation and free rates'));
		chart(s, 'kma-chart-rate', 'chart', {
			type: 'line', plugins: [markers],
			data: { datasets: [
				{ label: 'allocations/s', data: xy(T.allocs, 1e9 / T.width),
				  borderColor: '#1f77b4', pointRadius: 0, borderWidth: 1 },
				{ label: 'frees/s', data: xy(T.frees, 1e9 / T.width),
				  borderColor: '#d62728', pointRadius: 0, borderWidth: 1 }] },
			options: { parsing: false, normalized: true,
				   scales: { x: xAxis() } },
		});
	}

	/*
	 * "Live pages over time" (D.pages: kma-analyze --pages's totals and its own
	 * bins, in pages, from the first page event); no page events, no D.pages, no section.
	 */
	function pageCharts() {
		var P = D.pages, s = section('kma-pages', 'Live pages over time');
		var pX = function (i) { return (P.start + (i + 1) * P.width - D.first_ts) / 1e9; };
		var pxy = function (arr, scale) {
			return arr.map(function (v, i) { return { x: pX(i), y: v * (scale || 1) }; });
		};
		var sets = [{ label: 'total live pages', data: pxy(P.live), borderColor: '#000',
			      borderWidth: 2, pointRadius: 0 }];

		/* a filtered --pages report's line: the section counts what it counts */
		if (P.filter)
			add(s, el('p', { id: 'kma-pages-filter' }, 'Counted: ' + P.filter));
		table(s, 'kma-pages-summary', ['allocations', 'pages allocated', 'pages freed',
			'pages live', 'live bytes', 'peak pages', 'failed', 'unknown frees'],
		      [[P.allocs, P.pages_alloc, P.pages_freed, P.pages_live,
			bytes(P.pages_live * P.page_size), P.peak_pages, P.failed,
			String(P.unknown_frees) + ' (' + String(P.unknown_pages) + ' pages)'].map(String)],
		      [1, 1, 1, 1, 1, 1, 1, 1]);
		if (!P.live.length)
			return;
		P.series.forEach(function (se, i) {
			sets.push({ label: se.name, data: pxy(se.live), borderWidth: 1, pointRadius: 0,
				    borderColor: COLORS[i % COLORS.length] });
		});
		add(s, el('p', null, 'Pages of ' + bytes(P.page_size) + '; bins of ' + dur(P.width) +
			  ' (' + P.live.length + ' bins) from the first page event; the top ' +
			  (P.series_by === 'function' ? 'caller functions (first stack frame ' +
			   'outside the page allocator)' : 'tasks') + ' by live pages at the end, ' +
			  'the rest as [other]; dashed lines: generation markers.'));
		chart(s, 'kma-chart-pages', 'chart', {
			type: 'line', data: { datasets: sets }, plugins: [markers],
			options: { parsing: false, normalized: true,
				   scales: { x: xAxis(), y: { title: { display: true, text: 'pages' } } } },
		});
		add(s, el('h2', null, 'Page allocation and free rates'));
		chart(s, 'kma-chart-page-rate', 'chart', {
			type: 'line', plugins: [markers],
			data: { datasets: [
				{ label: 'pages allocated/s', data: pxy(P.alloc_pages, 1e9 / P.width),
				  borderColor: '#1f77b4', pointRadius: 0, borderWidth: 1 },
				{ label: 'pages freed/s', data: pxy(P.free_pages, 1e9 / P.width),
				  borderColor: '#d62728', pointRadius: 0, borderWidth: 1 }] },
			options: { parsing: false, normalized: true, scales: { x: xAxis() } },
		});
	}

	/*
	 * "Kernel memory by allocator" (D.kinds: more than one allocator allocated): each
	 * one's sums as the text report's table has them, their live bytes over time
	 * stacked in one chart, and the percpu and vmalloc callers. Each allocator has bins
	 * of its own (from its first event): the chart's points are the ends of all of
	 * them, where each allocator holds the live bytes at the end of its last bin ended
	 * by then (0 before its first).
	 */
	function kindCharts() {
		var K = D.kinds, s = section('kma-kinds', 'Kernel memory by allocator');
		var xs = [], sets, top = 0;
		var end = function (k, i) { return k.start + (i + 1) * k.width; };

		table(s, 'kma-kinds-summary', ['kind', 'allocs', 'bytes', 'net', 'peak'],
		      K.map(function (k) {
			      return [k.kind, k.allocs, k.bytes, k.net, k.peak].map(String);
		      }), [0, 1, 1, 1, 1]);
		K.forEach(function (k) {
			k.live.forEach(function (v, i) { xs.push(end(k, i)); });
		});
		xs.sort(function (a, b) { return a - b; });
		xs = xs.filter(function (x, i) { return !i || x !== xs[i - 1]; });
		sets = K.map(function (k, n) {
			var j = -1, c = COLORS[n % COLORS.length];

			return { label: k.kind, fill: n ? '-1' : 'origin', pointRadius: 0,
				 borderWidth: 1, borderColor: c, backgroundColor: c + '99',
				 data: xs.map(function (x) {
					 while (j + 1 < k.live.length && end(k, j + 1) <= x)
						 j++;
					 return { x: (x - D.first_ts) / 1e9, y: j < 0 ? 0 : +k.live[j] };
				 }) };
		});
		sets.forEach(function (d) { top += d.data.length ? d.data[d.data.length - 1].y : 0; });
		add(s, el('p', null, 'Live bytes of each allocator, stacked; each allocator in ' +
			  'bins of its own from its first event, held between them.'));
		chart(s, 'kma-chart-kinds', 'chart', {
			type: 'line', data: { datasets: sets }, plugins: [markers],
			options: { scales: { x: xAxis(),
					     y: Object.assign(bytesAxis('live bytes'), { stacked: true }) } },
		}).setAttribute('aria-label', 'live bytes by allocator, stacked: ' +
				K.map(function (k) { return k.kind; }).join(', ') +
				'; at the end ' + top + ' bytes');
		K.forEach(function (k) {
			if (!k.callers)
				return;
			add(s, el('h3', null, k.kind + ' callers'));
			table(s, 'kma-kind-callers-' + k.kind, ['caller', 'address', 'total', 'net',
				'allocs', 'frees', 'implicit frees', 'live'],
			      k.callers.slice().sort(function (a, b) {
				      return b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
			      }).map(function (r) { return r.map(String); }),
			      [0, 0, 1, 1, 1, 1, 1, 1]);
		});
	}

	function kmallocName(n) {
		if (n > 8192)
			return 'kmalloc-large';
		return n >= 1024 ? 'kmalloc-' + (n / 1024) + 'k' : 'kmalloc-' + n;
	}

	function distCharts() {
		var s = section('kma-dist', 'Slack by size class, lifetimes');
		var lt = D.lifetimes.map(function (b, i) {
			return b[0] ? '< ' + dur(b[0]) : '>= ' + dur(D.lifetimes[i - 1][0]);
		});

		chart(s, 'kma-chart-slack', 'small', {
			type: 'bar', options: { scales: { y: bytesAxis('') } },
			data: { labels: D.slack.map(function (r) { return kmallocName(r[0]); }),
				datasets: [{ label: 'kmalloc slack bytes', backgroundColor: '#ff7f0e',
					     data: D.slack.map(function (r) { return r[3]; }) },
					   { label: 'kmalloc bytes', backgroundColor: '#9ecae1',
					     data: D.slack.map(function (r) { return r[2]; }) }] },
		});
		chart(s, 'kma-chart-life', 'small', {
			type: 'bar',
			data: { labels: lt, datasets: [{ label: 'freed allocations by lifetime',
				backgroundColor: '#2ca02c',
				data: D.lifetimes.map(function (b) { return b[1]; }) }] },
		});
	}

	/*
	 * "Kernel counters" (D.counters, kma-analyze --counters): the kernel's own
	 * snapshots beside the trace, the rows of --counters -f csv; untraced is what
	 * moved through paths with no kmem event. No --counters, no section.
	 */
	function countersTables() {
		var C = D.counters, s = section('kma-counters', 'Kernel counters beside the trace');
		var cells = function (r) {
			return r.map(function (v) { return v === null ? '-' : String(v); });
		};

		if (!C.snapshots.length)
			add(s, el('p', null, 'No kernel counter snapshots in this trace (kma-record ' +
				  'writes them).'));
		C.snapshots.forEach(function (x) {
			add(s, el('p', { 'class': 'kma-snapshot' }, x[0] + ' ' + x[1] + ' at ' +
				  secs(x[2] - D.first_ts) + (x[5] === null ? '' : ' (incomplete: ' +
				  x[5] + ')') + (x[4] ? '' : ': not used')));
		});
		if (C.slab.length) {
			add(s, el('p', null, 'Slab caches: active objects (kernel) beside ' +
				  'allocations - frees - implicit frees (trace); untraced = kernel delta ' +
				  '- trace delta: objects that moved without a kmem event (bulk ' +
				  'allocations and frees, kfree_rcu batches).'));
			table(s, 'kma-counters-slab', ['cache', 'state', 'merged into', 'objsize',
				'kernel start', 'kernel end', 'kernel delta', 'allocs', 'frees', 'implicit',
				'trace delta', 'untraced'], C.slab.map(cells),
			      [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
		}
		if (C.meminfo.length)
			table(s, 'kma-counters-meminfo', ['meminfo field', 'start bytes', 'end bytes',
				'kernel delta', 'trace slab delta', 'untraced'], C.meminfo.map(cells),
			      [0, 1, 1, 1, 1, 1]);
		if (C.allocinfo.length)
			table(s, 'kma-counters-allocinfo', ['allocinfo function', 'start bytes',
				'end bytes', 'kernel delta', 'calls delta', 'trace allocs', 'trace net',
				'untraced', 'tags'], C.allocinfo.map(cells), [0, 1, 1, 1, 1, 1, 1, 1, 1]);
	}

	/* continued in kma-report-html-view.js: the same function, closed there */
