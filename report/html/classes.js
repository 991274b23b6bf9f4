/*
 * classes.js - the Classes view: the ranks grouped into classes that
 * behave alike (the report's "clusters") and each class's activity graph
 * (its "graph"), drawn as SVG: a column per class, a box per call site of
 * the class, a row per call site across the columns; computation edges
 * (from a call to the next) as arrows on a column's right, thicker for
 * more time, their tooltip naming the function sampled most; completion
 * edges (a non-blocking request from the call that started it to the one
 * that completed it) as dotted arrows there; messages as dashed arrows
 * from the sending class's site to
 * the receiving class's, on a column's left when a class sends to itself.
 * Only the first CLASS_COLS classes are drawn, and of each class the
 * CLASS_NODES call sites of most time, which the view says.
 */
'use strict';

const CLASS_COLS = 10;
const CLASS_NODES = 30;
/* The drawing's geometry in pixels: column width, the room left of a
 * column's boxes, a box's width and height, row height, first row's top. */
const GRAPH = { colW: 260, left: 36, nodeW: 150, nodeH: 22, rowH: 32, top: 56 };

/* The nodes of a class that are drawn: the CLASS_NODES of most time (of
 * most calls when times are unknown, null, as from merged profiles). */
function shownNodes(c) {
	return (c.nodes || []).slice().sort((a, b) => (b.time || 0) - (a.time || 0) || b.calls - a.calls)
		.slice(0, CLASS_NODES);
}

/* Path of an arc that leaves the side of a column at x at height y1 and
 * comes back at y2, bent out by bend (to the left when negative); a loop
 * when y1 is y2. */
function sideArc(x, y1, y2, bend) {
	if (y1 === y2)
		return `M${x},${y1 - 5} C${x + bend},${y1 - 18} ${x + bend},${y1 + 18} ${x},${y1 + 5}`;
	return `M${x},${y1} C${x + bend},${y1} ${x + bend},${y2} ${x},${y2}`;
}

/* Path from (x1, y1) to (x2, y2), leaving and arriving level. */
function levelLink(x1, y1, x2, y2) {
	const m = (x1 + x2) / 2;

	return `M${x1},${y1} C${m},${y1} ${m},${y2} ${x2},${y2}`;
}

/* An arrow along path d, of kind 'comp', 'done' or 'msg', with a tooltip. */
function arrow(d, kind, width, tip) {
	return svgTip(svg('path', { d, class: 'edge ' + kind, 'stroke-width': width,
		'marker-end': `url(#arrow-${kind})` }), tip);
}

/* The arrowheads, one per kind of edge. */
function arrowHeads() {
	const defs = svg('defs');

	for (const kind of ['comp', 'done', 'msg']) {
		const m = svg('marker', { id: 'arrow-' + kind, class: kind, viewBox: '0 0 10 10', refX: 9, refY: 5,
			markerWidth: 8, markerHeight: 8, markerUnits: 'userSpaceOnUse', orient: 'auto' });

		m.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z' }));
		defs.appendChild(m);
	}
	return defs;
}

/* What a computation edge's tooltip says of its samples: the function
 * sampled most in it and its share. */
function topPath(e) {
	const p = (e.paths || [])[0];

	if (!p || !e.samples)
		return '';
	return `; most sampled: ${p.function} (${(100 * p.samples / e.samples).toFixed(0)} % of ` +
		`${fmtCount(e.samples)} samples)`;
}

/* Where the call sites' boxes are: a row for each site shown in some
 * class, by site id; box(class index, site) is { x, y, mid } and
 * has(class index, site) whether that box is drawn. */
function graphLayout(classes) {
	const drawn = new Set(classes.flatMap((c, ci) => shownNodes(c).map((n) => `${ci} ${n.site}`)));
	const sites = [...new Set(classes.flatMap((c) => shownNodes(c).map((n) => n.site)))].sort((a, b) => a - b);
	const row = new Map(sites.map((s, i) => [s, i]));

	return {
		rows: sites.length,
		box: (ci, site) => {
			const y = GRAPH.top + row.get(site) * GRAPH.rowH;

			return { x: ci * GRAPH.colW + GRAPH.left, y, mid: y + GRAPH.nodeH / 2 };
		},
		has: (ci, site) => drawn.has(`${ci} ${site}`),
	};
}

/* A class's column: its heading, a box per call site, its computation
 * edges between the sites shown. */
function classColumn(c, ci, at, sites) {
	const g = svg('g', { class: 'class', 'data-index': ci, 'data-ranks': c.ranks });
	const nodes = shownNodes(c);
	const shown = new Set(nodes.map((n) => n.site));
	const edges = (c.edges || []).filter((e) => shown.has(e.from) && shown.has(e.to));
	const most = Math.max(...edges.filter((e) => e.kind !== 'completion').map((e) => e.time || 0), 1e-12);
	const x0 = ci * GRAPH.colW + GRAPH.left;

	g.append(svgText(x0, 18, `ranks ${c.ranks}`, { class: 'head' }),
		svgText(x0, 34, `representative ${c.representative}` +
			((c.nodes || []).length > nodes.length ? `, ${nodes.length} of ${c.nodes.length} sites` : ''),
		{ class: 'sub' }));
	for (const e of edges) {
		const from = at(ci, e.from), to = at(ci, e.to);
		const done = e.kind === 'completion';
		const path = sideArc(from.x + GRAPH.nodeW, from.mid, to.mid,
			Math.min(16 + 4 * Math.abs(to.y - from.y) / GRAPH.rowH, GRAPH.colW - GRAPH.nodeW - GRAPH.left - 10));
		const ends = `${siteName(sites, e.from)} → ${siteName(sites, e.to)}: `;

		if (done)
			g.appendChild(arrow(path, 'done', 1.5, ends + `${fmtCount(e.count)} requests completed, ` +
				`${fmtSec(e.time)} after they started`));
		else
			g.appendChild(arrow(path, 'comp', 1 + 5 * (e.time || 0) / most, ends +
				`${fmtCount(e.count)} times, ${fmtSec(e.time)} computing` + topPath(e)));
	}
	for (const n of nodes) {
		const s = sites.get(n.site) || { function: `site ${n.site}` };
		const b = at(ci, n.site);
		const label = s.function.length > 22 ? s.function.slice(0, 21) + '…' : s.function;
		const node = svgTip(svg('g', { class: 'node', 'data-site': n.site }),
			`${siteName(sites, n.site)}: ${fmtCount(n.calls)} calls` + (n.time === null ? '' : `, ${fmtSec(n.time)}`));

		node.append(svg('rect', { x: b.x, y: b.y, width: GRAPH.nodeW, height: GRAPH.nodeH, rx: 3 }),
			svgText(b.x + 6, b.y + 15, label));
		g.appendChild(node);
	}
	return g;
}

/* A message edge between the boxes of two classes' sites (both drawn). */
function messageArrow(m, at, classes, sites) {
	const from = at(m.send_class, m.send_site), to = at(m.recv_class, m.recv_site);
	const tip = `${siteName(sites, m.send_site)}, ranks ${classes[m.send_class].ranks} → ` +
		`${siteName(sites, m.recv_site)}, ranks ${classes[m.recv_class].ranks}: ` +
		`${fmtCount(m.count)} messages, ${fmtBytes(m.bytes)}, Late Sender ${fmtSec(m.late_sender || 0)}`;

	if (m.send_class === m.recv_class)
		return arrow(sideArc(from.x, from.mid, to.mid, -GRAPH.left + 6), 'msg', 1.5, tip);
	return m.recv_class > m.send_class ?
		arrow(levelLink(from.x + GRAPH.nodeW, from.mid, to.x, to.mid), 'msg', 1.5, tip) :
		arrow(levelLink(from.x, from.mid, to.x + GRAPH.nodeW, to.mid), 'msg', 1.5, tip);
}

/* The collapsed graph of the first CLASS_COLS classes into box. */
function classGraph(box, graph, sites) {
	const classes = graph.classes.slice(0, CLASS_COLS);
	const layout = graphLayout(classes);
	const s = svg('svg', { class: 'classes-graph', role: 'img', width: classes.length * GRAPH.colW + GRAPH.left,
		height: GRAPH.top + layout.rows * GRAPH.rowH + 10 });
	const messages = svg('g', { class: 'messages' });

	s.appendChild(arrowHeads());
	classes.forEach((c, ci) => s.appendChild(classColumn(c, ci, layout.box, sites)));
	/* a class lists the messages it received and those it sent: each is
	 * drawn once, from its receiver's list */
	classes.forEach((c, ci) => {
		for (const m of c.messages || [])
			if (m.recv_class === ci && layout.has(m.send_class, m.send_site) && layout.has(ci, m.recv_site))
				messages.appendChild(messageArrow(m, layout.box, classes, sites));
	});
	s.appendChild(messages);
	box.appendChild(el('div', { class: 'graph-box' }, s));
}

function buildClasses(box, data) {
	const graph = data.graph || { classes: [] };
	const classes = data.clusters || graph.classes;

	box.append(el('h2', {}, 'Classes'), el('p', { class: 'note' },
		'The ranks grouped into classes whose activity graphs are alike (the same call sites, ' +
		'edges and messages' + (graph.tolerance_pct === undefined ? '' :
			`, times within ${graph.tolerance_pct} %`) + '), each shown by a representative rank.'));
	sortableTable(box, classes, [
		{ title: 'ranks', get: (c) => c.ranks },
		{ title: 'representative', get: (c) => c.representative, num: true },
		{ title: 'size', get: (c) => c.size, show: (c) => fmtCount(c.size), num: true },
	], { sortBy: 2, cls: 'classes' });
	if (!graph.classes.length)
		return;
	box.append(el('h3', {}, 'Activity graph by class'), el('p', { class: 'note' },
		'A column per class, a box per MPI call site of its representative, the same site on the ' +
		'same row; solid arrows: the computation from a call to the next (thicker for more time), ' +
		'dashed: messages from a site of a class to a site of another, or of the same (on the left). ' +
		'Hover a box or an arrow for its numbers.' +
		(graph.classes.length > CLASS_COLS ? ` The first ${CLASS_COLS} of ${graph.classes.length} ` +
			'classes are drawn.' : '') +
		(graph.classes.some((c) => (c.nodes || []).length > CLASS_NODES) ? ` Classes of more than ` +
			`${CLASS_NODES} call sites show the ${CLASS_NODES} of most time, and the arrows between them.` : '')));
	classGraph(box, graph, callSites(data));
}
