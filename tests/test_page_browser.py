"""The page in a real browser: Debian's headless Chromium driven by Selenium through
/usr/bin/chromedriver (nothing is downloaded). Most tests use the FAKE rewriter of page_fixtures
(fast, deterministic); the last one runs `stealthflow ui` with the real local method."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from page_fixtures import LEFT_POST, NO_PII_POST, POST, UNREAD_POST, FakeGeneralizer, FakeRewriter

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.service import create_app
from stealthflow.service.page import PageLogins
from stealthflow.testing.browser import CHROMEDRIVER, CHROMIUM, started_browser
from stealthflow.testing.loopback import serve

TOKEN = "browser-test-token"

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
    if os.environ.get("CI"):  # CI installs them (make test-setup): never a silent skip there
        raise RuntimeError(f"{CHROMIUM} and {CHROMEDRIVER} are missing: run `make browser`")
    pytest.skip("Debian's chromium and chromium-driver are not installed (make browser)", allow_module_level=True)


class SlowFakeRewriter(FakeRewriter):
    """FAKE rewriter that takes a second, as the local model does: the page must show progress."""

    def method(self):
        slow = FakeGeneralizer()
        fast = slow.anonymize_many

        def anonymize_many(profiles, on_progress=None):
            time.sleep(1.0)
            return fast(profiles, on_progress)

        slow.anonymize_many = anonymize_many
        return slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The service with its page on a loopback port; the FAKE rewriter; the vault key from conftest's env."""
    config = ProtectConfig(
        vault_path=tmp_path_factory.mktemp("page") / "vault.sqlite", key_source="env", llm_extractor=False
    )
    protector = Protector(config, open_vault(config), Detector())
    logins = PageLogins()
    app = create_app(protector, TOKEN, rewriter=SlowFakeRewriter(), page=logins)
    app.state.analyzer.warm()  # as `stealthflow ui` does at start: the cue tagger and the attacker loaded
    with serve(app) as port:
        yield f"http://127.0.0.1:{port}", logins
    protector.close()


@pytest.fixture(scope="module")
def browser():
    with started_browser() as driver:
        yield driver


def sign_in(browser, server) -> WebDriverWait:
    base, logins = server
    browser.get(f"{base}/#token={logins.new_link()}")
    wait = WebDriverWait(browser, 60)  # generous: the machine may be busy
    wait.until(lambda d: d.find_element(By.ID, "session-id").text.startswith("page-"))
    browser.execute_script("sessionStorage.removeItem('stealthflow-session')")  # the next sign-in: a session of its own
    return wait


def signed_out(driver) -> bool:
    """The page says *Not signed in* and offers nothing else."""
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "signed-out").is_displayed())
    return driver.find_element(By.CSS_SELECTOR, "#signed-out h2").text == "Not signed in" and not driver.find_elements(
        By.ID, "post"
    )


def by_id(browser, name):
    return browser.find_element(By.ID, name)


def check(browser, wait, text: str) -> None:
    post = by_id(browser, "post")
    post.clear()
    post.send_keys(text)
    post.send_keys(Keys.CONTROL, Keys.ENTER)  # the keyboard way: the page is busy from the key press on
    wait.until(lambda d: not checking(d) and by_id(d, "status").text.startswith("Checked in"))


def checking(browser) -> bool:
    return browser.execute_script("return document.body.classList.contains('busy')")


def test_paste_highlight_accept_undo_copy_restore_and_forget(browser, server):
    wait = sign_in(browser, server)
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": server[0], "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    check(browser, wait, POST)

    pii = browser.find_elements(By.CSS_SELECTOR, "#findings mark.pii")
    assert [m.text for m in pii] == ["anna.berg@mailbox.org<EMAIL_1>"]  # the value, tagged with its placeholder
    assert browser.find_elements(By.CSS_SELECTOR, "#findings mark.cue .tag"), (
        "phrases that point to an attribute are marked"
    )
    assert len(browser.find_elements(By.CSS_SELECTOR, "#risk li")) == 8
    assert "classifier" in by_id(browser, "risk").text

    result = by_id(browser, "result")
    rewritten = "Reach me at <EMAIL_1>. Twelve years as an health worker and the rent here in my city keeps going up."
    assert result.get_attribute("value") == rewritten
    first = browser.find_elements(By.CSS_SELECTOR, "#diff .change .toggle")[0]
    first.click()  # undo the first change
    assert first.text == "Redo" and first.get_attribute("aria-pressed") == "true"
    assert result.get_attribute("value") == rewritten.replace("health worker", "ER nurse")
    first.send_keys(Keys.SPACE)  # and take it again, from the keyboard
    assert first.text == "Undo" and result.get_attribute("value") == rewritten

    by_id(browser, "copy").click()
    wait.until(lambda d: by_id(d, "copied").text == "Copied.")
    copied = browser.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], e => arguments[0]('error: ' + e))"
    )
    assert copied == rewritten

    by_id(browser, "reply").send_keys("Happy to help. I will write to <EMAIL_1> and <EMAIL_7>.")
    by_id(browser, "restore").click()
    wait.until(lambda d: by_id(d, "restore-status").text.startswith("Restored"))
    assert by_id(browser, "restored").text == "Happy to help. I will write to anna.berg@mailbox.org and <EMAIL_7>."
    # <EMAIL_7> was never issued to the session: unresolved, left as it is
    assert "1 other placeholder(s) stay as they are" in by_id(browser, "restore-status").text

    rows = browser.find_elements(By.CSS_SELECTOR, "#placeholders tbody tr")
    assert [r.text for r in rows] == ["<EMAIL_1> anna.berg@mailbox.org"]
    session = by_id(browser, "session-id").text
    by_id(browser, "forget").click()
    by_id(browser, "forget").click()  # two steps: it cannot be undone
    wait.until(lambda d: d.find_element(By.ID, "forget-status").text.startswith("Forgot 1 placeholder"))
    assert by_id(browser, "session-id").text != session
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#placeholders tbody").text == "None yet.")


def test_a_post_with_no_pii(browser, server):
    wait = sign_in(browser, server)
    check(browser, wait, NO_PII_POST)
    assert browser.find_elements(By.CSS_SELECTOR, "#findings mark.pii") == []
    assert by_id(browser, "findings").text.replace("\n", "").startswith("Just got my")
    assert "Nothing to change" in by_id(browser, "diff").text
    assert by_id(browser, "result").get_attribute("value") == NO_PII_POST


def test_a_post_the_rewrite_does_not_read_is_shown_not_checked(browser, server):
    """ux25 M1: for a German post the page said "Nothing to change" and "No phrase points here" where `/protect`
    says "not checked: the local rewrite reads English only". The page shows the service's not-checked state, under
    the rewrite, in the status and in the risk lines (FAKE rewriter that does not read UNREAD_POST)."""
    wait = sign_in(browser, server)
    check(browser, wait, UNREAD_POST)
    diff = by_id(browser, "diff").text
    assert "Nothing to change" not in diff and "reads English only (language: de)" in diff
    assert "reword what points to you yourself" in diff.lower()
    assert browser.find_elements(By.CSS_SELECTOR, "#diff p.warning")
    assert "Not checked: the local rewrite reads English only" in by_id(browser, "status").text
    risk = by_id(browser, "risk").text
    assert "No phrase points here" not in risk and "Not checked" in risk

    check(browser, wait, NO_PII_POST)  # a post it reads: nothing said of it
    assert "Nothing to change" in by_id(browser, "diff").text and "Not checked" not in by_id(browser, "status").text


def test_phrases_the_rewrite_left_are_named_beside_it(browser, server):
    """What the rewrite could not generalize goes out as it is: a warning under the rewrite names
    it, the diff marks it where it stands; the changes it did make still count."""
    wait = sign_in(browser, server)
    check(browser, wait, LEFT_POST)
    warning = by_id(browser, "left-warning")
    assert warning.is_displayed() and "Still in the text to send: night shifts" in warning.text
    assert "reword it yourself" in warning.text
    assert [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#diff mark.left")] == ["night shifts"]
    assert "1 phrase(s) could not be generalized" in by_id(browser, "status").text
    result = by_id(browser, "result").get_attribute("value")
    assert "health worker" in result and "night shifts" in result
    assert "was not used" not in by_id(browser, "diff").text

    check(browser, wait, NO_PII_POST)  # a post with nothing left: no warning
    assert not by_id(browser, "left-warning").is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, "#diff mark.left") == []


def test_the_keyboard_alone_checks_undoes_and_copies(browser, server):
    """Focus starts in the post; Tab reaches the check button, each change's Undo, the result and
    Copy in reading order; Enter works each one; the focused control is outlined."""
    wait = sign_in(browser, server)
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": server[0], "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )

    def focused() -> str:
        return browser.execute_script("return document.activeElement.id || document.activeElement.className")

    def press(*keys) -> None:
        browser.switch_to.active_element.send_keys(*keys)

    assert focused() == "post"
    press(POST)
    press(Keys.TAB)
    assert focused() == "check"
    assert browser.execute_script("return getComputedStyle(document.activeElement).outlineStyle") != "none"
    press(Keys.ENTER)
    wait.until(lambda d: not checking(d) and by_id(d, "status").text.startswith("Checked in"))
    press(Keys.TAB)
    assert focused() == "toggle"
    press(Keys.ENTER)  # undo the first change
    assert "ER nurse" in by_id(browser, "result").get_attribute("value")
    press(Keys.TAB)
    press(Keys.TAB)
    assert focused() == "result"
    press(Keys.TAB)
    assert focused() == "copy"
    press(Keys.ENTER)
    wait.until(lambda d: by_id(d, "copied").text == "Copied.")


def test_no_token_or_a_wrong_one_is_refused(server):
    base, logins = server
    with started_browser() as driver:  # a browser that was never signed in
        for url in (f"{base}/", f"{base}/#token=wrong"):
            driver.get(url)
            assert signed_out(driver)
        link = f"{base}/#token={logins.new_link()}"
        driver.get(link)
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "session-id").text)
        assert driver.current_url == f"{base}/"  # the token left the address bar
        driver.execute_script("sessionStorage.clear()")
        driver.get(link)  # the same link again
        assert signed_out(driver)


def test_the_browser_keeps_no_value_on_disk_and_tells_no_other_port_the_credential(server, tmp_path):
    """The placeholder table (raw values, from GET /sessions) and the post typed into #post (rev21 finding 5:
    Chromium's session-restore files kept it, in UTF-16) never reach the profile's disk, and a server on another local
    port that the signed-in browser visits gets nothing that opens this one."""
    import http.server
    import threading

    import httpx

    base, logins = server
    value = "margaret.okafor@posteo.de"
    typed = "zelda.quintero-fahy@posteo.de"
    heard = []

    class OtherLocalServer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            heard.append(dict(self.headers))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"another local app")

        def log_message(self, *args):
            pass

    other = http.server.HTTPServer(("127.0.0.1", 0), OtherLocalServer)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    profile = tmp_path / "profile"
    with started_browser(1280, 900, f"--user-data-dir={profile}") as driver:
        driver.get(f"{base}/#token={logins.new_link()}")
        wait = WebDriverWait(driver, 60)
        wait.until(lambda d: d.find_element(By.ID, "session-id").text.startswith("page-"))
        session = driver.find_element(By.ID, "session-id").text
        httpx.post(
            f"{base}/protect",
            json={"text": f"Write to {value}", "session": session},
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        driver.refresh()  # the page loads its session's table: GET /sessions/{session}
        wait.until(lambda d: value in d.find_element(By.ID, "placeholders").text)
        driver.find_element(By.ID, "post").send_keys(f"Reach me at {typed} or +44 7700 183 442.")
        driver.find_element(By.ID, "check").click()
        wait.until(lambda d: d.find_element(By.ID, "status").text.startswith(("Checked", "Not checked")))
        time.sleep(3)  # Chromium sends a page's form state to the browser process a while after a change
        driver.get(f"http://127.0.0.1:{other.server_port}/")  # later, some other local web app
        wait.until(lambda d: "another local app" in d.page_source)
        other.shutdown()
    time.sleep(1)  # the browser's processes have written what they keep
    kept = [
        (path.relative_to(profile), raw)
        for path in profile.rglob("*")
        if path.is_file()
        for raw in (value, typed)
        for encoding in ("utf-8", "utf-16-le", "utf-16-be")
        if raw.encode(encoding) in path.read_bytes()
    ]
    assert kept == []
    assert heard and not any("cookie" in {k.lower() for k in headers} for headers in heard)
    said = {v for headers in heard for v in headers.values()}
    for credential in said:  # whatever the other port heard opens nothing here
        for headers in ({"x-stealthflow-page": credential}, {"Authorization": f"Bearer {credential}"}):
            assert httpx.get(f"{base}/sessions/{session}", headers=headers).status_code == 401


def test_progress_shows_and_nothing_moves_while_the_rewrite_arrives(browser, server):
    wait = sign_in(browser, server)
    cards = ["post-card", "findings-card", "rewrite-card", "risk-card"]
    where = "return arguments[0].map(id => { const r = document.getElementById(id).getBoundingClientRect(); return [r.x, r.y, r.width]; })"
    placed = browser.execute_script(where, cards)
    by_id(browser, "post").send_keys(POST)
    by_id(browser, "check").click()
    wait.until(lambda d: "Checking" in by_id(d, "status").text)  # the fake takes a second
    assert browser.execute_script("return document.body.classList.contains('busy')")
    assert (
        browser.execute_script("return getComputedStyle(document.querySelector('#progress div')).visibility")
        == "visible"
    )
    assert browser.execute_script(where, cards) == placed
    wait.until(lambda d: by_id(d, "status").text.startswith("Checked in"))


def test_readable_at_phone_width_and_nothing_moves_there_either(server):
    """375 px (a small phone): one column, no sideways scrolling before or after a check, and the
    status line appearing while the rewrite runs moves nothing below it."""
    # headless Chromium's window is at least 500 px wide: the phone's screen is emulated
    with started_browser() as driver:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 375, "height": 812, "deviceScaleFactor": 2, "mobile": True}
        )
        base, logins = server
        driver.get(f"{base}/#token={logins.new_link()}")
        wait = WebDriverWait(driver, 60)
        wait.until(lambda d: d.find_element(By.ID, "session-id").text)
        fits = "return document.documentElement.scrollWidth <= window.innerWidth"
        assert driver.execute_script("return window.innerWidth") <= 375 and driver.execute_script(fits)
        where = "return ['post-card', 'findings-card', 'rewrite-card'].map(id => document.getElementById(id).getBoundingClientRect().y)"
        left = driver.execute_script(
            "return ['post-card', 'rewrite-card'].map(id => document.getElementById(id).getBoundingClientRect().x)"
        )
        assert left[0] == left[1]  # one column
        by_id(driver, "post").send_keys(LEFT_POST)
        placed = driver.execute_script(where)
        by_id(driver, "check").click()
        wait.until(lambda d: "Checking" in by_id(d, "status").text)  # the fake takes a second
        moved = [abs(now - then) for now, then in zip(driver.execute_script(where), placed, strict=True)]
        assert max(moved) < 0.5, moved  # layout rounding only (1/64 px), no jump
        wait.until(lambda d: by_id(d, "status").text.startswith("Checked in"))
        assert driver.execute_script(fits)  # the diff, the warning and the risk lines wrap


@pytest.mark.real_model
def test_stealthflow_ui_with_the_real_local_method(browser, tmp_path):
    """`stealthflow ui --no-open` as a user starts it, the real local method (SmolLM2 + the shipped
    adapter, the cue tagger), the page in Chromium. Bounded: up within 120 s, the post checked
    (cold: the first rewrite loads the model) within 60 s."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = shutil.which("stealthflow", path=str(Path(sys.executable).parent)) or "stealthflow"
    log = tmp_path / "ui.log"
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [command, "ui", "--no-open", "--port", str(port)],
            stderr=stderr,
            env={**os.environ, "STEALTHFLOW_SERVICE_TOKEN": TOKEN},
        )
    try:
        deadline = time.monotonic() + 120
        link = None
        while link is None and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.5)
            link = re.search(rf"http://127\.0\.0\.1:{port}/#token=[\w-]+", log.read_text())
        assert link, f"stealthflow ui printed no sign-in link: {log.read_text()[-2000:]}"
        while time.monotonic() < deadline:
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.5)
        browser.get(link.group())
        wait = WebDriverWait(browser, 60)
        wait.until(lambda d: d.find_element(By.ID, "session-id").text)
        check(browser, wait, "Twelve years as an ER nurse and the rent here in Leeds keeps going up.")
        assert browser.find_elements(By.CSS_SELECTOR, "#findings mark.cue")  # the real cue tagger's marks
        result = by_id(browser, "result").get_attribute("value")
        if browser.find_elements(By.CSS_SELECTOR, "#diff .change"):  # the local method generalized a phrase
            assert result != "Twelve years as an ER nurse and the rent here in Leeds keeps going up."
        else:  # nothing replaced the marks fluently: the post is left whole, never cut
            assert result == "Twelve years as an ER nurse and the rent here in Leeds keeps going up."
    finally:
        server.terminate()  # uvicorn waits for a request under way: then it is killed
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


def test_chromium_leaves_nothing_in_the_temporary_directory():
    """Chromium keeps its singleton socket's folder and its profile in the temporary directory and leaves the first
    behind when it quits: started_browser gives it a folder of its own there, removed after it quits."""
    with started_browser() as driver:
        driver.get("about:blank")
        scratch = Path(driver.capabilities["chrome"]["userDataDir"]).parent
        assert scratch.name.startswith("stealthflow-chromium-")
        assert any(
            p.name.startswith("org.chromium.Chromium.") and "scoped_dir" not in p.name for p in scratch.iterdir()
        )
    assert not scratch.exists()


def test_the_link_file_of_stealthflow_ui_signs_the_browser_in(server):
    """What `stealthflow ui` hands the browser instead of the link (cli.ui.link_file): Chromium opens the
    file, is sent on to the page and signs in; the token is used up and has left the address bar."""
    from stealthflow.cli.ui import link_file

    base, logins = server
    one_time = logins.new_link()
    opener = link_file(f"{base}/#token={one_time}")
    with started_browser() as driver:
        driver.get(opener.as_uri())
        WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "session-id").text.startswith("page-"))
        assert driver.current_url == f"{base}/" and not logins.pending(one_time)
        opener.unlink()
        opener.parent.rmdir()
