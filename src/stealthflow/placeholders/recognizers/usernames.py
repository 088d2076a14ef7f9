"""User names named by a cue: a label ("Username: X", "Benutzername ist X", "usuario X"), a site ("my Steam
is X", "I'm X on the Discord"), forum or log markup ("[quote=X]", "Accepted publickey for X from"), a sign-off
("LG, Steffi_aus_Kassel"), a log line's user or speaker, or a user's path ("/home/X", "C:\\Users\\X").
Handles written with an @ are `structured.HandleRecognizer`'s.
The words are data (data/usernames.yaml, with the recognizer's measured gain in its header).
"""

from __future__ import annotations

from functools import cache, cached_property

import regex

from stealthflow.pii_tagger.lexicons import given_name
from stealthflow.placeholders.common_words import common_word, frequent_in_any
from stealthflow.placeholders.language import ENGLISH
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.gate import WordStarts, matches_at
from stealthflow.placeholders.recognizers.languages import cue_pattern, name_pattern, one_of, reads_as_name
from stealthflow.placeholders.reserved import generic_account
from stealthflow.placeholders.types import Span, merge_spans
from stealthflow.resources import data_yaml

USERNAMES = "usernames.yaml"
# A user name: word characters, with dots and hyphens inside and a "#1234" tag after; not an email's local part
_VALUE = r"(?P<value>[^\W_](?:[\w.-]{0,38}\w)?(?:#\d{4})?)(?![\w@#]|[.-]\w)"
BEFORE_SITE_REACH = 80  # characters before a site's name where "I'm X on" may start
_INLINE = r"<[a-z]{1,10}>|&nbsp;"  # markup between a marker and its value: "posted by&nbsp;<b>X"
# The user field of a web server's access log ("203.0.113.9 - jdoe [12/Oct/2024:08:14:51 +0000]"), and the
# speaker of a timestamped chat log ("[22:10] javi_rm: ...", "[22:10] <b0rk3d> ...")
_ACCESS_LOG = regex.compile(rf"(?<![\d.])\d{{1,3}}(?:\.\d{{1,3}}){{3}} - {_VALUE} \[")
_CLOCK = r"\d{1,2}:\d{2}(?::\d{2})?\]"  # a chat log line's time and the bracket that closes its stamp ("09:06]")
_CHAT_LOG = regex.compile(rf"(?m:^)[ \t]*\[{_CLOCK}[ \t]*<?{_VALUE}>?:?[ \t]")
_LABEL_SCORES = {"form": 0.9, "linked": 0.8, "direct": 0.7}
_VALUE_REACH = 48  # characters a value with its "#1234" and the spaces after it take at most
_QUOTE = r"[\"'«“‘(]?"
_GAP = r"[ \t]+"
_SHAPE_MARK = regex.compile(r"\d|_|\p{L}[.-]\p{L}|#\d|\p{Ll}\p{Lu}")
_LETTER = regex.compile(r"\p{L}")
_VERSION = regex.compile(r"(?i:v)?\d+(?:\.\d+)+")
_HYPHENATED_NAME = regex.compile(r"\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)+")  # "Hans-Peter", "Meier-Lüdenscheid"
_NO_SMALL_LETTER = regex.compile(r"[^\p{Ll}]+")  # "2FA", "ABC-123": a code, not a user name
_PARTS = regex.compile(r"[^\W_\d]+")  # the words of a value ("Q3_Report_final": "Q", "Report", "final")


@cache
def username_data() -> dict:
    """The parsed data/usernames.yaml."""
    return data_yaml(USERNAMES)


def handle_shaped(value: str) -> bool:
    """A letter, and a digit, "_", "#1234", a dot or hyphen between letters, or a capital after a small
    letter: "tinkerdad_77", "c.brady", "MoonlitFerret"; not a version ("v2.1") nor a hyphenated name
    ("Hans-Peter")."""
    return (
        _LETTER.search(value) is not None
        and _SHAPE_MARK.search(value) is not None
        and not _VERSION.fullmatch(value)
        and not _HYPHENATED_NAME.fullmatch(value)
    )


def uncommon(value: str) -> bool:
    """Not a frequent word of a covered language ("failed", "unbekannt", "projekte")."""
    return not frequent_in_any(value)


@register_recognizer
class UsernameRecognizer(Recognizer):
    """User names after their cue (data/usernames.yaml); confidence 0.9 after a form's "Username:", markup or in
    a path, 0.8 after a linking word or a site, 0.7 right after the label."""

    name, type = "username", "USERNAME"

    @cached_property
    def _starts(self) -> WordStarts:
        data = username_data()
        phrases = [*(w for words in data["labels"].values() for w in words), *data["sites"], *data["markers"]]
        words = {phrase.split()[0] for phrase in [*phrases, *data["sign_offs"]]}
        return WordStarts(tuple(words | set(data["paths"])))

    @cached_property
    def _label(self) -> regex.Pattern[str]:
        return regex.compile(
            rf"(?P<cue>{cue_pattern(tuple(w for ws in username_data()['labels'].values() for w in ws))})"
        )

    @cached_property
    def _after_label(self) -> tuple[tuple[str, regex.Pattern[str]], ...]:
        """(kind, pattern) of what follows a label, tried in turn until a value is taken: the value right after it
        ("direct"), or a few words and ":"/"=" ("form") or a linking word ("linked"); a form's words may hold a
        direct value ("gebruiker SnelleDealNL: ik heb")."""
        data = username_data()
        links = one_of(tuple(word for words in data["links"].values() for word in words))
        words = rf"(?:{_GAP}[\p{{L}}'’-]+){{0,{data['between_words']}}}?"
        return (
            ("direct", regex.compile(rf"{_GAP}{_QUOTE}{_VALUE}")),
            ("form", regex.compile(rf"{words}['\"]?[ \t]*[:=][ \t]*{_QUOTE}[ \t]*{_VALUE}")),
            (
                "linked",
                regex.compile(rf"{words}{_GAP}(?P<link>(?i:{links}))(?![\p{{L}}\d])[ \t]*:?[ \t]*{_QUOTE}{_VALUE}"),
            ),
        )

    @cached_property
    def _label_language(self) -> dict[str, str]:
        """Each label (lowercase, spaces as one) and the first language listing it."""
        languages: dict[str, str] = {}
        for code, words in username_data()["labels"].items():
            for word in words:
                languages.setdefault(" ".join(word.split()), code)
        return languages

    @cached_property
    def _site(self) -> regex.Pattern[str]:
        data = username_data()
        words = rf"(?:{_GAP}(?i:{one_of(tuple(data['site_words']))})(?![\p{{L}}\d])){{0,2}}"
        return regex.compile(rf"(?P<cue>{cue_pattern(tuple(data['sites']))}){words}[ \t]*[:=]?[ \t]*{_QUOTE}{_VALUE}")

    @cached_property
    def _before_site(self) -> regex.Pattern[str]:
        """A value before "on (the) <site>", after a word of `before_site`; searched up to the site."""
        data = username_data()
        before, at = one_of(tuple(data["before_site"])), one_of(tuple(data["before_value"]))
        on, the = one_of(tuple(data["on_site"])), one_of(tuple(data["site_articles"]))
        return regex.compile(
            rf"(?<![\p{{L}}\d])(?i:{before})[ \t]*:?{_GAP}(?:(?i:{at}){_GAP})?{_VALUE}"
            rf"{_GAP}(?i:{on}){_GAP}(?:(?i:{the}){_GAP})?$"
        )

    @cached_property
    def _site_name(self) -> regex.Pattern[str]:
        return regex.compile(cue_pattern(tuple(username_data()["sites"])))

    @cached_property
    def _marked(self) -> regex.Pattern[str]:
        """Forum and log markup (maybe inline markup after it: "posted by <b>X"), or a user's path, then the value."""
        data = username_data()
        markers = rf"(?<![\p{{L}}\d])(?P<marker>(?i:{one_of(tuple(data['markers']))}))(?:[ \t]|{_INLINE})*{_QUOTE}"
        paths = rf"(?<![\w/\\.])(?P<path>(?i:{one_of(tuple(data['paths']), gap=' ')}))"
        return regex.compile(rf"(?:{markers}|{paths}){_VALUE}")

    @cached_property
    def _signed(self) -> regex.Pattern[str]:
        """A sign-off, a comma, and a value that ends its line."""
        return regex.compile(
            rf"(?P<cue>{cue_pattern(tuple(username_data()['sign_offs']))}),?{_GAP}{_VALUE}(?=[ \t]*(?:\n|$))"
        )

    @cached_property
    def _after_starts(self) -> WordStarts:
        return WordStarts(tuple(username_data()["markers_after"]))

    @cached_property
    def _before_marker(self) -> regex.Pattern[str]:
        """A value, then a marker that follows a writer's handle (`markers_after`: "dave_m wrote:")."""
        return regex.compile(
            rf"(?<![\w.@#-]){_VALUE}[ \t]*(?P<marker>(?i:{one_of(tuple(username_data()['markers_after']))}))"
        )

    def find(self, text: str) -> list[Span]:
        starts = self._starts(text)
        found = self._found(text, starts) if starts else ()
        after = self._found_before_markers(text, after_starts) if (after_starts := self._after_starts(text)) else ()
        logs = self._in_logs(text) if "[" in text else ()
        return merge_spans([*found, *after, *logs], text)

    def _found_before_markers(self, text: str, starts: list[int]):
        """A handle-shaped value right before a marker that follows it, looked for only back from each such marker
        (a value is at most `_VALUE_REACH` characters long)."""
        for start in starts:
            for match in self._before_marker.finditer(text, max(0, start - _VALUE_REACH), start + _VALUE_REACH):
                if match.start("marker") == start and _named(match) and handle_shaped(match["value"]):
                    yield self._span(match, 0.8, f"before {match['marker'].lower()!r}")

    def _found(self, text: str, starts: list[int]):
        def at(pattern: regex.Pattern[str]):
            return matches_at(pattern, text, starts)

        for label in at(self._label):
            code = self._label_language[_cue(label)]
            for kind, pattern in self._after_label:
                match = pattern.match(text, label.end())
                if match and self._label_names(match, kind, code):
                    yield self._span(match, _LABEL_SCORES[kind], f"after the user-name word {_cue(label)!r}")
                    break
        for match in at(self._site):
            if _named(match) and handle_shaped(match["value"]):
                yield self._span(match, 0.8, f"after the site {_cue(match)!r}")
        for site in at(self._site_name):
            match = self._before_site.search(text, max(0, site.start() - BEFORE_SITE_REACH), site.start())
            if match and _named(match) and handle_shaped(match["value"]):
                yield self._span(match, 0.8, f"before 'on {site[0].lower()}'")
        for match in at(self._signed):
            if _named(match) and handle_shaped(match["value"]):
                yield self._span(match, 0.7, f"after the sign-off {_cue(match)!r}")
        for match in at(self._marked):
            value = match["value"]
            if _opens_a_name(match):
                continue  # "Posted by Niamh Gallagher": a person's name (`QuotedNameRecognizer`, the PII tagger)
            if _named(match) and (handle_shaped(value) or (value.isalpha() and (uncommon(value) or _home(match)))):
                kind = f"in the path {match['path']!r}" if match["path"] else f"after {match['marker'].lower()!r}"
                yield self._span(match, 0.9, kind)

    def _in_logs(self, text: str):
        """The user of an access log line (any word not common), the speaker of a chat log (handle-shaped)."""
        for match in _ACCESS_LOG.finditer(text):
            if _named(match) and (handle_shaped(match["value"]) or uncommon(match["value"])):
                yield self._span(match, 0.9, "the user field of an access log line")
        for match in _CHAT_LOG.finditer(text):
            if _named(match) and handle_shaped(match["value"]):
                yield self._span(match, 0.8, "the speaker of a chat log line")

    @staticmethod
    def _label_names(match: regex.Match[str], kind: str, code: str) -> bool:
        """Whether a label's value is a user name: handle-shaped, or an uncommon word after ":"/"=" (also after an
        English label and linking word); right after the label, handle-shaped, a lowercase word not frequent ("Nutzer
        mkrause") or an account number ("utilizador 70012284"; a shorter number is a record's: "user 12345
        reported")."""
        value = match["value"]
        if not _named(match):
            return False
        if kind == "direct":
            return (
                handle_shaped(value)
                or (value.isdigit() and len(value) >= username_data()["account_digits"])
                or (value.isalpha() and value.islower() and uncommon(value))
            )
        plain_allowed = kind == "form" or (code == ENGLISH and match["link"].lower() in _english_links())
        return handle_shaped(value) or (plain_allowed and value.isalpha() and uncommon(value))

    def _span(self, match: regex.Match[str], score: float, reason: str) -> Span:
        return self.span(match.start("value"), match.end("value"), score, reason=reason)


@register_recognizer
class QuotedNameRecognizer(Recognizer):
    """A person's name in a quote's header: after a marker of data/usernames.yaml (`markers`: "Quote from Tom Hughes:",
    "Zitat von Anna Schulz:", "[quote=Tom Hughes]"), capitalised, before ":", "]", a quote, a post's separator ("·",
    "•", "|": "Posted by Niamh Gallagher · 28 November") or the line's end, and read as
    a name (`reads_as_name`: two words or more, or a given name). The PII tagger left "Quote from Tom Hughes:" in clear
    in a short text while it masked "Quoting" and "Posted by" (ux26 H1)."""

    name, type = "quoted_name", "REAL_NAME"

    @cached_property
    def _starts(self) -> WordStarts:
        return WordStarts(tuple({marker.split()[0] for marker in username_data()["markers"]}))

    @cached_property
    def _pattern(self) -> regex.Pattern[str]:
        markers = one_of(tuple(username_data()["markers"]))
        return regex.compile(
            rf"(?<![\p{{L}}\d])(?P<marker>(?i:{markers}))[ \t]*{_QUOTE}(?P<value>{name_pattern(())})"
            r"(?=[\"'”]?[ \t]*(?:[:\]·•|]|\r?\n|$))"
        )

    def find(self, text: str) -> list[Span]:
        return [
            self.span(*match.span("value"), 0.8, reason=f"after {match['marker'].lower()!r}")
            for match in matches_at(self._pattern, text, self._starts(text))
            if match["value"][:1].isupper() and reads_as_name(text, *match.span("value"))
        ]


# A chat log line's timestamp ("[09:06]", "[28.11.26, 19:07:33]") and its speaker's name before ":": "[09:06] Lin Wei:"
_SPEAKER = regex.compile(rf"(?m:^)[ \t]*\[[^\]\n]{{0,16}}{_CLOCK}[ \t]*(?P<value>{name_pattern(())})[ \t]*:[ \t]")


@register_recognizer
class ChatSpeakerRecognizer(Recognizer):
    """A person's name as a chat log line's speaker, after its timestamp and before ":" ("[09:06] Lin Wei: ..."), read
    as a name (`reads_as_name`: two words or more, or a given name) and not all common words of English ("Build Bot").
    The PII tagger masked "[09:02] Tomasz Nowak:" and left "Lin Wei:" in clear on every line (ux27's report H4); a
    speaker's handle is `UsernameRecognizer`'s."""

    name, type = "chat_speaker", "REAL_NAME"

    def find(self, text: str) -> list[Span]:
        if "[" not in text:
            return []
        return [
            self.span(*match.span("value"), 0.8, reason="the speaker of a chat log line")
            for match in _SPEAKER.finditer(text)
            if reads_as_name(text, *match.span("value")) and not all(map(common_word, match["value"].split()))
        ]


def _opens_a_name(match: regex.Match[str]) -> bool:
    """Whether a value after a marker is a capitalised word another capitalised word follows, the first of a person's
    name: "*Posted by Niamh Gallagher · 28 November 2026*" went out as "<USERNAME_1> <REAL_NAME_1>" (ux27's report M2),
    the cloud told the given name is a handle."""
    value = match["value"]
    return value.isalpha() and value[:1].isupper() and _NAME_GOES_ON.match(match.string, match.end("value")) is not None


_NAME_GOES_ON = regex.compile(r"[ \t]+\p{Lu}\p{Ll}")


def _named(match: regex.Match[str]) -> bool:
    """Whether a value found after a cue may be a user name: two characters or more, with a small letter unless all
    digits (not "2FA", "ABC-123"), not an account every system has (`reserved.generic_account`), no word of a group or a
    document (`not_personal`: "Team_Noord", "Q3_Report_final"), and no code: not a call ("get_user(request)") nor
    an attribute ("request.user": each dotted part a common word)."""
    value = match["value"]
    if len(value) < 2 or generic_account(value) or (_NO_SMALL_LETTER.fullmatch(value) and not value.isdigit()):
        return False
    if match.string.startswith("(", match.end("value")):
        return False
    if "." in value and all(common_word(part) for part in value.split(".")):
        return False
    return not any(part.casefold() in _not_personal() for part in _PARTS.findall(value))


def _home(match: regex.Match[str]) -> bool:
    """A given name of the tagger's name lexicon as a user's folder ("/home/beatriz", "C:\\Users\\marta"), a frequent
    word of a language or not. Written from a new-user test's "/home/beatriz/" (left in clear); on the texts of
    benchmarks/data/pii-heldout* (13 500) no path holds such a folder: no span more or less."""
    return bool(match["path"]) and given_name(match["value"])


@cache
def _not_personal() -> frozenset[str]:
    return frozenset(username_data()["not_personal"])


@cache
def _english_links() -> frozenset[str]:
    return frozenset(username_data()["links"][ENGLISH])


def _cue(match: regex.Match[str]) -> str:
    """The cue word that opens the match, lowercased, its spaces as one."""
    return " ".join(match["cue"].lower().split())
