/*
 * Run inside headless Chromium by tests/cli/report_keys_nowrap.sh: every
 * name cell of the HTML report (workload, op, metric, source and
 * pattern cells: td.wl, the key columns of the odd-one-out tables, the
 * patterns, the matrix's source labels) is checked for a line that ends
 * at a '-' inside the name (issue 35 QA: "h100-" / "lab"). A line may
 * end after a '/' of a workload key or at a space between names, never
 * at a hyphen. One line per finding in pre#keys-check, "KEYS <width>"
 * first and "END" last.
 */
(function () {
	var out = [], W = window.innerWidth, cells = [];

	function add(list) {
		for (var i = 0; i < list.length; i++)
			cells.push(list[i]);
	}
	add(document.querySelectorAll('td.wl'));
	/* the odd one out: workload, op, metric, roofline violated by */
	add(document.querySelectorAll('table.keys td:nth-child(-n+3)'));
	add(document.querySelectorAll('table.keys td:nth-child(6)'));
	add(document.querySelectorAll('table.patterns td:first-child'));
	add(document.querySelectorAll('table.matrix td:first-child, table.matrix th'));
	cells.forEach(function (td) {
		var walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
		var chars = [], n, r;

		while ((n = walk.nextNode()))
			for (var i = 0; i < n.data.length; i++)
				chars.push([n, i]);
		for (var k = 0; k + 1 < chars.length; k++) {
			var c = chars[k][0].data[chars[k][1]], a, b;

			if (c !== '-')
				continue;
			r = document.createRange();
			r.setStart(chars[k][0], chars[k][1]);
			r.setEnd(chars[k][0], chars[k][1] + 1);
			a = r.getBoundingClientRect();
			r.setStart(chars[k + 1][0], chars[k + 1][1]);
			r.setEnd(chars[k + 1][0], chars[k + 1][1] + 1);
			b = r.getBoundingClientRect();
			if (b.height && a.height && b.top > a.top + a.height / 2) {
				out.push('broken at a hyphen: "' +
					 td.textContent.replace(/\s+/g, ' ').trim()
					 .slice(0, 80) + '"');
				break;
			}
		}
	});
	out.push('cells ' + cells.length);
	var pre = document.createElement('pre');

	pre.id = 'keys-check';
	pre.textContent = 'KEYS ' + W + '\n' + out.join('\n') + '\nEND\n';
	document.body.appendChild(pre);
})();
