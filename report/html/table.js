/*
 * table.js - a table of rows sortable by any column (click its header,
 * again for the other direction) and filtered by a text that any of its
 * text columns may contain.  Rows beyond TABLE_ROWS are left out of the
 * page's DOM, and the table says how many.
 *
 * columns: [{ title, get(row) -> value to sort on, show(row) -> text or
 * element (default: get), num: true for right-aligned numbers }].
 */
'use strict';

const TABLE_ROWS = 500;

function sortableTable(box, rows, columns, opts) {
	const state = { by: opts.sortBy || 0, desc: opts.desc !== false, filter: '' };
	const find = el('input', { type: 'search', placeholder: 'filter', class: 'table-filter' });
	const count = el('span', { class: 'table-count' });
	const table = el('table', { class: 'data ' + (opts.cls || '') });
	const head = el('tr');
	const body = el('tbody');

	columns.forEach((c, i) => {
		head.appendChild(el('th', { class: c.num ? 'num' : '', 'data-col': i, tabindex: 0,
			on: { click: () => sortBy(i) } }, c.title));
	});
	table.append(el('thead', {}, head), body);
	box.append(el('div', { class: 'toolbar' }, find, count), table);

	function sortBy(i) {
		state.desc = state.by === i ? !state.desc : !!columns[i].num;
		state.by = i;
		draw();
	}
	function draw() {
		const c = columns[state.by];
		const f = state.filter;
		const shown = rows.filter((r) => !f || columns.some((k) => !k.num &&
			String(k.get(r)).toLowerCase().includes(f)));

		shown.sort((a, b) => {
			const x = c.get(a), y = c.get(b);
			const d = typeof x === 'number' && typeof y === 'number' ? x - y :
				String(x).localeCompare(String(y));

			return state.desc ? -d : d;
		});
		body.replaceChildren(...shown.slice(0, TABLE_ROWS).map((r) =>
			el('tr', {}, columns.map((k) => el('td', { class: k.num ? 'num' : '' },
				k.show ? k.show(r) : String(k.get(r)))))));
		head.querySelectorAll('th').forEach((th, i) => {
			th.setAttribute('aria-sort', i === state.by ?
				(state.desc ? 'descending' : 'ascending') : 'none');
		});
		count.textContent = `${shown.length} of ${rows.length} rows` +
			(shown.length > TABLE_ROWS ? `, the first ${TABLE_ROWS} shown` : '');
	}
	find.addEventListener('input', () => { state.filter = find.value.trim().toLowerCase(); draw(); });
	draw();
}

/* A bar in a cell: a share of 100 as a filled track, its text beside it
 * (never under it, where a long bar would hide it). */
function pctBar(p, cls) {
	return el('span', { class: 'pctbar ' + (cls || '') },
		el('span', { class: 'track' },
			el('span', { class: 'fill', style: `width:${Math.min(Math.max(p, 0), 100)}%` })),
		el('span', {}, fmtPct(p)));
}
