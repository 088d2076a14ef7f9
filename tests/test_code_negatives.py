"""The code negatives (benchmarks/code_negatives.py): windows of the installed packages' sources, split by package, with
no e-mail, author line or example key; and the detector on code (the two cases testers found)."""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import code_negatives  # noqa: E402

from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.policy import ProtectConfig  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402


def manifest() -> list[dict]:
    return [json.loads(line) for line in code_negatives.MANIFEST.read_text(encoding="utf-8").splitlines()]


def test_each_package_lies_in_one_split_and_every_split_has_packages():
    splits = defaultdict(set)
    for row in manifest():
        splits[row["package"]].add(row["split"])
        assert row["split"] == code_negatives.split_of(row["package"])
    assert all(len(split) == 1 for split in splits.values())
    assert {split for (split,) in splits.values()} == {"fit", "choose", "check"}


@pytest.mark.parametrize(
    ("text", "left_out"),
    [
        ("maintainer='Jane Roe <jane.roe@example.org>'", True),
        ("# Copyright 2019 Jane Roe", True),
        ("__author__ = 'J. Roe'", True),
        ('API_KEY = "AKIAIOSFODNN7EXAMPLEKEY12"', True),
        ("def connect(self, host: str, port: int = 5432) -> Connection:", False),
    ],
)
def test_windows_with_an_email_a_name_line_or_an_example_key_are_left_out(text, left_out):
    assert (code_negatives._LEFT_OUT.search(text) is not None) == left_out


def test_the_manifest_is_rebuilt_the_same_from_the_installed_files():
    """The real thing: a package's windows taken again from site-packages are those the manifest holds, and their text
    reads back unchanged."""
    package = "certifi"
    files = code_negatives.packages().get(package)
    if files is None:
        pytest.skip(f"{package} is not installed here")
    stored = [row for row in manifest() if row["package"] == package]
    assert code_negatives.windows(package, files) == stored
    read = [row for row, _ in code_negatives.snippets((stored[0]["split"],)) if row["package"] == package]
    assert read == stored


# A tester's line and ones like the fit packages' code. Strict: the credential verifier refitted with the code
# negatives (7d8a3e8, not shipped: it lost 1 of 43 CREDENTIAL values on pii-heldout-u,v,w) leaves these; the shipped
# one masks the function, the class or the path as a secret.
KNOWN_MISS = pytest.mark.xfail(strict=True, reason="the shipped credential verifier reads an identifier as a secret")
CODE_CASES = [
    'conn = psycopg2.connect("postgresql://admin:...@db...")',
    pytest.param('My code: conn = psycopg2.connect("postgresql://admin:...@db...")', marks=KNOWN_MISS),
    pytest.param("memories/user-42", marks=KNOWN_MISS),
    pytest.param("wrapper = AnsiToWin32(sys.stdout)\nsys.stdout = wrapper.stream", marks=KNOWN_MISS),
    pytest.param("from cloudpathlib import S3Path\n\npath = S3Path('s3://bucket/key.txt')", marks=KNOWN_MISS),
]


@pytest.mark.real_model
@pytest.mark.parametrize("text", CODE_CASES)
def test_an_identifier_in_code_is_no_credential(text):
    """The shipped detector: no identifier of the code is masked (the password of a URL may be)."""
    detector, config = Detector(build_recognizers(models=True)), ProtectConfig()
    masked = [text[s.start : s.end] for s in detector.detect(text) if config.masks(s.type, s.level)]
    identifiers = ("psycopg2", "connect", "user-42", "AnsiToWin32", "S3Path")
    assert not any(name in value for value in masked for name in identifiers)
