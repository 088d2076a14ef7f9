"""ux26 M7: an e-mail with a quoted reply was never reported protected by the default rewrite: the quote header's day,
year and time ("On Tue, 24 Nov 2026 at 16:02, Priya Raman <...> wrote:") were location cues no rewrite could
generalize, and "my GP" (the writer's doctor) was rewritten as the author's occupation. A quote header holds no cue
(`cues.quote_headers`, markers of data/usernames.yaml); a gazetteer's mark keeps its location (`cues.split_marks`)."""

from __future__ import annotations

from pathlib import Path

from stealthflow.anonymize.cues import cues_outside_values, find_cues, load_cue_tagger, quote_headers
from stealthflow.pii_tagger.model import TaggedSpan

EMAIL = Path(__file__).parent / "data" / "email_quoted_reply.txt"


def test_a_quote_headers_line_up_to_its_marker_is_a_header_and_a_comments_own_header_is_not():
    post = (
        "Thanks!\n\nOn Tue, 24 Nov 2026 at 16:02, Priya Raman <p@x.com> wrote:\n> I live in Leeds.\n"
        "Le mar. 24 nov. 2026 à 16:02, Priya Raman a écrit : merci\n**Gast** schrieb:\n**sarah_k84** · 2 days ago"
    )
    assert [post[a:b] for a, b in quote_headers(post)] == [
        "On Tue, 24 Nov 2026 at 16:02, Priya Raman <p@x.com> wrote:",
        "Le mar. 24 nov. 2026 à 16:02, Priya Raman a écrit :",
        "**Gast** schrieb:",
    ]  # "**sarah_k84** · 2 days ago" heads a comment, which may be the author's own: no quote header


def test_marks_in_a_quote_header_are_left_out_and_the_authors_own_stay():
    class FakeTagger:  # FAKE: marks the header's day, year and time and the quoted line's city, as location
        labels = ["location"]

        def tag_many(self, posts):
            return [
                [
                    TaggedSpan(p.index(w), p.index(w) + len(w), "location", 0.9)
                    for w in ("Tue", "2026", "16:02", "Leeds")
                ]
                for p in posts
            ]

    post = "Thanks!\n\nOn Tue, 24 Nov 2026 at 16:02, Priya Raman wrote:\n> I hear you moved to Leeds."
    [marks] = find_cues(FakeTagger(), [post])
    assert [post[m.start : m.end] for m in marks] == ["Leeds"]


def test_the_testers_email_names_no_date_or_time_as_a_cue_and_the_writers_gp_is_no_occupation():
    """The real cue tagger and protect's detector (`cues_outside_values`, as the local rewrite reads a post)."""
    post = EMAIL.read_text(encoding="utf-8")
    [cues], _ = cues_outside_values(load_cue_tagger(), [post])
    phrases = {phrase for phrase, _ in cues}
    assert not phrases & {"Tue", "2026", "Nov 2026", "16:02", "16"}, cues
    assert ("GP", "occupation") not in cues and ("GP", "location") in cues, cues
