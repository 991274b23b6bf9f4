#!/usr/bin/python3
"""check-page.py - the report page in headless Chromium, checked against
the JSON report of the same experiment (tests/integration/html.t).

Usage: check-page.py PAGE.html REPORT.json SCREENSHOT_DIR HOSTILE_NAME FIRST_TAP_NUMBER [MODE
       [PAGE.html REPORT.json MODE]...]

Each further PAGE, REPORT and MODE is checked after the first in the same
browser (one start of Chromium for them all), each from a blank page, with
the window's first size and the console's log emptied, as a browser of
its own would be.

Modes check one part of the page instead of all views:
  blocks   (a job of more than 128 ranks) the matrix: its blocks of ranks
           hold the JSON's sums, and a click zooms into one;
  waits    (tests/progs/mpi-waits.c) the Waits view against the JSON's
           "waits", and the Classes view when the JSON has classes;
  classes  the Classes view alone;
  serial   (not MPI) there is neither a Waits nor a Classes view;
  diff     (cpperf diff's page, REPORT its JSON) a view per table, whose
           rows and first row are the JSON's;
  summary  the first screen's findings alone (every mode "all" checks them).

Prints TAP lines (numbered from FIRST_TAP_NUMBER, no plan) and, last,
"# count N" with the number of tests it printed.  Exits 2 when Selenium or
the browser cannot start, after saying why on stdout as "# skip: WHY".
"""
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

import headless
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

page, report_path, shots, hostile, first = sys.argv[1:6]
jobs = [(page, report_path, sys.argv[6] if len(sys.argv) > 6 else "all")]
rest = sys.argv[7:]
if len(rest) % 3:
    sys.exit("check-page.py: a further page needs its PAGE.html, REPORT.json and MODE")
jobs += [tuple(rest[i:i + 3]) for i in range(0, len(rest), 3)]
tap = headless.Tap(int(first))


drv = headless.start(1400, 1000)
first_size = drv.get_window_size()


def show(view):
    drv.get(url + "#" + view)
    drv.execute_script("window.location.hash = arguments[0];", view)
    return drv.find_element(By.ID, "view-" + view)


def shot(view):
    os.makedirs(shots, exist_ok=True)
    drv.save_screenshot(os.path.join(shots, view + ".png"))


def no_alert():
    try:
        drv.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def fmt_pct(p):
    """As the page's toFixed: the double's exact value rounded, a tie up
    (Python's format rounds a tie to even: 50.25 is 50.2 there, 50.3 on
    the page)."""
    q = Decimal("0.1") if p >= 10 else Decimal("0.01")
    return f"{Decimal(p).quantize(q, rounding=ROUND_HALF_UP)} %"


def fmt_count(n):
    return f"{n:,}"


def dense_counts(matrix):
    """The message counts of the JSON matrix as rows, from its pairs."""
    n = matrix["ranks"]
    m = [[0] * n for _ in range(n)]
    for src, dst, count, _ in matrix["pairs"]:
        m[src][dst] = count
    return m


def cells_first():
    """The matrix's cells: how many, and the first one's data-from ("" without
    a cell) and data-value (None without a cell)."""
    return drv.execute_script(
        "const c = document.querySelectorAll('.heatmap rect');"
        "return [c.length, c.length ? c[0].getAttribute('data-from') : '',"
        " c.length ? c[0].getAttribute('data-value') : null]")


def check_blocks():
    """The matrix of a large job: blocks summed, a click zooms into one."""
    show("mpi")
    m = dense_counts(report["mpi"]["matrix"])
    # counted in the page: a WebDriver reference to each of 16 384 cells
    # takes seconds
    ncells, first, value = cells_first()
    lo, hi = (int(x) for x in first.split("-")) if "-" in first else (0, -1)
    want = sum(m[r][c] for r in range(lo, hi + 1) for c in range(lo, hi + 1))
    tap(ncells == 128 * 128 and value == str(want),
        f"matrix of {len(m)} ranks: 128 x 128 blocks, the first the JSON's sum over ranks {first}",
        f"{ncells} cells, first {first} value {value} want {want}")
    # the block on the diagonal's second row: neighbours exchange there
    blk = drv.find_element(By.CSS_SELECTOR, ".heatmap rect[data-from='%d-%d'][data-to='%d-%d']"
                           % (hi + 1, 2 * hi + 1, hi + 1, 2 * hi + 1))
    drv.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", blk)
    zoomed = drv.find_elements(By.CSS_SELECTOR, ".heatmap rect")
    bad = [f"cell ({z.get_attribute('data-from')},{z.get_attribute('data-to')}): {z.get_attribute('data-value')}"
           for z in zoomed
           if z.get_attribute("data-value") != str(m[int(z.get_attribute("data-from"))][int(z.get_attribute("data-to"))])]
    tap(len(zoomed) == (hi + 1) ** 2 and not bad, "a click on a block zooms into its ranks, cell by cell as the JSON",
        f"{len(zoomed)} cells", *bad[:5])
    shot("mpi-zoomed")
    drv.find_element(By.CSS_SELECTOR, ".matrix-reset").click()
    tap(cells_first()[0] == 128 * 128, "'whole matrix' comes back")


def parse_sec(text):
    """Seconds from a cell of the page's fmtSec ("2.000 s", "3.1 ms"...),
    its first line; None when it holds no time."""
    first = text.split("\n")[0].strip()
    if first == "0":
        return 0.0
    for unit, scale in (("µs", 1e-6), ("ms", 1e-3), ("s", 1.0)):
        if first.endswith(" " + unit):
            return float(first[:-len(unit) - 1]) * scale
    return None


def texts(selector):
    """The shown texts of the elements selector matches, asked of the page
    in one call (one call per element takes seconds for a table of 500 rows)."""
    return drv.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText.trim())", selector)


def table(cls):
    """The headers and the rows' cell texts of table.CLS."""
    heads = [h.rstrip(" ▲▼") for h in texts(f"table.{cls} th")]
    rows = drv.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".map((r) => [...r.querySelectorAll('td')].map((c) => c.innerText.trim()))", f"table.{cls} tbody tr")
    return heads, rows


def console_clean(what):
    errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
    tap(not errors, f"{what}: no console errors", *[e["message"][:300] for e in errors])


def recv_late_sender(sfx, title):
    """The largest Late Sender of an MPI_Recv site, in the Waits table as
    the page shows it under column title, and in the JSON (key suffix
    sfx)."""
    heads, rows = table("waits-sites")
    col = heads.index(title) if title in heads else -1
    page = [parse_sec(r[col]) for r in rows if col >= 0 and r and r[0] == "MPI_Recv"]
    want = max(s.get("late_sender" + sfx, 0) for s in report["waits"]["sites"] if s["function"] == "MPI_Recv")
    return max([p for p in page if p is not None], default=None), want, heads


def check_waits():
    """The Waits view against the JSON's "waits" of mpi-waits.c."""
    w = report["waits"]
    sec = show("waits")
    tab = drv.find_elements(By.ID, "tab-waits")
    tap(len(tab) == 1 and sec.is_displayed() and "Wait states" in sec.text, "waits: the Waits tab shows its view",
        f"tabs {len(tab)}, text {sec.text[:200]!r}")
    shot("waits-states")
    got, want, heads = recv_late_sender("", "Late Sender")
    # the page shows milliseconds: it agrees to half of one
    tap(got is not None and got > 1.5 and abs(got - want) <= 0.0005 + 1e-9,
        "waits: an MPI_Recv site's Late Sender over 1.5 s, the JSON's", f"page {got} json {want}", f"headers {heads}")
    _, rows = table("waits-sites")
    tap(len(rows) == len(w["sites"]), "waits: one row per call site", f"page {len(rows)} json {len(w['sites'])}")
    heads, rows = table("waits-pairs")
    ls = heads.index("Late Sender") if "Late Sender" in heads else -1
    late = [r for r in rows if ls >= 0 and (parse_sec(r[ls]) or 0) > 1.5]
    tap(len(rows) == len(w["pairs"]) and len(late) == 1 and late[0][0].startswith("MPI_Send (") and
        late[0][1].startswith("MPI_Recv ("),
        "waits: one row per pair of sites, MPI_Send → MPI_Recv the one with the Late Sender",
        f"page {len(rows)} json {len(w['pairs'])}", *[str(r) for r in rows[:4]])
    sites = {s["id"]: s["function"] for s in report["mpi"]["callsites"]}
    heads, rows = table("waits-culprits")
    want = [sites.get(c["site"]) for c in w["culprits"]]
    tap(rows and rows[0][0] == "MPI_Send" and [r[0] for r in rows] == want,
        "waits: the culprits are the JSON's, an MPI_Send first", f"page {[r[:1] for r in rows]}", f"json {want}")
    comp = [o for o in drv.find_elements(By.CSS_SELECTOR, ".waits-time option") if o.get_attribute("value")]
    if "late_sender_comp" in w["sites"][0]:
        drv.execute_script("const s = document.querySelector('.waits-time'); s.value = '_comp';"
                           "s.dispatchEvent(new Event('change'))")
        got, want, heads = recv_late_sender("_comp", "Late Sender (comp)")
        tap(comp and got is not None and abs(got - want) <= 0.0005 + 1e-9,
            "waits: compensated times show the JSON's compensated Late Sender", f"page {got} json {want}",
            f"headers {heads}")
        shot("waits-comp")
    else:
        tap(not comp, "waits: no choice of compensated times without compensation data")
    console_clean("waits")


def drawn_nodes(c):
    """The sites of class c that the page draws: the 30 of most time, then
    calls."""
    return {n["site"] for n in sorted(c["nodes"], key=lambda n: (-(n["time"] or 0), -n["calls"]))[:30]}


def classes_drawn():
    """What the Classes view draws, asked of the page in one call (a call
    per box and per arrow took seconds for 10 classes of 30 sites): per
    class group drawn, its data-ranks, its boxes' [data-site, shown label]
    and its computation edges; and the message edges' tooltips.  A label
    is read as WebDriver's text would be: '' when it is not shown (hidden
    or of no width), whitespace collapsed."""
    return drv.execute_script(
        "const shown = (t) => t && t.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) &&"
        " t.getBoundingClientRect().width > 0 ? t.textContent.replace(/\\s+/g, ' ').trim() : '';"
        "const graph = 'svg.classes-graph';"
        "return [[...document.querySelectorAll(graph + ' g.class')].map((g) => [g.getAttribute('data-ranks'),"
        " [...g.querySelectorAll('g.node')].map((n) => [n.getAttribute('data-site'), shown(n.querySelector('text'))]),"
        " g.querySelectorAll('path.edge.comp').length]),"
        " [...document.querySelectorAll(graph + ' g.messages path.edge.msg')]"
        ".map((p) => p.querySelector('title').textContent)]")


def check_classes():
    """The Classes view against the JSON's "clusters" and "graph"."""
    classes = report["graph"]["classes"]
    what = f"classes ({len(classes)})"
    shown = classes[:10]
    drawn = [drawn_nodes(c) for c in shown]
    sec = show("classes")
    _, rows = table("classes")
    tap(len(drv.find_elements(By.ID, "tab-classes")) == 1 and sec.is_displayed() and
        len(rows) == len(report["clusters"]) and
        sorted(r[0] for r in rows) == sorted(c["ranks"] for c in report["clusters"]),
        f"{what}: the Classes tab shows a row per class, with its ranks",
        f"page {rows[:5]}", f"json {report['clusters'][:5]}")
    shot(f"classes-{len(classes)}")
    groups, tips = classes_drawn()
    ranks = [g[0] for g in groups]
    tap(len(groups) == len(shown) and ranks == [c["ranks"] for c in shown],
        f"{what}: a group per class drawn, the first {len(shown)}", f"page {ranks}")
    names = {s["id"]: s["function"] for s in report["mpi"]["callsites"]}
    label = {i: f if len(f) <= 22 else f[:21] + "…" for i, f in names.items()}
    bad = []
    for i, (_, boxes, _) in enumerate(groups[:len(shown)]):
        nodes = {int(site): text for site, text in boxes}
        want = {s: label.get(s, f"site {s}") for s in drawn[i]}
        if nodes != want:
            bad.append(f"class {shown[i]['ranks']}: page {nodes} want {want}")
    tap(groups and not bad, f"{what}: each group draws a box per call site of its class, named by its function",
        *bad[:3])
    bad = []
    for i, (_, _, got) in enumerate(groups[:len(shown)]):
        want = sum(1 for e in shown[i]["edges"] if e["from"] in drawn[i] and e["to"] in drawn[i])
        if got != want:
            bad.append(f"class {shown[i]['ranks']}: {got} computation edges, want {want}")
    tap(groups and not bad, f"{what}: an arrow per computation edge between boxes drawn", *bad[:3])
    # a class lists the messages it received and those it sent
    msgs = [m for i, c in enumerate(shown) for m in c["messages"]
            if m["recv_class"] == i and m["send_class"] is not None and m["send_class"] < len(shown) and
            m["send_site"] in drawn[m["send_class"]] and m["recv_site"] in drawn[i]]
    tips = sorted(tips)
    want_tips = [f": {fmt_count(m['count'])} messages," for m in msgs]
    tap(len(tips) == len(msgs) and all(any(w in t for t in tips) for w in want_tips),
        f"{what}: an arrow per message edge between boxes drawn, its messages in its tooltip",
        f"page {len(tips)} want {len(msgs)}", *tips[:3])
    text = sec.text
    capped = len(classes) > 10, any(len(c["nodes"]) > 30 for c in classes)
    said = f"first 10 of {len(classes)} classes" in text, "show the 30 of most time" in text
    tap(capped == said, f"{what}: the view says when it leaves classes or call sites out",
        f"over the caps {capped}, said {said}")
    console_clean(what)


def check_serial():
    """A serial experiment: neither view, and its fragment shows the summary."""
    drv.get(url + "#waits")
    tabs = [t.get_attribute("id") for t in drv.find_elements(By.CSS_SELECTOR, "#tabs a")]
    tap("tab-summary" in tabs and "tab-waits" not in tabs and "tab-classes" not in tabs and
        not drv.find_elements(By.ID, "view-waits") and not drv.find_elements(By.ID, "view-classes"),
        "serial: no Waits or Classes tab", f"tabs {tabs}")
    summary = drv.find_element(By.ID, "view-summary")
    tap(summary.is_displayed() and "not an MPI program" in summary.text,
        "serial: #waits shows the summary instead", f"summary {summary.text[:200]!r}")
    # every event a column, and the derived metrics: the top row's as the JSON's
    show("functions")
    heads = [h.text.rstrip(" ▲▼") for h in drv.find_elements(By.CSS_SELECTOR, "table.functions th")]
    events = [e["name"] for e in report["experiment"]["events"]]
    metrics = [m["name"] for m in report["experiment"].get("metrics", [])]
    row = [c.text for c in drv.find_elements(By.CSS_SELECTOR, "table.functions tbody tr:first-child td")]
    fn = next((f for f in report["flat"] if row and f["function"] == row[0]), None)
    def near(page, json):
        """A metric as the page shows it (4 significant digits) against the JSON's."""
        if json is None:
            return page == "-"
        try:
            return abs(float(page) - json) <= 1e-3 * abs(json)
        except (TypeError, ValueError):
            return False
    want = [fmt_count(fn["self"][e]) for e in events[1:]] + \
        [fn["metrics"][m]["self"] for m in metrics] if fn else []
    got = [row[heads.index(t)] if t in heads else None for t in events[1:] + metrics]
    n = len(events) - 1
    tap(len(events) == 3 and len(metrics) >= 1 and len(want) == len(got) and got[:n] == want[:n] and
        all(near(g, w) for g, w in zip(got[n:], want[n:])),
        "serial: a column per other event and per metric, the top row's values the JSON's",
        f"headers {heads}", f"page {got}", f"json {want}")
    console_clean("serial")


def check_diff():
    """cpperf diff's page: a tab per table of the JSON, each table's rows
    and its first row (the largest change) as the JSON's."""
    drv.get(url)
    tabs = [t.get_attribute("id")[4:] for t in drv.find_elements(By.CSS_SELECTOR, "#tabs a")]
    keys = [k for k in ("functions", "callpaths", "critical_path", "mpi") if k in report]
    tap(tabs == [k.replace("_", "-") for k in keys], "diff: a tab per table", f"tabs {tabs}", f"json {keys}")
    for k in keys:
        sec = show(k.replace("_", "-"))
        rows = sec.find_elements(By.CSS_SELECTOR, "table.diff tbody tr")
        first = [c.text for c in rows[0].find_elements(By.TAG_NAME, "td")] if rows else []
        label, nlabels = ("path", 1) if k == "callpaths" else ("function", 2)
        want = report[k][0] if report[k] else None
        delta = next(iter(want["delta"].values())) if want else 0
        change = first[nlabels + 2] if len(first) > nlabels + 2 else ""
        ok_first = want is None or (first[0] == want[label] and change.startswith("+") == (delta > 0) and
                                    change.startswith("-") == (delta < 0))
        tap(len(rows) == min(len(report[k]), 500) and ok_first,
            f"diff: {k}: {len(report[k])} rows, the first the JSON's", f"page rows {len(rows)}",
            f"first {first[:6]}", f"json {want[label] if want else None}")
    console_clean("diff")


def check_threads():
    """The Threads view: a bar per thread, and the functions' sequential
    and concurrent shares as the JSON's."""
    sec = show("threads")
    shot("threads")
    bars = drv.find_elements(By.CSS_SELECTOR, "#view-threads .chart .bar")
    tap(len(bars) == len(report["threads"]), "threads: a bar per thread",
        f"{len(bars)} bars, {len(report['threads'])} threads")
    eff = f"{100 * report['concurrency']['efficiency']:.1f} %"
    tap(f"Parallel efficiency {eff}" in sec.text, "threads: the efficiency is the JSON's",
        f"want {eff}", f"text {sec.text[:200]!r}")
    ev = report["concurrency"]["event"]
    heads, rows = table("threads-fns")
    seq, conc = heads.index("sequential %"), heads.index("concurrent %")
    bad = []
    for want in ("serial_part", "parallel_work"):
        f = next(x for x in report["flat"] if x["function"] == want)
        work = f["sequential"][ev] + f["concurrent"][ev]
        row = next((r for r in rows if r and r[0] == want), None)
        shares = (fmt_pct(100 * f["sequential"][ev] / work), fmt_pct(100 * f["concurrent"][ev] / work))
        if row is None or not row[seq].endswith(shares[0]) or row[conc] != shares[1]:
            bad.append(f"{want}: page {row and (row[seq], row[conc])}, json {shares}")
    tap(not bad, "threads: serial_part's and parallel_work's sequential and concurrent shares "
        "are the JSON's", f"headers {heads}", *bad)
    console_clean("threads")


def rank_compute():
    """Each rank's MPI region less its MPI time, as the JSON says."""
    return {r["rank"]: max(r["wall"] - r["mpi_time"], 0) for r in report["ranks"]}


def most_computing():
    """The rank that computes longest."""
    comp = rank_compute()
    return max(comp, key=comp.get)


def check_first_screen():
    """The first screen, 1400 x 900 without scrolling, answers: the top
    function and its share, the critical path's top function, the rank
    that computes most, the costliest MPI call site (not set-up)."""
    drv.set_window_size(1400, 900)
    show("summary")
    height = drv.execute_script("return window.innerHeight")
    found = {li.get_attribute("data-finding"): li for li in drv.find_elements(By.CSS_SELECTOR, ".findings li")}
    site = next(s for s in report["mpi"]["callsites"]
                if s["function"] not in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize"))
    want = {
        "top-function": f"{report['flat'][0]['function']} {fmt_pct(report['flat'][0]['self_pct'])}",
        "cp-function": f"critical path: {report['critical_path']['functions'][0]['function']} ",
        "ranks": f"rank {most_computing()} computes most",
        "mpi-site": f"{site['function']} from {site['callpath'][-1]['function']} ",
    }
    for key, text in want.items():
        li = found.get(key)
        tap(li is not None and text in li.text and li.rect["y"] + li.rect["height"] <= height,
            f"first screen: {key} says {text.strip()!r}, above the fold",
            f"finding {li.text if li else None!r}",
            f"bottom {li.rect['y'] + li.rect['height'] if li else None} of {height}")
    links = [a.get_attribute("href").split("#")[-1] for a in drv.find_elements(By.CSS_SELECTOR, ".findings a")]
    tap(set(links) >= {"functions", "cp", "ranks", "mpi"}, "first screen: each finding links to its view",
        f"links {links}")
    shot("summary-findings")
    if found.get("mpi-site"):
        found["mpi-site"].find_element(By.TAG_NAME, "a").click()
        tap(drv.find_element(By.ID, "view-mpi").is_displayed(), "first screen: the MPI finding's link opens the MPI view")


def check(mode):
    """The checks of MODE on the page at url against report."""
    if mode == "blocks":
        check_blocks()
    elif mode == "waits":
        check_waits()
        if "graph" in report:
            check_classes()
    elif mode == "classes":
        check_classes()
    elif mode == "serial":
        check_serial()
    elif mode == "threads":
        check_threads()
    elif mode == "diff":
        check_diff()
    elif mode == "summary":
        check_first_screen()
    else:
        # every view builds, with no error in the console and no request
        views = ["summary", "flame", "functions", "ranks", "mpi", "cp", "compensation"] + \
            [v for v, key in (("waits", "waits"), ("classes", "graph")) if key in report]
        for v in views:
            sec = show(v)
            tap(sec.is_displayed() and len(sec.text) > 20, f"view {v}: shown, with content",
                f"text: {sec.text[:200]!r}")
            shot(v)
        errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
        tap(not errors, "no console errors", *[e["message"][:300] for e in errors])
        resources = drv.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        tap(resources == [], "no network request of any kind", f"requests: {resources[:5]}")
        tap(drv.title.startswith("cpperf: "), "the title names the command", f"title {drv.title!r}")

        # critical path: the form the JSON gives (the whole path here)
        form = report["critical_path"].get("form")
        text = show("cp").text
        want = "whole path" if form == "whole" else "latest part"
        tap(form in ("whole", "latest") and want in text, f"cp: the view says the path's form ({form})",
            f"text: {text[:300]!r}")

        # functions: the top function and its share, as in the JSON
        show("functions")
        ev = report["experiment"]["events"][0]["name"]
        top = max(report["flat"], key=lambda f: f["self"].get(ev, 0))
        cells = drv.find_elements(By.CSS_SELECTOR, "table.functions tbody tr:first-child td")
        got = [c.text for c in cells]
        tap(got[:1] == [top["function"]], "functions: the top function is the JSON's",
            f"page {got[:1]}", f"json {top['function']!r}")
        tap(len(got) > 2 and got[2].endswith(fmt_pct(top["self_pct"])),
            "functions: its self % is the JSON's", f"page {got[2:3]}", f"json {fmt_pct(top['self_pct'])}")
        heads, rows = table("functions")
        row_b = next((r for r in rows if r and r[0] == "compute_b"), None)
        want_b = next(f["ranks"]["max_rank"] for f in report["flat"] if f["function"] == "compute_b")
        at = heads.index("max at rank") if "max at rank" in heads else -1
        tap(row_b is not None and at >= 0 and row_b[at] == str(want_b),
            "functions: compute_b's rank of the max is the JSON's", f"headers {heads}", f"row {row_b}")
        drv.find_element(By.CSS_SELECTOR, "table.functions th[data-col='0']").click()
        names = texts("table.functions tbody td:first-child")
        in_order = drv.execute_script(
            "const n = arguments[0]; return n.every((x, i) => !i || n[i - 1].localeCompare(x) <= 0)", names)
        tap(len(names) > 3 and in_order and names[0] != top["function"],
            "functions: sorting by function puts the names in order", f"first names: {names[:5]}")
        files = texts("table.functions tbody td:last-child")
        tap(any(hostile in f for f in files), "the markup in a file name shows as text",
            f"files: {files[:5]}")
        tap(no_alert() and drv.execute_script("return document.querySelectorAll('img').length") == 0,
            "and runs nothing: no alert, no image element")

        # flame graph: zoom and search
        show("flame")
        before = drv.execute_script("return document.querySelectorAll('.flame-svg rect').length")
        target = drv.execute_script("return [...document.querySelectorAll('.flame-svg rect')]"
                                    ".filter((r) => r.dataset.function === 'compute_a')")
        tap(bool(target), "flame: a frame for compute_a is drawn", f"{before} frames")
        if target:
            drv.execute_script("arguments[0].parentNode.dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                               target[0])
            # the graph's width after the zoom (a scroll bar may have come or gone)
            width = float(drv.find_element(By.CSS_SELECTOR, ".flame-svg").get_attribute("width"))
            first_rect = drv.find_element(By.CSS_SELECTOR, ".flame-svg rect")
            zoomed_w = float(first_rect.get_attribute("width"))
            tap(first_rect.get_attribute("data-function") == "compute_a" and zoomed_w >= width - 2,
                "flame: clicking compute_a zooms into it (it spans the width)",
                f"top frame {first_rect.get_attribute('data-function')!r} width {zoomed_w} of {width}")
            shot("flame-zoomed")
            drv.find_element(By.CSS_SELECTOR, ".flame-reset").click()
            top_rect = drv.find_element(By.CSS_SELECTOR, ".flame-svg rect")
            after = len(drv.find_elements(By.CSS_SELECTOR, ".flame-svg rect"))
            tap(top_rect.get_attribute("data-function") == "<root>" and abs(after - before) <= before // 10,
                "flame: 'whole tree' draws the tree again from its root",
                f"top frame {top_rect.get_attribute('data-function')!r}, {after} frames against {before}")

        # the ranks' own trees: every rank of this 4-rank job, the ranks that
        # compute most and least named as the JSON's times say
        opts = [o.text for o in drv.find_elements(By.CSS_SELECTOR, ".flame-tree option")]
        comp = rank_compute()
        most, least = max(comp, key=comp.get), min(comp, key=comp.get)
        tap(len(opts) == 1 + len(report["ranks"]) and opts[0] == "whole job" and
            f"rank {most} (computes most)" in opts and f"rank {least} (computes least)" in opts,
            "flame: a tree per rank, the most and least computing named", f"options {opts}",
            f"compute {comp}")
        whole = float(drv.find_element(By.CSS_SELECTOR, ".flame-svg rect").get_attribute("data-total"))
        drv.execute_script("const s = document.querySelector('.flame-tree'); s.value = '4';"
                           "s.dispatchEvent(new Event('change'))")
        one = float(drv.find_element(By.CSS_SELECTOR, ".flame-svg rect").get_attribute("data-total"))
        tap(0.1 * whole < one < 0.6 * whole, "flame: rank 3's tree holds its part of the samples",
            f"rank 3 {one} of {whole}")
        shot("flame-rank3")
        drv.execute_script("const s = document.querySelector('.flame-tree'); s.value = '0';"
                           "s.dispatchEvent(new Event('change'))")

        # inverted: the frames under the root are the functions that spent
        # the samples, the widest the JSON's top function by self samples
        drv.find_element(By.CSS_SELECTOR, ".flame-inverted").click()
        row1 = drv.execute_script(
            "return [...document.querySelectorAll('.flame-svg g.frame')]"
            ".filter(g => /,\\s*18\\)$/.test(g.getAttribute('transform')))"
            ".map(g => g.querySelector('rect'))"
            ".map(r => [r.dataset.function, +r.dataset.total])")
        top_fn = report["flat"][0]
        widest = max(row1, key=lambda r: r[1]) if row1 else ["", 0]
        want_self = top_fn["self"].get(ev, 0)
        tap(widest[0] == top_fn["function"] and abs(widest[1] - want_self) <= 0.01 * want_self,
            "flame: inverted, the widest caller-less frame is the top function with its self samples",
            f"widest {widest}, json {top_fn['function']!r} self {want_self}", f"{len(row1)} frames in the row")
        shot("flame-inverted")
        drv.find_element(By.CSS_SELECTOR, ".flame-inverted").click()

        def search_share(node):
            if "compute" in node["function"].lower():
                return node["total"].get(ev, 0)
            return sum(search_share(c) for c in node.get("children", []))
        want = 100 * search_share(report["callpath"]) / report["callpath"]["total"][ev]
        box = drv.find_element(By.CSS_SELECTOR, ".flame-search")
        box.send_keys("compute")
        info = drv.find_element(By.CSS_SELECTOR, ".flame-info")
        got_share = float(info.get_attribute("data-share") or -1)
        hits = drv.execute_script(
            "return [...document.querySelectorAll('.flame-svg rect')]"
            ".filter(r => r.getAttribute('fill') === 'var(--hit)').length")
        tap(hits > 0 and abs(got_share - want) < 0.01,
            "flame: searching 'compute' highlights frames and reports their share",
            f"{hits} highlighted, share {got_share} want {want:.4f}", f"info {info.text!r}")
        shot("flame-search")

        # MPI: the matrix cell (r, r + 1) holds the JSON count
        show("mpi")
        m = dense_counts(report["mpi"]["matrix"])
        bad = []
        for r in range(len(m) - 1):
            cell = drv.find_elements(By.CSS_SELECTOR, f".heatmap rect[data-from='{r}'][data-to='{r + 1}']")
            got = cell[0].get_attribute("data-value") if cell else None
            if got != str(m[r][r + 1]):
                bad.append(f"cell ({r},{r + 1}): page {got} json {m[r][r + 1]}")
        tap(len(m) >= 2 and not bad, f"mpi: matrix cells (r, r+1) hold the JSON counts ({len(m)} ranks)", *bad)
        rows = drv.find_elements(By.CSS_SELECTOR, "table.callsites tbody tr")
        tap(len(rows) == len(report["mpi"]["callsites"]), "mpi: one row per call site",
            f"page {len(rows)} json {len(report['mpi']['callsites'])}")

        # ranks: one bar per rank
        show("ranks")
        bars = drv.find_elements(By.CSS_SELECTOR, ".stacked g.bar")
        tap(len(bars) == len(report["ranks"]), "ranks: one bar per rank",
            f"page {len(bars)} json {len(report['ranks'])}")

        check_first_screen()


try:
    for page, report_path, mode in jobs:
        # as a fresh browser: a blank page first (a page loaded again
        # would not reload), the first window size, an empty console log
        drv.get("about:blank")
        drv.set_window_size(first_size["width"], first_size["height"])
        drv.get_log("browser")
        report = json.load(open(report_path))
        url = "file://" + os.path.abspath(page)
        try:
            check(mode)
        except Exception as e:  # the next page is checked all the same
            tap(False, f"{os.path.basename(page)} ({mode}): the checks ran to their end",
                f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
finally:
    drv.quit()
tap.done()
