"""FAKE rewriter for the page and service tests: it generalizes a few fixed phrases, no model
(the real `local` method is driven once, in tests/test_page_browser.py, marked real_model)."""

from __future__ import annotations

from stealthflow.anonymize.methods import Anonymized

GENERALIZED = {"ER nurse": ("health worker", "occupation"), "in Leeds": ("in my city", "location")}
LEFT = (("night shifts", "occupation"),)  # marked phrases the fake cannot generalize: they stay, and it says so
POST = "Reach me at anna.berg@mailbox.org. Twelve years as an ER nurse and the rent here in Leeds keeps going up."
NO_PII_POST = "Just got my cat a new bed, she loves it."
LEFT_POST = "Reach me at anna.berg@mailbox.org. Twelve years as an ER nurse, always on night shifts."
# a post the fake does not read, as the local method does not read German: it says so in `details["not_read"]`
UNREAD_POST = "Ich bin Krankenschwester in Graz, 34 Jahre alt."
UNREAD_WHY = "not checked: the local rewrite reads English only (language: de)"


class FakeGeneralizer:
    """FAKE `Method`: replaces the phrases of GENERALIZED and says so in `details["changes"]`;
    the phrases of LEFT stay and are named in `details["unprotected"]`, as the local method does; UNREAD_POST is
    not read (`details["not_read"]`)."""

    name = "fake-generalize"

    def anonymize_many(self, profiles, on_progress=None):
        results = []
        for profile in profiles:
            text, changes = profile.comments[0].text, []
            for phrase, (general, attribute) in GENERALIZED.items():
                if phrase in text:
                    text = text.replace(phrase, general)
                    changes.append({"post": 0, "phrase": phrase, "attribute": attribute, "by": "fake"})
            left = [
                {"post": 0, "phrase": phrase, "attribute": attribute} for phrase, attribute in LEFT if phrase in text
            ]
            details = {"changes": changes, "unprotected": left}
            if text == UNREAD_POST:
                details["not_read"] = [{"post": 0, "language": "de", "whole": True}]
            results.append(Anonymized(profile.id, text, [text], details=details))
        return results


class FakeRewriter:
    """FAKE `NamedRewriter` (what the service holds) around `FakeGeneralizer`."""

    name = FakeGeneralizer.name

    def method(self) -> FakeGeneralizer:
        return FakeGeneralizer()
