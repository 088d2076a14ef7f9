"""The page's API (/analyze, /sessions), its sign-in, and the rewrite option of /protect and the
Python API. The rewriter here is the FAKE of page_fixtures; the cue tagger and the classifier
attacker are the shipped ones. The page itself runs in a real browser in test_page_browser.py."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from page_fixtures import LEFT_POST, NO_PII_POST, POST, UNREAD_POST, UNREAD_WHY, FakeGeneralizer, FakeRewriter
from placeholder_fixtures import protect_config

from stealthflow.data import ATTRIBUTES
from stealthflow.service import create_app
from stealthflow.service.analysis import diff_pieces
from stealthflow.service.page import HEADER, PageLogins
from stealthflow.testing.loopback import serve

TOKEN = "page-test-token-long-enough"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(protector):
    app = create_app(protector, TOKEN, rewriter=FakeRewriter(), page=PageLogins())
    with TestClient(app, base_url="http://127.0.0.1:8765", headers=BEARER) as test_client:
        yield test_client


def before(pieces: list[dict]) -> str:
    return "".join(p.get("same", p.get("before")) for p in pieces)


def after(pieces: list[dict]) -> str:
    return "".join(p.get("same", p.get("after")) for p in pieces)


# --- the rewrite option of /protect and of the Python API ------------------------------------


def test_protect_over_http_rewrites_when_asked_with_the_servers_method(client):
    rewritten = client.post("/protect", json={"text": POST, "session": "s", "rewrite": "fake-generalize"})
    assert rewritten.status_code == 200, rewritten.text
    body = rewritten.json()
    assert (
        body["text"]
        == "Reach me at <EMAIL_1>. Twelve years as an health worker and the rent here in my city keeps going up."
    )
    assert body["rewrite"]["accepted"] and {c["phrase"] for c in body["rewrite"]["changes"]} == {"ER nurse", "in Leeds"}
    assert (
        client.post("/restore", json={"text": body["text"], "session": "s"})
        .json()["text"]
        .startswith("Reach me at anna.berg@mailbox.org.")
    )
    plain = client.post("/protect", json={"text": POST, "session": "s"}).json()  # default: none, as before
    assert "ER nurse" in plain["text"] and "rewrite" not in plain
    refused = client.post("/protect", json={"text": POST, "session": "s", "rewrite": "local"})
    assert refused.status_code == 422 and "none, fake-generalize" in refused.json()["error"]["message"]


def test_python_api_protect_takes_the_rewrite_option(protector, monkeypatch):
    from stealthflow.anonymize import methods
    from stealthflow.pipeline import protect

    monkeypatch.setitem(methods._METHODS, "fake-generalize", lambda settings, pool, options: FakeGeneralizer())
    result = protect(POST, session="api", protector=protector, rewrite="fake-generalize")
    assert "health worker" in result.text and "<EMAIL_1>" in result.text and "anna.berg" not in result.text
    assert result.rewrite.accepted and len(result.rewrite.changes) == 2
    assert protect(POST, session="api", protector=protector).rewrite is None
    with pytest.raises(ValueError, match="unknown rewrite 'nosuch'"):
        protect(POST, session="other", protector=protector, rewrite="nosuch")
    assert [s["session"] for s in protector.vault.sessions(protector.config.user)] == [
        "api"
    ]  # the unknown name failed before any work


# --- /analyze and /sessions -------------------------------------------------------------------


def test_analyze_gives_spans_cues_the_rewrite_as_a_diff_and_a_risk_line_per_attribute(client):
    result = client.post("/analyze", json={"text": POST, "session": "page-1"}).json()
    email = next(s for s in result["spans"] if s["type"] == "EMAIL")
    assert POST[email["start"] : email["end"]] == "anna.berg@mailbox.org" and email["placeholder"] == "<EMAIL_1>"
    assert result["cues"] and all(c["attribute"] in ATTRIBUTES and c["end"] > c["start"] for c in result["cues"])
    assert not any(c["start"] < s["end"] and s["start"] < c["end"] for c in result["cues"] for s in result["spans"])
    assert before(result["diff"]) == result["protected"] and after(result["diff"]) == result["text"]
    changes = [p for p in result["diff"] if "before" in p]
    assert {(p["before"], p["after"]) for p in changes} == {("ER nurse", "health worker"), ("Leeds", "my city")}
    assert next(p for p in changes if p["before"] == "ER nurse")["attributes"] == ["occupation"]
    risk = {line["attribute"]: line for line in result["risk"]}
    assert list(risk) == list(ATTRIBUTES)
    assert risk["gender"]["attackers"] == ["classifier"] and risk["gender"]["verdict"] == "above majority"
    assert risk["age"]["verdict"] == "above uniform only" and "weak signal" in risk["age"]["line"]
    assert risk["location"]["attackers"] == [] and risk["location"]["line"].startswith("No attacker here scores it.")


def test_analyze_names_the_phrases_the_rewrite_could_not_generalize(client):
    """They go out as they are: the page must say so (the rewrite of the other phrases still counts)."""
    result = client.post("/analyze", json={"text": LEFT_POST, "session": "page-left"}).json()
    # the attribute the rewrite names for it (the FAKE's here), as the page's cues and risk lines are the rewrite's
    assert result["unprotected"] == [{"phrase": "night shifts", "attributes": ["occupation"]}]
    assert result["rewrite"]["unprotected"] == ["night shifts"] and "night shifts" in result["text"]
    assert "health worker" in result["text"] and result["rewrite"]["accepted"] and not result["rewrite"]["protected"]
    protected = client.post("/protect", json={"text": LEFT_POST, "session": "page-left", "rewrite": "fake-generalize"})
    assert protected.json()["rewrite"] == result["rewrite"]  # one meaning per field, whichever endpoint answers
    plain = client.post("/analyze", json={"text": POST, "session": "page-left"}).json()
    assert plain["unprotected"] == [] and "unprotected" not in plain["rewrite"] and plain["rewrite"]["protected"]


def test_a_post_with_no_pii_is_analyzed_as_it_is(client):
    result = client.post("/analyze", json={"text": NO_PII_POST, "session": "page-2"}).json()
    assert result["spans"] == [] and result["protected"] == NO_PII_POST
    assert result["diff"] == [{"same": NO_PII_POST}] and result["text"] == NO_PII_POST
    assert result["rewrite"]["accepted"]


def test_a_reply_restores_only_the_placeholders_of_the_post_it_answers(client):
    """The page restores a pasted reply with the request /analyze answered: the session's other values stay (rev20
    finding 3: `/restore` without `request` filled in any of them). The page's own use of it: test_page_browser.py."""
    client.post("/analyze", json={"text": "Write to me at old.box@mailbox.org", "session": "page-r"})
    answered = client.post("/analyze", json={"text": NO_PII_POST, "session": "page-r"}).json()
    reply = {"text": "Sure: <EMAIL_1>", "session": "page-r", "request": answered["request"]}
    restored = client.post("/restore", json=reply).json()
    assert restored["text"] == "Sure: <EMAIL_1>" and restored["withheld"][0]["reason"] == "not_in_request"
    post = client.post("/analyze", json={"text": POST, "session": "page-r"}).json()
    assert "<EMAIL_2>" in post["protected"]
    both = {**reply, "text": "<EMAIL_1> or <EMAIL_2>", "request": post["request"]}
    assert client.post("/restore", json=both).json()["text"] == "<EMAIL_1> or anna.berg@mailbox.org"


def test_a_session_lists_its_placeholders_and_can_be_forgotten(client):
    client.post("/analyze", json={"text": POST, "session": "page-3"})
    listed = client.get("/sessions/page-3").json()["placeholders"]
    assert listed == [{"placeholder": "<EMAIL_1>", "type": "EMAIL", "value": "anna.berg@mailbox.org"}]
    assert client.get("/sessions/page-4").json()["placeholders"] == []
    assert client.delete("/sessions/page-3").json() == {"session": "page-3", "placeholders": 1, "values_deleted": 1}
    assert client.get("/sessions/page-3").json()["placeholders"] == []
    assert client.post("/restore", json={"text": "<EMAIL_1>", "session": "page-3"}).json()["unresolved"] == [
        "<EMAIL_1>"
    ]


def test_a_request_with_invalid_unicode_is_refused_without_echo(client):
    answer = client.post(
        "/analyze",
        content=b'{"text": "\\ud800 anna.berg@mailbox.org", "session": "s"}',
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 422 and "anna.berg" not in answer.text


def test_diff_keeps_placeholders_whole_and_joins_changes_only_spaces_apart():
    pieces = diff_pieces("I am <EMAIL_1> and an ER nurse in Leeds.", "I am <EMAIL_2> and a health worker in my city.")
    assert {"before": "<EMAIL_1>", "after": "<EMAIL_2>"} in pieces
    assert {"before": "an ER nurse", "after": "a health worker"} in pieces
    assert diff_pieces("same", "same") == [{"same": "same"}] and diff_pieces("", "") == []


@given(st.text(alphabet="ab <>_EMAIL1.,\n", max_size=40), st.text(alphabet="ab <>_EMAIL1.,\n", max_size=40))
def test_diff_pieces_rebuild_both_texts(old, new):
    pieces = diff_pieces(old, new)
    assert before(pieces) == old and after(pieces) == new
    assert all(("same" in p) != ("before" in p) for p in pieces)


# --- signing in to the page ------------------------------------------------------------------


def test_the_page_signs_in_once_from_its_link_then_by_its_header(protector):
    logins = PageLogins()
    link = logins.new_link()
    with serve(create_app(protector, TOKEN, rewriter=FakeRewriter(), page=logins)) as port:
        base = f"http://127.0.0.1:{port}"
        page = httpx.get(f"{base}/")  # the package's own files: no data, no sign-in needed
        assert (
            page.status_code == 200
            and 'id="post"' in page.text
            and "script-src 'self'" in page.headers["content-security-policy"]
        )
        assert httpx.get(f"{base}/ui/app.js").headers["content-type"].startswith("text/javascript")
        assert httpx.post(f"{base}/ui/signin", json={"token": "wrong"}).status_code == 401
        assert (
            httpx.post(
                f"http://127.0.0.1:{port}/ui/signin", json={"token": link}, headers={"Host": "evil.example"}
            ).status_code
            == 403
        )  # DNS rebinding
        signed = httpx.post(f"{base}/ui/signin", json={"token": link})
        assert signed.status_code == 200 and "set-cookie" not in signed.headers
        assert httpx.post(f"{base}/ui/signin", json={"token": link}).status_code == 401  # used up
        credential = {HEADER: signed.json()["credential"]}
        body = {"text": POST, "session": "c"}
        assert httpx.post(f"{base}/analyze", json=body).status_code == 401
        assert httpx.post(f"{base}/analyze", json=body, headers=credential).status_code == 200
        assert httpx.get(f"{base}/sessions/c", headers=credential).status_code == 200
        assert httpx.post(f"{base}/analyze", json=body, headers={HEADER: "forged"}).status_code == 401
        assert httpx.post(f"{base}/protect", json=body, headers=BEARER).status_code == 200  # API callers as before


def test_a_link_expires():
    logins = PageLogins(link_seconds=0)
    assert logins.exchange(logins.new_link()) is None
    fresh = PageLogins()
    assert fresh.exchange(fresh.new_link()) is not None


def test_without_a_page_the_root_stays_closed(protector):
    with TestClient(create_app(protector, TOKEN), base_url="http://127.0.0.1:8765") as anonymous:
        assert anonymous.get("/", params={"token": "x"}).status_code == 401
        assert anonymous.post("/analyze", json={"text": "x", "session": "s"}).status_code == 401
        assert anonymous.post("/ui/signin", json={"token": "x"}).status_code == 401


def test_stealthflow_ui_serves_the_page_behind_the_link_it_prints(tmp_path, monkeypatch):
    """The command as a user runs it; uvicorn.run replaced by a visit of the app it would serve."""
    import uvicorn
    from typer.testing import CliRunner

    from stealthflow.cli import app

    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    monkeypatch.setenv("STEALTHFLOW_SERVICE_TOKEN", TOKEN)
    links, seen = [], {}
    new_link = PageLogins.new_link
    monkeypatch.setattr(PageLogins, "new_link", lambda self: links.append(new_link(self)) or links[-1])

    def visit(asgi, **_):
        with TestClient(asgi, base_url="http://127.0.0.1:8765") as browser:
            seen["no link"] = browser.post("/analyze", json={"text": POST, "session": "ui"}).status_code
            signed = browser.post("/ui/signin", json={"token": links[-1]})  # what the page's script does
            seen["link"] = signed.status_code
            seen["analyze"] = browser.post(
                "/analyze", json={"text": POST, "session": "ui"}, headers={HEADER: signed.json()["credential"]}
            ).json()

    monkeypatch.setattr(uvicorn, "run", visit)
    wrong = CliRunner().invoke(app, ["ui", "--no-open", "--rewrite", "nosuch", "--config", str(yaml)])
    assert wrong.exit_code == 2 and "unknown rewrite 'nosuch'" in wrong.output and not seen
    result = CliRunner().invoke(app, ["ui", "--no-open", "--rewrite", "none", "--no-tagger", "--config", str(yaml)])
    assert result.exit_code == 0, result.output
    assert f"http://127.0.0.1:8765/#token={links[-1]}" in result.output
    assert seen["no link"] == 401 and seen["link"] == 200
    checked = seen["analyze"]
    assert checked["rewrite"] is None and checked["text"] == checked["protected"] and "<EMAIL_1>" in checked["text"]


def test_changes_that_name_no_phrase_or_attribute_are_shown_without_one(protector):
    """The local method also reports stretches it added ("phrase": "") or that no cue covers (attribute None)."""
    from stealthflow.anonymize.methods import Anonymized
    from stealthflow.service.analysis import Analyzer

    class AddingRewriter(FakeRewriter):  # FAKE: adds a word, reports it as the local method does
        def method(self):
            class Adding:
                def anonymize_many(self, profiles, on_progress=None):
                    text = profiles[0].comments[0].text + " Thanks!"
                    return [
                        Anonymized(
                            profiles[0].id,
                            text,
                            [text],
                            details={"changes": [{"phrase": "", "replacement": "Thanks!", "attribute": None}]},
                        )
                    ]

            return Adding()

    result = Analyzer(protector, AddingRewriter()).analyze(NO_PII_POST, "added")
    assert result["diff"][-1] == {"before": "", "after": " Thanks!", "attributes": []}


def test_analyze_counts_the_phrases_the_rewrite_left_under_the_attributes_it_names(protector):
    """ux23 finding 3, the real `local` rewrite and cue tagger: for this post the risk lines said "No phrase points
    here" for a place and a job while `unprotected` listed "Denver" and "I work as a dentist" with no attribute (the
    page counted the tagger's one mark over the sentence, the rewrite its pieces). Now both read the rewrite's
    pieces: each phrase left is a cue of the attribute it names, and counted in that attribute's risk line."""
    from stealthflow.config import Settings
    from stealthflow.pipeline.rewrite import NamedRewriter

    app = create_app(protector, TOKEN, rewriter=NamedRewriter("local", Settings()), page=PageLogins())
    post = "My wife and I live in Denver, I work as a dentist"
    with TestClient(app, base_url="http://127.0.0.1:8765", headers=BEARER) as local:
        result = local.post("/analyze", json={"text": post, "session": "page-7"}).json()
    assert {left["phrase"] for left in result["unprotected"]} == set(result["rewrite"]["unprotected"]) != set()
    cues = {(post[c["start"] : c["end"]], c["name"]) for c in result["cues"]}
    risk = {line["name"]: line["cues_before"] for line in result["risk"]}
    for left in result["unprotected"]:
        assert left["attributes"] and all((left["phrase"], name) in cues for name in left["attributes"]), left
        assert all(risk[name] >= 1 for name in left["attributes"]), (left, risk)


def test_analyze_says_a_post_the_rewrite_does_not_read_was_not_checked(client):
    """ux25 M1 (FAKE rewriter that does not read UNREAD_POST): the page said "No phrase points here" for every
    attribute of a German post that `/protect` answers "not checked" for; /analyze names why, the risk lines too."""
    result = client.post("/analyze", json={"text": UNREAD_POST, "session": "unread"}).json()
    assert result["not_checked"] == UNREAD_WHY and result["rewrite"]["protected"] is False
    assert all("N" + UNREAD_WHY[1:] in line["line"] for line in result["risk"]), result["risk"]
    assert not any("No phrase points here" in line["line"] for line in result["risk"])
    assert client.post("/analyze", json={"text": NO_PII_POST, "session": "unread"}).json()["not_checked"] == ""


def test_analyze_with_the_real_local_method_says_a_german_post_was_not_checked(protector):
    """The same with the real `local` rewrite and cue tagger, as `/protect` says it for this post."""
    from stealthflow.config import Settings
    from stealthflow.pipeline.rewrite import NamedRewriter

    app = create_app(protector, TOKEN, rewriter=NamedRewriter("local", Settings()), page=PageLogins())
    post = "Ich bin Krankenschwester in Graz, 34 Jahre alt. Schreib mir an lena.huber@gmx.at, ich freue mich."
    with TestClient(app, base_url="http://127.0.0.1:8765", headers=BEARER) as local:
        analyzed = local.post("/analyze", json={"text": post, "session": "de"}).json()
        protected = local.post("/protect", json={"text": post, "session": "de", "rewrite": "local"}).json()
    assert analyzed["not_checked"] == protected["rewrite"]["reason"] != ""
    assert "reads English only (language: de)" in analyzed["not_checked"]
    assert not any("No phrase points here" in line["line"] for line in analyzed["risk"])


def test_analyze_takes_the_default_session_and_a_deleted_session_is_said_deleted(client):
    """ux23 finding 5: /analyze without "session" answered 422 (the CLI's default is "default"); after DELETE
    /sessions/ID, /restore's notice sent the user to `stealthflow vault forget` for a session the service deleted."""
    answered = client.post("/analyze", json={"text": POST})
    assert answered.status_code == 200 and answered.json()["session"] == "default", answered.text
    assert client.post("/protect", json={"text": POST}).status_code == 422  # /protect names its session
    client.delete("/sessions/default")
    notice = client.post("/restore", json={"text": "<EMAIL_1>", "session": "default"}).json()["notice"]
    assert "the session was deleted" in notice and "vault forget" not in notice
