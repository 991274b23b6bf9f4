"""headless.py - what the checks in headless Chromium share
(check-page.py, check-speedscope.py): Selenium or a skip, the browser
started without any network, and TAP lines numbered on from the calling
test's own.
"""
import os
import sys
import tempfile

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
except ImportError as e:
    print(f"# skip: python3-selenium is not installed ({e})")
    sys.exit(2)


class Tap:
    """TAP lines numbered from first, without a plan; done() prints
    "# count N", the number printed, for the calling test to add."""

    def __init__(self, first):
        self.n = first - 1
        self.count = 0

    def __call__(self, ok, name, *diag):
        self.n += 1
        self.count += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}")
        if not ok:
            for d in diag:
                print(f"#   {d}")
        return ok

    def done(self):
        print(f"# count {self.count}")


def start(width, height):
    """Headless Chromium (CHROMIUM, CHROMEDRIVER) of a window of that size,
    its console logged; exits 2 saying "# skip: WHY" when it does not start."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    # no network at all: the pages must not need it, and the browser's own
    # services would only fail on a closed network
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync",
              f"--window-size={width},{height}", f"--user-data-dir={tempfile.mkdtemp()}"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                                options=opts)
    except WebDriverException as e:
        print(f"# skip: headless Chromium did not start: {str(e).splitlines()[0]}")
        sys.exit(2)
