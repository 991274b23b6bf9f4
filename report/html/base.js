/*
 * base.js - the page's common parts: the report's data (the JSON of
 * `cpperf report --format=json`, embedded in the page), element building
 * that only ever sets text (never markup from the profile), number
 * formats, MPI call sites and their paths, and the tabs, each reachable
 * by its URL fragment.
 */
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

/* An element with attributes and children; strings become text nodes. */
function el(tag, attrs, ...children) {
	const e = document.createElement(tag);

	for (const [k, v] of Object.entries(attrs || {})) {
		if (k === 'on')
			for (const [ev, fn] of Object.entries(v))
				e.addEventListener(ev, fn);
		else if (v !== undefined && v !== null && v !== false)
			e.setAttribute(k, v === true ? '' : String(v));
	}
	for (const c of children.flat())
		if (c !== undefined && c !== null && c !== false)
			e.appendChild(typeof c === 'string' || typeof c === 'number' ?
				document.createTextNode(String(c)) : c);
	return e;
}

/* An SVG element with attributes. */
function svg(tag, attrs) {
	const e = document.createElementNS(SVG_NS, tag);

	for (const [k, v] of Object.entries(attrs || {}))
		e.setAttribute(k, String(v));
	return e;
}

function svgText(x, y, text, attrs) {
	const t = svg('text', Object.assign({ x, y }, attrs || {}));

	t.textContent = text;
	return t;
}

/* e with a tooltip of text (an SVG title), for hover. */
function svgTip(e, text) {
	const t = svg('title');

	t.textContent = text;
	e.appendChild(t);
	return e;
}

function fmtPct(p) {
	return p === undefined || p === null ? '' : p.toFixed(p >= 10 ? 1 : 2) + ' %';
}

function fmtSec(s) {
	if (s === undefined || s === null)
		return '';
	if (s >= 1)
		return s.toFixed(3) + ' s';
	if (s >= 1e-3)
		return (s * 1e3).toFixed(3) + ' ms';
	return (s * 1e6).toFixed(1) + ' µs';
}

function fmtCount(n) {
	return n === undefined || n === null ? '' : n.toLocaleString('en-US');
}

function fmtBytes(b) {
	const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
	let i = 0;

	while (b >= 1024 && i < units.length - 1) {
		b /= 1024;
		i++;
	}
	return (i ? b.toFixed(1) : String(b)) + ' ' + units[i];
}

function where(n) {
	return n.file ? n.file + ':' + n.line : n.module_name || n.module || '';
}

/* The innermost frames of a call path (given root first), each caller
 * before its callee: "… → main → solve → exchange". */
function shortPath(callpath) {
	const names = (callpath || []).map((f) => f.function);

	return (names.length > 3 ? '… → ' : '') + names.slice(-3).join(' → ');
}

/* The MPI call sites (mpi.callsites) by id. */
function callSites(data) {
	return new Map(((data.mpi || {}).callsites || []).map((s) => [s.id, s]));
}

/* The call site of sites (callSites) by its id, as text: its function and
 * innermost frames. */
function siteName(sites, id) {
	const s = sites.get(id);

	if (id === null)
		return '? (no profile names it)';
	return s ? `${s.function} (${shortPath(s.callpath)})` : `site ${id}`;
}

/* The time of all MPI call sites, never 0 (a divisor). */
function mpiTime(data) {
	return ((data.mpi || {}).callsites || []).reduce((a, s) => a + (s.time || 0), 0) || 1;
}

/* The page's views, in tab order: id, title, builder (called once, when
 * first shown). */
const VIEWS = [];

function addView(id, title, build) {
	VIEWS.push({ id, title, build, built: false });
}

function showView(id) {
	const v = VIEWS.find((x) => x.id === id) || VIEWS[0];

	for (const x of VIEWS) {
		const sec = document.getElementById('view-' + x.id);
		const tab = document.getElementById('tab-' + x.id);

		sec.hidden = x !== v;
		tab.setAttribute('aria-selected', x === v ? 'true' : 'false');
	}
	if (!v.built) {
		v.built = true;
		v.build(document.getElementById('view-' + v.id));
	}
}

// The tabs and sections of the views added, the one the address names shown.
function startViews() {
	const nav = document.getElementById('tabs');
	const main = document.getElementById('views');

	for (const v of VIEWS) {
		nav.appendChild(el('a', { id: 'tab-' + v.id, href: '#' + v.id, role: 'tab' }, v.title));
		main.appendChild(el('section', { id: 'view-' + v.id, hidden: true }));
	}
	window.addEventListener('hashchange', () => showView(currentHash()));
	showView(currentHash());
}

function startPage(data) {
	startViews();
	document.title = 'cpperf: ' + (data.experiment.command || []).join(' ');
}

function currentHash() {
	return window.location.hash.replace(/^#/, '');
}
