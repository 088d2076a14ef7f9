"""FAKE rewriter for the page and service tests: it generalizes a few fixed phrases, no model
(the real `local` method is driven once, in tests/test_page_browser.py, marked real_model)."""

from __future__ import annotations

from stealthflow.anonymize.methods import Anonymized

GENERALIZED = {"ER nurse": ("health worker", "occupation"), "in Leeds": ("in my city", "location")}
POST = "Reach me at anna.berg@example.org. Twelve years as an ER nurse and the rent here in Leeds keeps going up."
NO_PII_POST = "Just got my cat a new bed, she loves it."


class FakeGeneralizer:
    """FAKE `Method`: replaces the phrases of GENERALIZED and says so in `details["changes"]`."""

    name = "fake-generalize"

    def anonymize_many(self, profiles, on_progress=None):
        results = []
        for profile in profiles:
            text, changes = profile.comments[0].text, []
            for phrase, (general, attribute) in GENERALIZED.items():
                if phrase in text:
                    text = text.replace(phrase, general)
                    changes.append({"post": 0, "phrase": phrase, "attribute": attribute, "by": "fake"})
            results.append(Anonymized(profile.id, text, [text], details={"changes": changes}))
        return results


class FakeRewriter:
    """FAKE `NamedRewriter` (what the service holds) around `FakeGeneralizer`."""

    name = FakeGeneralizer.name

    def method(self) -> FakeGeneralizer:
        return FakeGeneralizer()
