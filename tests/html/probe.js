/*
 * Geometry probe for tests/t-html-layout.sh, put into a copy of an --html page
 * before its own scripts (tests/html/layout.py inject): it records what the
 * charts draw as text (each canvas's fillText calls since its last full clear,
 * with their boxes in CSS pixels) and, after the page loaded, writes as JSON
 * into the root element's data-probe attribute (read back from --dump-dom):
 *   view: the window's width and the page's scroll width
 *   texts: canvas id -> [[text, x0, y0, x1, y1], ...], and the canvas's size
 *   callers: the caller table's scroll box and, per body row, each cell's
 *            class, box and rendered text (innerText), and for the name cell
 *            the right edge of each word of its first visible text and the
 *            right edge of the box that clips it
 */
(function () {
	'use strict';
	var drawn = new Map();
	var P = CanvasRenderingContext2D.prototype, fill = P.fillText, clear = P.clearRect;

	P.clearRect = function (x, y, w, h) {
		if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height)
			drawn.set(this.canvas, []);
		return clear.apply(this, arguments);
	};
	P.fillText = function (text, x, y) {
		var m = this.measureText(text), t = this.getTransform(), c = this.canvas;
		var k = c.clientWidth / c.width || 1;
		var xs = [], ys = [];

		[[x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent],
		 [x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent],
		 [x - m.actualBoundingBoxLeft, y + m.actualBoundingBoxDescent],
		 [x + m.actualBoundingBoxRight, y - m.actualBoundingBoxAscent]].forEach(function (p) {
			xs.push((t.a * p[0] + t.c * p[1] + t.e) * k);
			ys.push((t.b * p[0] + t.d * p[1] + t.f) * k);
		});
		if (!drawn.has(c))
			drawn.set(c, []);
		drawn.get(c).push([String(text), Math.min.apply(null, xs), Math.min.apply(null, ys),
				   Math.max.apply(null, xs), Math.max.apply(null, ys)]);
		return fill.apply(this, arguments);
	};

	function box(e) {
		var r = e.getBoundingClientRect();

		return [r.left, r.top, r.right, r.bottom];
	}

	/* the right edge of the nearest ancestor up to stop (included) that clips */
	function clipRight(e, stop) {
		var right = Infinity;

		for (; e; e = e.parentElement) {
			if (getComputedStyle(e).overflowX !== 'visible')
				right = Math.min(right, e.getBoundingClientRect().right);
			if (e === stop)
				break;
		}
		return right;
	}

	function words(td) {
		var w = document.createTreeWalker(td, NodeFilter.SHOW_TEXT), n, r, out = [], i, j;

		while ((n = w.nextNode())) {
			r = document.createRange();
			r.selectNodeContents(n);
			if (n.textContent.trim() && r.getClientRects().length)
				break;
		}
		if (!n)
			return { words: [], clip: null };
		for (i = 0; i < n.textContent.length; i = j + 1) {
			j = n.textContent.indexOf(' ', i);
			if (j < 0)
				j = n.textContent.length;
			if (j > i) {
				r = document.createRange();
				r.setStart(n, i);
				r.setEnd(n, j);
				out.push([n.textContent.slice(i, j), r.getBoundingClientRect().right]);
			}
		}
		return { words: out, clip: clipRight(n.parentElement, td) };
	}

	function probe() {
		var out = { view: [innerWidth, document.documentElement.scrollWidth], texts: {} };
		var t = document.getElementById('kma-callers'), sb;

		drawn.forEach(function (v, c) {
			out.texts[c.id] = { size: [c.clientWidth, c.clientHeight], texts: v };
		});
		if (t) {
			sb = t.parentElement;
			out.callers = { box: box(sb), client: [sb.clientWidth, sb.scrollWidth], rows: [] };
			Array.prototype.forEach.call(t.tBodies[0].rows, function (tr) {
				out.callers.rows.push(Array.prototype.map.call(tr.cells, function (td) {
					var c = { cls: td.className, box: box(td), text: td.innerText };

					if (/c-name/.test(td.className))
						c.name = words(td);
					return c;
				}));
			});
		}
		document.documentElement.setAttribute('data-probe', JSON.stringify(out));
	}
	addEventListener('load', function () {
		probe();
		setTimeout(probe, 500);
	});
}());
