/*
 * views.js - the page's views over the report's data (docs/html.md):
 * summary, flame graph, functions, ranks, MPI, waits (waits.js), classes
 * (classes.js), threads (threads.js), critical path and compensation.  Each is built the first
 * time it is shown.
 */
'use strict';

function eventNames(data) {
	return (data.experiment.events || []).map((e) => e.name);
}

// Ascending ranks as runs of consecutive ones, "0-3,7,9-999999".
function rankRuns(ranks) {
	const runs = [];

	for (let i = 0; i < ranks.length;) {
		let j = i;

		while (j + 1 < ranks.length && ranks[j + 1] === ranks[j] + 1)
			j++;
		runs.push(j > i ? `${ranks[i]}-${ranks[j]}` : `${ranks[i]}`);
		i = j + 1;
	}
	return runs.join(',');
}

function warnings(data) {
	const x = data.experiment, w = [];

	if ((x.ranks_missing || []).length)
		w.push(`ranks missing: ${rankRuns(x.ranks_missing)}`);
	for (const p of x.partial || [])
		w.push(`partial profile: ${JSON.stringify(p)}`);
	if (x.lost)
		w.push(`${fmtCount(x.lost)} samples lost (the ring buffer was full)`);
	if (x.throttled)
		w.push(`${fmtCount(x.throttled)} samples throttled by the kernel`);
	if (x.unwind_complete_pct !== undefined && x.unwind_complete_pct < 99)
		w.push(`only ${fmtPct(x.unwind_complete_pct)} of the call stacks were unwound to their root`);
	if (data.critical_path && data.critical_path.unavailable)
		w.push(`no critical path: ${data.critical_path.unavailable}`);
	return w;
}

const SETUP_CALLS = new Set(['MPI_Init', 'MPI_Init_thread', 'MPI_Finalize']);

// The call path (function names from the root) of the node with the most
// self samples of ev, and that count.
function hottestPath(root, ev) {
	let best = { n: -1, path: [] };
	const walk = (node, path) => {
		const here = node.function === '<root>' ? path : [...path, node.function];
		const n = (node.self && node.self[ev]) || 0;

		if (here.length && n > best.n)
			best = { n, path: here };
		for (const c of node.children || [])
			walk(c, here);
	};

	walk(root, []);
	return best;
}

// What the run's data answer first, each with a link to its view: the top
// functions and call path, the critical path's leader beside its CPU
// share, the ranks' load and imbalance, the costliest MPI call site, what
// cpperf cost.
function findings(data) {
	const ev = eventNames(data)[0], f = [];
	const link = (view, text) => el('a', { href: `#${view}`, class: 'finding-link' }, text);
	const top = (data.flat || []).slice(0, 3).filter((r) => (r.self[ev] || 0) > 0);
	const hot = data.callpath ? hottestPath(data.callpath, ev) : { n: 0 };
	const cp = data.critical_path && data.critical_path.functions && data.critical_path.functions[0];
	const ranks = data.ranks || [];
	const sites = ((data.mpi && data.mpi.callsites) || []).filter((s) => !SETUP_CALLS.has(s.function));

	if (top.length)
		f.push(['top-function', [link('functions', 'top functions'), ': ',
			top.map((r) => `${r.function} ${fmtPct(r.self_pct)}`).join(', ')]]);
	if (hot.n > 0)
		f.push(['top-path', [link('flame', 'hottest call path'), `: ${hot.path.slice(-4).join(' › ')} ` +
			`(${fmtPct(100 * hot.n / data.callpath.total[ev])})`]]);
	if (cp)
		f.push(['cp-function', [link('cp', 'critical path'), `: ${cp.function} ${fmtPct(cp.cp_pct)} of it, ` +
			`${fmtPct(cp.cpu_pct)} of the CPU samples`]]);
	const mpiRanks = ranks.filter((r) => r.rank !== null);	// null: not an MPI process
	if (mpiRanks.length > 1) {
		const work = mpiRanks.map((r) => ({ rank: r.rank, t: Math.max((r.wall || 0) - (r.mpi_time || 0), 0) }));
		const most = work.reduce((a, r) => r.t > a.t ? r : a), least = work.reduce((a, r) => r.t < a.t ? r : a);
		const mean = work.reduce((s, r) => s + r.t, 0) / work.length;

		f.push(['ranks', [link('ranks', 'ranks'), `: rank ${most.rank} computes most (${fmtSec(most.t)}), ` +
			`rank ${least.rank} least (${fmtSec(least.t)}); imbalance ` +
			`${fmtPct(mean > 0 ? 100 * (most.t / mean - 1) : 0)} (the most over the mean)`]]);
	}
	if (sites.length) {
		const s = sites[0], all = sites.reduce((a, x) => a + x.time, 0);
		const caller = s.callpath && s.callpath.length ? ` from ${s.callpath[s.callpath.length - 1].function}` : '';

		f.push(['mpi-site', [link('mpi', 'costliest MPI call'), `: ${s.function}${caller} ${fmtSec(s.time)} ` +
			`(${fmtPct(all > 0 ? 100 * s.time / all : 0)} of MPI time)`]]);
	}
	if (data.compensation && data.compensation.available && ranks.length) {
		const over = ranks.reduce((a, r) => a + (r.overhead || 0), 0), wall = ranks.reduce((a, r) => a + (r.wall || 0), 0);

		f.push(['cost', [link('compensation', 'cpperf\'s cost'), `: ${fmtPct(wall > 0 ? 100 * over / wall : 0)} ` +
			'of the ranks\' time, taken out of the compensated times']]);
	}
	return f;
}

function dl(pairs) {
	return el('dl', { class: 'facts' }, pairs.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}

function buildSummary(box, data) {
	const x = data.experiment, ranks = data.ranks || [];
	const hosts = [...new Set(ranks.map((r) => r.host))];
	const wall = Math.max(0, ...ranks.map((r) => r.wall || 0));
	const w = warnings(data);

	const found = findings(data);

	box.append(el('h2', {}, 'Summary'));
	if (w.length)
		box.append(el('ul', { class: 'warnings' }, w.map((t) => el('li', {}, t))));
	if (found.length)
		box.append(el('ul', { class: 'findings' }, found.map(([key, parts]) =>
			el('li', { 'data-finding': key }, ...parts))));
	box.append(dl([
		['command', (x.command || []).join(' ')],
		['ranks', `${fmtCount(x.ranks)} on ${hosts.length} host${hosts.length === 1 ? '' : 's'}` +
			(hosts.length ? ` (${hosts.slice(0, 8).join(', ')}${hosts.length > 8 ? ', …' : ''})` : '')],
		['MPI', x.mpi || 'not an MPI program'],
		['events', (x.events || []).map((e) => e.frequency ? `${e.name} at ${e.frequency} Hz` :
			`${e.name} every ${fmtCount(e.period)}`).join(', ')],
		['samples', `${fmtCount(x.samples)} (lost ${fmtCount(x.lost)}, throttled ${fmtCount(x.throttled)})`],
		['unwinding', `${fmtPct(x.unwind_complete_pct)} of stacks complete, ` +
			`${(x.unwind_us_per_sample || 0).toFixed(1)} µs a sample`],
		['run time', wall ? fmtSec(wall) + ' (the longest rank\'s wall time)' : ''],
		['compensation', data.compensation && data.compensation.available ?
			data.compensation.mode : 'none'],
		['critical path', data.critical_path && data.critical_path.length ?
			`${fmtSec(data.critical_path.length)} of ${fmtSec(data.critical_path.wall)} wall` : 'none'],
		['cpperf', data.cpperf_version],
	]));
}

function prunedNote(minPct) {
	return minPct > 0 ? ` Frames below ${minPct} % of all samples are left out of the page ` +
		'(cpperf report --min-pct); the numbers of those shown are whole.' : '';
}

/* The whole job's tree, then the ranks' own that the page carries, the
 * ranks that compute most and least named. */
function flameChoices(data, rankTrees) {
	const compute = new Map((data.ranks || []).map((r) => [r.rank,
		Math.max((r.wall || 0) - (r.mpi_time || 0), 0)]));
	const known = rankTrees.filter((t) => compute.has(t.rank));
	const most = known.length ? known.reduce((a, t) => compute.get(t.rank) > compute.get(a.rank) ? t : a) : null;
	const least = known.length ? known.reduce((a, t) => compute.get(t.rank) < compute.get(a.rank) ? t : a) : null;

	return [{ label: 'whole job', tree: data.callpath }, ...rankTrees.map((t) => ({
		label: `rank ${t.rank}` + (t === most && most !== least ? ' (computes most)' :
			t === least && most !== least ? ' (computes least)' : ''),
		tree: t.callpath,
	}))];
}

function buildFlame(box, data, minPct, rankTrees) {
	box.append(el('h2', {}, 'Flame graph'), el('p', { class: 'note' },
		'The call-path tree of all ranks merged (root on top), or of one rank. Click a frame to zoom, ' +
		'click the top frame or "whole tree" to come back.' + prunedNote(minPct)));
	flameGraph(box, flameChoices(data, rankTrees || []), eventNames(data));
}

/* A derived metric of a function's self counts; -Infinity when it divides
 * by zero, so that such rows sort last. */
function metricOf(r, name) {
	const v = r.metrics && r.metrics[name] ? r.metrics[name].self : null;

	return v === null || v === undefined ? -Infinity : v;
}

function fmtMetric(v) {
	return v === -Infinity ? '-' : String(Number(v.toPrecision(4)));
}

function buildFunctions(box, data) {
	const ev = eventNames(data)[0];
	const fns = data.flat || [];
	const spread = fns.some((r) => r.ranks) ? [
		{ title: 'rank min', get: (r) => r.ranks ? r.ranks.min : 0, show: (r) => fmtCount(r.ranks && r.ranks.min), num: true },
		{ title: 'rank mean', get: (r) => r.ranks ? r.ranks.mean : 0,
			show: (r) => r.ranks ? r.ranks.mean.toFixed(1) : '', num: true },
		{ title: 'rank max', get: (r) => r.ranks ? r.ranks.max : 0, show: (r) => fmtCount(r.ranks && r.ranks.max), num: true },
		{ title: 'max at rank', get: (r) => r.ranks && r.ranks.max_rank !== null ? r.ranks.max_rank : -1,
			show: (r) => r.ranks && r.ranks.max_rank !== null ? String(r.ranks.max_rank) : '', num: true },
	] : [];

	const beside = eventNames(data).slice(1).map((e) => ({ title: e, get: (r) => r.self[e] || 0,
		show: (r) => fmtCount(r.self[e] || 0), num: true }));
	const metrics = (data.experiment.metrics || []).map((m) => ({ title: m.name,
		get: (r) => metricOf(r, m.name), show: (r) => fmtMetric(metricOf(r, m.name)), num: true }));

	box.append(el('h2', {}, 'Functions'), el('p', { class: 'note' },
		`Self and total samples of ${ev} over all ranks; percentages of all samples.` +
		(beside.length ? ` Beside them, each other event's self count${metrics.length ?
			', then each derived metric of the self counts' : ''}.` : '') +
		(spread.length ? ' Rank min, mean and max: the self samples of one rank; max at rank: ' +
			'the rank that has the most (imbalance at a glance).' : '')));
	sortableTable(box, fns, [
		{ title: 'function', get: (r) => r.function },
		{ title: 'self', get: (r) => r.self[ev] || 0, show: (r) => fmtCount(r.self[ev] || 0), num: true },
		{ title: 'self %', get: (r) => r.self_pct, show: (r) => pctBar(r.self_pct), num: true },
		{ title: 'total', get: (r) => r.total[ev] || 0, show: (r) => fmtCount(r.total[ev] || 0), num: true },
		{ title: 'total %', get: (r) => r.total_pct, show: (r) => fmtPct(r.total_pct), num: true },
		...beside,
		...metrics,
		...spread,
		{ title: 'module', get: (r) => r.module_name || '' },
		{ title: 'file:line', get: (r) => r.file ? `${r.file}:${r.line}` : '' },
	], { sortBy: 1, cls: 'functions' });
}

function buildRanks(box, data) {
	const ranks = (data.ranks || []).slice();
	const order = el('select', { class: 'rank-order', 'aria-label': 'order' },
		el('option', { value: 'rank' }, 'rank order'), el('option', { value: 'load' }, 'by compute time'));
	const chart = el('div');
	const compute = (r) => Math.max((r.wall || 0) - (r.mpi_time || 0), 0);

	box.append(el('h2', {}, 'Ranks'));
	if (!ranks.length) {
		box.append(el('p', {}, 'No per-rank data.'));
		return;
	}
	const most = ranks.reduce((a, r) => compute(r) > compute(a) ? r : a);
	const least = ranks.reduce((a, r) => compute(r) < compute(a) ? r : a);

	box.append(el('p', { class: 'note' }, `Wall time of each rank split into computation (outside MPI), ` +
		`time in MPI and time blocked in MPI. Most loaded: rank ${most.rank} ` +
		`(${fmtSec(compute(most))} computing); least: rank ${least.rank} (${fmtSec(compute(least))}).`),
	el('div', { class: 'toolbar' }, order), chart);
	function draw() {
		const rs = ranks.slice();

		if (order.value === 'load')
			rs.sort((a, b) => compute(b) - compute(a));
		chart.replaceChildren();
		stackedBars(chart, rs.map((r) => ({ label: String(r.rank), parts: [compute(r),
			Math.max((r.mpi_time || 0) - (r.mpi_blocked || 0), 0), r.mpi_blocked || 0] })),
		['compute', 'MPI', 'blocked in MPI'], ['c-compute', 'c-mpi', 'c-blocked'], 'seconds',
		{ [most.rank]: 'most', [least.rank]: 'least' });
	}
	order.addEventListener('change', draw);
	draw();
}

function buildMpi(box, data) {
	const m = data.mpi || {};
	const sites = m.callsites || [];
	const total = mpiTime(data);
	const which = el('select', { class: 'matrix-what', 'aria-label': 'matrix' },
		el('option', { value: 'count' }, 'messages'), el('option', { value: 'bytes' }, 'bytes'));
	const mat = el('div', { class: 'matrix' });

	box.append(el('h2', {}, 'MPI call sites'));
	if (!sites.length) {
		box.append(el('p', {}, 'No MPI calls were recorded.'));
		return;
	}
	sortableTable(box, sites, [
		{ title: 'function', get: (s) => s.function },
		{ title: 'calls', get: (s) => s.calls, show: (s) => fmtCount(s.calls), num: true },
		{ title: 'time', get: (s) => s.time, show: (s) => fmtSec(s.time), num: true },
		{ title: '% of MPI time', get: (s) => 100 * s.time / total,
			show: (s) => pctBar(100 * s.time / total), num: true },
		{ title: 'bytes', get: (s) => (s.bytes_sent || 0) + (s.bytes_recv || 0),
			show: (s) => fmtBytes((s.bytes_sent || 0) + (s.bytes_recv || 0)), num: true },
		{ title: 'call path', get: (s) => shortPath(s.callpath) },
	], { sortBy: 2, cls: 'callsites' });
	box.append(el('h2', {}, 'Communication matrix'), el('div', { class: 'toolbar' }, which), mat);
	function draw() {
		mat.replaceChildren();
		if (m.matrix && m.matrix.ranks > 0)
			heatmap(mat, m.matrix.pairs, m.matrix.ranks, which.value === 'bytes' ? 3 : 2,
				which.value === 'bytes' ? fmtBytes : fmtCount);
	}
	which.addEventListener('change', draw);
	draw();
}

// The form of the path: whole, folded (resolved up to its last fold point
// during the run) or its latest part, and where it was cut.
function cpForm(cp) {
	const fold = cp.fold ? `resolved during the run up to its last fold point ` +
		`(${fmtCount(cp.fold.points)} of them, at ${fmtSec(cp.fold.length)}), walked after it` : '';

	if (cp.form === 'latest') {
		return `latest part: the walk${fold ? ' of a fold point' : ''} stopped at rank ` +
			`${cp.cut.rank} event ${cp.cut.event}, whose older records were dropped past ` +
			`the budget of ${fmtCount(cp.cut.budget)} bytes; shares are of that part` +
			(fold ? `, ${fold}` : '');
	}
	return fold ? `whole path, ${fold}` : 'whole path';
}

function buildCp(box, data) {
	const cp = data.critical_path || {};

	box.append(el('h2', {}, 'Critical path'));
	if (!cp.length) {
		box.append(el('p', {}, cp.unavailable || 'No critical path in this experiment.'));
		return;
	}
	box.append(dl([['length', `${fmtSec(cp.length)} of ${fmtSec(cp.wall)} wall ` +
		`(${fmtPct(100 * cp.length / (cp.wall || 1))})`],
	['compensated length', cp.length_compensated ? fmtSec(cp.length_compensated) : ''],
	['form', cpForm(cp)]]));
	box.append(el('h3', {}, 'Functions on the path'), el('p', { class: 'note' },
		'Share of the path (CP %) beside the share of all samples (CPU %).'));
	sortableTable(box, cp.functions || [], [
		{ title: 'function', get: (f) => f.function },
		{ title: 'CP time', get: (f) => f.cp_time, show: (f) => fmtSec(f.cp_time), num: true },
		{ title: 'CP %', get: (f) => f.cp_pct, show: (f) => pctBar(f.cp_pct, 'cp'), num: true },
		{ title: 'CPU %', get: (f) => f.cpu_pct, show: (f) => pctBar(f.cpu_pct, 'cpu'), num: true },
	], { sortBy: 1, cls: 'cp-functions' });
	if ((cp.zeroing || []).length) {
		box.append(el('h3', {}, 'Zeroing'));
		sortableTable(box, cp.zeroing, [
			{ title: 'function', get: (z) => z.function },
			{ title: 'path without it', get: (z) => z.net_length, show: (z) => fmtSec(z.net_length), num: true },
			{ title: 'saving', get: (z) => z.saving, show: (z) => fmtSec(z.saving), num: true },
			{ title: 'saving %', get: (z) => z.saving_pct, show: (z) => fmtPct(z.saving_pct), num: true },
		], { sortBy: 2, cls: 'zeroing' });
	}
	if ((cp.series || []).length) {
		const chart = el('div');

		box.append(el('h3', {}, 'Path length during the run'), chart);
		lineChart(chart, [[0, 0], ...cp.series.map((p) => [p.t, p.length])],
			'time since MPI_Init (s)', 'path length', fmtSec);
	}
	box.append(el('h3', {}, 'Call paths on the critical path'));
	flameGraph(box, [{ label: 'critical path', tree: cp.callpath }], eventNames(data).slice(0, 1));
}

function buildCompensation(box, data) {
	const ranks = data.ranks || [];
	const comp = data.compensation || {};

	box.append(el('h2', {}, 'Compensation'));
	if (!comp.available || !ranks.some((r) => r.overhead_sources)) {
		box.append(el('p', {}, 'No overhead compensation data (not MPI, or --no-piggyback).'));
		return;
	}
	box.append(el('p', { class: 'note' }, `Mode ${comp.mode}: wall time as measured, without this ` +
		'rank\'s own overhead (local), and without the overhead that reached it through messages (parallel).'));
	sortableTable(box, ranks, [
		{ title: 'rank', get: (r) => r.rank, num: true },
		{ title: 'measured', get: (r) => r.wall_measured, show: (r) => fmtSec(r.wall_measured), num: true },
		{ title: 'local', get: (r) => r.wall_local_compensated,
			show: (r) => fmtSec(r.wall_local_compensated), num: true },
		{ title: 'parallel', get: (r) => r.wall_compensated, show: (r) => fmtSec(r.wall_compensated), num: true },
		{ title: 'overhead', get: (r) => r.overhead, show: (r) => fmtSec(r.overhead), num: true },
	], { sortBy: 0, desc: false, cls: 'compensation' });
	const sources = {};

	for (const r of ranks)
		for (const [k, v] of Object.entries(r.overhead_sources || {}))
			if (typeof v === 'number' && !/^(samples|calls|switches)$|_ns$/.test(k))
				sources[k] = (sources[k] || 0) + v;
	const total = Object.values(sources).reduce((a, v) => a + v, 0) || 1;

	box.append(el('h3', {}, 'Overhead by source, all ranks'));
	box.append(el('table', { class: 'data sources' }, el('tbody', {}, Object.entries(sources)
		.sort((a, b) => b[1] - a[1]).map(([k, v]) =>
			el('tr', {}, el('td', {}, k), el('td', { class: 'num' }, fmtSec(v)),
				el('td', { class: 'num' }, pctBar(100 * v / total)))))));
}

function main() {
	const blob = JSON.parse(document.getElementById('cpperf-data').textContent);
	const data = blob.report;

	if (blob.diff) {	/* cpperf diff's page */
		startDiff(blob.diff);
		return;
	}
	addView('summary', 'Summary', (b) => buildSummary(b, data));
	addView('flame', 'Flame graph', (b) => buildFlame(b, data, blob.min_pct, blob.rank_trees));
	addView('functions', 'Functions', (b) => buildFunctions(b, data));
	addView('ranks', 'Ranks', (b) => buildRanks(b, data));
	addView('mpi', 'MPI', (b) => buildMpi(b, data));
	if (data.waits)
		addView('waits', 'Waits', (b) => buildWaits(b, data));
	if (data.clusters || data.graph)
		addView('classes', 'Classes', (b) => buildClasses(b, data));
	if (data.concurrency)
		addView('threads', 'Threads', (b) => buildThreads(b, data));
	addView('cp', 'Critical path', (b) => buildCp(b, data));
	addView('compensation', 'Compensation', (b) => buildCompensation(b, data));
	startPage(data);
}

main();
