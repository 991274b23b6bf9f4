/*
 * waits.js - the Waits view over the report's "waits" (docs/waits.md):
 * the MPI call sites' wait states, the pairs of sending and receiving
 * sites, and the culprits, the sending sites by the Late Sender time they
 * caused.  With compensation data, in measured or compensated times, as
 * chosen.
 */
'use strict';

/* The wait states, as the JSON names them and as the view titles them. */
const WAIT_STATES = [
	['late_sender', 'Late Sender'],
	['late_sender_wrong_order', 'Late Sender, wrong order'],
	['late_receiver', 'Late Receiver'],
	['wait_nxn', 'Wait at NxN'],
	['wait_barrier', 'Wait at Barrier'],
	['late_broadcast', 'Late Broadcast'],
	['early_reduce', 'Early Reduce'],
];

/* Seconds, their share of total under them; "0" for none. */
function secShare(s, total) {
	return s ? el('span', {}, fmtSec(s), el('br'), el('small', { class: 'share' }, fmtPct(100 * s / total))) : '0';
}

/* A column of seconds, key of its rows, with their share of total. */
function secColumn(key, title, total) {
	return { title, get: (r) => r[key] || 0, show: (r) => secShare(r[key] || 0, total), num: true };
}

/* The view's three tables into box, of the wait states' keys with suffix
 * sfx: '' for measured times, '_comp' for compensated ones. */
function waitTables(box, data, sfx) {
	const w = data.waits, total = mpiTime(data), sites = callSites(data);
	const states = WAIT_STATES.filter(([k]) => w.sites.some((s) => s[k] || s[k + '_comp']));
	const none = WAIT_STATES.filter((x) => !states.includes(x)).map(([, t]) => t);
	const waited = (s) => states.reduce((a, [k]) => a + (s[k + sfx] || 0), 0);
	const column = ([k, title]) => secColumn(k + sfx, sfx ? title + ' (comp)' : title, total);
	const ls = w.culprits.reduce((a, c) => a + (c['late_sender' + sfx] || 0), 0);

	box.append(el('p', { class: 'note' },
		'Per MPI call site, summed over the ranks: the time blocked waiting for another rank, by ' +
		`the cause, in seconds and % of the MPI time (${fmtSec(total)}); transmission is the ` +
		'blocked time less the waits, as measured.' + (none.length ? ` No call site had ${none.join(', ')}.` : '')));
	sortableTable(box, w.sites, [
		{ title: 'function', get: (s) => s.function },
		{ title: 'call path', get: (s) => shortPath(s.callpath) },
		{ title: 'all waits', get: waited, show: (s) => secShare(waited(s), total), num: true },
		...states.map(column),
		secColumn('transmission', 'transmission', total),
	], { sortBy: 2, cls: 'waits-sites' });

	box.append(el('h3', {}, 'Pairs of call sites'), el('p', { class: 'note' },
		'The messages from one call site to another, over all ranks, and the Late Sender time ' +
		'they caused at the receiving site, the Late Receiver time at the sending one.'));
	sortableTable(box, w.pairs, [
		{ title: 'sending site', get: (p) => siteName(sites, p.send_site) },
		{ title: 'receiving site', get: (p) => siteName(sites, p.recv_site) },
		{ title: 'messages', get: (p) => p.count, show: (p) => fmtCount(p.count), num: true },
		{ title: 'bytes', get: (p) => p.bytes, show: (p) => fmtBytes(p.bytes), num: true },
		...WAIT_STATES.filter(([k]) => k === 'late_sender' || k === 'late_receiver').map(column),
	], { sortBy: 4, cls: 'waits-pairs' });

	box.append(el('h3', {}, 'Culprits'), el('p', { class: 'note' },
		'The sending sites by the Late Sender time their messages caused at the receivers: ' +
		`where sending earlier pays most.  Bars: share of all Late Sender time (${fmtSec(ls)}).`));
	if (!w.culprits.length) {
		box.append(el('p', {}, 'No Late Sender time.'));
		return;
	}
	sortableTable(box, w.culprits, [
		{ title: 'sending site', get: (c) => (sites.get(c.site) || {}).function || `site ${c.site}` },
		{ title: 'call path', get: (c) => shortPath((sites.get(c.site) || {}).callpath) },
		column(WAIT_STATES[0]),
		{ title: 'share', get: (c) => c['late_sender' + sfx] || 0,
			show: (c) => pctBar(100 * (c['late_sender' + sfx] || 0) / (ls || 1)), num: true },
	], { sortBy: 2, cls: 'waits-culprits' });
}

/* The view; with compensation data, a choice of measured or compensated
 * times redraws its tables. */
function buildWaits(box, data) {
	const which = el('select', { class: 'waits-time', 'aria-label': 'times' },
		el('option', { value: '' }, 'measured times'), el('option', { value: '_comp' }, 'compensated times'));
	const tables = el('div');

	box.append(el('h2', {}, 'Wait states'));
	if (data.waits.sites.some((s) => 'late_sender_comp' in s))
		box.append(el('div', { class: 'toolbar' }, which));
	box.append(tables);
	function draw() {
		tables.replaceChildren();
		waitTables(tables, data, which.value);
	}
	which.addEventListener('change', draw);
	draw();
}
