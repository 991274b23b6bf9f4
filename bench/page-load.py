#!/usr/bin/python3
"""page-load.py - how long a report page takes to show in headless
Chromium, for `make bench`: page-load.py PAGE.html [ROUNDS].

Prints the median over ROUNDS (default 3) fresh loads of the first paint
and of the load event, in ms from the navigation's start, then the time
each view takes to build when first shown, and the number of console
errors.  Exits 2, saying why, without Selenium or Chromium.
"""
import os
import statistics
import sys
import tempfile

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError as e:
    print(f"page-load: no python3-selenium ({e})")
    sys.exit(2)

page = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
opts = webdriver.ChromeOptions()
opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--window-size=1400,1000", f"--user-data-dir={tempfile.mkdtemp()}"):
    opts.add_argument(a)
opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
try:
    drv = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                           options=opts)
except Exception as e:  # the browser could not start
    print(f"page-load: headless Chromium did not start: {str(e).splitlines()[0]}")
    sys.exit(2)
paint, load, errors = [], [], 0
try:
    for _ in range(rounds):
        drv.get("about:blank")
        drv.get("file://" + page)
        t = drv.execute_script(
            "const p = performance.getEntriesByName('first-contentful-paint')[0];"
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [p ? p.startTime : -1, n.loadEventEnd];")
        paint.append(t[0])
        load.append(t[1])
        errors += sum(1 for e in drv.get_log("browser") if e["level"] == "SEVERE")
    views = drv.execute_script("return [...document.querySelectorAll('nav a')].map(a => a.id.slice(4))")
    build = {}
    for v in views:
        build[v] = drv.execute_script(
            "const t = performance.now(); window.location.hash = arguments[0];"
            "window.dispatchEvent(new HashChangeEvent('hashchange'));"
            "return performance.now() - t;", v)
    errors += sum(1 for e in drv.get_log("browser") if e["level"] == "SEVERE")
finally:
    drv.quit()
print(f"first_paint_ms {statistics.median(paint):.0f}")
print(f"load_ms {statistics.median(load):.0f}")
print("views_ms " + " ".join(f"{v}={ms:.0f}" for v, ms in build.items()))
print(f"console_errors {errors}")
