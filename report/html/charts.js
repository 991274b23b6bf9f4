/*
 * charts.js - the page's charts, drawn as SVG with axis labels and units:
 * stacked bars per rank (binned above CHART_BARS ranks, so the page never
 * holds a node per rank per metric), a heatmap of a rank-by-rank matrix
 * (blocks of ranks above MATRIX_CELLS ranks a side), and a line chart.
 * Colours come from the style sheet's variables, for light and dark.
 */
'use strict';

const CHART_BARS = 512;
const MATRIX_CELLS = 128;

function axisLabel(s, x, y, text, rotate) {
	s.appendChild(svgText(x, y, text, rotate ?
		{ class: 'axis-label', transform: `rotate(-90 ${x} ${y})`, 'text-anchor': 'middle' } :
		{ class: 'axis-label', 'text-anchor': 'middle' }));
}

/*
 * Stacked bars: items [{ label, parts: [v...] }], parts named by names,
 * coloured by classes; unit for the axis; marks: text over the bars of
 * some labels.  Above CHART_BARS items, each bar is the mean of a bin of
 * consecutive items, labelled by its range.
 */
function stackedBars(box, items, names, classes, unit, marks, what = 'rank') {
	const bins = [];
	const per = Math.ceil(items.length / CHART_BARS);

	for (let i = 0; i < items.length; i += per) {
		const slice = items.slice(i, i + per);

		bins.push({ label: slice.length > 1 ? `${slice[0].label}-${slice[slice.length - 1].label}` :
			slice[0].label, parts: names.map((_, k) =>
			slice.reduce((a, it) => a + it.parts[k], 0) / slice.length) });
	}
	const W = Math.max(box.clientWidth || 900, 300), H = 260, L = 80, B = 40;
	const max = Math.max(...bins.map((b) => b.parts.reduce((a, v) => a + v, 0)), 1e-12);
	const bw = (W - L - 10) / Math.max(bins.length, 1);
	const s = svg('svg', { width: W, height: H + B, class: 'chart stacked', role: 'img' });

	bins.forEach((b, i) => {
		let y = H;
		const g = svgTip(svg('g', { class: 'bar', 'data-label': b.label }),
			`${b.label}: ` + names.map((n, k) => `${n} ${fmtSec(b.parts[k])}`).join(', '));

		b.parts.forEach((v, k) => {
			const h = (H - 24) * v / max;

			y -= h;
			g.appendChild(svg('rect', { x: L + i * bw, y, width: Math.max(bw - 1, 0.5), height: h,
				class: classes[k] }));
		});
		s.appendChild(g);
		/* a label under every bar that has room, and the marks */
		if (i % Math.ceil(bins.length / 32) === 0)
			s.appendChild(svgText(L + (i + 0.5) * bw, H + 14, b.label,
				{ class: 'tick', 'text-anchor': 'middle' }));
		if (marks && marks[b.label])
			s.appendChild(svgText(L + (i + 0.5) * bw, y - 4, marks[b.label],
				{ class: 'mark', 'text-anchor': 'middle' }));
	});
	for (let k = 0; k <= 4; k++) {
		const y = H - (H - 24) * k / 4;

		s.appendChild(svg('line', { x1: L - 4, x2: W, y1: y, y2: y, class: 'grid' }));
		s.appendChild(svgText(L - 6, y + 4, (max * k / 4).toPrecision(3), { class: 'tick', 'text-anchor': 'end' }));
	}
	axisLabel(s, (L + W) / 2, H + 32, per > 1 ? `${what} (bins of ${per}, mean)` : what);
	axisLabel(s, 14, H / 2, unit, true);
	box.appendChild(s);
	box.appendChild(el('div', { class: 'legend' }, names.map((n, k) =>
		el('span', {}, el('i', { class: classes[k] }), n))));
}

/*
 * Heatmap of the matrix of size ranks given as pairs [src, dst, count,
 * bytes] (rows send to columns), value column col, for senders r0.. and
 * receivers c0.. (n of each; the whole matrix by default); blocks of
 * ranks above MATRIX_CELLS a side, each the sum of its cells: click a
 * block to zoom into its ranks, click "whole matrix" to come back.  Only
 * the pairs that exchanged are visited, so a large job costs its pairs,
 * not its size squared.
 */
function heatmap(box, pairs, size, col, unitFmt, r0 = 0, c0 = 0, n = size) {
	const per = Math.ceil(n / MATRIX_CELLS);
	const k = Math.ceil(n / per);
	const cells = Array.from({ length: k }, () => new Array(k).fill(0));
	let max = 0;

	for (const p of pairs) {
		const r = p[0] - r0, c = p[1] - c0;

		if (r >= 0 && r < n && c >= 0 && c < n)
			cells[Math.floor(r / per)][Math.floor(c / per)] += p[col];
	}
	for (const row of cells)
		for (const v of row)
			max = Math.max(max, v);
	const range = (x, i) => per > 1 ?
		`${x + i * per}-${Math.min(size, x + n, x + (i + 1) * per) - 1}` : x + i;
	const side = Math.min(Math.max(box.clientWidth || 600, 300), 640) - 70;
	const cs = side / k;
	const s = svg('svg', { width: side + 70, height: side + 60, class: 'chart heatmap', role: 'img' });

	for (let i = 0; i < k; i++)
		for (let j = 0; j < k; j++) {
			const v = cells[i][j];
			const rect = svg('rect', { x: 60 + j * cs, y: 10 + i * cs, width: Math.max(cs - 0.5, 0.5),
				height: Math.max(cs - 0.5, 0.5), class: 'cell',
				'fill-opacity': v ? 0.15 + 0.85 * v / max : 0.04,
				'data-from': range(r0, i), 'data-to': range(c0, j), 'data-value': v });

			svgTip(rect, `rank ${rect.dataset.from} → ${rect.dataset.to}: ${unitFmt(v)}` +
				(per > 1 ? ' (click to zoom)' : ''));
			if (per > 1)
				rect.addEventListener('click', () => {
					box.replaceChildren(el('div', { class: 'toolbar' }, el('button', { type: 'button',
						class: 'matrix-reset', on: { click: () => {
							box.replaceChildren();
							heatmap(box, pairs, size, col, unitFmt);
						} } }, 'whole matrix')));
					heatmap(box, pairs, size, col, unitFmt, r0 + i * per, c0 + j * per, per);
				});
			s.appendChild(rect);
		}
	const span = (x) => `${x}-${x + n - 1}`;

	axisLabel(s, 60 + side / 2, side + 45, (per > 1 ? `receiver (blocks of ${per} ranks)` : 'receiver rank') +
		(n < size ? `, ranks ${span(c0)}` : ''));
	axisLabel(s, 20, 10 + side / 2, (per > 1 ? `sender (blocks of ${per} ranks)` : 'sender rank') +
		(n < size ? `, ranks ${span(r0)}` : ''), true);
	box.appendChild(s);
}

/* Line chart of points [[x, y]...] with axis names and y formatter. */
function lineChart(box, points, xName, yName, yFmt) {
	const W = Math.max(box.clientWidth || 700, 300), H = 220, L = 70, B = 40;
	const xmax = Math.max(...points.map((p) => p[0]), 1e-12);
	const ymax = Math.max(...points.map((p) => p[1]), 1e-12);
	const s = svg('svg', { width: W, height: H + B, class: 'chart line', role: 'img' });
	const X = (x) => L + (W - L - 10) * x / xmax, Y = (y) => H - (H - 10) * y / ymax;

	s.appendChild(svg('polyline', { points: points.map((p) => `${X(p[0])},${Y(p[1])}`).join(' '),
		class: 'series' }));
	for (let k = 0; k <= 4; k++) {
		s.appendChild(svg('line', { x1: L, x2: W, y1: Y(ymax * k / 4), y2: Y(ymax * k / 4), class: 'grid' }));
		s.appendChild(svgText(L - 6, Y(ymax * k / 4) + 4, yFmt(ymax * k / 4),
			{ class: 'tick', 'text-anchor': 'end' }));
		s.appendChild(svgText(X(xmax * k / 4), H + 15, fmtSec(xmax * k / 4),
			{ class: 'tick', 'text-anchor': 'middle' }));
	}
	axisLabel(s, (L + W) / 2, H + 34, xName);
	axisLabel(s, 14, H / 2, yName, true);
	box.appendChild(s);
}
