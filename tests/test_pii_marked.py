"""benchmarks/pii_marked.py: files of one name in several folders (validation*/en.txt) all count."""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from pii_marked import rows_by_language  # noqa: E402


def test_files_of_one_name_in_several_folders_are_scored_together(tmp_path):
    for folder, lines in {
        "validation": ["Mail [ana@example.com](EMAIL) today.", "Nothing here."],
        "validation-b": ["Call [Ana Ruiz](REAL_NAME)."],
    }.items():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "en.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "validation" / "de.txt").write_text("Hallo [Jan](REAL_NAME).\n", encoding="utf-8")

    groups = rows_by_language(sorted(tmp_path.glob("validation*/*.txt")))

    assert sorted(groups) == ["de", "en"]
    assert [row["text"] for row in groups["en"]] == ["Mail ana@example.com today.", "Nothing here.", "Call Ana Ruiz."]
    assert groups["en"][2]["pii"] == [{"value": "Ana Ruiz", "type": "REAL_NAME"}]
    assert len(groups["de"]) == 1
