#!/usr/bin/python3
"""check-speedscope.py - a `cpperf report --format=speedscope` file read by
speedscope's own reader: speedscope's page (its npm package) in headless
Chromium imports the file through its file input (tests/integration/formats.t).

Usage: check-speedscope.py SPEEDSCOPE_INDEX.html PROFILE.json FIRST_TAP_NUMBER

Prints TAP lines (numbered from FIRST_TAP_NUMBER, no plan) and, last,
"# count N".  Exits 2 when Selenium or the browser cannot start, after
saying why on stdout as "# skip: WHY".
"""
import json
import os
import sys
import time

import headless
from selenium.webdriver.common.by import By

index, profile = sys.argv[1], sys.argv[2]
tap = headless.Tap(int(sys.argv[3]))
doc = json.load(open(profile))
drv = headless.start(1400, 900)

try:
    drv.get("file://" + os.path.abspath(index))
    inputs = drv.find_elements(By.CSS_SELECTOR, "input[type=file]")
    tap(len(inputs) == 1, "speedscope's page has its file input", f"{len(inputs)} inputs")
    if inputs:
        inputs[0].send_keys(os.path.abspath(profile))
    want = f"{doc['profiles'][0]['name']} (1/{len(doc['profiles'])})"
    body = ""
    for _ in range(40):	# up to 10 s for the import and the first drawing
        body = drv.find_element(By.TAG_NAME, "body").text
        if want in body:
            break
        time.sleep(0.25)
    log = drv.get_log("browser")
    tap(any("Importing as speedscope json file" in e["message"] for e in log),
        "speedscope reads it as its own format", *[e["message"][:200] for e in log[-5:]])
    tap(want in body, f"speedscope shows its first profile of {len(doc['profiles'])}: {want!r}",
        f"page text {body[:300]!r}")
    errors = [e["message"][:300] for e in log if e["level"] == "SEVERE"]
    tap(not errors, "speedscope logs no error", *errors)
finally:
    drv.quit()
tap.done()
