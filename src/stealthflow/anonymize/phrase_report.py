"""How a command names a post's phrases on stderr (a change list, the phrases that stayed), one rule for all:
their words only to a terminal, where nothing keeps them; into a file or a pipe, which keeps them, how many
and their attributes, without a word. Even on a terminal, a phrase holding a value protect masks with a
placeholder (a name, an IBAN, a credential: its recognizers and the PII tagger) is counted, never named."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from stealthflow.anonymize.changes import describe_change
from stealthflow.data.attributes import attribute_word


class PhraseReport:
    def __init__(self, words: bool):
        """`words`: whether the phrases may be named (stderr is a terminal)."""
        self.words = words
        self._holds_value: Callable[[list[str]], list[bool]] | None = None  # protect's detector, once needed
        self.withheld = False  # some phrase was not named: the caller says where to see them

    def not_named(self, where: str) -> str | None:
        """When a phrase went unnamed for want of a terminal: that, and `where` the words are (the command's own
        output, which the user chose to keep)."""
        if not self.withheld:
            return None
        return (
            f"the phrases are named only on a terminal (stderr is a file or pipe here, which would keep them); {where}"
        )

    def changes(self, changes: list[dict]) -> str:
        """'"here in Leeds" -> "here in my city" (location); ...'; without words, '2 phrase(s) rewritten
        (location 1, age 1)'."""
        if not self.words:
            self.withheld = True
            return _counted(len(changes), "phrase(s) rewritten", [c.get("attribute") for c in changes])
        held = self._held([f"{c.get('phrase') or ''} {c.get('replacement') or ''}" for c in changes])
        named = [describe_change(c) for c, value in zip(changes, held, strict=True) if not value]
        masked = [c.get("attribute") for c, value in zip(changes, held, strict=True) if value]
        return "; ".join(named + ([_counted(len(masked), _HOLDING, masked)] if masked else []))

    def stayed(self, phrases: list[str], attributes: list[str] | None = None) -> str:
        """'"night shifts" (occupation), "Leeds" (location)' with each phrase's attribute where given ("": none);
        without words, '2 phrase(s) (occupation 1, location 1)'."""
        attributes = attributes or [""] * len(phrases)
        if not self.words:
            self.withheld = True
            return _counted(len(phrases), "phrase(s)", attributes)
        held = self._held(phrases)
        named = [
            f'"{p}"' + (f" ({attribute_word(a)})" if a else "")
            for p, a, value in zip(phrases, attributes, held, strict=True)
            if not value
        ]
        masked = [a for a, value in zip(attributes, held, strict=True) if value]
        return ", ".join(named + ([_counted(len(masked), _HOLDING, masked)] if masked else []))

    def _held(self, phrases: list[str]) -> list[bool]:
        if self._holds_value is None:  # loaded when a phrase is first named: the detector's models are not small
            from stealthflow.anonymize.cues import holding_values

            self._holds_value = holding_values
        return self._holds_value(phrases)


_HOLDING = "phrase(s) holding a value protect masks"


def _counted(count: int, what: str, attributes: list[str | None]) -> str:
    by = Counter(attribute_word(a) for a in attributes if a)
    return f"{count} {what}" + (f" ({', '.join(f'{a} {n}' for a, n in by.most_common())})" if by else "")
