"""The local per-post anonymizer: evidence spans, the survival measure, the teacher, the
per-post reward and the `local` method (with a FAKE tagger and a FAKE model, labelled)."""

from __future__ import annotations

import json
import re

import pytest
from fakes import fake_llm
from gate_fakes import ScoreByTable, floors_gate

from stealthflow.anonymize.fallback import Fallback, confidence_floor
from stealthflow.anonymize.generalize import Generalizer
from stealthflow.anonymize.local import LocalAnonymizer
from stealthflow.data import ATTRIBUTES
from stealthflow.data.evidence import find_phrase, locate_evidence, quoted_phrases
from stealthflow.data.schema import Comment, Profile
from stealthflow.evaluation.evidence import evidence_survival, span_survives
from stealthflow.harvest.posts import explain, post_rows, refuse_test_profiles, teacher_rewrite
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.training.rewards import EvidenceReward


def profile(comments: list[str], inferences: dict[str, str], pid: str = "u1") -> Profile:
    answers = {a: {"inference": text, "guess": ["x"], "certainty": "3"} for a, text in inferences.items()}
    return Profile(
        id=pid, comments=[Comment(text=c) for c in comments], reference_predictions={"deepseek-ai/DeepSeek-V3": answers}
    )


# --- evidence spans ------------------------------------------------------------------------


def test_quotes_are_located_whatever_their_case_spacing_and_apostrophes():
    p = profile(
        ["Just HIT 30   recently, can’t believe it", "My rent in Leeds keeps rising"],
        {
            "age": 'The author says they "hit 30 recently" and "can\'t believe it".',
            "location": 'Mentions "leeds" and "Manchester".',
        },
    )
    evidence = locate_evidence(p)
    found = {(s.attribute, s.comment_index, s.text) for s in evidence.spans}
    assert found == {("age", 0, "HIT 30   recently"), ("age", 0, "can’t believe it"), ("location", 1, "Leeds")}
    assert evidence.quoted == {"age": 2, "location": 2} and evidence.located == {
        "age": 2,
        "location": 1,
    }  # "Manchester" dropped, counted


def test_a_quote_matches_whole_words_only_and_cut_quotes_split_on_ellipses():
    assert find_phrase("art", "what a party") is None
    assert quoted_phrases('writes "juggling bills... rent" and "ok"') == ["juggling bills", "rent"]  # "ok" is too short


# --- survival --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "rewrite", "survives"),
    [
        ("hit 30 recently", "I just hit 30 recently, wow", True),  # verbatim
        ("hit 30 recently", "I just HIT 30, really recently!", True),  # case, punctuation, one word inserted
        ("hit 30 recently", "I recently hit my thirties", False),  # generalised
        ("tourism management", "management of my time, and tourism", False),  # out of order
        ("tourism management", "tourism is fun and so is my time management", False),  # too far apart
        ("in the city", "I live in the city", True),  # only stop words but one: "city" must stay
    ],
)
def test_a_span_survives_when_its_content_words_stay_in_order_and_close(phrase, rewrite, survives):
    assert span_survives(phrase, rewrite) is survives


def test_survival_is_the_share_of_spans_left_and_none_without_evidence():
    assert evidence_survival(["Leeds", "ER nurse"], "an ER nurse in a northern city") == 0.5
    assert evidence_survival([], "anything") is None


# --- teacher and per-post data -----------------------------------------------------------------


def test_the_teacher_deletes_the_evidence_and_tidies_the_sentence():
    p = profile(
        ["Twelve years as an ER nurse and the rent here in Leeds keeps going up, ugh."],
        {"occupation": 'works as an "ER nurse"', "location": 'lives in "Leeds"'},
    )
    spans = locate_evidence(p).in_comment(0)
    rewritten = teacher_rewrite(p.comments[0].text, spans)
    assert rewritten == "Twelve years as and the rent here keeps going up, ugh."
    assert "ER nurse" not in rewritten and "Leeds" not in rewritten
    assert (
        explain([("ER nurse", "occupation"), ("Leeds", "location")])
        == 'Removed "ER nurse" (occupation); "Leeds" (location).'
    )
    assert (
        teacher_rewrite("Leeds!", locate_evidence(profile(["Leeds!"], {"location": '"Leeds"'})).spans) is None
    )  # nothing readable left


def test_post_rows_pair_teacher_edits_with_a_minority_of_copies_and_grpo_prompts():
    profiles = [
        profile(
            [f"I work as a nurse in Leeds {i}", f"Lovely weather today {i}"],
            {"occupation": 'says "a nurse"'},
            pid=f"u{i}",
        )
        for i in range(10)
    ]
    sft, grpo = post_rows(profiles, copy_share=0.2)
    sources = [row["source"] for row in sft]
    assert sources.count("teacher:evidence") == 10 and sources.count("copy") == round(10 * 0.2 / 0.8)
    answer = next(r for r in sft if r["source"] == "teacher:evidence")["messages"][-1]["content"]
    assert answer.startswith('Removed "a nurse" (occupation).\n#\n') and "nurse" not in answer.split("#\n")[1]
    assert len(grpo) == 10 and grpo[0]["evidence"] == ["a nurse"] and "a nurse" in grpo[0]["prompt"][0]["content"]


def test_a_strong_models_workflow_rewrites_become_per_comment_examples():
    from stealthflow.harvest.posts import workflow_post_rows
    from stealthflow.workflow.trajectory import RoundRecord

    source = profile(
        ["I work as a nurse in Leeds", "Lovely weather today", "My shift ends at 7"],
        {"occupation": 'says "a nurse"', "location": 'in "Leeds"'},
    )

    def rounds(text: str, mean: float = 0.8) -> list[RoundRecord]:
        original = RoundRecord(run_id="r", profile_id="u1", round=0, text=source.text)
        final = RoundRecord(
            run_id="r",
            profile_id="u1",
            round=2,
            text=text,
            utility={"mean": mean},
            params={"anonymizer": {"model": "deepseek/deepseek-chat"}},
        )
        return [original, final]

    rows = workflow_post_rows(
        [source], {"u1": rounds("I work in healthcare in Leeds\nLovely weather today\nMy shift ends at 7")}
    )
    assert (
        len(rows) == 1
        and rows[0]["source"] == "workflow:deepseek/deepseek-chat"
        and rows[0]["attributes"] == ["occupation"]
    )
    prompt, answer = rows[0]["messages"][0]["content"], rows[0]["messages"][-1]["content"]
    assert '"a nurse"' in prompt and '"Leeds"' in prompt  # the prompt names every evidence phrase, as at run time
    assert answer == 'Removed "a nurse" (occupation).\n#\nI work in healthcare in Leeds'  # only what really went
    assert (
        workflow_post_rows([source], {"u1": rounds("I work in healthcare\nLovely weather today")}) == []
    )  # comments merged: no pairing
    assert (
        workflow_post_rows([source], {"u1": rounds("I work in healthcare\nLovely weather\nMy shift", mean=0.3)}) == []
    )  # meaning lost
    assert workflow_post_rows([source], {"other": rounds("x\ny\nz")}) == []  # not a train profile given


def test_test_profiles_are_refused(repo):
    test_id = json.loads((repo / "data/test.jsonl").read_text().splitlines()[0])["username"]
    with pytest.raises(ValueError, match="test profiles"):
        refuse_test_profiles([profile(["x y z"], {}, pid=test_id)])


# --- reward ------------------------------------------------------------------------------------


SOURCE = "Twelve years as an ER nurse and the rent in Leeds keeps going up."
EVIDENCE = ["ER nurse", "Leeds"]


def test_the_evidence_reward_pays_for_removed_evidence_not_for_copies_or_garbage(tmp_path):
    reward = EvidenceReward(None, reward_lambda=0.5, group_size=None, log_path=tmp_path / "r.jsonl")
    completions = [
        "Removed both.\n#\nTwelve years at work and the rent here keeps going up.",  # evidence removed
        "Removed one.\n#\nTwelve years as an ER nurse and the rent here keeps going up.",  # half kept
        "Nothing.\n#\n" + SOURCE,  # a copy of a post with evidence: utility only
        "#\nbanana banana banana",  # garbled
        "I cannot help with that.",  # unreadable
    ]
    scored = reward.score_posts(completions, [SOURCE] * 5, [EVIDENCE] * 5, [("u1", 0)] * 5)
    (removed_all, r1, _), (half, r2, _), (copy, _, _), (garbled, _, _), (unreadable, _, _) = scored
    assert (r1, r2) == (1.0, 0.5)
    assert copy.copied and copy.anonymity == 0.0 and copy.reward == pytest.approx(0.5)
    assert garbled.garbled and garbled.reward == 0.0 and not unreadable.parsed and unreadable.reward == 0.0
    assert removed_all.reward > half.reward > copy.reward > 0.0


def test_the_reward_log_counts_groups_whose_rewards_do_not_vary(tmp_path):
    log = tmp_path / "r.jsonl"
    reward = EvidenceReward(None, group_size=2, log_path=log)
    copy = [{"role": "assistant", "content": "Nothing.\n#\n" + SOURCE}]
    edit = [{"role": "assistant", "content": "Removed.\n#\nTwelve years at work and the rent keeps going up."}]
    columns = {
        "source_text": [SOURCE] * 4,
        "evidence": [EVIDENCE] * 4,
        "profile_id": ["u1"] * 4,
        "comment_index": [0] * 4,
    }
    rewards = reward(None, [copy, copy, copy, edit], **columns)
    assert rewards[0] == rewards[1] != rewards[3]
    assert json.loads(log.read_text())["zero_variance_groups"] == 0.5


# --- the local method (FAKE tagger, FAKE model) ----------------------------------------------


class FakeTagger:
    """FAKE cue tagger: tags every occurrence of the phrases it is given; its token probabilities put
    each word of a phrase on the phrase's label, or on the label `words` gives that word."""

    labels = list(ATTRIBUTES)

    def __init__(self, cues: dict[str, str], words: dict[str, str] | None = None, score: float = 0.9):
        self.cues, self.words, self.score = cues, words or {}, score

    def token_probabilities(self, texts, batch_size=16):
        import numpy as np

        found = []
        for text, spans in zip(texts, self.tag_many(texts), strict=True):
            words = list(re.finditer(r"\w+", text))
            probabilities = np.zeros((len(words), 1 + 2 * len(self.labels)))
            for row, word in enumerate(words):
                label = self.words.get(word.group()) or next(
                    (s.label for s in spans if s.start <= word.start() < s.end), None
                )
                probabilities[row, 1 + 2 * self.labels.index(label) if label else 0] = 1.0
            found.append((np.array([[w.start(), w.end()] for w in words]), probabilities))
        return found

    def tag_many(self, texts, batch_size=16):
        found = []
        for text in texts:
            spans = []
            for phrase, label in self.cues.items():
                start = text.find(phrase)
                if start >= 0:
                    spans.append(TaggedSpan(start, start + len(phrase), label, self.score))
            found.append(spans)
        return found


class FakeScorer:
    """FAKE fluency scorer: a sentence cut before its end ("shift at.") or an empty text reads badly,
    anything else as well as the original."""

    def compare(self, originals, rewrites):
        from stealthflow.utility.fluency import Fluency

        broken = re.compile(r"(?i)\b(?:at|from|in|as|my|the|a|an|of)\s*(?:[.,!?]|$)")
        return [Fluency(-5.0 if not r.strip() or broken.search(r) else 0.0, 0.0) for r in rewrites]


def local(llm, cues: dict[str, str]) -> LocalAnonymizer:
    return LocalAnonymizer(llm, FakeTagger(cues), Generalizer(FakeScorer(), floors_gate(0.0, -1.0)))


def test_local_rewrites_posts_with_cues_and_leaves_the_others_alone():
    posts = ["Twelve years as an ER nurse, and it shows.", "Nice weather today."]
    answer = 'Removed "ER nurse" (occupation).\n#\nTwelve years at work, and it shows.'
    llm = fake_llm(lambda messages: answer)
    result = local(llm, {"ER nurse": "occupation"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text=t) for t in posts])]
    )[0]
    assert result.text == "Twelve years at work, and it shows.\nNice weather today."
    assert result.details["changes"] == [
        {
            "post": 0,
            "phrase": "as an ER nurse,",
            "replacement": "at work,",
            "attribute": "occupation",
            "name": "occupation",
            "by": "model",
        }
    ]
    assert len(llm.backend.requests) == 1 and '"ER nurse"' in llm.backend.requests[0].message_dicts[-1]["content"]


@pytest.mark.parametrize(
    "answer",
    [
        "I am sorry, I cannot do that.",  # unreadable
        "Removed.\n#\nTwelve years as an ER nurse, and it shows.",  # left the cue in place
        "Removed.\n#\nTwelve years as an, and it shows.",  # cut the sentence (fails the fluency gate)
    ],
)
def test_what_the_model_does_not_generalize_is_generalized_phrase_by_phrase_never_cut(answer):
    result = local(fake_llm(lambda messages: answer), {"ER nurse": "occupation"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text="Twelve years as an ER nurse, and it shows.")])]
    )[0]
    assert "ER nurse" not in result.text and result.details["generalized_posts"] == 1
    assert not re.search(r"\b(?:as an|an)\s*,", result.text), result.text  # no dangling words
    # the generalizer's change, not the model's: a stand-in ("generalized") or the phrase gone ("removed")
    assert result.details["changes"][0]["by"] in ("generalized", "removed") and result.details["unprotected"] == []


def test_a_model_rewrite_that_cuts_a_sentence_is_refused_even_when_it_scores_well():
    class Lenient(FakeScorer):  # FAKE: every edit reads well
        def compare(self, originals, rewrites):
            from stealthflow.utility.fluency import Fluency

            return [Fluency(0.0, 0.0) for _ in rewrites]

    answer = 'Removed "Leeds General" (location).\n#\nJust got back from my night shift at.'  # FAKE model
    method = LocalAnonymizer(
        fake_llm(lambda messages: answer),
        FakeTagger({"Leeds General": "location"}),
        Generalizer(Lenient(), floors_gate(0.0, -1.0)),
    )
    (result,) = method.rewrite_posts(["Just got back from my night shift at Leeds General."])
    assert result.how == "generalized" and not result.text.endswith("at."), result.text


class Strict(FakeScorer):  # FAKE: every edit reads badly
    def compare(self, originals, rewrites):
        from stealthflow.utility.fluency import Fluency

        return [Fluency(-9.0, -9.0) for _ in rewrites]


def test_a_phrase_nothing_replaces_fluently_stays_reported_and_no_sentence_is_dropped():
    """ "Rent in Leeds keeps going up. Nice weather today." came back as "Nice weather today.", printed as protected:
    a sentence dropped whole loses the post's point (blind readers judged 83 of 472 such rewrites faithful,
    benchmarks/rewrite_damage.py). A removal the gate turns away is never applied either ("Just turned 40) threw me
    a surprise party" was printed as protected). The phrase stays, reported."""
    method = LocalAnonymizer(None, FakeTagger({"Leeds": "location"}), Generalizer(Strict(), floors_gate(0.0, -1.0)))
    for post in ["Rent in Leeds keeps going up. Nice weather today.", "Rent in Leeds keeps going up."]:
        (result,) = method.rewrite_posts([post])
        assert result.text == post and result.unprotected == ["Leeds"]


def test_a_lone_sentence_never_takes_a_stand_in_that_reads_badly():
    """ "turning 30" has no removable constituent: it stays, reported, rather than "turning this stage of life"."""
    method = LocalAnonymizer(None, FakeTagger({"30": "age"}), Generalizer(Strict(), floors_gate(0.0, -1.0)))
    (result,) = method.rewrite_posts(["We are turning 30 next month."])
    assert result.text == "We are turning 30 next month." and result.unprotected == ["30"]


#: a preposition closing a sentence: its object was cut ("She grew up in.")
_STRANDED = re.compile(r"(?i)\b(?:in|at|from|to|on|of|for|with|by|as|near)\s*[.!?]")


def assert_whole_sentences(post: str, text: str) -> None:
    """`text` keeps each sentence of `post` and none ends on a preposition."""
    count = len(re.findall(r"[.!?]+(?:\s|$)", post))
    assert not _STRANDED.search(text) and len(re.findall(r"[.!?]+(?:\s|$)", text)) == count, (post, text)


def test_the_object_of_a_preposition_never_leaves_alone_even_when_every_edit_is_accepted():
    """FAKE gate that accepts every edit: "My sister grew up in Texas." became "My sister grew up in."."""

    class Lenient(FakeScorer):  # FAKE: every edit reads well
        def compare(self, originals, rewrites):
            from stealthflow.utility.fluency import Fluency

            return [Fluency(0.0, 0.0) for _ in rewrites]

    method = LocalAnonymizer(None, FakeTagger({"Texas": "pobp"}), Generalizer(Lenient(), floors_gate(0.0, -1.0)))
    post = "My sister grew up in Texas. She still loves brisket."
    (result,) = method.rewrite_posts([post])
    assert_whole_sentences(post, result.text)


def test_a_number_mislabelled_for_an_attribute_does_not_take_its_sentence_away():
    """ "Scored 85 on my chem final!" left with its sentence, printed as protected: a number is no evidence of an
    attribute by its shape alone, so when nothing replaces it well it stays, reported."""
    method = LocalAnonymizer(None, FakeTagger({"85": "age"}), Generalizer(Strict(), floors_gate(0.0, -1.0)))
    post = "Scored 85 on my chem final! Only took 3 tries."
    (result,) = method.rewrite_posts([post])
    assert result.text == post and result.unprotected == ["85"]


def test_a_phrase_stays_and_is_reported_only_when_nothing_can_take_its_place_or_leave_with_it():
    method = LocalAnonymizer(None, FakeTagger({"this razor": "gender"}), Generalizer(Strict(), floors_gate(0.0, -1.0)))
    result = method.anonymize_many([Profile(id="p", comments=[Comment(text="Honestly this razor is the best.")])])[0]
    assert result.text == "Honestly this razor is the best."  # the subject of the only sentence: never cut
    assert result.details["unprotected"] == [{"post": 0, "phrase": "this razor", "attribute": "gender"}]
    assert result.details["changes"] == []


class OnlyWholeSentences(FakeScorer):  # FAKE: a text that only lost whole sentences reads well, any other edit badly
    def compare(self, originals, rewrites):
        from stealthflow.utility.fluency import Fluency

        def sentences(text):
            return {s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()}

        return [
            Fluency(0.0 if r.strip() and sentences(r) < sentences(o) else -9.0, 0.0)
            for o, r in zip(originals, rewrites, strict=True)
        ]


def confident_fallback(generalizer: Generalizer) -> Fallback:
    """The fallback at the shipped confidence floor; the FAKE tagger's marks score above it."""
    assert confidence_floor() < 0.9
    return Fallback(generalizer)


def test_a_confident_mark_nothing_replaces_leaves_with_its_sentence_when_the_post_keeps_another():
    generalizer = Generalizer(OnlyWholeSentences(), floors_gate(0.0, -1.0))
    method = LocalAnonymizer(
        None, FakeTagger({"Leeds": "location"}), generalizer, fallback=confident_fallback(generalizer)
    )
    result = method.anonymize_many(
        [Profile(id="p", comments=[Comment(text="Rent in Leeds keeps going up. Nice weather today.")])]
    )[0]
    assert result.text == "Nice weather today." and result.details["unprotected"] == []
    (change,) = result.details["changes"]
    assert change["by"] == "sentence" and change["attribute"] == "location" and "Leeds" in change["phrase"]


def test_a_confident_mark_nothing_replaces_leaves_with_the_smallest_clause_its_sentence_stands_without():
    scorer = ScoreByTable({"I love the food.": 0.0})  # FAKE: only the sentence without the clause reads well
    generalizer = Generalizer(scorer, floors_gate(0.0, -1.0))
    method = LocalAnonymizer(
        None, FakeTagger({"Leeds": "location"}), generalizer, fallback=confident_fallback(generalizer)
    )
    (result,) = method.rewrite_posts(["I love the food, and I grew up in Leeds."])
    assert result.text == "I love the food." and result.unprotected == []
    (change,) = result.changes
    assert change["by"] == "clause" and "and I grew up in Leeds" in change["phrase"]
    assert [(r.removed, r.how) for r in result.removals] == [("and I grew up in Leeds", "clause")]


def test_a_stretch_that_left_with_nothing_in_its_place_is_named_removed_not_generalized():
    """ux25 L10: "in Hackney on a barista's wage" left the text, the change row said `"by": "generalized"`."""
    from stealthflow.anonymize.changes import REMOVED, text_changes

    post = "Living in a tiny flat in Hackney on a barista's wage is no joke, as a nurse."
    rewrite = "Living in a tiny flat is no joke, as a health worker."
    changes = text_changes(
        post, rewrite, [("in Hackney on a barista's wage", "income"), ("a nurse", "occupation")], "generalized"
    )
    assert [(c["phrase"], c["replacement"], c["by"]) for c in changes] == [
        ("in Hackney on a barista's wage", "", REMOVED),
        ("nurse.", "health worker.", "generalized"),
    ]
    cut = text_changes("Any childcare options in Richmond?", "Any childcare options?", [], "model")
    assert [c["by"] for c in cut] == [REMOVED]  # "options in Richmond?" -> "options?": no word put in


def test_a_posts_only_sentence_never_leaves_its_mark_stays_reported():
    generalizer = Generalizer(OnlyWholeSentences(), floors_gate(0.0, -1.0))
    method = LocalAnonymizer(
        None, FakeTagger({"Leeds": "location"}), generalizer, fallback=confident_fallback(generalizer)
    )
    (result,) = method.rewrite_posts(["Rent in Leeds keeps going up."])
    assert result.text == "Rent in Leeds keeps going up." and result.unprotected == ["Leeds"]


def test_by_default_a_confident_mark_nothing_replaces_stays_reported_and_no_sentence_leaves():
    generalizer = Generalizer(OnlyWholeSentences(), floors_gate(0.0, -1.0))
    method = LocalAnonymizer(None, FakeTagger({"Leeds": "location"}), generalizer)  # FAKE tagger: score 0.9
    post = "Rent in Leeds keeps going up. Nice weather today."
    (result,) = method.rewrite_posts([post])
    assert result.text == post and result.unprotected == ["Leeds"] and result.removals == []


def test_the_local_method_takes_the_fallback_only_with_remove_sentences():
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings

    def fallback(options):
        return build_method("local", Settings(), None, {"deterministic": True, **options}).fallback

    assert fallback({}) is None and isinstance(fallback({"remove_sentences": True}), Fallback)


def test_a_mark_the_tagger_is_not_confident_of_never_takes_its_sentence_away():
    floor = confidence_floor()
    post = "Rent in Leeds keeps going up. Nice weather today."
    generalizer = Generalizer(OnlyWholeSentences(), floors_gate(0.0, -1.0))
    for score, removed in ((floor - 0.01, False), (min(1.0, floor + 0.01), True)):  # FAKE tagger's score
        method = LocalAnonymizer(
            None, FakeTagger({"Leeds": "location"}, score=score), generalizer, fallback=Fallback(generalizer)
        )
        (result,) = method.rewrite_posts([post])
        assert (result.text == "Nice weather today.") is removed and (result.unprotected == []) is removed, score


def test_each_piece_of_a_split_mark_keeps_its_own_attribute():
    """The tagger marks one stretch (labelled location as a whole); split into its constituents, each
    piece takes the label of its own tokens: the cat's name is no place."""
    post = "Our cat Biscuit and the rent here in Leeds keep me up at night."
    tagger = FakeTagger(
        {"Our cat Biscuit and the rent here in Leeds": "location"}, words={"cat": "gender", "Biscuit": "gender"}
    )
    (result,) = LocalAnonymizer(None, tagger, Generalizer(FakeScorer(), floors_gate(0.0, -1.0))).rewrite_posts([post])
    assert result.cues == [("Our cat Biscuit", "gender"), ("here in Leeds", "location")]  # the rent is no cue


def test_a_piece_of_function_words_left_over_from_a_split_is_neither_edited_nor_reported():
    """Issue 47, a new user's report: "I'm" was named as a phrase that stayed, twice in its post. The FAKE tagger marks
    one stretch; split, its second "I'm" (a pronoun and an auxiliary) is no piece, the rest of the mark still is: with
    every edit reading badly (FAKE scorer), the two pieces that tell the age stay, reported. A mark of only a function
    word ("so") leaves the post as it is, protected."""
    post = "I'm 19, still living with my parents, and I'm saving up for college."
    generalizer = Generalizer(Strict(), floors_gate(0.0, -1.0))
    tagger = FakeTagger({"I'm 19, still living with my parents, and I'm": "age"})
    (result,) = LocalAnonymizer(None, tagger, generalizer).rewrite_posts([post])
    assert result.cues == [("I'm 19", "age"), ("still living with my parents", "age")]
    assert result.unprotected == ["I'm 19", "still living with my parents"] and result.text == post
    harmless = "It rained all week, so we stayed in."
    (result,) = LocalAnonymizer(None, FakeTagger({"so": "location"}), generalizer).rewrite_posts([harmless])
    assert (result.cues, result.unprotected, result.text) == ([], [], harmless)


def test_a_piece_takes_an_attribute_the_teacher_gave_its_last_word():
    """The FAKE tagger calls "an ER nurse" an age cue; the teacher changed phrases ending in "nurse" for
    occupation (data/teacher-rewrites), never twice for age: the piece is an occupation cue."""
    post = "Twelve years as an ER nurse, and it shows."
    (result,) = LocalAnonymizer(
        None, FakeTagger({"an ER nurse": "age"}), Generalizer(FakeScorer(), floors_gate(0.0, -1.0))
    ).rewrite_posts([post])
    assert result.cues == [("an ER nurse", "occupation")]


def test_the_change_list_names_every_stretch_that_left_the_text_with_its_post():
    posts = ["Nice weather today.", "Rent in Leeds keeps going up."]
    result = local(None, {"Leeds": "location"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text=t) for t in posts])]
    )[0]
    (change,) = result.details["changes"]
    assert change["post"] == 1 and change["attribute"] == "location" and "Leeds" in change["phrase"]
    assert change["replacement"] and change["replacement"] in result.text.split("\n")[1]


def test_a_long_post_is_rewritten_in_pieces_the_size_the_adapter_was_trained_on():
    from stealthflow.anonymize.local import split_post

    filler = "We walked along the river and talked about the week. " * 30  # ~300 words, no cue
    post = filler + "Twelve years as an ER nurse, and it shows.\n" + filler

    def answer(messages):  # FAKE model: edits the piece it was given, whatever its length
        piece = messages[-1]["content"].split("Post: ", 1)[1]
        assert len(piece.split()) <= 100, "the model saw more than a training-sized piece"
        return 'Removed "ER nurse" (occupation).\n#\n' + piece.replace("an ER nurse", "at work")

    pieces = split_post(post)
    assert "".join(text + separator for text, separator in pieces) == post and all(
        len(t.split()) <= 100 for t, _ in pieces
    )
    llm = fake_llm(answer)
    result = local(llm, {"ER nurse": "occupation"}).anonymize_many([Profile(id="p", comments=[Comment(text=post)])])[0]
    assert (
        result.text == post.replace("an ER nurse", "at work") and len(llm.backend.requests) == 1
    )  # only the piece with a cue
    assert [c["replacement"] for c in result.details["changes"]] == ["at work,"]


def test_a_model_rewrite_that_drops_a_placeholder_gives_way_to_generalizing_the_cues():
    answer = 'Removed "ER nurse" (occupation).\n#\nTwelve years at work, mail me.'  # FAKE model: drops <EMAIL_1>
    post = "Twelve years as an ER nurse, mail me at <EMAIL_1>."
    result = local(fake_llm(lambda messages: answer), {"ER nurse": "occupation"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text=post)])]
    )[0]
    assert "<EMAIL_1>" in result.text and "ER nurse" not in result.text and result.details["generalized_posts"] == 1


def test_a_model_rewrite_that_repeats_a_placeholder_elsewhere_gives_way_to_generalizing_the_cues():
    answer = 'Removed "Leeds" (location).\n#\nHi, call me at <EMPLOYER_1> at <PHONE_3>. I am at <EMPLOYER_1>.'  # FAKE model: moves the employer into the phone clause
    post = "Hi, call me at <PHONE_3>, I work in Leeds at <EMPLOYER_1>"
    result = local(fake_llm(lambda messages: answer), {"Leeds": "location"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text=post)])]
    )[0]
    assert (
        result.text.count("<EMPLOYER_1>") == 1
        and "call me at <PHONE_3>" in result.text
        and result.details["generalized_posts"] == 1
    )


def test_placeholders_are_never_taken_for_cues():
    result = local(None, {"<EMAIL_1>": "location", "Leeds": "location"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text="Mail me at <EMAIL_1>, I live in Leeds now.")])]
    )[0]
    assert "<EMAIL_1>" in result.text and "Leeds" not in result.text


def test_a_title_before_a_name_placeholder_and_a_possessive_after_one_are_part_of_the_name():
    """The FAKE tagger marks "Mrs" (as the real one does) and the FAKE scorer would take dropping it: the title is no cue
    and stays with the name it belongs to ("Still buy from <REAL_NAME_1>" restores as "Still buy from Balls"); the
    mark after a possessive is the word after it ("husband", not "'s husband"), generalized behind the kept "'s"."""
    posts = ["Still buy from Mrs <REAL_NAME_1> in Leeds.", "<REAL_NAME_2>'s husband works in Leeds."]
    results = local(None, {"Mrs": "married", "in Leeds": "location", "'s husband": "married"}).rewrite_posts(posts)
    assert [r.text for r in results] == ["Still buy from Mrs <REAL_NAME_1>.", "<REAL_NAME_2>'s partner works."]
    assert [r.cues for r in results] == [[("in Leeds", "location")], [("in Leeds", "location"), ("husband", "married")]]


def test_a_mark_whose_only_telling_part_is_a_placeholders_value_is_protected_by_the_placeholder():
    """Issue 47's report: `protect` masked "the Amazon warehouse in Reno" as <EMPLOYER_1>; the tagger, reading the
    value, marked "My boss at <EMPLOYER_1>", cut to "My boss at", which no stand-in fits: reported, the proxy answered
    422. The FAKE tagger marks the same stretch: "My boss at" tells nothing the placeholder does not hide; "My
    husband" beside a name's placeholder still tells, and so do a place after the value and a job around it."""
    posts = [
        "My boss at <EMPLOYER_1> is a nightmare.",
        "My husband <REAL_NAME_1> is a nightmare.",
        "My boss at <EMPLOYER_1> in Reno is a nightmare.",
        "Thirty years I cleaned houses in <EMPLOYER_1>.",
    ]
    values = [
        {"<EMPLOYER_1>": "the Amazon warehouse in Reno"},
        {"<REAL_NAME_1>": "Keith"},
        {"<EMPLOYER_1>": "the Amazon warehouse"},
        {"<EMPLOYER_1>": "Bulawayo"},
    ]
    cues = {
        "My boss at the Amazon warehouse in Reno": "occupation",
        "My husband Keith": "married",
        "cleaned houses in Bulawayo": "occupation",
    }
    results = local(None, cues).rewrite_posts(posts, values)
    assert results[0].text == posts[0] and results[0].cues == [] and results[0].unprotected == []
    assert results[1].cues == [("My husband", "married")]
    assert [phrase for phrase, _ in results[2].cues] == ["in Reno"]
    assert results[3].cues == [("cleaned houses in", "occupation")]


def test_a_model_rewrite_that_drops_the_title_of_a_name_placeholder_gives_way_to_generalizing_the_cues():
    answer = 'Removed "Leeds" (location).\n#\nStill buy from <REAL_NAME_1>.'  # FAKE model: drops "Mrs" with "Leeds"
    post = "Still buy from Mrs <REAL_NAME_1> in Leeds."
    result = local(fake_llm(lambda messages: answer), {"in Leeds": "location"}).anonymize_many(
        [Profile(id="p", comments=[Comment(text=post)])]
    )[0]
    assert result.text == "Still buy from Mrs <REAL_NAME_1>." and result.details["generalized_posts"] == 1


def test_grpo_prompts_can_name_the_cue_taggers_marks_while_the_reward_keeps_the_evidence():
    from datasets import Dataset

    from stealthflow.training.grpo import tagger_prompts

    profiles = [
        profile(
            ["I work as a nurse in Leeds.", "Nice weather in Rome."],
            {"occupation": 'says "a nurse"', "location": 'mentions "Rome"'},
        )
    ]
    _, rows = post_rows(profiles)
    retagged = tagger_prompts(Dataset.from_list(rows), FakeTagger({"Leeds": "location"})).to_list()
    assert len(retagged) == 1, "a comment where the tagger marks nothing is never sent to the model by `local`"
    prompt = retagged[0]["prompt"][0]["content"]
    assert '"Leeds"' in prompt and '"a nurse"' not in prompt
    assert retagged[0]["evidence"] == ["a nurse"] and retagged[0]["source_text"] == "I work as a nurse in Leeds."


# --- the real thing ------------------------------------------------------------------------


@pytest.mark.real_model
def test_the_local_method_generalizes_with_the_real_tagger_and_scorer():
    """The real cue tagger and the embedded SmolLM2 as the fluency scorer, built as the CLI does."""
    import torch

    from stealthflow.anonymize.methods import build_method
    from stealthflow.config import load_settings
    from stealthflow.llm.pool import LLMPool

    torch.set_num_threads(1)
    pool = LLMPool()
    try:
        method = build_method("local", load_settings(), pool)
        post = "Twelve years as an ER nurse and the rent here in Leeds still eats half my pay."
        (result,) = method.rewrite_posts([post])
        assert result.cues, "the tagger marks what gives the author away"
        # Every mark is acted on: generalized (the change names what replaced it) or named as left, whole or
        # by the constituents it was split into.
        left = [piece for piece in result.unprotected if any(piece in phrase for phrase, _ in result.cues)]
        assert result.text != post or left, result
        assert left == result.unprotected and all(piece in result.text for piece in left)
        (harmless,) = method.rewrite_posts(["Just got my cat a new bed, she loves it."])
        assert harmless.how == "unchanged" and harmless.text == "Just got my cat a new bed, she loves it."
    finally:
        pool.close()


@pytest.mark.real_model
def test_the_issues_own_post_is_generalized_in_whole_sentences():
    """The real cue tagger and fluency scorer, generalizing only (no rewrite model): the place and the job
    leave, the husband leaves or is reported; the years, the rent and every sentence stay whole."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.syntax import dangling
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = (
        "Twelve years as an ER nurse and the rent here in Leeds keeps going up. My husband and I are turning 30"
        " next month, still paying off my student loans."
    )
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    for gone in ("Leeds", "ER nurse"):
        assert gone not in result.text, result.text
    assert "husband" not in result.text or "My husband and I" in result.unprotected, result
    assert result.text.startswith("Twelve years ") and "rent" in result.text and dangling(result.text) == 0


@pytest.mark.real_model
def test_a_confident_mark_nothing_replaces_leaves_with_its_clause_or_sentence_with_the_shipped_tagger():
    """The shipped cue tagger and fluency scorer: "Hermosillo" has no stand-in in an origin frame and no constituent
    the sentence stands without; the tagger is confident of it, so it leaves with its clause or sentence and the
    post's other sentence stays whole."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = "Winters are long and I hate them. I was born in Hermosillo, so anything under 15 degrees feels arctic."
    generalizer = Generalizer(shared_scorer)
    (result,) = LocalAnonymizer(None, load_cue_tagger(), generalizer, fallback=Fallback(generalizer)).rewrite_posts(
        [post]
    )
    assert "Hermosillo" not in result.text and result.unprotected == [], result
    assert result.text.startswith("Winters are long and I hate them."), result.text
    assert any(c["by"] in {"clause", "sentence"} and c["attribute"] == "pobp" for c in result.changes), result.changes


@pytest.mark.real_model
def test_a_stand_in_mid_sentence_takes_the_case_of_its_slot():
    """The teacher's "Here in my city" for "here in leeds" was printed as protected mid-sentence ("The rent Here in
    my city"): no word the rewrite capitalises inside a sentence that the post did not (but "I")."""
    import re

    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = [
        "The rent here in Leeds keeps going up and I don't know how much longer I can stay.",
        "Just got back from my night shift at the ER, twelve years as a nurse and the rent here in Leeds keeps going up.",
    ]
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    for post, result in zip(posts, results, strict=True):
        assert "Leeds" not in result.text or "Leeds" in " ".join(result.unprotected), result
        inside = re.findall(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z']+)", result.text)
        assert {w for w in inside if w != "I" and not w.startswith("I'")} <= set(re.findall(r"[A-Z][a-z']+", post))


@pytest.mark.real_model
def test_a_removal_leaves_no_part_of_a_name_nor_a_comparison_without_what_it_compares_to():
    """Blind readers' seed-12 verdicts, both judged neither fluent nor faithful: "Still buy Mrs Balls at the SA shop in
    Bibra Lake" was printed as "Still buy Balls.", "is bigger than some people's salary" as "is bigger."."""
    import re

    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = [
        "Left Joburg in 2010 right after the World Cup. Still buy Mrs Balls at the SA shop in Bibra Lake.",
        "The box 3 tax on our savings is bigger than some people's salary. Not complaining, just surprised.",
    ]
    names, compared = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    assert "Balls" not in names.text or "Mrs Balls" in names.text, names
    assert not re.search(r"\bbigger\s*[.,]", compared.text), compared


@pytest.mark.real_model
def test_no_stand_in_names_a_thing_twice_and_no_comparison_loses_what_it_compares_to():
    """The local method as the CLI builds it, on blind readers' seed-16 and 17 originals it printed as "Coffee is not a
    coffee break, ..." and "I was born the same year, in a hometown ..." (both judged not fluent by both readers)."""
    import re

    import torch

    from stealthflow.anonymize.methods import build_method
    from stealthflow.config import load_settings
    from stealthflow.llm.pool import LLMPool

    torch.set_num_threads(1)
    pool = LLMPool()
    try:
        method = build_method("local", load_settings(), pool)
        posts = [
            "Fika is not a coffee break, it is a constitutional right.",
            "I was born the same year as the Federal Republic, in a Hamburg with more rubble than roofs.",
        ]
        fika, born = method.rewrite_posts(posts)
        assert not re.match(r"coffee is not a coffee", fika.text, re.IGNORECASE), fika
        assert not re.search(r"the same year\s*[,.]", born.text), born
        for result in (fika, born):  # a mark nothing replaces fluently stays, reported
            assert all(phrase in result.text for phrase in result.unprotected), result
    finally:
        pool.close()


def test_a_post_without_cues_loads_neither_spacy_nor_the_fluency_model():
    """The real cue tagger in a fresh interpreter: a harmless post costs the tagger only."""
    import subprocess
    import sys

    probe = (
        "import sys; from stealthflow.anonymize.cues import load_cue_tagger; "
        "from stealthflow.anonymize.generalize import Generalizer; from stealthflow.anonymize.local import LocalAnonymizer; "
        "from stealthflow.utility.fluency import shared_scorer; "
        "(r,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(['Just got my cat a new bed, she loves it.']); "
        "print(r.how, 'spacy' in sys.modules, shared_scorer.cache_info().currsize, 'transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == ["unchanged", "False", "0", "False"]


@pytest.mark.real_model
def put_in(words: str, post: str, rewrite: str) -> bool:
    """`rewrite` holds `words` (whole words, any case) and `post` does not."""
    found = re.compile(rf"(?i)\b{re.escape(words)}\b")
    return bool(found.search(rewrite)) and not found.search(post)


def test_the_rewrites_are_those_of_the_models_loaded_through_transformers(monkeypatch):
    """The cue tagger and the fluency scorer as loaded now (no transformers) rewrite posts exactly as main
    did with both loaded through transformers (tests/data/local_rewrites_reference.jsonl, written by main's
    code, before the meaning floor and the coarser wordings of a count: both are off here). A different rewrite passes
    only where two candidates tied: both read within 0.01 as fluently."""
    from pathlib import Path

    import torch

    from stealthflow.anonymize import coarser, meaning
    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.generalize import rejected_stand_ins
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    monkeypatch.setattr(meaning, "MEANING_FLOOR", -1.0)
    monkeypatch.setattr(coarser, "coarser", lambda *args: [])
    rows = [json.loads(line) for line in (Path(__file__).parent / "data" / "local_rewrites_reference.jsonl").open()]
    # a reference rewrite that put in a stand-in readers have rejected since (generic.yaml `rejected`) is no longer made
    rows = [r for r in rows[:15] if not any(put_in(w, r["post"], r["rewrite"]) for w in rejected_stand_ins())]
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(
        [r["post"] for r in rows]
    )
    assert sum(row["rewrite"] != row["post"] for row in rows) >= 5  # the sample exercises the generalizer
    for row, result in zip(rows, results, strict=True):
        if result.text != row["rewrite"]:
            expected, got = shared_scorer().compare([row["post"]] * 2, [row["rewrite"], result.text])
            assert abs(expected.score - got.score) < 0.01, (row["rewrite"], result.text)
        else:
            # the reference rows predate the readable `name` of a change's attribute
            changes = [
                {k: v for k, v in change.items() if k != "name"} for change in json.loads(json.dumps(result.changes))
            ]
            assert changes == row["changes"] and result.unprotected == row["unprotected"]


@pytest.mark.real_model
def test_anonymize_prints_a_post_once_withheld_for_a_leftover_function_word(tmp_path):
    """Issue 47, a new user's report: `anonymize` withheld the second of these posts for "so" alone, a piece left over
    from the mark "I grew up in a small village in Kerala, so". The real cue tagger, fluency scorer and gate: it is now
    printed, the place gone; the first post still names what stays ("flatmate", "placements") and is withheld."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    posts = [
        "As a second-year med student at Edinburgh, I barely have time to cook. My flatmate and I live off pasta and "
        "whatever's on offer at the Tesco on Nicolson Street. Any cheap recipes that take under 20 minutes? Bonus "
        "points if they survive being reheated in the hospital canteen microwave during placements.",
        "I grew up in a small village in Kerala, so I really miss proper spicy food. My mum sends me parcels of masala "
        "every couple of months.",
    ]
    source = tmp_path / "posts.jsonl"
    source.write_text("".join(json.dumps({"id": f"p{i}", "text": t}) + "\n" for i, t in enumerate(posts)))
    result = CliRunner().invoke(app, ["anonymize", str(source), "--method", "local", "--json"])
    first, second = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert result.exit_code == 2 and first["protected"] is False and "text" not in first
    assert second["protected"] is True and "Kerala" not in second["text"], second
    assert second["text"].startswith("I grew up in a small village, so I really miss proper spicy food.")


@pytest.mark.real_model
def test_the_real_tagger_labels_each_piece_of_a_split_mark_by_its_own_tokens():
    """The shipped cue tagger marks this post as one stretch; split, its pieces carry their own attributes."""
    from stealthflow.anonymize.cues import find_cues, load_cue_tagger, split_cues

    tagger = load_cue_tagger()
    post = "Twelve years as an ER nurse and the rent here in Leeds still eats half my pay."
    (marks,) = find_cues(tagger, [post])
    (pieces,) = split_cues(tagger, [post], [marks])
    assert len(pieces) > len(marks)
    assert all(any(m.start <= post.index(p) < m.end for m in marks) for p, _ in pieces)
    assert ("Twelve years as an ER nurse", "occupation") in pieces


@pytest.mark.real_model
def test_words_around_a_mark_that_tell_nothing_neither_block_its_stand_in_nor_stay_reported(tmp_path):
    """Issue 47: the cue tagger's marks run over words that tell nothing ("my wife and I finally", "back from my late
    shift at the clinic"): looked up whole, the first found no stand-in; the second's only removals took the verb's
    "back" with it. The real tagger, fluency scorer and gate: the first post is printed with "my partner and I
    finally"; in the second what stays names the job ("Nine years as a paramedic"), no longer "back from ..."."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    posts = [
        "Honestly my wife and I finally got a weekend off.",
        "Just got back from my late shift at the clinic. Nine years as a paramedic and the pay still barely covers "
        "rent here in Bristol.",
    ]
    source = tmp_path / "posts.jsonl"
    source.write_text("".join(json.dumps({"id": f"p{i}", "text": t}) + "\n" for i, t in enumerate(posts)))
    result = CliRunner().invoke(app, ["anonymize", str(source), "--method", "local", "--json", "--show-unprotected"])
    first, second = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert first["protected"] is True and first["text"] == "Honestly my partner and I finally got a weekend off."
    assert second["protected"] is False and "text" not in second
    (named,) = [line for line in result.stderr.splitlines() if line.startswith("not protected: p1")]
    assert "Nine years as a paramedic" in named and "back from" not in named, named


@pytest.mark.real_model
def test_the_real_tagger_leaves_topics_alone_and_still_marks_the_author():
    """Issue 47 item 4: harmless posts the previous tagger marked (a board game's city, a film studio, a singer's
    surname, a puzzle's size) get no mark from the shipped tagger with its card's span thresholds; a post about its
    author still does."""
    from stealthflow.anonymize.cues import find_cues, load_cue_tagger

    tagger = load_cue_tagger()
    assert tagger.span_thresholds  # the card's, chosen by benchmarks/cue_thresholds.py --choose
    harmless = [
        "The best board games for two players: Patchwork, Jaipur, 7 Wonders Duel and Lost Cities.",
        "Ranking the Studio Ghibli films by how much they made me cry.",
        "anyone else obsessed with the new Olivia Rodrigo album",
        "just finished a 1000 piece puzzle and now i feel empty inside",
    ]
    assert find_cues(tagger, harmless) == [[] for _ in harmless]
    post = "Twelve years as an ER nurse and the rent here in Leeds keeps going up."
    marked = " ".join(post[m.start : m.end] for m in find_cues(tagger, [post])[0])
    assert "nurse" in marked and "Leeds" in marked


def test_a_cue_mark_is_cut_at_sentence_ends_and_around_values():
    """A tagged stretch that ran from an email across a full stop into the next sentence was dropped whole
    by the page (it overlapped the email), so the post showed no cue at all; it is now cut into pieces."""
    from stealthflow.anonymize.cues import find_cues
    from stealthflow.pii_tagger.model import TaggedSpan

    post = "Reach me at anna.berg@mailbox.org. Twelve years as an ER nurse. <EMAIL_1> and the rent here in Leeds."

    class FakeTagger:  # FAKE: one stretch over the whole post
        def tag_many(self, posts):
            return [[TaggedSpan(9, len(p), "occupation", 0.8)] for p in posts]

    email = (post.index("anna"), post.index(". Twelve"))
    (cues,) = find_cues(FakeTagger(), [post], [[email]])
    # "at" alone (function words) names nothing and is left out
    assert [post[c.start : c.end] for c in cues] == ["Twelve years as an ER nurse", "and the rent here in Leeds"]
    assert all(c.label == "occupation" for c in cues)


def test_a_cue_less_sure_than_its_attributes_span_threshold_is_left_out():
    """The card's `span_thresholds` (chosen per attribute by benchmarks/cue_thresholds.py --choose): a stretch whose
    confidence is under its attribute's is no mark; an attribute without one keeps every stretch."""
    from stealthflow.anonymize.cues import find_cues
    from stealthflow.pii_tagger.model import TaggedSpan

    post = "The sheep were loud. I moved to Leeds. I work night shifts."

    class FakeTagger:  # FAKE: three stretches of three attributes and confidences
        span_thresholds = {"location": 0.5, "occupation": 0.6}

        def tag_many(self, posts):
            return [
                [
                    TaggedSpan(p.index("sheep"), p.index(" were"), "location", 0.45),
                    TaggedSpan(p.index("Leeds"), p.index(". I work"), "location", 0.5),
                    TaggedSpan(p.index("night"), len(p) - 1, "age", 0.35),
                ]
                for p in posts
            ]

    (cues,) = find_cues(FakeTagger(), [post])
    assert [post[c.start : c.end] for c in cues] == ["Leeds", "night shifts"]


def test_a_cue_keeps_the_taggers_own_edges_and_overlapping_holes_cut_once():
    from stealthflow.anonymize.cues import _cut
    from stealthflow.pii_tagger.model import TaggedSpan

    post = "I earn $72,000 a year, <EMAIL_1> and anna@mailbox.org, then 30%"
    whole = TaggedSpan(7, len(post), "income", 0.6)
    assert [post[p.start : p.end] for p in _cut(post, whole, [])] == [post[7:]]  # no cut: "$" and "%" stay
    value = (post.index("<EMAIL_1>"), post.index(", then"))  # a masked stretch holding a placeholder
    placeholder = (post.index("<EMAIL_1>"), post.index(" and"))
    assert [post[p.start : p.end] for p in _cut(post, whole, [value, placeholder])] == ["$72,000 a year", "then 30%"]


def test_the_tagger_reads_the_masked_values_and_its_marks_are_placed_in_the_protected_post():
    """Issue 47: protect's cue tagger read "<REAL_NAME_1>", never seen in training. It reads each placeholder of
    `values` as its value; what it tags is placed back in the protected post, cut around the placeholder, so no mark
    holds a value or a placeholder. A placeholder of no known value is read as it is."""
    from stealthflow.anonymize.cues import TaggerView, find_cues

    post = "Met Mrs <REAL_NAME_1> near the office here in Leeds, <EMAIL_1> and <REAL_NAME_2>."
    values = {"<REAL_NAME_1>": "Olivia Hughes", "<EMAIL_1>": "o.h@mailbox.org"}
    view = TaggerView(post, values)
    assert view.text == "Met Mrs Olivia Hughes near the office here in Leeds, o.h@mailbox.org and <REAL_NAME_2>."
    read = []

    class FakeTagger:  # FAKE: marks from "Hughes" to the end of the text it reads, and one inside the e-mail
        def tag_many(self, texts):
            read.extend(texts)
            return [
                [
                    TaggedSpan(t.index("Hughes"), t.index(", o.h"), "location", 0.8),
                    TaggedSpan(t.index("mailbox"), t.index(".org"), "occupation", 0.8),
                ]
                for t in texts
            ]

    (cues,) = find_cues(FakeTagger(), [post], values=[values])
    assert read == [view.text]
    assert [post[c.start : c.end] for c in cues] == ["near the office here in Leeds"] and cues[0].label == "location"
    assert TaggerView(post).text == post and TaggerView(post, {}).text == post


def test_a_post_in_another_language_keeps_its_words_and_is_not_checked():
    """The cue tagger reads English only: its marks on a German post ("München", as on "Hallo zusammen") are no
    evidence. The post stays as written, lists no marked phrase and says it was not read, marks or none; the English
    post is still rewritten. Lingua (the detector's language guesser) reads each post."""
    tagger = FakeTagger({"München": "location", "Leeds": "location"})
    method = LocalAnonymizer(None, tagger, Generalizer(FakeScorer(), floors_gate(0.0, -1.0)))
    german = "Ich wohne seit zehn Jahren in München und arbeite dort als Krankenpfleger im Schichtdienst."
    unmarked = "Ich lese am Wochenende gern Krimis und trinke dabei einen Tee auf dem Balkon."
    english = "I have lived in Leeds for ten years and I work there as a nurse on night shifts."
    result_de, result_unmarked, result_en = method.rewrite_posts([german, unmarked, english])
    assert (result_de.text, result_de.how, result_de.cues, result_de.unprotected) == (german, "unchanged", [], [])
    assert result_de.unread == result_unmarked.unread == ["de"] and result_en.unread == []
    assert "Leeds" not in result_en.text
    anonymized = method.anonymize_many([Profile(id=p, comments=[Comment(text=p)]) for p in (german, unmarked)])
    reason = "not checked: the local rewrite reads English only (language: de)"
    assert [a.failure(p) for a, p in zip(anonymized, (german, unmarked), strict=True)] == [reason, reason]


def test_a_mark_in_a_sentence_of_another_language_is_not_read_in_an_english_post():
    """Issue 47: "Nací en Hermosillo, llegué a Phoenix de 10 años" lost "Phoenix" in an English post ("llegué a 10
    años"): an English stand-in or a removal there writes Spanish no one would. The sentence stays as written, its
    mark is not listed (the tagger reads English only) and the post says a sentence was not read; the English
    sentence's mark is still generalized."""
    tagger = FakeTagger({"Phoenix": "pobp", "Leeds": "location"})
    method = LocalAnonymizer(None, tagger, Generalizer(FakeScorer(), floors_gate(0.0, -1.0)))
    post = "Nací en Hermosillo, llegué a Phoenix de 10 años. These days I teach maths to teenagers in Leeds."
    (result,) = method.rewrite_posts([post])
    assert "llegué a Phoenix de 10 años." in result.text and result.unprotected == [], result
    # the guesser's likeliest language of so short a sentence is a guess ("nl" here: "en", "de" and "a" are Dutch too)
    assert len(result.unread) == 1 and "en" not in result.unread and "Leeds" not in result.text, result
    # ux24 M2: main said "not checked" as of a text never read, beside what it rewrote in the English sentence
    (anonymized,) = method.anonymize_many([Profile(id="p", comments=[Comment(text=post)])])
    assert anonymized.read_in_part() and anonymized.unread().startswith("not checked in part: the local rewrite")


def test_the_page_shows_no_mark_in_what_the_rewrite_does_not_read():
    """ux24 M2: the page marked "Ich heiße" as an occupation in a German sentence the rewrite never reads. Its marks
    are the rewrite's: none in a sentence or a post it does not read (`read_marks`; lingua guesses the languages)."""
    from stealthflow.anonymize.read_languages import read_marks
    from stealthflow.placeholders.language import shared_guesser

    post = "Ich heiße Jörg Bäumer, Tel. 0176 98765432. Twelve years as an ER nurse in Leeds, mail me at jb@web.de"
    marks = [TaggedSpan(post.index(word), post.index(word) + len(word), "x", 1.0) for word in ("heiße", "ER nurse")]
    assert [post[m.start : m.end] for m in read_marks(shared_guesser(), post, marks)] == ["ER nurse"]
    german = "Ich heiße Jörg und wohne seit zehn Jahren in München."  # a post it does not read: no mark
    assert read_marks(shared_guesser(), german, [TaggedSpan(4, 9, "x", 1.0)]) == []


@pytest.mark.real_model
def test_a_stand_in_of_another_kind_is_not_taken():
    """The real MiniLM (numpy) and SmolLM2: "a person" read fluently in place of "Bristol" (marked for gender) and
    was taken ("a women's team in a person"); a place is no kind of name a gender stand-in replaces, and the name
    stays, reported."""
    from stealthflow.anonymize.generalize import candidates
    from stealthflow.utility.fluency import shared_scorer

    # a place the teacher data never generalizes ("Bristol" now has the teacher's own "town")
    post = "Any other girls here play rugby? Trying to find a women's team in Tralee."
    start = post.index("Tralee")
    assert "a person" not in candidates(post, start, start + len("Tralee"), "gender")
    ((text, replacements),) = Generalizer(shared_scorer).generalize([post], [[("Tralee", "gender")]])
    assert "Tralee" in text and [r.replacement for r in replacements] == [None]


@pytest.mark.real_model
def test_a_place_that_completes_its_verb_stays_reported_rather_than_leaving_a_stub():
    """The review of issue 47: "Someone is and even he was outraged.", "<p>My partner is >" and "<b>I live." were
    printed as protected. The place completes its verb: with no stand-in it stays, and the post is reported."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = [
        "My boyfriend is from Cabra and even he was outraged.",
        "<p>My wife is from <b>Cork</b>.</p>",  # without the full stop the cue tagger's one mark splits to "My wife"
        "<b>I live in Leeds</b> and work as a nurse.",
    ]
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    for post, result in zip(posts, results, strict=True):
        place = next(p for p in ("Cabra", "Cork", "Leeds") if p in post)
        verb = "live in" if "live" in post else "is from"
        assert verb in result.text, (post, result.text)  # the verb keeps its complement
        assert place in result.text and any(place in phrase for phrase in result.unprotected), (post, result)


@pytest.mark.real_model
def test_no_name_of_a_marked_stretch_leaves_unreported():
    """The review of issue 47: each place was marked by the cue tagger, yet the text came back protected with it in
    ("Someone is from _Cork_ and even he was outraged."). Each is generalized or reported."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = {
        "My boyfriend is from _Cork_ and even he was outraged.": "Cork",
        "My husband is from ||Cork||": "Cork",
        "My wife is from ~~Cork~~": "Cork",
        "we live in manchester with our two kids": "manchester",
    }
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(list(posts))
    for (post, place), result in zip(posts.items(), results, strict=True):
        assert place not in result.text or any(place in phrase for phrase in result.unprotected), (post, result)


@pytest.mark.real_model
def test_no_removal_splits_a_number_or_leaves_a_partitive_without_its_whole():
    """Blind readers' seed-13 verdicts (both readers: not fluent): "around 36 000 kr" became "around 000 kr" and "you
    see all of Montréal" became "you see all."; the number and the place stay whole, each reported unprotected."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = {
        "My salary is around 36 000 kr before tax after the last raise. It's okay, not great.": "36 000 kr",
        "Driving the 80 on Parc after midnight, you see all of Montréal. Students, lovers, drunks, all same bus.": (
            "all of Montréal"
        ),
    }
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(list(posts))
    for (post, whole), result in zip(posts.items(), results, strict=True):
        assert whole in result.text, (post, result.text)
        assert result.unprotected, (post, result)


@pytest.mark.real_model
def test_a_chat_word_after_the_place_is_no_complement_the_verb_keeps():
    """The review of issue 47: spaCy parses "lol" as the acomp of "is", so removing "from Cork" left "Someone is lol,
    she hates it", printed as protected. "lol" completes nothing: the place is the verb's only complement."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = "My wife is from Cork lol, she hates it"
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    assert "is lol" not in result.text or result.unprotected, result


@pytest.mark.real_model
def test_a_clause_about_a_relative_or_a_colleague_never_takes_the_authors_stand_in():
    """ "My sister is from Cork" became "My sister is from my hometown": a clause whose subject is a noun naming a
    person (data/generalize/person_nouns.txt, from WordNet) is not about the author, so no stand-in in the author's
    words ("my", "I") goes there; the author's own clause still takes one."""
    import torch

    from stealthflow.anonymize.syntax import speaks_for_author
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = {
        "My sister is from Cork. She visits every summer.": ("Cork", "pobp"),
        "My boss grew up in Leeds, and he never lets us forget it.": ("Leeds", "pobp"),
    }
    results = Generalizer(shared_scorer).generalize(list(posts), [[marked] for marked in posts.values()])
    for post, (text, replacements) in zip(posts, results, strict=True):
        assert all(r.replacement is None or not speaks_for_author(r.replacement) for r in replacements), (post, text)
    # Norway, not Cork: Cork is a county too (Faker's en_IE), whose stand-ins ("my home region") read badly; not Leeds:
    # a city of origin has no phrase stand-in since readers rejected "my hometown" (generic.yaml `rejected`)
    ((text, replacements),) = Generalizer(shared_scorer).generalize(["I am from Norway."], [[("Norway", "pobp")]])
    assert any(r.replacement and speaks_for_author(r.replacement) for r in replacements), text


@pytest.mark.real_model
def test_real_rewrites_keep_every_sentence_whole():
    """A reviewer's posts printed as protected while broken: "My sister grew up in Texas." -> "My sister grew up in.",
    and a number mislabelled for an attribute ("85" of a chem final, "180k" miles) leaving with its sentence. No
    sentence is cut, and none is dropped whole."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = [
        "My sister grew up in Texas. She still loves brisket.",
        "She grew up in Texas.",
        "Scored 85 on my chem final! Only took 3 tries.",
        "My car has 180k miles on it. Should I sell it?",
    ]
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    for post, result in zip(posts, results, strict=True):
        assert_whole_sentences(post, result.text)


@pytest.mark.real_model
def test_no_post_is_printed_protected_with_its_point_dropped_or_a_sentence_left_a_fragment():
    """Blind readers' seed-10 verdicts, printed as protected: the 529s post lost its question with its sentence
    (dropped whole, no gate asked), and "Respect to BMRCL for that." became "Respect to for that.". No sentence is
    dropped whole, and a sentence left a fragment is never printed as protected."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    question = "should we catch up or just accept loans?"
    posts = [
        "Household income around 240k, two kids heading toward college in 2028 and 2030. 529s are at about 60 percent "
        f"of target, {question}",
        "Purple line is still the only thing in this city that runs on time. Respect to BMRCL for that.",
    ]
    loans, metro = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    assert question in loans.text, loans
    assert not re.search(r"\bto for\b", metro.text), metro


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("post", "untrue"),
    [
        # an origin is never where the author lives
        ("From Glasgow originally but I've been in London since uni. Still say wee.", r"(?i)\blocally\b|where I live"),
        ("From Kerala originally, now working in Dubai.", r"(?i)where I live"),
        # a destination is never the author's city
        ("Stuck at Frankfurt airport for six hours on my way to Delhi. The coffee is terrible.", r"\bmy (city|area)\b"),
        # a region no gazetteer holds is never a city
        ("Heading to Catalonia next week, any tips for Girona?", r"\bthe city\b"),
        # a name without a determiner never becomes a bare noun
        ("Moved from Mumbai to Toronto and still miss the monsoon.", r"\b(to|from) (city|area|country|region)\b"),
    ],
)
def test_a_place_takes_no_stand_in_untrue_to_its_frame_or_kind(post, untrue):
    """The real cue tagger and fluency scorer on posts of a review set: no place stand-in untrue to what the sentence
    says of the place or to its kind, and no bare noun in place of a name ("to Toronto" never -> "to city")."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    assert not re.search(untrue, result.text), result.text


@pytest.mark.real_model
def test_no_removal_takes_a_post_s_point_with_a_whole_clause():
    """A reviewer's posts: "Grew up in Yorkshire and I will defend Yorkshire pudding with my life." became "Grew up in
    my hometown.", the kayak post lost "and my kids got me a kayak" ("Took it out" then says nothing), the Cork post
    "and he insists Irish butter is the best in the world". The generalizer's removal never takes a clause
    (`syntax.takes_clause`); the fallback for a sure mark may (fallback.py), and it is off by default."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    points = {
        "Grew up in Yorkshire and I will defend Yorkshire pudding with my life.": "with my life",
        "Turned 50 on Monday and my kids got me a kayak. Took it out on the lake today.": "got me a",
        "My boyfriend is from Cork and he insists Irish butter is the best in the world. He's not wrong.": "he insists",
    }
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(list(points))
    for point, result in zip(points.values(), results, strict=True):
        assert point in result.text, result


@pytest.mark.real_model
@pytest.mark.parametrize(
    ("post", "names"),
    [
        ("I live in Leeds, UK and the rent here keeps going up every year.", ("Leeds", "UK")),
        ("The rent here in Perth, Scotland keeps going up, the buses are a joke.", ("Perth", "Scotland")),
        ("Twelve years as an ER nurse and the rent here in Perth, Scotland keeps going up.", ("Perth", "Scotland")),
        # pairs the change was not written from
        ("The rent here in Galway, Ireland keeps going up and the buses are a joke.", ("Galway", "Ireland")),
        ("I moved to Halifax, Nova Scotia for work and the winters there are long.", ("Halifax", "Nova Scotia")),
        (
            "Our flat in Bristol, England costs half my pay and the landlord never fixes anything.",
            ("Bristol", "England"),
        ),
    ],
)
def test_a_town_region_pair_leaves_whole_with_one_stand_in_or_stays_reported(post, names):
    """The real cue tagger and fluency scorer: a place written as "Town, Region" is one place. Both names leave with
    one stand-in (no change puts a comma-joined pair of stand-ins, "the city, the city", or a clause, ", where it
    is", in their place) or both stay and are reported; no name stays beside its partner's stand-in, and no removal
    leaves a comma behind the subject ("The rent, NS keeps going up")."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.syntax import dangling
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    left = [name for name in names if re.search(rf"\b{name}\b", result.text)]
    if left:
        assert left == list(names) and any(all(n in p for n in names) for p in result.unprotected), result
    assert not any("," in change["replacement"] for change in result.changes), result
    assert "rent," not in result.text and dangling(result.text) == 0, result.text


@pytest.mark.real_model
def test_a_places_stand_in_is_of_its_kind_and_no_team_takes_one():
    """Issue 47 (blind readers of seed 10): "Only in Cyprus." became "Only in the city." (a country is no city) and
    "Mexico out in groups again in Copa." "The area out in groups again." (a national team, no place). The real cue
    tagger and fluency scorer: Cyprus leaves with no city, town or area in its place; no place stand-in takes
    Mexico's."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    cyprus, mexico = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(
        [
            "42 degrees and the AC in the supermarket is broken. Only in Cyprus.",
            "Mexico out in groups again in Copa. Same story every time, I stop watching.",
        ]
    )
    # "Only." without "in Cyprus" is no sentence (`syntax.stranded_adverb`): the mark stays, reported
    assert "Cyprus" not in cyprus.text or any("Cyprus" in phrase for phrase in cyprus.unprotected), cyprus
    assert not re.search(r"\b(?:city|town|area|neighbourhood)\b", cyprus.text), cyprus.text
    assert not re.search(r"\b(?:city|town|area|country|region|hometown)\b", mexico.text, re.IGNORECASE), mexico.text


@pytest.mark.real_model
def test_where_the_author_works_never_becomes_their_hometown():
    """Issue 47 (a reviewer): "a dental hygienist in Tacoma", marked for birthplace, became "in my hometown": the
    attribute chose the stand-in, while the sentence says where she works. The real fluency scorer: no origin
    stand-in; and "like Tucson" (no preposition of place) never becomes the adverb "locally", which reverses the
    question."""
    import torch

    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    (tacoma, _), (tucson, _) = Generalizer(shared_scorer).generalize(
        ["I'm a dental hygienist in Tacoma and my back is killing me.", "Should I move somewhere cheaper like Tucson?"],
        [[("in Tacoma", "pobp")], [("like Tucson", "location")]],
    )
    assert not re.search(r"hometown|grew up|growing up|back home", tacoma), tacoma
    assert not re.search(r"\b(?:locally|here)\b", tucson), tucson


def _generalized(posts: list[str]):
    """The real cue tagger and fluency scorer, generalizing only (no rewrite model), as the CLI's local method."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    return LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)


@pytest.mark.real_model
def test_a_marked_modifier_after_only_never_leaves_with_it():
    """ "The only Thai restaurant in town closed." became "The restaurant in town closed.": "only" left with "Thai"
    (spaCy hangs it on "Thai"), and the post's claim with it."""
    (result,) = _generalized(["The only Thai restaurant in town closed."])
    assert "only" in result.text and "restaurant" in result.text, result


@pytest.mark.real_model
def test_the_demos_marked_object_and_adverbial_are_generalized_apart():
    """The demo's post-3 (examples/posts.jsonl, its token masked) came out unchanged: the tagger marks "Lagos for a
    desk job in Toronto", read as one noun phrase headed by "Lagos" (no candidate fits it whole). Split into the
    object and the adverbial, the job in Toronto leaves; what stays is reported."""
    post = (
        "Turning 30 next month and still can't believe I left Lagos for a desk job in Toronto. Winters here are"
        " brutal, eh. My github token is <API_KEY_1>, please ignore."
    )
    (result,) = _generalized([post])
    assert "Toronto" not in result.text and "<API_KEY_1>" in result.text, result
    assert all(phrase in result.text for phrase in result.unprotected), result


@pytest.mark.real_model
def test_the_demos_kids_become_the_family_and_the_post_is_protected():
    """The demo's post-2 (examples/posts.jsonl, its card masked) was not protected: "with the kids" had no stand-in."""
    post = (
        "My husband and I finally paid off the student loans from my law degree. Celebrating with the kids this"
        " weekend! (card ending <CREDIT_CARD_1>)"
    )
    (result,) = _generalized([post])
    assert "with the family" in result.text and "kids" not in result.text, result
    assert not result.unprotected and "<CREDIT_CARD_1>" in result.text, result


@pytest.mark.real_model
def test_protect_keeps_the_title_of_a_masked_name_through_the_rewrite(tmp_path, monkeypatch):
    """Seed 12's reader post, its surname masked without the title: the rewrite took "Mrs" as a cue and sent "Still buy
    <REAL_NAME_1>", restored as "Still buy Balls". End to end through protect and restore, the embedded models rewriting;
    the detector is a FAKE that masks the surnames alone."""
    from placeholder_fixtures import protect_config

    from stealthflow.pipeline import protect, restore
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import Recognizer

    class SurnamesAlone(Recognizer):
        """FAKE detector: masks these surnames, never the title before them."""

        name, type = "surnames_alone", "REAL_NAME"

        def find(self, text):
            return [self.span(*m.span()) for m in re.finditer(r"\b(?:Balls|Vusumuzi|Okonkwo)\b", text)]

    config = protect_config(tmp_path, monkeypatch)
    protector = Protector(config, open_vault(config), Detector([SurnamesAlone()]))
    posts = {
        "Left Joburg in 2010 right after the World Cup. Still buy Mrs Balls at the SA shop in Bibra Lake.": "Mrs Balls",
        "Mr Vusumuzi fixed my car, he charges less than the garage in Leeds.": "Mr Vusumuzi",
        "Dr Okonkwo at the clinic told me to rest my knee, she is the best GP in Soweto.": "Dr Okonkwo",
    }
    for post, name in posts.items():
        protected = protect(post, session="s", protector=protector, rewrite="local")
        assert protected.rewrite is not None and protected.text != post, protected
        restored = restore(protected.text, session="s", protector=protector).text
        assert name in restored, (protected.text, restored)


@pytest.mark.real_model
def test_protect_keeps_a_possessive_with_the_masked_name_and_generalizes_the_words_after_it(tmp_path, monkeypatch):
    """No fakes: the shipped detector masks the names, the embedded models rewrite. The tagger's mark "'s office is in
    Toronto" started inside "Dlamini's" and stayed whole, unprotected; the possessive belongs to the name, and what
    follows it is read as the phrases it holds. A relative's word before a name is generalized, never left out alone, nor
    with its preposition ("I went <REAL_NAME_1> to Leeds")."""
    from placeholder_fixtures import protect_config

    from stealthflow.config import load_settings
    from stealthflow.pipeline import protect, restore
    from stealthflow.pipeline.protector import Protector

    settings = load_settings()
    protector = Protector.from_settings(settings.model_copy(update={"protect": protect_config(tmp_path, monkeypatch)}))
    boss = protect("My boss Sipho Dlamini's office is in Toronto.", session="s", protector=protector, rewrite="local")
    # the office may be generalized ("'s workplace": data/generalize/written_stand_ins.tsv), the possessive stays
    assert re.search(r"<REAL_NAME_\d+>'s (?:office|workplace) is", boss.text), boss
    assert not any(phrase.startswith("'s") for phrase in boss.rewrite.unprotected), boss.rewrite
    assert "Sipho Dlamini's " in restore(boss.text, session="s", protector=protector).text
    wife = "My wife Thandeka said we should move closer to her mother in Durban."
    protected = protect(wife, session="s", protector=protector, rewrite="local")
    restored = restore(protected.text, session="s", protector=protector).text
    assert re.match(r"My \w+ Thandeka said", restored), (protected.text, restored)
    trip = protect(
        "I went with my husband Sipho to Leeds for the weekend.", session="s", protector=protector, rewrite="local"
    )
    restored = restore(trip.text, session="s", protector=protector).text
    assert re.match(r"I went with my \w+ Sipho ", restored), (trip.text, restored)  # never "I went Sipho to"


def test_a_change_is_labelled_by_what_left_the_text_not_by_a_word_that_stayed():
    """ "Lagos for a desk job in Toronto." -> "Lagos.": the word token "Lagos" differs only by its period, so the
    word diff counts it as removed; the label is the attribute of the phrase that left (main: pobp, of "Lagos")."""
    from stealthflow.anonymize.changes import text_changes

    cues = [("Lagos", "pobp"), ("a desk job", "occupation")]
    (change,) = text_changes("I left Lagos for a desk job in Toronto.", "I left Lagos.", cues, "generalized")
    assert change["attribute"] == "occupation"
    (kept,) = text_changes("I left Lagos for good.", "I left Lagos.", cues, "generalized")
    assert kept["attribute"] is None  # "for good" is no marked phrase; "Lagos" stayed
    (inserted,) = text_changes("I left Lagos.", "I left Lagos behind.", cues, "model")
    assert inserted["attribute"] is None


def test_every_mark_ends_replaced_removed_or_reported():
    """`marks.stayed`, the one check every path's marks go through: a mark still in the text, or whose replacement
    kept a word the teacher changed for one attribute only ("nurse" around "my city"), is reported."""
    from stealthflow.anonymize.local import attribute_of
    from stealthflow.anonymize.marks import stayed

    post = "Twelve years as an ER nurse in Leeds, and my husband cooks."
    marks = [("Twelve years as an ER nurse in Leeds", "location"), ("my husband", "married")]
    # ux24 M2: main reported the whole mark, "Leeds" included, which the stand-in had replaced, as a location: what
    # stayed is the words left as written, and what they point to is the job
    job = "Twelve years as an ER nurse"
    assert stayed(post, "Twelve years as an ER nurse in my city, and my partner cooks.", marks, []) == [job]
    assert attribute_of(job, marks) == "occupation" and attribute_of(marks[0][0], marks) == "location"
    assert stayed(post, "Twelve years at work, and my partner cooks.", marks, []) == []  # "years" heads several
    assert stayed(post, "Twelve years at work, and my husband cooks.", marks, []) == ["my husband"]
    assert stayed(post, "Twelve years, and my husband cooks.", marks, ["my husband"]) == ["my husband"]


@pytest.mark.real_model
def test_an_email_the_cue_tagger_marks_keeps_its_place_and_is_reported():
    """The shipped cue tagger marks "dana@x.org" as occupation: main cut it ("..., email"). A value is no phrase
    to rewrite (anonymize is not the PII step; protect masks it): it stays, reported."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = "Twelve years as an ER nurse in Leeds, email dana@x.org"
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    assert result.text.endswith("email dana@x.org") and "dana@x.org" in result.unprotected, result
    assert "Twelve years as an ER nurse" in result.unprotected  # what stayed of its mark, "Leeds" now "my city"


def test_pieces_of_an_email_the_cue_tagger_marks_are_reported_as_the_email():
    """The cue tagger once marked pieces of "m.okafor@posteo.de" ("m", "okafor", "de"): main tried to generalize
    them and reported them as three phrases, which the terminal named. A piece of a value is the value: it stays,
    reported once as the whole e-mail address (which the report counts, never names). The shipped tagger no longer
    marks them: a FAKE tagger marks two pieces; the real scorer."""
    import torch

    from stealthflow.anonymize.marks import part_of_value
    from stealthflow.utility.fluency import shared_scorer

    post = "Hi, you can reach me at m.okafor@posteo.de or +44 7700 900123."
    assert [part_of_value(post, p) for p in ("m", "okafor", "de", "reach")] == ["m.okafor@posteo.de"] * 3 + [None]
    assert part_of_value("de facto, mail ann@x.de", "de") is None  # also outside the value: a phrase of its own
    torch.set_num_threads(1)
    tagger = FakeTagger({"okafor": "location", "de": "location"})
    (result,) = LocalAnonymizer(None, tagger, Generalizer(shared_scorer)).rewrite_posts([post])
    assert "m.okafor@posteo.de" in result.text and result.unprotected == ["m.okafor@posteo.de"], result


def test_a_word_right_after_a_placeholder_is_never_cut_alone():
    """What a value may modify ("sick" of "sick leave") the rewrite cannot see: a removal opening on a content word
    right after a placeholder is refused; one opening on a function word ("from Leeds") or after a comma is not."""
    from stealthflow.anonymize.placeholders_kept import hangs_on_a_value

    def hangs(text: str, phrase: str) -> bool:
        return hangs_on_a_value(text, text.index(phrase), text.index(phrase) + len(phrase))

    assert hangs("put me on <HEALTH_1> leave after my diagnosis", "leave")
    assert hangs("a [[EMPLOYER:3f81a2c9]]  pension scheme", "pension scheme")
    assert not hangs("I'm <REAL_NAME_1> from Leeds", "from Leeds")
    assert not hangs("I'm <REAL_NAME_1>, surgeon at the hospital", "surgeon")
    assert not hangs("put me on sick leave after my diagnosis", "leave")


@pytest.mark.real_model
def test_protects_rewrite_keeps_the_word_a_masked_value_modifies():
    """A new user's `protect` masked "sick" of "sick leave" as <HEALTH_1>; the tagger, reading the values, marked
    "sick leave" (income), cut to "leave" around the placeholder, and the rewrite dropped it: restored, "put me on
    sick after my type 1 diabetes diagnosis". The real cue tagger and scorer: "leave" stays."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = (
        "My employer <REAL_NAME_1> put me on <HEALTH_1> leave after my <HEALTH_2> diagnosis. Please pay the refund"
        " to IBAN <IBAN_1>."
    )
    values = {
        "<REAL_NAME_1>": "Harlow & Finch Logistics",
        "<HEALTH_1>": "sick",
        "<HEALTH_2>": "type 1 diabetes",
        "<IBAN_1>": "GB33BUKB20201555555555",
    }
    anonymizer = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer))
    (result,) = anonymizer.rewrite_posts([post], [values])
    assert "<HEALTH_1> leave after" in result.text, result
    # the tagger retrained with more natural negatives no longer marks "leave"; a mark of it would be reported
    assert all("leave" not in phrase for phrase, _ in result.cues) or any("leave" in p for p in result.unprotected)


@pytest.mark.real_model
def test_protects_rewrite_takes_a_placeholder_as_protecting_the_mark_it_held_and_keeps_every_verb():
    """The real cue tagger and scorer on issue 47's reports: "My boss at <EMPLOYER_1>" (the value read by the tagger)
    is no mark left unprotected; "The salary jump from Leeds paid for ..." never loses its verb and object."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    anonymizer = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer))
    post = "My boss at <EMPLOYER_1> is a nightmare."
    (result,) = anonymizer.rewrite_posts([post], [{"<EMPLOYER_1>": "the Amazon warehouse in Reno"}])
    assert result.text == post and result.unprotected == [], result
    post = "The salary jump from Leeds paid for my partner's Spanish course and then some."
    (result,) = anonymizer.rewrite_posts([post])
    assert "paid for my partner's" in result.text, result


@pytest.mark.real_model
def test_no_removal_leaves_a_pro_form_pointing_at_nothing_or_a_phrasal_verb_without_its_place():
    """Blind readers' seeds 13 and 17, judged not fluent: "Flood in Atyrau region, I drive through there" was printed
    as "Flood, I drive through there" ("there" points at nothing), "Grew up in Torry, three streets from the harbour."
    as "Grew up.". The real cue tagger and scorer: whatever becomes of the place, the words pointing at it or needing
    it are not left without it."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = [
        "Flood in Atyrau region, I drive through there last week with load. Water everywhere, very bad for people.",
        "Grew up in Torry, three streets from the harbour. The sea is in my blood.",
    ]
    flood, torry = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    assert not flood.text.startswith("Flood, I drive"), flood
    assert not torry.text.startswith("Grew up."), torry


@pytest.mark.real_model
def test_a_kin_word_takes_one_of_its_generation_below_the_stand_in_floor_with_the_shipped_models():
    """The shipped cue tagger and fluency scorer: "my wife" -> "my partner" scores under the stand-in floor (the new
    word is rarer, the sentence is not broken); as a kin swap it has no fluency floor, so the mark is replaced (the
    tagger's other mark here, "My kids", becomes its collective: generic.yaml `collectives`)."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.gate import STAND_IN_FLOOR
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = "My kids now speak with an accent and my wife cries a little every time."
    swapped = post.replace("my wife", "my partner")
    (fluency,) = shared_scorer().compare([post], [swapped])
    assert fluency.score < STAND_IN_FLOOR  # the floor alone would refuse it
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    assert ("my wife", "married") in result.cues, result.cues
    assert result.text == swapped.replace("My kids", "My family") and "my wife" not in result.unprotected, result
    assert any(c["phrase"] == "wife" and c["attribute"] == "married" for c in result.changes), result.changes


@pytest.mark.real_model
def test_no_stand_in_states_what_the_post_did_not_say_with_the_shipped_models():
    """The shipped cue tagger and fluency scorer, end to end: a flat named by its bedrooms never becomes "our
    furniture" (the kind of its last part, `generalize.kind_stand_ins`), a bus's number never an age the teacher
    once wrote for "16" (`generalize.taught_for`), a Spanish bank account never an "old" one, a small town never
    "the city" (tests/data/local_rewrites_reference.jsonl row 21 on main; `generalize.taught_words`)."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    posts = [
        "Rent for our two-bed in Salford went up another 90 this year.",
        "Driving the 16 through Rathmines on a Saturday night is a different sport altogether.",
        "The exchange rate eats a good chunk before it lands in my Spanish account.",
        "Any tips for surviving freshman year at Penn State? I'm from a small town and it's huge.",
    ]
    results = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts(posts)
    assert any(r.cues for r in results), results  # the tagger marks them: the check below is on real edits
    for result in results:
        assert not {"furniture", "under 18", "old account"} & {c["replacement"].strip(" .,") for c in result.changes}
        assert "furniture" not in result.text and "under 18" not in result.text and "old account" not in result.text
        assert "the city" not in result.text and "a city" not in result.text


@pytest.mark.real_model
def test_a_profiles_cues_leave_out_the_values_protect_masks_and_count_them():
    """The shipped cue tagger on a profile of two posts: a phrase that gives the author away is listed with its
    attribute; the card digits and the token it also marks are values protect masks, counted instead."""
    from stealthflow.anonymize.cues import profile_cues
    from stealthflow.data.schema import Comment, Profile

    token = "ghp_9fQx7LmN2pRt5VwY8zA1bC3dE6fG0hJ4kL7m"
    posts = [f"Turning 30 next month, card ending 4242. My github token is {token}, please ignore.", "Nice day."]
    cues = profile_cues(Profile(id="p", comments=[Comment(text=post) for post in posts]))
    assert list(cues) == [0]  # the second post has none: left out
    phrases = [c for c in cues[0] if "phrase" in c]
    assert phrases and all(c["attribute"] and token not in c["phrase"] and "4242" not in c["phrase"] for c in phrases)
    assert cues[0][-1] == {"masked": 2}


def test_a_cue_mark_never_cuts_into_a_sample_value_or_a_number():
    """ux23 finding 2: a mark on "1234 5698 7654 32" (a FAKE tagger's, where the real one marked it a location) took
    the digits of a published sample IBAN protect had left in clear. A listed sample value is cut out of every mark; a
    mark that cuts into a number or an identifier takes it whole ("12" and "5 hour shift" of "12.5 hour shift")."""
    from stealthflow.anonymize.cues import find_cues
    from stealthflow.pii_tagger.model import TaggedSpan

    post = "My IBAN is GB82 WEST 1234 5698 7654 32. Home after a 12.5 hour shift."
    digits, number = post.index("1234"), post.index("12.5")

    class FakeTagger:  # FAKE: the IBAN's digits, then "12" and "5 hour shift" apart
        def tag_many(self, posts):
            marks = [(digits, digits + 17, "location"), (number, number + 2, "occupation")]
            marks.append((number + 3, number + 15, "occupation"))
            return [[TaggedSpan(start, end, label, 0.9) for start, end, label in marks] for _ in posts]

    (cues,) = find_cues(FakeTagger(), [post])
    assert [(post[c.start : c.end], c.label) for c in cues] == [("12.5 hour shift", "occupation")]
