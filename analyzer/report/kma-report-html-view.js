/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-html-view.js - the second half of the --html page's script: the
 * view in the URL's hash, the caller table, generations, leaks, the icicle
 * graph and the start. It is compiled in right after kma-report-html.js as
 * one script (kma_html_app_js): it continues that file's function, whose
 * helpers (el, add, section, table, chart, D, T ...) it uses, and closes it.
 */
	/* --- the view in the URL's hash --------------------------------------
	 * page.html#group=function&sort=net&dir=asc&filter=pipe&zoom=a;b&weight=net
	 * is read at load (and when the hash is edited) and written back when the
	 * user changes the view, so that a URL reproduces what it shows. Values are
	 * percent-encoded (encodeURIComponent); an unknown key, a bad value or a
	 * bad %-escape is ignored, leaving that part of the view at its default.
	 * Only what differs from the default view is written.
	 */
	var HASH_KEYS = ['group', 'sort', 'dir', 'filter', 'zoom', 'weight'];
	var DEFAULT = { group: 'caller', sort: 'total', dir: 'desc', filter: '', zoom: '',
			weight: 'bytes' };
	var view = Object.assign({}, DEFAULT);
	var views = [];		/* each section's apply(): the view into its controls */

	/* The hash as key -> decoded value; a prototype-less object: keys are data. */
	function readHash() {
		var st = Object.create(null);

		(location.hash || '').replace(/^#/, '').split('&').forEach(function (kv) {
			var i = kv.indexOf('=');

			if (i <= 0)
				return;
			try {
				st[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
			} catch (e) {
				/* a malformed %-escape: that key is ignored */
			}
		});
		return st;
	}

	function stateString() {
		var parts = [];

		HASH_KEYS.forEach(function (k) {
			/* sort and dir go together: dir alone means nothing */
			var same = k === 'sort' || k === 'dir' ?
				view.sort === DEFAULT.sort && view.dir === DEFAULT.dir :
				view[k] === DEFAULT[k];

			if (!same)
				parts.push(k + '=' + encodeURIComponent(view[k]));
		});
		return parts.join('&');
	}

	/* After a user's change: the hash says the view (replaced, not a new history entry). */
	function writeHash() {
		var s = stateString(), h = s ? '#' + s : '';

		document.body.setAttribute('data-kma-state', s);
		if (h === location.hash || (!h && location.hash === '#'))
			return;
		try {
			history.replaceState(null, '', h || location.pathname + location.search);
		} catch (e) {
			location.hash = h;	/* hashchange then finds the view unchanged */
		}
		document.body.setAttribute('data-kma-hash', location.hash);
	}

	/* The hash's values into the view; each section checks its own keys. */
	function hashToView() {
		var st = readHash();

		view = Object.assign({}, DEFAULT);
		HASH_KEYS.forEach(function (k) {
			if (typeof st[k] === 'string')
				view[k] = st[k];
		});
		if (typeof st.dir !== 'string')
			view.dir = '';	/* the column's own: numbers down, names up */
		views.forEach(function (apply) { apply(); });
		document.body.setAttribute('data-kma-state', stateString());
		return st;
	}

	/* --- the caller table: any grouping, sortable, filterable ---------- */
	/*
	 * [key (the hash's sort=), index in a row, numeric, heading if not the key]; a
	 * heading with a space wraps, so that the numbers stay in view in a narrow window
	 */
	var COLS = [['name', 0, 0], ['address', 1, 0], ['total', 2, 1], ['slack', 3, 1],
		    ['slack_pct', 9, 1, 'slack%'], ['net', 4, 1], ['allocs', 5, 1], ['frees', 6, 1],
		    ['implicit_frees', 7, 1, 'implicit frees'], ['live', 8, 1]];
	var PCT = 4;	/* slack%: text with 3 decimals, null ("-") without bytes */
	var GROUPS = [['caller', 'caller'], ['function', 'function'], ['module', 'module'],
		      ['cache', 'cache'], ['comm', 'task'], ['stack', 'stack']];

	function colIndex(name) {
		var i;

		for (i = 0; i < COLS.length; i++)
			if (COLS[i][0] === name)
				return i;
		return -1;
	}

	function isGroup(g) {
		return Object.prototype.hasOwnProperty.call(D.groups, g);
	}

	/*
	 * Ascending order of two cells of column c: numbers as numbers (exactly), names by
	 * UTF-16 code unit (ASCII order for kernel symbols), addresses (lower-case
	 * hex without leading zeros, null outside the caller grouping) by length,
	 * then text, which is their numeric order.
	 */
	function cmpCell(c, x, y) {
		/* a percentage by its value (3 decimals: exact as a double), none lowest */
		if (c === PCT) {
			x = x === null ? -1 : parseFloat(x);
			y = y === null ? -1 : parseFloat(y);
		}
		/* a number past 2^53 (an object, see exact()) by its digits */
		if (c > 1 && (typeof x === 'object' || typeof y === 'object')) {
			x = BigInt(String(x));
			y = BigInt(String(y));
		}
		if (c === 1) {
			x = x || '';
			y = y || '';
			if (x.length !== y.length)
				return x.length - y.length;
		}
		return x < y ? -1 : x > y ? 1 : 0;
	}

	/* rows whose name contains f (lower case), by column key; ties by name, then address */
	function viewRows(all, f, key, desc) {
		var rows = all.filter(function (r) {
			return !f || r[0].toLowerCase().indexOf(f) >= 0;
		});

		return rows.sort(function (a, b) {
			var d = cmpCell(key, a[COLS[key][1]], b[COLS[key][1]]);

			return (desc ? -d : d) || cmpCell(0, a[0], b[0]) || cmpCell(1, a[1], b[1]);
		});
	}

	/* The view's group, sort and dir made valid (the defaults for bad ones); the sort column. */
	function validTableView() {
		var k = colIndex(view.sort);

		if (!isGroup(view.group))
			view.group = DEFAULT.group;
		/* the address is a column of the caller grouping only */
		if (k < 0 || (k === 1 && view.group !== 'caller')) {
			view.sort = DEFAULT.sort;
			view.dir = DEFAULT.dir;
			k = colIndex(view.sort);
		}
		if (view.dir !== 'asc' && view.dir !== 'desc')
			view.dir = COLS[k][2] ? 'desc' : 'asc';
		return k;
	}

	function groupOptions(sel) {
		GROUPS.forEach(function (g) {
			if (isGroup(g[0]))
				add(sel, el('option', { value: g[0] }, g[1]));
		});
	}

	function markSorted(head, key, desc) {
		COLS.forEach(function (c, i) {
			head.children[i].setAttribute('aria-sort', i !== key ? 'none' :
						      desc ? 'descending' : 'ascending');
		});
	}

	function emptyLine(sel, f) {
		return f ? 'No ' + sel.selectedOptions[0].textContent + ' name contains "' +
			view.filter + '" (the filter ignores case).' : 'No rows.';
	}

	/*
	 * A stack's name cell: the leaf end first ("leaf <- its caller"), cut to the
	 * cell's width so that the numbers stay in view, and a button that unfolds
	 * every frame, leaf first, one a line (folds again on a second click). The
	 * folded name (outermost first, as -f folded) is the cell's data-name; open
	 * holds the unfolded names across sorting and filtering.
	 */
	function stackCell(td, name, open) {
		var f = name.split(';').reverse();
		var short = add(td, el('span', { 'class': 'kma-short' },
					f.slice(0, 2).join(' \u2190 ')));
		var all, btn;

		td.setAttribute('data-name', name);
		td.className += ' kma-stack';
		short.title = f.join('\n');
		if (f.length < 3)
			return;		/* nothing more to show */
		btn = add(td, el('button', { 'class': 'kma-fold', type: 'button' }));
		all = add(td, el('div', { 'class': 'kma-frames' }));
		f.forEach(function (x) {
			add(all, el('div', null, x));
		});
		function show() {
			var o = !!open[name];

			short.hidden = o;
			all.hidden = !o;
			btn.textContent = o ? 'fold' : f.length + ' frames';
			btn.setAttribute('aria-expanded', String(o));
		}
		btn.addEventListener('click', function () {
			if (open[name])
				delete open[name];
			else
				open[name] = 1;
			show();
		});
		show();
	}

	function callers() {
		var s = section('kma-callers-section', 'Callers');
		var ctl = add(s, el('div', { 'class': 'controls' }));
		var sel = add(ctl, el('select', { id: 'kma-group' }));
		var filt = add(ctl, el('input', { id: 'kma-filter', type: 'search',
						  placeholder: 'filter by name' }));
		var info = add(ctl, el('span', { id: 'kma-count' }));
		var t = add(scrollBox(s), el('table', { id: 'kma-callers', 'class': 'kma-table' }));
		var head = add(add(t, el('thead')), el('tr')), body = add(t, el('tbody'));
		var empty = add(s, el('p', { id: 'kma-empty', hidden: '' }));
		var key = 2, desc = true, open = Object.create(null);

		t.parentNode.id = 'kma-callers-box';
		groupOptions(sel);
		COLS.forEach(function (c, i) {
			var th = add(head, el('th', { 'class': c[2] ? 'num' : '', 'data-col': c[0] },
					      c[3] || c[0]));

			/* a click sorts by the column; again, the other way */
			th.addEventListener('click', function () {
				desc = key === i ? !desc : !!c[2];
				key = i;
				view.sort = c[0];
				view.dir = desc ? 'desc' : 'asc';
				render();
				writeHash();
			});
		});

		function render() {
			var g = view.group, f = view.filter.toLowerCase();
			var rows = viewRows(D.groups[g], f, key, desc);

			body.textContent = '';
			head.children[1].style.display = g === 'caller' ? '' : 'none';
			rows.forEach(function (r) {
				var tr = add(body, el('tr', { 'class': 'kma-row' }));

				COLS.forEach(function (c) {
					var stack = c[0] === 'name' && g === 'stack';
					var v = c[0] === 'slack_pct' && r[9] === null ? '-' : r[c[1]];
					var td = add(tr, el('td', { 'class': (c[2] ? 'num ' : '') + 'c-' + c[0] },
							    stack ? null : v));

					if (c[0] === 'address' && g !== 'caller')
						td.style.display = 'none';
					if (stack)
						stackCell(td, r[0], open);
				});
			});
			markSorted(head, key, desc);
			info.textContent = rows.length + ' of ' + D.groups[g].length + ' rows';
			empty.textContent = rows.length ? '' : emptyLine(sel, f);
			empty.hidden = rows.length > 0;
			t.setAttribute('data-group', g);
		}

		/* the view's group, sort, dir and filter, where valid, into the controls */
		function apply() {
			key = validTableView();
			desc = view.dir === 'desc';
			sel.value = view.group;
			filt.value = view.filter;
			render();
		}
		views.push(apply);
		sel.addEventListener('change', function () {
			if (!isGroup(sel.value))
				return;
			view.group = sel.value;
			if (key === 1 && view.group !== 'caller') {
				view.sort = '';		/* apply() puts the default order back */
				apply();
			} else {
				render();
			}
			writeHash();
		});
		filt.addEventListener('input', function () {
			view.filter = filt.value;
			render();
			writeHash();
		});
	}

	/* --- generations, leaks, leftovers --------------------------------- */
	function generations() {
		var s = section('kma-generations', 'Generations');

		add(s, el('p', null, 'Each marker starts a generation; "still live" is what the ' +
			  'allocations made in it still held at the end of the trace.'));
		var top = {};

		D.gen_live.forEach(function (e) {
			(top[e[0]] = top[e[0]] || []).push(e[1] + ' ' + String(e[3]) + ' B/' +
							     String(e[2]));
		});
		table(s, 'kma-gen-table', ['generation', 'label', 'start', 'allocs', 'bytes',
					  'still live', 'still live bytes', 'frees',
					  'still live by caller (bytes/allocations, top 5)'],
		      D.generations.map(function (g) {
			      return [g[0], g[2], secs(g[1] - D.first_ts), g[3], g[4], g[5], g[6], g[7],
				      (top[g[0]] || []).join('; ')];
		      }), [1, 0, 1, 1, 1, 1, 1, 1, 0]);
	}

	function leaks() {
		var s;

		if (D.leaks.length) {
			s = section('kma-leaks', 'Leak suspects');
			table(s, 'kma-leak-table', ['caller', 'class', 'confidence', 'net', 'live', 'why'],
			      D.leaks.slice().sort(function (a, b) { return b[3] - a[3]; }),
			      [0, 0, 0, 1, 1, 0]);
		}
		if (D.leftovers.length) {
			s = section('kma-leftovers', 'Module leftovers');
			table(s, 'kma-leftover-table', ['module', 'caller', 'left at unload', 'bytes',
							'still live', 'still live bytes'],
			      D.leftovers, [0, 0, 1, 1, 1, 1]);
		}
	}

	/* --- flame graph (icicle) of the stacks ---------------------------- */
	var WEIGHTS = [['bytes', 2, 'bytes allocated'], ['net', 4, 'net bytes'],
		       ['allocs', 5, 'allocations']];

	/* a node per frame path (outermost first, joined by ';' as -f folded) */
	function flameTree(rows, weight) {
		var root = { name: 'all', v: 0, kids: Object.create(null), path: '' };

		rows.forEach(function (r) {
			var n = root, v = r[weight];

			if (!v)
				return;
			root.v += v;
			r[0].split(';').forEach(function (f) {
				if (!n.kids[f])
					n.kids[f] = { name: f, v: 0, kids: Object.create(null), up: n,
						      path: n.path ? n.path + ';' + f : f };
				n = n.kids[f];
				n.v += v;
			});
		});
		return root;
	}

	/*
	 * Zoomed on top: its ancestors full width above it (a click zooms out to
	 * one), top full width, its descendants in proportion; frames outside it
	 * are not drawn. A click on top itself zooms out one level.
	 */
	function flameDraw(box, top, zoomTo) {
		var depth = 0, total = top.v || 1, chain = [], a;

		box.textContent = '';
		function put(n, x, pct, d, cls) {
			var e = add(box, el('div', { 'class': cls, 'data-path': n.path,
						 title: n.name + ': ' + n.v }, n.name));

			e.style.left = x + '%';
			e.style.width = pct + '%';
			e.style.top = (d * 18) + 'px';
			e.addEventListener('click', function () {
				zoomTo(n === top && n.up ? n.up : n);
			});
			if (d > depth)
				depth = d;
		}
		function frame(n, x, d) {
			var pct = 100 * n.v / total;

			if (pct < 0.1)
				return;
			put(n, x, pct, d, 'kma-frame');
			Object.keys(n.kids).sort().forEach(function (k) {
				frame(n.kids[k], x, d + 1);
				x += 100 * n.kids[k].v / total;
			});
		}
		for (a = top.up; a; a = a.up)
			chain.unshift(a);
		chain.forEach(function (n, d) {
			put(n, 0, 100, d, 'kma-frame kma-anc');
		});
		frame(top, 0, chain.length);
		box.style.height = ((depth + 1) * 18) + 'px';
	}

	function flame() {
		var rows = D.groups.stack, root, s, box, weight;

		if (!rows)
			return;
		s = section('kma-flame-section', 'Call stacks (icicle; click a frame to zoom)');
		var ctl = add(s, el('div', { 'class': 'controls' }));
		var w = add(ctl, el('select', { id: 'kma-flame-weight' }));

		WEIGHTS.forEach(function (x) {
			add(w, el('option', { value: x[0] }, x[2]));
		});
		box = add(s, el('div', { id: 'kma-flame' }));

		function find(path) {
			var n = root;

			if (path)
				path.split(';').every(function (f) {
					n = n.kids[f];
					return n;
				});
			return n || null;
		}

		function zoomTo(n) {
			view.zoom = n.path;
			flameDraw(box, n, zoomTo);
			writeHash();
		}

		/* the view's weight and zoom, where valid (the frame exists), into the graph */
		function apply() {
			var k = WEIGHTS.filter(function (x) { return x[0] === view.weight; })[0], n;

			if (!k) {
				view.weight = DEFAULT.weight;
				k = WEIGHTS[0];
			}
			w.value = k[0];
			weight = k[1];
			root = flameTree(rows, weight);
			n = find(view.zoom);
			if (!n) {
				view.zoom = '';
				n = root;
			}
			flameDraw(box, n, zoomTo);
		}
		views.push(apply);
		w.addEventListener('change', function () {
			view.weight = w.value;
			apply();
			writeHash();
		});
	}

	/*
	 * Tests only (chromium --dump-dom cannot click): #test-group=G,
	 * #test-filter=TEXT and #test-click=th:COL,frame:PATH,fold:STACK,... set the control
	 * and dispatch the change, input and click events a user's choice, typing
	 * and clicks dispatch, in that order, so the same handlers run.
	 */
	function testHook(st) {
		var sel = document.getElementById('kma-group');
		var filt = document.getElementById('kma-filter');

		if (typeof st['test-group'] === 'string') {
			sel.value = st['test-group'];
			sel.dispatchEvent(new Event('change', { bubbles: true }));
		}
		if (typeof st['test-filter'] === 'string') {
			filt.value = st['test-filter'];
			filt.dispatchEvent(new Event('input', { bubbles: true }));
		}
		(st['test-click'] || '').split(',').forEach(function (c) {
			var i = c.indexOf(':'), what = c.slice(0, i), arg = c.slice(i + 1);
			var q = what === 'th' ? ['#kma-callers th', 'data-col'] :
				what === 'frame' ? ['#kma-flame .kma-frame', 'data-path'] :
				what === 'fold' ? ['#kma-callers td.kma-stack', 'data-name'] : null;

			if (!q)
				return;
			Array.prototype.some.call(document.querySelectorAll(q[0]), function (e) {
				if (e.getAttribute(q[1]) !== arg)
					return false;
				e = what === 'fold' ? e.querySelector('.kma-fold') : e;
				if (e)
					e.click();
				return true;
			});
		});
	}

	style();
	app.textContent = '';
	document.title = 'kma: ' + D.file;
	add(app, el('h1', null, 'kma report: ' + D.file));
	summary();
	if (D.kinds)
		kindCharts();
	if (T.live.length) {
		timeCharts();
	}
	if (D.pages)
		pageCharts();
	if (D.counters)
		countersTables();
	distCharts();
	callers();
	generations();
	leaks();
	flame();
	testHook(hashToView());
	window.addEventListener('hashchange', hashToView);
	document.body.setAttribute('data-kma-charts', String(nrCharts));
	document.body.setAttribute('data-kma', 'ok');
}());
