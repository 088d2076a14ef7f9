"""Detection under hostile input: linear time on long tokens without spaces (the old IP/URL
patterns took 18 s on 40k characters and minutes on megabytes), values still found inside them."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.resources import resource_dir
from stealthflow.testing.hostile import KINDS

HOSTILE = {
    "x run": "x" * 200_000,
    "dotted run": ("a.bc1.2" * 40_000)[:200_000],
    "colon run": ("ab:1f:" * 40_000)[:200_000],
    "at-signs": ("x@y." * 50_000)[:200_000],
}


@pytest.mark.timeout(
    60
)  # a guard against quadratic blow-up (~1 s now; the old code needed hours here), not a speed target
@pytest.mark.parametrize("shape", list(HOSTILE))
def test_long_tokens_without_spaces_are_scanned_in_linear_time(shape):
    Detector(build_recognizers()).deterministic(HOSTILE[shape])


def test_a_value_hidden_in_a_long_token_is_still_found():
    text = "x" * 50_000 + " " + "y" * 30_000 + "mail:dana@mailbox.org;" + "z" * 30_000 + " and 81.1.2.3"
    found = {(s.type, text[s.start : s.end]) for s in Detector(build_recognizers()).detect(text)}
    assert ("EMAIL", "dana@mailbox.org") in found or any(t == "EMAIL" and "dana@mailbox.org" in v for t, v in found)
    assert ("IP_ADDRESS", "81.1.2.3") in found


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        ("see https://mailbox.org/a?b=1.", ["https://mailbox.org/a?b=1"]),
        ("go to www.foo.co.uk/path)", ["www.foo.co.uk/path"]),
        ("visit github.com/x/y, thanks", ["github.com/x/y"]),
        ("file.txt, e.g. this, v1.2.3 and 10.0.0.1", []),
        ("mail a@b.com", []),
        # a one-letter name written bare is an abbreviation, not a site: Spanish company forms, house numbers
        ("I work for Hnos Bosch S.Com. and Grupo Olivé S.Coop.; h.no 70 natt street", []),
        ("t.co/x9 or https://x.com or www.s.com", ["t.co/x9", "https://x.com", "www.s.com"]),
        # two English words joined by a dot are a program's key (ux22b M4), though "email" and "name" are suffixes;
        # a person's site with such a suffix, a capital, a scheme or a path stays a URL
        (
            "git config user.email; self.name or ineskowalczyk.photo, User.Name, https://user.email, user.email/x",
            ["ineskowalczyk.photo", "User.Name", "https://user.email", "user.email/x"],
        ),
    ],
)
def test_urls_are_whole_tokens_with_a_known_public_suffix(text, urls):
    (url,) = build_recognizers(["url"])
    assert [text[s.start : s.end] for s in url.find(text)] == urls


@pytest.mark.parametrize(
    ("text", "handles"),
    [
        ("Ping @dmitri.volkov about it. Follow me on instagram @lena_rossi92!", ["@dmitri.volkov", "@lena_rossi92"]),
        ("cc: @Zoë_K, and read medium.com/@anna_b/post", ["@Zoë_K", "@anna_b"]),
        # an email, chat shorthand, a broadcast mention, digits alone
        ("mail dana@mailbox.org; see you @noon or @5pm; @everyone standup moved; @12345; meet @ 5", []),
        # a bot's address in a commit log
        ("dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>", []),
        # a brand's handle is public (public_names.py's brands, without their spaces)
        (
            "@Ryanair charging £35 to sit together is peak Ryanair; @amazon sort it out, cc @lena_rossi92",
            ["@lena_rossi92"],
        ),
        # Python decorators (as in the fit packages of benchmarks/code_negatives.py), not a handle opening a line
        ("@property\ndef name(self):\n    return self._name", []),
        ("class A:\n    @pytest.mark.skipif(sys.platform == 'win32', reason='posix')\n\n    def test_a(self):", []),
        ("@overload\n@t.overload\nasync def f(x: int) -> int: ...", []),
        ("@dataclass(frozen=True)\nclass Point:", []),
        (
            "@lena_rossi92\nthanks for the link!\n@dmitri.volkov def not a decorator",
            ["@lena_rossi92", "@dmitri.volkov"],
        ),
    ],
)
def test_handles_are_usernames_but_not_emails_times_broadcasts_brands_or_decorators(text, handles):
    (handle,) = build_recognizers(["handle"])
    found = handle.find(text)
    assert [text[s.start : s.end] for s in found] == handles
    assert {s.type for s in found} <= {"USERNAME"}


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        (
            "card 4716\u00a02830\u00a05914\u00a04476 thanks",
            "4716\u00a02830\u00a05914\u00a04476",
            "CREDIT_CARD",
        ),  # non-breaking spaces
        ("card 4716.2830.5914.4476 thanks", "4716.2830.5914.4476", "CREDIT_CARD"),  # dots
        (
            "card 4716\u200b2830\u200b5914\u200b4476 thanks",
            "4716\u200b2830\u200b5914\u200b4476",
            "CREDIT_CARD",
        ),  # zero-width spaces
        (
            "card ４７１６ ２８３０ ５９１４ ４４７６ thanks",
            "４７１６ ２８３０ ５９１４ ４４７６",
            "CREDIT_CARD",
        ),  # fullwidth digits
        ("card ٤٧١٦ ٢٨٣٠ ٥٩١٤ ٤٤٧٦ thanks", "٤٧١٦ ٢٨٣٠ ٥٩١٤ ٤٤٧٦", "CREDIT_CARD"),  # Arabic-Indic digits
        ("key AKIAIOSFOD\u200bNN7EXAMPLE here", "AKIAIOSFOD\u200bNN7EXAMPLE", "API_KEY"),
        ("mail dana\u200b@mailbox.org now", "dana\u200b@mailbox.org", "EMAIL"),
        ("mail dana\u00ad.berg@mailbox.org now", "dana\u00ad.berg@mailbox.org", "EMAIL"),
        ("mail dana＠mailbox.org now", "dana＠mailbox.org", "EMAIL"),
    ],
)
def test_detection_sees_through_unicode_evasion_and_masks_the_original_characters(text, value, kind):
    spans = Detector(build_recognizers()).detect(text)
    assert (kind, value) in {(s.type, text[s.start : s.end]) for s in spans}


def test_a_password_with_a_zero_width_space_in_its_context_word_is_found():
    text = "my pass\u200bword is hunter2!"
    assert ("PASSWORD", "hunter2!") in {
        (s.type, text[s.start : s.end]) for s in Detector(build_recognizers()).detect(text)
    }


def test_dotted_numbers_that_fail_the_checksum_are_not_cards():
    text = "version 1234.5678.9012.3456 and ip 81.0.0.1"
    assert not [s for s in Detector(build_recognizers()).detect(text) if s.type == "CREDIT_CARD"]


@pytest.fixture(scope="module")
def tagged_detector():
    return Detector(build_recognizers(models=True))


def _cpu_seconds(detector: Detector, text: str) -> float:
    import time

    started = time.process_time()
    detector.detect(text)
    return time.process_time() - started


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", list(KINDS))
def test_detection_with_the_tagger_stays_linear_on_hostile_text(tagged_detector, kind):
    """4x the text costs less than 8x the CPU time (a quadratic step costs 16x): the tagger's rules
    read a bounded sentence, a long token's secret is grown once, a run over 256 characters is one piece."""
    from stealthflow.testing.hostile import hostile_text

    tagged_detector.detect(hostile_text(kind, 2_000, seed=1))  # warm: the model and its lexicons loaded
    small, large = (
        min(_cpu_seconds(tagged_detector, hostile_text(kind, size)) for _ in range(2)) for size in (8_000, 32_000)
    )
    assert large < 8 * max(small, 0.02), (kind, small, large)


def test_a_jwt_is_masked_with_its_signature():
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    text = f"auth header: {jwt} ok"
    assert [(s.type, text[s.start : s.end]) for s in Detector(build_recognizers()).detect(text)] == [("API_KEY", jwt)]


class _CountingPattern:
    """A fake compiled pattern: the real one, counting the characters its searches may read."""

    def __init__(self, pattern):
        self.pattern, self.read = pattern, 0

    def search(self, text, pos=0, endpos=None):
        endpos = len(text) if endpos is None else min(endpos, len(text))
        self.read += max(0, endpos - max(pos, 0))
        return self.pattern.search(text, max(pos, 0), endpos)

    def finditer(self, text, pos=0, endpos=None):
        self.read += len(text) - pos
        return self.pattern.finditer(text, pos)


def test_the_address_rules_look_for_a_tie_once_per_text_not_once_per_address(monkeypatch):
    """An address after "visit" is a landmark unless a word within 1000 characters ties it to someone
    ("my", "deliver"): searching those 2000 characters around each address cost seconds per megabyte of
    addresses without full stops (the tagger asks it of each of its address spans too)."""
    from stealthflow.placeholders.recognizers import sentences

    counting = _CountingPattern(sentences._ADDRESS_TIE)
    monkeypatch.setattr(sentences, "_ADDRESS_TIE", counting)
    landmarks = " ".join(f"visit {number} Berg Street" for number in range(1, 2000))
    text = landmarks + " and deliver it"
    (street,) = build_recognizers(["street_address"])
    found = [span.start for span in street.find(text)]
    assert counting.read <= 2 * len(text)
    tie_end = text.index("deliver") + len("deliver")
    # only the addresses with the tie in reach are someone's
    assert found == [m.start() for m in re.finditer(r"\d+ Berg Street", text) if tie_end - m.start() <= 1000]
    assert found


def test_lingua_reads_a_long_run_without_spaces_cut_short():
    """Lingua's time grows with the square of a run without spaces (200 KB of "x": 15 s of CPU): it
    reads at most LONGEST_RUN characters of each, the text's words whole."""
    from stealthflow.placeholders.language import LONGEST_RUN, LinguaGuesser

    class FakeLingua:  # a fake: records what it is given, answers English
        read: list[str] = []

        def compute_language_confidence_values(self, text):
            self.read.append(text)
            return []

    guesser = LinguaGuesser()
    guesser.__dict__["_lingua"] = lingua = FakeLingua()
    guesser.guess("x" * 200_000 + " then my name is Anna Berg and " + "ab" * 50_000)
    (text,) = lingua.read
    assert text == "x" * LONGEST_RUN + " then my name is Anna Berg and " + "ab" * (LONGEST_RUN // 2)


def test_a_condition_in_another_language_reads_a_bounded_sentence_once():
    """Each condition of the six languages asks whether its sentence holds a first-person word; over a
    text without full stops that sentence ran to the text's end (77 s of CPU for 200 KB): now the text's
    first-person words are found once and the sentence reaches at most SENTENCE_REACH characters."""
    (condition,) = build_recognizers(["condition_de"])
    counting = _CountingPattern(condition.personal)
    condition.__dict__["personal"] = counting
    text = " ".join(["Asthma und Diabetes"] * 3000) + " hat meine Tochter"
    found = condition.find(text)
    assert counting.read <= 2 * len(text)
    assert found and all(len(text) - span.start <= 1000 + len(" hat meine Tochter") for span in found)


# -- emails in text dense with @ ------------------------------------------------------------------
EMAIL_PIECES = st.sampled_from(["a", "Z9", "_", ".", "-", "$", "@", "@", "(", " ", "é", "\u0301", "x.org", "b-c"])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(pieces=st.lists(EMAIL_PIECES, max_size=40))
def test_the_email_pattern_tried_at_each_at_sign_finds_what_a_plain_scan_finds(pieces):
    """EmailRecognizer tries its pattern once per @ (from the start of the local part's run); the
    same matches as the pattern's plain scan of the text, which tried every word boundary."""
    text = "".join(pieces)
    (email,) = build_recognizers(["email"])
    for pattern, _ in email.patterns:
        assert [m.span() for m in email.matches(pattern, text)] == [m.span() for m in pattern.finditer(text)]


def _least_cpu_seconds(run, repeats: int = 3) -> float:
    """The least CPU time of `repeats` runs (the machine's other work inflates a run, never shrinks it)."""
    least = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        run()
        least = min(least, time.process_time() - started)
    return least


@pytest.mark.parametrize("kind", ["printable token", "glued words"])
def test_emails_in_a_token_dense_with_at_signs_cost_less_than_a_plain_scan_of_prose(kind):
    """A token with an @ every hundred characters made the email recognizer run its pattern from
    every word boundary of every run before an @, twice (its pieces overlap): about five times what
    a plain scan of as much prose costs (2 s per MB). Now once per @: under twice that, on any CPU
    (the reference is measured here)."""
    from stealthflow.testing.hostile import hostile_text

    size = 256_000
    messages = "\n".join(
        json.loads(line)["text"]
        for line in resource_dir("data").joinpath("pii_test.jsonl").read_text(encoding="utf-8").splitlines()
    )
    prose, text = (messages * (size // len(messages) + 1))[:size], hostile_text(kind, size)
    (email,) = build_recognizers(["email"])
    (pattern, _), *_ = email.patterns
    email.find(text)  # warm: tldextract's suffix list loaded
    reference = _least_cpu_seconds(lambda: sum(1 for _ in pattern.finditer(prose)))
    assert _least_cpu_seconds(lambda: email.find(text)) < 2 * reference


# -- the recognizers of other languages in long tokens ------------------------------------------
CUE_PIECES = st.sampled_from(
    ["ich", "bin", "Ich", "BIN", "mein", "meine", "Frau", "Katrin", "Diabetes", "asthma", "o", "meu", "pai", "Ana"]
    + ["la", "mia", "madre", "Giulia", "werk", "bij", "Philips", " ", " ", "\t", "  ", ",", ".", "x", "İ", "ß", "9"]
)
CUE_RECOGNIZERS = [
    "introduced_name_de",
    "relative_name_de",
    "condition_de",
    "condition_en",
    "relative_name_pt",
    "relative_name_it",
]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(pieces=st.lists(CUE_PIECES, max_size=30), name=st.sampled_from(CUE_RECOGNIZERS + ["employer_cue_nl"]))
def test_a_language_pattern_tried_where_its_cues_start_finds_what_a_plain_scan_finds(pieces, name):
    """A recognizer whose matches start with a cue phrase tries its pattern only where one may start;
    the same spans as the plain scan of the text (its `cues` unset)."""
    text = "".join(pieces)
    (gated,) = build_recognizers([name])
    plain = type(gated)()
    plain.cues = None
    assert gated.find(text) == plain.find(text)


def test_casefolding_keeps_every_cue_character_the_patterns_match_without_case():
    """The cue starts (each cue's first word) are found in the casefolded text: every character the
    patterns' case-insensitive matching takes for one of theirs folds to the same one, or to more than
    one (the text's length then changes, and the whole text is scanned)."""
    import sys

    import regex

    from stealthflow.placeholders.language import ENGLISH, OTHERS
    from stealthflow.placeholders.recognizers.gate import fold
    from stealthflow.placeholders.recognizers.languages import listed, vocabulary

    everything = "".join(chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF)
    fields = ("introductions", "relatives", "employer_cues")
    firsts = {cue.partition(" ")[0] for code in OTHERS for field in fields for cue in getattr(vocabulary(code), field)}
    firsts |= {cue.partition(" ")[0] for code in (*OTHERS, ENGLISH) for cue in listed(code, "conditions")}
    for ch in sorted(set("".join(firsts))):
        for other in regex.findall(f"(?i:{regex.escape(ch)})", everything):
            assert fold(other) == fold(ch) or len(fold(other)) > 1, (ch, other)


class _CountingStarts:
    """A fake compiled pattern: the real one, counting the places where a match may start that it tries."""

    def __init__(self, pattern):
        self.pattern, self.tried = pattern, 0

    def finditer(self, text, pos=0, endpos=None):
        self.tried += len(text) - pos
        return self.pattern.finditer(text, pos)

    def match(self, text, pos=0, endpos=None):
        self.tried += 1
        return self.pattern.match(text, pos, len(text) if endpos is None else endpos)


@pytest.mark.parametrize("name", CUE_RECOGNIZERS)
def test_a_language_pattern_is_tried_in_a_long_token_only_where_its_cues_start(name):
    """A token of letters and digits holds no cue phrase of several words (they need a space) and
    seldom one of one: the recognizer's case-insensitive scan of all of it cost a tenth of a second
    per MB, and each of the six languages' recognizers ran it. Now the pattern is tried at a few
    places of it (a fake pattern counts them)."""
    from stealthflow.testing.hostile import hostile_text

    (recognizer,) = build_recognizers([name])
    counting = _CountingStarts(recognizer.pattern)
    recognizer.__dict__["pattern"] = counting
    text = hostile_text("alnum token", 256_000)
    assert recognizer.find(text) == []
    assert counting.tried <= len(text) // 1000


def test_the_trigger_gate_reads_back_from_each_trigger_only_to_the_range_so_far(monkeypatch):
    """A pattern gated by its trigger words runs from a few words before each trigger: in words
    glued together ("mypasswordishunter2...") five words reach 320 characters, and that was read
    back from each of its thousands of triggers. Now from each trigger only back to the range so
    far (a fake pattern counts what it may read); the ranges, and so the matches, are the same."""
    from stealthflow.placeholders.recognizers import gate
    from stealthflow.testing.hostile import hostile_text

    class CountingMatch:  # a FAKE: the real pattern, counting the characters each match may read
        def __init__(self, pattern):
            self.pattern, self.read = pattern, 0

        def match(self, text, pos=0, endpos=None):
            self.read += (len(text) if endpos is None else endpos) - pos
            return self.pattern.match(text, pos, len(text) if endpos is None else endpos)

    counting = CountingMatch(gate._BACK_WORDS)
    monkeypatch.setattr(gate, "_BACK_WORDS", counting)
    (password,) = build_recognizers(["password"])
    text = hostile_text("glued words", 64_000)
    ranges = password._gate.starts(text)
    assert counting.read <= 2 * len(text)
    monkeypatch.setattr(gate, "_BACK_WORDS", counting.pattern)
    reversed_text = text[::-1]
    unbounded = []  # each trigger read back in full, as before
    for last, length in password._gate.automaton.iter(text.lower()):
        start, end = gate._back_words(reversed_text, last + 1 - length), last + 1
        if unbounded and start <= unbounded[-1][1]:
            unbounded[-1] = (unbounded[-1][0], max(unbounded[-1][1], end))
        else:
            unbounded.append((start, end))
    assert ranges == unbounded


def test_a_git_config_key_is_sent_as_written_and_the_email_after_it_masked(tmp_path, monkeypatch):
    """ux22b M4: the model saw `git config <URL_1> <EMAIL_1>`. Real recognizers, through protect."""
    from placeholder_fixtures import make_protector, protect_config

    protector = make_protector(protect_config(tmp_path, monkeypatch))
    assert (
        protector.protect("Run `git config user.email me@x.org`", "s").text == "Run `git config user.email <EMAIL_1>`"
    )
