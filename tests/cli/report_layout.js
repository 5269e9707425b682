/*
 * Layout check of an HTML report, run inside headless Chromium by
 * tests/cli/report_layout.sh (appended to a copy of the report: the
 * report itself has no script). It measures the laid-out boxes and
 * writes what it finds into a pre element (id layout-check) that
 * --dump-dom prints:
 *  - overlap: two siblings (figures, tables, cards, sections) whose
 *    boxes intersect;
 *  - overflow: a cell, table, figure, section or paragraph whose
 *    content is wider than its box (a nowrap cell in a fixed grid:
 *    "2.51 ktoken" cut, a table running into the next figure);
 *  - outside: a table, figure or caption wider than the figure or
 *    section that holds it;
 *  - text over text: two labels of one SVG figure that touch (a legend
 *    entry into the next, a tick label into another);
 *  - text outside its figure: a label cut by the SVG's edge;
 *  - page: the page wider than the window (a horizontal scroll bar).
 * One line per finding, "LAYOUT <width>" first and "END" last.
 */
(function () {
	var out = [], W = window.innerWidth;

	function box(e) {
		return e.getBoundingClientRect();
	}
	function name(e) {
		var s = e.tagName.toLowerCase(), t;

		if (e.id)
			s += '#' + e.id;
		if (typeof e.className === 'string' && e.className)
			s += '.' + e.className.split(' ').join('.');
		t = (e.textContent || '').replace(/\s+/g, ' ').trim();
		return s + ' "' + t.slice(0, 60) + '"';
	}
	function inter(a, b) {
		var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
		var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);

		return w > 1 && h > 1;
	}
	function shown(e) {
		var r = box(e);

		return r.width > 0 && r.height > 0 &&
			getComputedStyle(e).position !== 'absolute';
	}

	document.querySelectorAll('body, header, section, .figs, .cards, ' +
				  'figure, details, div').forEach(function (g) {
		var kids = Array.prototype.filter.call(g.children, shown);

		for (var i = 0; i < kids.length; i++)
			for (var j = i + 1; j < kids.length; j++)
				if (inter(box(kids[i]), box(kids[j])))
					out.push('overlap: ' + name(kids[i]) +
						 ' | ' + name(kids[j]));
	});
	document.querySelectorAll('td, th, table, figure, figcaption, ' +
				  'section, .card, p, li, h1, h2, h3, h4, ' +
				  'summary').forEach(function (e) {
		var p = e.parentElement, r = box(e), q;

		if (e.scrollWidth > e.clientWidth + 1 &&
		    getComputedStyle(e).overflowX !== 'auto')
			out.push('overflow: ' + name(e) + ' ' + e.scrollWidth +
				 ' > ' + e.clientWidth);
		if (p && (p.tagName === 'FIGURE' || p.tagName === 'SECTION')) {
			q = box(p);
			if (r.right > q.right + 1 || r.left < q.left - 1)
				out.push('outside: ' + name(e) + ' in ' +
					 name(p) + ' ' + Math.round(r.right) +
					 ' > ' + Math.round(q.right));
		}
	});
	document.querySelectorAll('svg').forEach(function (g) {
		var t = Array.prototype.map.call(g.querySelectorAll('text'),
						 function (e) {
			return [e, box(e)];
		}).filter(function (x) {
			return x[1].width > 0;
		});

		var g0 = box(g);

		for (var i = 0; i < t.length; i++)
			if (t[i][1].right > g0.right + 1 ||
			    t[i][1].left < g0.left - 1)
				out.push('text outside its figure: ' +
					 name(t[i][0]));
		for (var i = 0; i < t.length; i++)
			for (var j = i + 1; j < t.length; j++)
				if (inter(t[i][1], t[j][1]))
					out.push('text over text: ' +
						 name(t[i][0]) + ' | ' +
						 name(t[j][0]));
	});
	if (document.documentElement.scrollWidth > W + 1)
		out.push('page: ' + document.documentElement.scrollWidth +
			 ' wide at ' + W);

	var pre = document.createElement('pre');

	pre.id = 'layout-check';
	pre.textContent = 'LAYOUT ' + W + '\n' + out.join('\n') +
		(out.length ? '\n' : '') + 'END';
	document.body.appendChild(pre);
})();
