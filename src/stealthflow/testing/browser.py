"""A headless Chromium driven by selenium, for the page's browser test and its screenshot benchmark.

Debian's `chromium` and `chromium-driver` (`make browser`); selenium is imported when a browser starts.
"""

from __future__ import annotations

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
)


def start_browser(width: int = 1280, height: int = 900, *extra_flags: str):
    """A selenium Chrome driver of a headless Chromium window of `width` x `height` CSS pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, *extra_flags):
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
