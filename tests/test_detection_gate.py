"""The fast paths of detection find exactly what a plain scan finds.

Context patterns run only around their trigger words (`recognizers/gate.py`), and the identifier
patterns only on the tokens a cheap regex points to: for texts built from the phrases the
recognizers know (and look-alikes, padding, long tokens, case and Unicode changes), the spans
must equal those of the pattern scanning the whole text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stealthflow.placeholders.recognizers import ContextRecognizer, build_recognizers
from stealthflow.placeholders.recognizers.structured import EmailRecognizer, IpRecognizer

CONTEXT = [r for r in build_recognizers() if isinstance(r, ContextRecognizer) and r.triggers]

PHRASES = [
    "my name is Dana Berg",
    "My full name is Ana",
    "call me Kwame",
    "Regards, Priya Tanaka",
    "cheers, Tom",
    "signed, Lea Roth",  # "name: Lea Roth" is the labelled-name recognizer's (no context recognizer)
    "I'm Dana Berg",
    "hi, I am Sam",
    "This is Priya Tanaka",
    "i am called Kwame",
    "my older brother Jonas",
    "my wife, Mia",
    "my fiancée Sara",
    "my neighbour Ali Khan",
    "my late father Chen",
    "I work at Acme Robotics",
    "i currently work for Globex Corp",
    "I'm employed by Initech",
    "nurse at Helios Health",
    "I joined Bluefin",
    "diagnosed with type 2 diabetes",
    "suffering from chronic migraine",
    "I have been treated for major depression",
    "prescribed lithium",
    "api key: 9fQx7Lk2Pz8Rt4Wm1Nb6Vc3",
    "OPENAI_API_KEY=sk-proj-8fK2mQ9xLp4Rt7Wz",
    "token ghp_1234567890abcdefABCDEF1234",
    "please rotate xK9mP2qL7vR4tW8zQ3nB",
    "my password is hunter2!",
    "with password Tr0ub4dor&3",
    "pwd: s3cr3t",
    "pin: 4711",
    "the OTP is 482913",
    "verification code: 123 456",
    "the code they texted is 551234",
    "I got a code. It's 908172",
    "one-time passcode 7781",
    "the password for my bank account is Kq8!vLz2",
    "wifi pw is Coffee4All",
    "DB_PASSWORD=s3cr3t99",
    "login admin / Sp4rkle!9",
    "what's the password? It's Marigold_81",
    "changed my password to Ocean$7",
    "use Lamp0st#3 as the password",
    "door code 4471",
    "the code is 552918",
    "482913 is your verification code",
    "they texted me 906812",
    "enter 334455 when it asks for the code",
    "backup code: 8f3k-29dj",
    "I leaked q8Xv3Lm29PzR7tKw5NbYc4Hs",
    "rotate the key 9fQxL2mV8rT4kZ1pW6y",
    "Login for the router: admin / 509973",
    "credentials: root:T0mato#55",
    "router admin is admin/hunter2",
    "use 61-82-97 to open the lockbox",
    "the wifi is Nimbus!68",
    "Security answer: copper897",
    "SSN: 123456789",
    "log in with password zKqWpLmRtY",
]
FILLER = [
    "the",
    "and",
    "we",
    "went",
    "to",
    "market",
    "because",
    "PASS",
    "Keys",
    "passing",
    "reason",
    "person",
    "making",
    "code-review",
    "İstanbul",
    "ǅ",
    "Straße",
    "12.50",
    "10:30",
    "x" * 300,
]
SEPARATORS = [" ", "  ", "\n", ". ", ", ", " " * 80, "\t"]


def _plain(recognizer: ContextRecognizer, text: str) -> list[tuple[int, int]]:
    return sorted((m.start("value"), m.end("value")) for m in recognizer.pattern.finditer(text) if recognizer.accept(m))


@st.composite
def texts(draw) -> str:
    parts = draw(st.lists(st.one_of(st.sampled_from(PHRASES), st.sampled_from(FILLER)), min_size=1, max_size=30))
    parts = [p.upper() if draw(st.integers(0, 9)) == 0 else p for p in parts]
    return "".join(part + draw(st.sampled_from(SEPARATORS)) for part in parts)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=texts())
def test_gated_context_recognizers_find_what_a_full_scan_finds(text):
    for recognizer in CONTEXT:
        assert sorted((s.start, s.end) for s in recognizer.find(text)) == _plain(recognizer, text), recognizer.name


@pytest.mark.parametrize("phrase", PHRASES)
def test_every_phrase_is_found_far_into_a_long_text(phrase):
    text = ("filler words go here and there. " * 400) + phrase + " and more." + (" tail" * 200)
    found = {r.name for r in CONTEXT if r.find(text)}
    expected = {r.name for r in CONTEXT if _plain(r, text)}
    assert found == expected and expected


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    text=st.lists(
        st.sampled_from(
            [
                "mail",
                "dana@mailbox.org",
                "81.0.0.1",
                "fe80::1",
                "2001:db8::8a2e:370:7334",
                "12.50",
                "10:30",
                "a@b",
                "x" * 200 + "@mailbox.org",
                "v1.2.3.4",
                "::",
            ]
        ),
        max_size=12,
    ).map(" ".join)
)
def test_pattern_recognizers_on_pointed_tokens_match_their_patterns_on_the_whole_text(text):
    for recognizer in (EmailRecognizer(), IpRecognizer()):
        whole = {
            (start, start + len(text[start:end].rstrip(recognizer.trailing)))
            for start, end, score in recognizer.analyze(text)
            if score >= recognizer.min_score
        }
        assert {(s.start, s.end) for s in recognizer.find(text)} == whole, recognizer.name


def test_a_re_sent_history_is_detected_once():
    """Detection remembers the spans of texts it saw (a chat re-sends its history every turn)."""
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers.base import Recognizer

    class CountingEmail(Recognizer):  # FAKE recognizer: counts the texts it is shown
        name, type = "counting_email", "EMAIL"
        seen: list[str] = []

        def find(self, text):
            self.seen.append(text)
            at = text.find("a@mailbox.org")
            return [self.span(at, at + 13)] if at >= 0 else []

    recognizer = CountingEmail()
    detector = Detector([recognizer], cache_entries=2)
    first = detector.detect_many(["mail a@mailbox.org", "hello"])
    second = detector.detect_many(["mail a@mailbox.org", "hello", "new: a@mailbox.org"])
    assert recognizer.seen == ["mail a@mailbox.org", "hello", "new: a@mailbox.org"]
    assert second[:2] == first and (second[2][0].start, second[2][0].end) == (5, 18)
    detector.detect_many(["other"])  # the cache keeps the 2 most recent texts
    detector.detect_many(["mail a@mailbox.org"])
    assert recognizer.seen[-2:] == ["other", "mail a@mailbox.org"]


VENDOR_TOKENS = [
    "AKIAIOSFODNN7EXAMPLE",
    "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",
    "glpat-abcdefghij1234567890",
    "xoxb-123456789012-abcdef123",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "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",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "https://user:hunter2pass@db.mailbox.org/x",
    "AccountKey=" + "a" * 88,
    "AC" + "0123456789abcdef" * 2,
    "SK" + "fedcba9876543210" * 2,
    "0123456789abcdef0123456789abcdef-us12",
    "aws_secret='" + "A" * 40 + "'",
    'cloudant_password="abcdefghijklmnop"',
    "ibm_cloud_iam_api_key: " + "x" * 44,
    "123456789:" + "A" * 35,
    "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl." + "a" * 27,
    "pypi-AgEIcHlwaS5vcmc" + "B" * 70,
    "ſecret_key='x'",
    "AKıA",
]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    parts=st.lists(
        st.one_of(
            st.sampled_from(VENDOR_TOKENS),
            st.sampled_from(FILLER),
            st.sampled_from(["key =", "token:", "dana@mailbox.org"]),
        ),
        min_size=1,
        max_size=12,
    ),
    separator=st.sampled_from([" ", "\n", '"', "=", ""]),
)
def test_gated_vendor_patterns_find_what_every_pattern_finds(parts, separator):
    """Vendor patterns run only in windows holding one of their literals (`required_literals`)."""
    from stealthflow.placeholders.recognizers.secrets import (
        VendorTokenRecognizer,
        _detect_secrets_patterns,
        _secret_bounds,
        _token_windows,
    )

    text = separator.join(parts)
    every = [
        _secret_bounds(m)
        for start, end in _token_windows(text)
        for p in _detect_secrets_patterns()
        for m in p.finditer(text, start, end)
    ]
    assert sorted((s.start, s.end) for s in VendorTokenRecognizer().find(text)) == sorted(every)


def test_required_literals_are_in_every_match():
    import re

    from stealthflow.placeholders.recognizers.gate import fold, required_literals

    cases = [
        (r"(?:A3T[A-Z0-9]|ABIA|AKIA)[0-9A-Z]{4}", ["AKIA1234", "A3TX1234", "ABIAZZZZ"]),
        (r"(?i)secret[-_]?key", ["SECRET_KEY", "ſecretKey"]),
        (r"(?i)akia\d", ["AKıA1"]),
        (r"x?(?:ab|cd)+z", ["abcdz", "xcdz"]),
    ]
    for source, samples in cases:
        pattern, literals = re.compile(source), required_literals(re.compile(source))
        for sample in samples:
            assert pattern.fullmatch(sample) and any(literal in fold(sample) for literal in literals), (source, sample)
    assert required_literals(re.compile(r"\d{8}:[A-Z]{35}")) is None  # no literal of 2 characters: never gated


def test_a_trigger_at_the_very_end_of_the_text_ends_the_scan():
    """A word-boundary pattern is tried only at word boundaries, up to the text's last one."""
    from stealthflow.placeholders.recognizers.context import RelativeNameRecognizer

    text = "552918 my neighbour Ali Khan person"
    assert (
        [(s.start, s.end) for s in RelativeNameRecognizer().find(text)]
        == [(20, 28)]
        == _plain(RelativeNameRecognizer(), text)
    )


def test_first_characters_hold_every_match_start():
    """Context patterns are tried only where a match's first character can be (`first_characters`)."""
    import re

    from stealthflow.placeholders.recognizers.gate import first_characters

    text = " ".join(PHRASES).upper() + " " + " ".join(PHRASES)
    for recognizer in CONTEXT:
        starter = first_characters(recognizer.pattern)
        assert starter is None or all(starter.match(text, m.start()) for m in recognizer.pattern.finditer(text)), (
            recognizer.name
        )
    assert first_characters(re.compile(r"(?i:\b(?:my|call)\s)")).pattern == "[cm]"
    assert first_characters(re.compile(r"(?<!x)(?=[ab])\w+")).pattern == "[ab]"
    assert first_characters(re.compile(r"(?:x)?y")) is None and first_characters(re.compile(r"[^a]b")) is None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    text=st.lists(
        st.sampled_from(
            [
                "see",
                "mailbox.org/path",
                "(https://a.b.co/x).",
                "e.g.",
                "file.txt",
                "..",
                ".",
                "a.",
                ".io",
                "x" * 80 + ".com",
                "www.acme.de,",
                "1.2",
                "\n",
                "  ",
            ]
        ),
        max_size=12,
    ).map(lambda parts: "".join(p + " " * (i % 2) for i, p in enumerate(parts)))
)
def test_url_recognizer_on_dotted_tokens_matches_every_token(text):
    import re

    from stealthflow.placeholders.recognizers import structured

    class EveryToken(structured.UrlRecognizer):  # the recognizer as it was: every token looked at
        def find(self, text):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(structured, "_DOTTED_TOKEN", re.compile(r"\S+"))
                return super().find(text)

    assert structured.UrlRecognizer().find(text) == EveryToken().find(text)


def _word_started() -> list[tuple[object, object]]:
    """(pattern, WordStarts) of each recognizer that tries its patterns only where a cue word starts."""
    from stealthflow.placeholders.recognizers.languages import LanguageRecognizer
    from stealthflow.placeholders.recognizers.passports import PassportRecognizer
    from stealthflow.placeholders.recognizers.usernames import UsernameRecognizer

    pairs = [(r.pattern, r._cue_starts) for r in build_recognizers() if isinstance(r, LanguageRecognizer) and r.cues]
    users = UsernameRecognizer()
    pairs += [(p, users._starts) for p in (users._label, users._site, users._site_name, users._signed, users._marked)]
    passports = PassportRecognizer()
    return [*pairs, (passports._cue, passports._cue_starts)]


WORD_STARTED = _word_started()
CUES = sorted(
    {phrase for _, starts in WORD_STARTED for phrase in starts.words if phrase.strip()}
    | {"Ich heiße", "Grüße", "Straße", "Benutzername:"}
)
# characters that casefolding lengthens ("ß" -> "ss", "İ" -> "i̇", "ﬁ" -> "fi"), glued to cues and alone
LENGTHENED = ["Straße", "GRÜẞE", "İch", "İ", "ﬁle", "ǰ", "ß", "ŉ"]


@st.composite
def cue_texts(draw) -> str:
    parts = draw(
        st.lists(
            st.one_of(st.sampled_from(CUES), st.sampled_from(LENGTHENED), st.sampled_from(FILLER[:-1])),
            min_size=1,
            max_size=20,
        )
    )
    parts = [p.replace("i", "İ", 1) if draw(st.integers(0, 4)) == 0 else p for p in parts]
    parts = [p.upper() if draw(st.integers(0, 9)) == 0 else p for p in parts]
    glue = st.sampled_from([" ", "", ": ", " Anna_77 ", " tinker.dad\n", ", ", "ß"])
    return "".join(part + draw(glue) + draw(st.sampled_from(["Berg", "Kassel", "K1234567", ""])) for part in parts)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=cue_texts())
def test_patterns_tried_at_cue_word_starts_find_what_a_full_scan_finds_where_folding_lengthens_letters(text):
    from stealthflow.placeholders.recognizers.gate import matches_at

    for pattern, starts in WORD_STARTED:
        gated = [m.span() for m in matches_at(pattern, text, starts(text))]
        assert gated == [m.span() for m in pattern.finditer(text)], pattern.pattern[:80]


def test_a_cue_word_after_a_letter_folding_lengthens_starts_where_it_is_written():
    from stealthflow.placeholders.recognizers.gate import WordStarts

    starts = WordStarts(("heiße", "ich"))
    assert starts("Grüße, ich heiße Anna") == [7, 11]
    assert starts("İch heiße Anna") == [0, 4]


def _cued() -> list:
    from stealthflow.placeholders.recognizers.cued import CuedRecognizer

    return [r for r in build_recognizers() if isinstance(r, CuedRecognizer) and r._cues]


CUED = _cued()
OPENING = sorted({word for r in CUED for word in r._opening_words})
# what a cue word may be glued to: letters (a start inside a word: "repaid", "economy"), Chinese characters (a cue in
# them starts anywhere: "我的微信号"), digits, and the values and links the cued formats take
GLUED = ["re", "eco", "我的", "7", "", " ", ": ", " is ", " ist ", " 4521873", " £52,000", " 28/12345678/40", " 12/27"]


@st.composite
def cued_texts(draw) -> str:
    parts = draw(st.lists(st.sampled_from(OPENING), min_size=1, max_size=12))
    return "".join(draw(st.sampled_from(GLUED)) + part + draw(st.sampled_from(GLUED)) for part in parts)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=cued_texts())
def test_cued_patterns_tried_only_where_a_cue_word_starts_a_word_find_what_a_full_scan_finds(text):
    from stealthflow.placeholders.recognizers.gate import matches_at

    for recognizer in CUED:
        gated = [m.span() for m in matches_at(recognizer._cued, text, recognizer._cue_starts(text))]
        assert gated == [m.span() for m in recognizer._cued.finditer(text)], recognizer.name


def test_a_cue_word_inside_a_word_is_not_tried_but_one_in_chinese_characters_is():
    from stealthflow.placeholders.recognizers.cued import IncomeRecognizer, WeChatRecognizer

    income = IncomeRecognizer()
    assert 4 in income._starts("I repaid my salary")  # "paid" inside "repaid"
    assert income._cue_starts("I repaid my salary") == [0, 9, 12]  # "I", "my", "salary"
    wechat = WeChatRecognizer()
    assert wechat._cue_starts("我的微信号是lin_wei88") == wechat._starts("我的微信号是lin_wei88") != []


def test_word_initial_takes_the_starts_its_pattern_takes_in_ascii_texts_and_others():
    from stealthflow.placeholders.recognizers.cued import IncomeRecognizer
    from stealthflow.placeholders.recognizers.languages import _WORD_CHARACTER, word_initial

    for text in ("I repaid my_salary, 2x-pay\tpaid!", "Grüße: é9 ²pay ٣my 漢字pay _paid", "x", "ab"):
        starts = list(range(len(text)))
        by_pattern = [start for start in starts if start == 0 or not _WORD_CHARACTER.match(text, start - 1)]
        assert word_initial(text, starts) == by_pattern, text
    income = IncomeRecognizer()  # the real recognizer, an ASCII text and one that is not
    assert income._cue_starts("I repaid my salary") == [0, 9, 12]
    assert income._cue_starts("Grüße! I repaid my salary") == [7, 16, 19]


# numbers of the shapes (and digits, letters and marks glued to them) with what may stand between them
NUMBERS = [
    "111222345",
    "36574261809",
    "1237 010180",
    "85.07.30-033.28",
    "756.9217.0769.85",
    "390.533.447-05",
    "16.482.907-3",
    "54362315K",
    "2 95 10 99 126 111 93",
    "943 476 5129",
    "PT 501 964 843",
    "7",
    "12",
    "٣",
    "²",
    "x",
    "K",
    "_",
]
BETWEEN = [" ", "", ".", "-", ",", "\n", "a", "/"]


@st.composite
def number_texts(draw) -> str:
    parts = draw(st.lists(st.sampled_from(NUMBERS), min_size=1, max_size=8))
    return "".join(draw(st.sampled_from(BETWEEN)) + part for part in parts)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(text=number_texts())
def test_shapes_that_open_with_a_digit_tried_where_one_stands_alone_find_what_a_full_scan_finds(text):
    from stealthflow.placeholders.recognizers.national_ids import ChecksumIdRecognizer
    from stealthflow.placeholders.recognizers.public_names import words_kept

    led = [r for r in build_recognizers() if isinstance(r, ChecksumIdRecognizer) and r.opens_with_digit]
    assert len(led) == 10
    with words_kept():  # as the detector runs them
        for recognizer in led:
            found = [m.span() for m in recognizer.shapes_in(text)]
            assert found == [m.span() for m in recognizer.shape.finditer(text)], recognizer.name
