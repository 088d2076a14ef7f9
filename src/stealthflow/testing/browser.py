"""A headless Chromium driven by selenium, for the page's browser test and its screenshot benchmark.

Debian's `chromium` and `chromium-driver` (`make browser`); selenium is imported when a browser starts.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
)


@contextmanager
def started_browser(width: int = 1280, height: int = 900, *extra_flags: str) -> Iterator:
    """A selenium Chrome driver of a headless Chromium window of `width` x `height` CSS pixels, quit on leaving.
    Chromium's temporary files go to a folder of its own (its TMPDIR), removed after it quits: Chromium leaves its
    singleton socket's folder behind in the temporary directory even when it quits cleanly."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, *extra_flags):
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    scratch = tempfile.mkdtemp(prefix="stealthflow-chromium-")
    try:
        service = Service(executable_path=CHROMEDRIVER, env={**os.environ, "TMPDIR": scratch})
        driver = webdriver.Chrome(service=service, options=options)
        try:
            yield driver
        finally:
            driver.quit()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
