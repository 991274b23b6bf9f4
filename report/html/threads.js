/*
 * threads.js - the Threads view over the report's thread activity
 * (docs/threads.md): the run's parallel efficiency, each thread's work,
 * spin and idle time as bars, and the functions' sequential and
 * concurrent shares, the idleness blamed on them and their spin.
 */
'use strict';

/* Seconds that n samples of the classified event stand for. */
function actSec(data, n) {
	return (n || 0) * data.concurrency.window_ns / 1e9;
}

function buildThreads(box, data) {
	const c = data.concurrency, ev = c.event;
	const threads = data.threads || [];
	const col = (r, k) => (r[k] && r[k][ev]) || 0;
	const work = (r) => col(r, 'sequential') + col(r, 'concurrent');
	const fns = (data.flat || []).filter((r) => work(r) + col(r, 'spin') > 0);
	const chart = el('div');

	box.append(el('h2', {}, 'Threads'), el('p', { class: 'note' },
		`Parallel efficiency ${fmtPct(100 * c.efficiency)}: work ${fmtSec(actSec(data, c.work))} of ` +
		`${fmtSec(actSec(data, c.work + c.spin + c.idle))} of thread time (spin ` +
		`${fmtSec(actSec(data, c.spin))}, idle ${fmtSec(actSec(data, c.idle))}); ` +
		`${c.mean_working_threads.toFixed(2)} threads working at a working sample on average. ` +
		`From the samples of ${ev}: a thread works when it has one out of a runtime's wait within ` +
		`${(c.window_ns / 1e6).toFixed(2)} ms.`), chart);
	stackedBars(chart, threads.map((t) => ({
		label: t.rank === null ? String(t.tid) : `${t.rank}:${t.tid}`,
		parts: [actSec(data, t.work), actSec(data, t.spin), actSec(data, t.idle)] })),
	['work', 'spin', 'idle'], ['c-compute', 'c-mpi', 'c-blocked'], 'seconds', null, 'thread');
	box.append(el('h3', {}, 'Functions'), el('p', { class: 'note' },
		'Inclusive: a sample counts once however often the function is on its path. Sequential: ' +
		'no other thread of the process worked; idle blame: the idle threads over the working ones ' +
		'at each of its samples.'));
	sortableTable(box, fns, [
		{ title: 'function', get: (r) => r.function },
		{ title: 'work', get: (r) => work(r), show: (r) => fmtSec(actSec(data, work(r))), num: true },
		{ title: 'sequential %', get: (r) => work(r) ? 100 * col(r, 'sequential') / work(r) : 0,
			show: (r) => pctBar(work(r) ? 100 * col(r, 'sequential') / work(r) : 0), num: true },
		{ title: 'concurrent %', get: (r) => work(r) ? 100 * col(r, 'concurrent') / work(r) : 0,
			show: (r) => fmtPct(work(r) ? 100 * col(r, 'concurrent') / work(r) : 0), num: true },
		{ title: 'idle blame', get: (r) => col(r, 'idle_blame'),
			show: (r) => fmtSec(actSec(data, col(r, 'idle_blame'))), num: true },
		{ title: 'spin', get: (r) => col(r, 'spin'), show: (r) => fmtSec(actSec(data, col(r, 'spin'))), num: true },
		{ title: 'threads', get: (r) => r.concurrency, show: (r) => r.concurrency.toFixed(2), num: true },
		{ title: 'module', get: (r) => r.module_name || '' },
	], { sortBy: 1, cls: 'threads-fns' });
}
