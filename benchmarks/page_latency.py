"""The page's latency, warm, and its screenshot (docs/ui.png).

Starts the service with its page as `stealthflow ui` does (default settings, the real `local`
rewrite, a throw-away vault and config dir), warms it, times POST /analyze over HTTP for a few
posts (what the page calls on "Check my post"), then opens the page in Debian's headless Chromium,
checks one post, restores a reply and saves a full-page screenshot.

    python benchmarks/page_latency.py [--rewrite local] [--screenshot docs/ui.png] [--width 1280]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

POSTS = [
    "Twelve years as an ER nurse and the rent here in Leeds keeps going up.",
    "My husband and I just moved to Toronto for my new desk job, winters here are brutal.",
    "Just got my cat a new bed, she loves it.",
    "Finally paid off the student loans from my masters, celebrating this weekend!",
]
SHOWN = (
    "Hi all, reach me at anna.berg@example.org. Twelve years as an ER nurse and the rent here in Leeds "
    "keeps going up, so my husband and I are thinking of moving somewhere cheaper. Any advice?"
)
REPLY = "Hi Anna, moving can save a lot. I'd be happy to send a list of cheaper towns to <EMAIL_1>."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rewrite", default="local")
    parser.add_argument("--screenshot", default="docs/ui.png")
    parser.add_argument("--width", type=int, default=1280)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="stealthflow-page-")
    os.environ.update(XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config", STEALTHFLOW_SERVICE_TOKEN="bench")

    import httpx

    from stealthflow.config import load_settings
    from stealthflow.pipeline.protector import Protector
    from stealthflow.pipeline.rewrite import NamedRewriter
    from stealthflow.service import create_app
    from stealthflow.service.page import PageLogins
    from stealthflow.testing.loopback import serve

    started = time.perf_counter()
    settings = load_settings()
    protector = Protector.from_settings(settings)
    logins = PageLogins()
    app = create_app(
        protector,
        "bench",
        rewriter=None if args.rewrite == "none" else NamedRewriter(args.rewrite, settings),
        page=logins,
    )
    app.state.analyzer.warm()
    print(f"ready (models loaded, warmed) in {time.perf_counter() - started:.1f} s")
    with serve(app) as port:
        base = f"http://127.0.0.1:{port}"
        seconds = []
        for index, post in enumerate(POSTS):
            began = time.perf_counter()
            answer = httpx.post(
                f"{base}/analyze",
                json={"text": post, "session": "bench"},
                headers={"Authorization": "Bearer bench"},
                timeout=600,
            ).json()
            seconds.append(time.perf_counter() - began)
            print(f"post {index + 1}: {seconds[-1]:.2f} s  {answer['text']!r}")
        print(
            f"POST /analyze warm, {len(POSTS)} posts: median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
        )
        if args.screenshot:
            screenshot(f"{base}/#token={logins.new_link()}", args.screenshot, args.width)
    protector.close()


def screenshot(link: str, path: str, width: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from stealthflow.testing.browser import started_browser

    with started_browser(width, 900, "--hide-scrollbars") as driver:
        driver.get(link)
        wait = WebDriverWait(driver, 600)
        wait.until(lambda d: d.find_element(By.ID, "session-id").text)
        driver.find_element(By.ID, "post").send_keys(SHOWN)
        driver.find_element(By.ID, "check").click()
        wait.until(lambda d: d.find_element(By.ID, "status").text.startswith(("Checked", "Not checked")))
        driver.find_element(By.ID, "reply").send_keys(REPLY)
        driver.find_element(By.ID, "restore").click()
        wait.until(lambda d: d.find_element(By.ID, "restore-status").text)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, height + 20)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(path)
        print(f"wrote {path} ({width}x{height})")


if __name__ == "__main__":
    main()
