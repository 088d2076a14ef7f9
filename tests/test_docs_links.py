"""Links between the docs land: every relative link names a file that exists, and every `#anchor`
one of that file's headings (GitHub's slugs)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\((?!https?://|mailto:)([^)\s#]*)(?:#([^)\s]+))?\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`\n]+`")  # an inline code span: `[value](TYPE)` there is no link


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8")))}


def broken_links(files: list[Path]) -> list[str]:
    broken = []
    for source in files:
        for target, anchor in LINK.findall(CODE.sub("", FENCE.sub("", source.read_text(encoding="utf-8")))):
            path = (source.parent / target).resolve() if target else source
            if not path.exists():
                broken.append(f"{source.relative_to(ROOT)}: {target}")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{source.relative_to(ROOT)}: {target}#{anchor}")
    return broken


def test_every_link_in_the_docs_lands():
    assert broken_links([ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]) == []


def test_a_link_to_a_missing_heading_is_found(tmp_path, monkeypatch):
    monkeypatch.setattr("test_docs_links.ROOT", tmp_path)
    (tmp_path / "a.md").write_text(
        "# Current figures\n\nSee [b](b.md#gone) and [here](#current-figures); `[Ann](REAL_NAME)` is code.\n"
    )
    (tmp_path / "b.md").write_text("## Kept, here\n")
    assert broken_links([tmp_path / "a.md"]) == ["a.md: b.md#gone"]
    assert slug("Kept, here") in anchors(tmp_path / "b.md")
