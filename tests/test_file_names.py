"""A full name in a file name or a path ("anna_lindqvist_passport.jpg") and a given name as a user's folder
("/home/beatriz") are masked; ordinary file names and code paths are not."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers


@pytest.fixture(scope="module")
def detector():
    return Detector(build_recognizers())  # the real pattern recognizers, without the tagger


def _masked(detector: Detector, text: str) -> list[str]:
    """The names and user names masked (a file name with a public suffix, "x.py", is a URL apart from this)."""
    return [text[span.start : span.end] for span in detector.detect(text) if span.type in ("REAL_NAME", "USERNAME")]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("![me](./photos/anna_lindqvist_passport.jpg)", "anna_lindqvist"),
        ("see /srv/docs/cv_beatriz_carvalho.pdf today", "beatriz_carvalho"),
        ("attached: nomina_marta_lopez_2026.xlsx", "marta_lopez"),
        ("uploaded Ingrid-Solberg-Lebenslauf.docx", "Ingrid-Solberg"),
        ("in ~/scans/lucia.fernandez/ there is more", "lucia.fernandez"),
    ],
)
def test_a_full_name_in_a_file_name_or_path_is_masked(detector, text, name):
    assert name in _masked(detector, text)


@pytest.mark.parametrize(
    "path", ["/home/beatriz/Documents/notes.md", "C:\\Users\\marta\\Desktop\\a.txt", "/Users/joao/Downloads/x.pdf"]
)
def test_a_given_name_as_a_users_folder_is_masked_though_it_is_a_frequent_word(detector, path):
    assert any(name in _masked(detector, path) for name in ("beatriz", "marta", "joao"))


@pytest.mark.parametrize(
    "text",
    [
        "edit mark_read.py and max_pool.py",
        "see src/utils/emma_config.yaml",
        "run tests/test_grant_access.py",
        "open /home/user/projects/report_final_2026.pdf",
        "docs/sara_helpers/index.md",
    ],
)
def test_ordinary_file_names_are_not_names(detector, text):
    assert _masked(detector, text) == []
