"""The rows `stealthflow anonymize` writes and prints (`anonymize/rows.py`). The method results are built by hand
(no method runs); the credential masker is the real one."""

from __future__ import annotations

import pytest

from stealthflow.anonymize.methods import Anonymized
from stealthflow.anonymize.rows import not_protected, output_row, secret_masker
from stealthflow.config import Settings

POST = "I teach year 9 in Leeds and my token is ghp_9fQx7LmN2pRt5VwY8zA1bC3dE6fG0hJ4kL7m"


@pytest.fixture(scope="module")
def secrets():
    masker = secret_masker(Settings())
    yield masker
    masker.close()


def test_a_text_nothing_checked_is_not_protected_even_when_rewritten():
    rewritten = Anonymized("p1", "I teach in a city", checked=False)
    assert not_protected(rewritten, POST, "ner-mask") == "not checked: ner-mask does not check what stays"
    assert not_protected(Anonymized("p1", "I teach in a city"), POST, "local") is None
    assert not_protected(Anonymized("p1", POST), POST, "local") == "nothing was rewritten: the text is unchanged"


def test_a_row_not_protected_carries_no_word_of_the_post(secrets):
    stayed = Anonymized(
        "p1", POST, details={"unprotected": [{"post": 0, "phrase": "year 9"}, {"post": 0, "phrase": "Leeds"}]}
    )
    row, warnings = output_row(stayed, POST, secrets, "local")
    assert row == {
        "id": "p1",
        "protected": False,
        "reason": "no fluent generalization: 2 phrase(s) stayed",
        "unprotected": [{"post": 0, "phrases": 2}],
    }
    assert warnings == [] and "Leeds" not in str(row) and "ghp_" not in str(row)


def test_a_protected_row_has_its_credentials_masked_in_its_text_and_changes(secrets):
    token = POST.rsplit(" ", 1)[1]
    change = {"post": 0, "phrase": f"Leeds and my token is {token}", "replacement": "a city", "attribute": "location"}
    result = Anonymized("p1", f"I teach in a city, token {token}", details={"changes": [change], "risk": {"age": 1}})
    row, _ = output_row(result, POST, secrets, "local")
    assert row["protected"] is True and row["risk"] == {"age": 1} and "unchanged" not in row
    assert token not in row["text"] and "<API_KEY_" in row["text"]
    assert token not in row["changes"][0]["phrase"] and row["changes"][0]["replacement"] == "a city"


def test_nothing_to_change_is_said_only_when_no_credential_was_masked(secrets):
    plain = "Lovely weather for a walk today."
    row, _ = output_row(Anonymized("p1", plain, nothing_to_change=True), plain, secrets, "local")
    assert row == {"id": "p1", "text": plain, "protected": True, "unchanged": True}
    row, _ = output_row(Anonymized("p2", POST, nothing_to_change=True), POST, secrets, "local")
    assert "unchanged" not in row and "ghp_" not in row["text"]
