/*
 * diff.js - the page of `cpperf diff A B --format=html` (docs/report.md):
 * a view per table of the differences (functions, call paths, functions
 * on the critical path, MPI call sites), each row with A, B and the change
 * of every column, sorted by the size of the change in the first.
 */
'use strict';

const DIFF_TABLES = [
	{ key: 'functions', title: 'Functions', labels: ['function', 'module'] },
	{ key: 'callpaths', title: 'Call paths', labels: ['path'] },
	{ key: 'critical_path', title: 'Critical path', labels: ['function', 'module'] },
	{ key: 'mpi', title: 'MPI', labels: ['function', 'caller'] },
];

function fmtChange(v) {
	return (v > 0 ? '+' : '') + (Number.isInteger(v) ? fmtCount(v) : String(Number(v.toPrecision(4))));
}

function fmtValue(v) {
	return Number.isInteger(v) ? fmtCount(v) : String(Number(v.toPrecision(4)));
}

// The table of one kind of row: its labels, then per column A, B and the
// change, the first column's change as % of A too.
function buildDiffTable(box, diff, t) {
	const rows = diff[t.key];
	const cols = rows.length ? Object.keys(rows[0].delta) : [];
	const first = cols[0];

	box.append(el('h2', {}, `${t.title}: ${diff.a} → ${diff.b}`), el('p', { class: 'note' },
		`Sorted by the size of the change in ${first || 'the first column'}; ${fmtCount(rows.length)} rows. ` +
		'Change % is of A ("new" when A had none).'));
	sortableTable(box, rows, [
		...t.labels.map((l) => ({ title: l, get: (r) => r[l] || '' })),
		...cols.flatMap((c) => [
			{ title: `${c} A`, get: (r) => r.a[c], show: (r) => fmtValue(r.a[c]), num: true },
			{ title: `${c} B`, get: (r) => r.b[c], show: (r) => fmtValue(r.b[c]), num: true },
			// sorted by the size of the change, shown with its sign
			{ title: `${c} change`, get: (r) => Math.abs(r.delta[c]), show: (r) => fmtChange(r.delta[c]), num: true },
		]),
		{ title: 'change %', get: (r) => r.a[first] ? 100 * r.delta[first] / r.a[first] : Infinity,
			show: (r) => r.a[first] ? fmtChange(Number((100 * r.delta[first] / r.a[first]).toFixed(1))) + ' %' :
				r.delta[first] ? 'new' : '', num: true },
	], { sortBy: t.labels.length + 2, cls: `diff diff-${t.key}` });
}

function startDiff(diff) {
	for (const t of DIFF_TABLES)
		if (diff[t.key])
			addView(t.key.replace('_', '-'), t.title, (b) => buildDiffTable(b, diff, t));
	startViews();
	document.title = `cpperf diff: ${diff.a} → ${diff.b}`;
	document.querySelector('header h1').textContent = 'cpperf diff';
}
