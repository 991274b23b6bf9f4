/*
 * flame.js - an icicle graph of a call-path tree (root on top): click a
 * frame to zoom into it, click the root row or "whole tree" to come back;
 * hover for self, total, share and file:line; a search highlights the
 * frames whose function matches and says what share of the samples they
 * hold; the inverted mode shows the tree bottom-up (callers below each
 * function that spent the samples); a selector switches between trees
 * (the whole job's, one rank's).
 *
 * A tree node is { function, module_name, file, line, self: {event: n},
 * total: {event: n}, children: [...] } as in docs/json.md.
 */
'use strict';

const FLAME_ROW = 18;		/* px per level */
const FLAME_MIN_PX = 0.5;	/* narrower frames are not drawn */

/* The tree bottom-up: every node's self samples under its function, then
 * under its callers, nearest first. */
function invertTree(root, ev) {
	const top = { function: '<all>', self: {}, total: {}, children: [], kids: new Map() };

	function add(parent, node, n) {
		let c = parent.kids.get(node.function);

		if (!c) {
			c = { function: node.function, module_name: node.module_name, file: node.file,
				line: node.line, self: {}, total: {}, children: [], kids: new Map() };
			parent.kids.set(node.function, c);
			parent.children.push(c);
		}
		c.total[ev] = (c.total[ev] || 0) + n;
		return c;
	}
	/* stack: node and its callers, outermost first */
	function walk(node, stack) {
		const n = (node.self && node.self[ev]) || 0;

		stack.push(node);
		if (n > 0) {
			let at = top;

			top.total[ev] = (top.total[ev] || 0) + n;
			for (let i = stack.length - 1; i >= 0; i--)
				at = add(at, stack[i], n);
			at.self[ev] = (at.self[ev] || 0) + n;
		}
		for (const c of node.children || [])
			walk(c, stack);
		stack.pop();
	}
	for (const c of root.children || [])
		walk(c, []);
	return top;
}

/* Colour of a frame from its function's name: stable across redraws. */
function frameHue(name) {
	let h = 0;

	for (let i = 0; i < name.length; i++)
		h = (h * 31 + name.charCodeAt(i)) % 360;
	return h;
}

/*
 * Draw into box the first of trees, [{ label, tree }], with a selector
 * when there are several; events: the event names for the selector.
 */
function flameGraph(box, trees, events, opts) {
	const state = { ev: events[0], inverted: false, zoom: [], search: '' };
	const treeSel = el('select', { 'aria-label': 'tree', class: 'flame-tree' },
		trees.map((t, i) => el('option', { value: i }, t.label)));
	let tree = trees[0].tree;
	const bar = el('div', { class: 'toolbar' });
	const evSel = el('select', { 'aria-label': 'event', class: 'flame-event' },
		events.map((e) => el('option', { value: e }, e)));
	const inv = el('input', { type: 'checkbox', class: 'flame-inverted' });
	const find = el('input', { type: 'search', placeholder: 'search functions', class: 'flame-search' });
	const reset = el('button', { type: 'button', class: 'flame-reset' }, 'whole tree');
	const info = el('span', { class: 'flame-info' });
	const pic = el('div', { class: 'flame' });
	const tip = el('div', { class: 'flame-tip', hidden: true });

	if (trees.length > 1)
		bar.append(el('label', {}, 'ranks ', treeSel));
	bar.append(el('label', {}, 'event ', evSel), el('label', {}, inv, ' inverted'), find, reset, info);
	box.append(bar, pic, tip);
	if (opts && opts.note)
		box.append(el('p', { class: 'note' }, opts.note));

	let inverted = null;	/* the bottom-up tree of inverted.ev, made once */

	function root() {
		if (!state.inverted)
			return tree;
		if (!inverted || inverted.ev !== state.ev)
			inverted = { ev: state.ev, tree: invertTree(tree, state.ev) };
		return inverted.tree;
	}
	function total(n) {
		return (n.total && n.total[state.ev]) || 0;
	}
	function matches(n) {
		return state.search && n.function.toLowerCase().includes(state.search);
	}
	/* Share of the samples under matching frames, each counted once. */
	function searchShare(r) {
		let sum = 0;

		(function walk(n) {
			if (matches(n)) {
				sum += total(n);
				return;
			}
			for (const c of n.children || [])
				walk(c);
		})(r);
		return total(r) ? 100 * sum / total(r) : 0;
	}
	function draw() {
		const r = root();
		const top = state.zoom.length ? state.zoom[state.zoom.length - 1] : r;
		const width = Math.max(pic.clientWidth || 800, 200);
		const rows = [];
		const all = total(r) || 1;
		let depth = 0, nmatch = 0;

		(function place(n, x, w, d) {
			if (w < FLAME_MIN_PX)
				return;
			rows.push({ n, x, w, d });
			depth = Math.max(depth, d);
			let cx = x;
			const t = total(n) || 1;

			for (const c of (n.children || []).slice().sort((a, b) => total(b) - total(a))) {
				const cw = w * total(c) / t;

				place(c, cx, cw, d + 1);
				cx += cw;
			}
		})(top, 0, width, 0);
		const s = svg('svg', { width, height: (depth + 1) * FLAME_ROW, class: 'flame-svg',
			role: 'img', 'aria-label': 'flame graph' });

		for (const f of rows) {
			const g = svg('g', { class: 'frame', transform: `translate(${f.x},${f.d * FLAME_ROW})` });
			const hit = matches(f.n);
			/* while searching, the other frames lose their colour so the hits stand out */
			const sat = state.search ? 0 : 60;
			const rect = svg('rect', { width: Math.max(f.w - 0.5, 0.5), height: FLAME_ROW - 1,
				fill: hit ? 'var(--hit)' : `hsl(${frameHue(f.n.function)},${sat}%,var(--frame-l))` });

			if (hit)
				nmatch++;
			rect.dataset.function = f.n.function;
			rect.dataset.total = total(f.n);
			g.appendChild(rect);
			if (f.w > 30) {
				const chars = Math.floor((f.w - 6) / 7);
				const name = f.n.function.length > chars ?
					f.n.function.slice(0, Math.max(chars - 1, 0)) + '…' : f.n.function;

				g.appendChild(svgText(3, FLAME_ROW - 5, name, { class: 'frame-label' }));
			}
			g.addEventListener('click', () => {
				if (f.n === top)
					state.zoom.pop();
				else
					state.zoom.push(f.n);
				draw();
			});
			g.addEventListener('mousemove', (e) => {
				const self = (f.n.self && f.n.self[state.ev]) || 0;

				const others = events.filter((ev) => ev !== state.ev)
					.map((ev) => `${ev} ${fmtCount((f.n.total && f.n.total[ev]) || 0)}`);

				tip.replaceChildren(el('b', {}, f.n.function), el('br'),
					`total ${fmtCount(total(f.n))} (${fmtPct(100 * total(f.n) / all)}), ` +
					`self ${fmtCount(self)} (${fmtPct(100 * self / all)})`, el('br'),
					...(others.length ? [`totals of ${others.join(', ')}`, el('br')] : []), where(f.n));
				tip.hidden = false;
				tip.style.left = (e.pageX + 12) + 'px';
				tip.style.top = (e.pageY + 12) + 'px';
			});
			g.addEventListener('mouseleave', () => { tip.hidden = true; });
			s.appendChild(g);
		}
		pic.replaceChildren(s);
		info.textContent = state.search ?
			`${nmatch} frames match, ${fmtPct(searchShare(r))} of the samples` :
			(state.zoom.length ? `zoomed into ${top.function}` : '');
		info.dataset.share = state.search ? searchShare(r).toFixed(4) : '';
	}
	treeSel.addEventListener('change', () => {
		tree = trees[Number(treeSel.value)].tree;
		inverted = null;
		state.zoom = [];
		draw();
	});
	evSel.addEventListener('change', () => { state.ev = evSel.value; state.zoom = []; draw(); });
	inv.addEventListener('change', () => { state.inverted = inv.checked; state.zoom = []; draw(); });
	find.addEventListener('input', () => { state.search = find.value.trim().toLowerCase(); draw(); });
	reset.addEventListener('click', () => { state.zoom = []; draw(); });
	draw();
}
