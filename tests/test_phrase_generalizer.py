"""The phrase generalizer: its training rows (from teacher rewrites made here), the filter on its suggestions, and
the generalizer taking them as candidates (a FAKE suggester, scorer and embedding). The trained adapter runs end to
end in the real_model test at the bottom when it ships."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gate_fakes import ScoreByTable

from stealthflow.anonymize.generalize import Generalizer, usable_suggestion
from stealthflow.harvest.phrases import phrase_rows
from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites


def teacher_file(tmp_path, posts: int = 20):
    lines = []
    for n in range(posts):
        text = f"Post {n} starts here. The rent here in Leeds keeps going up! My husband laughs."
        cues = [
            {"phrase": "in Leeds", "attribute": "location", "generalized": "in my city"},
            {"phrase": "My husband", "attribute": "married", "generalized": ""},  # the teacher dropped it: no row
        ]
        lines.append({"id": f"synthetic-t:{n:03}", "text": text, "cues": cues, "explanation": "x", "rewrite": "y"})
    lines.append({"id": "synthetic-t:free", "text": "Nothing here.", "cues": [], "explanation": "", "rewrite": None})
    path = tmp_path / "teacher.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_one_row_per_teacher_cue_prompted_with_its_sentence_and_answered_with_the_generalization(tmp_path):
    train, validation = phrase_rows(load_teacher_rewrites(teacher_file(tmp_path)), validation_share=0.1, seed=3)
    assert len(train) == 18 and len(validation) == 2  # 20 posts with one usable cue each; 10 % of posts held back
    assert not {r["post_id"] for r in train} & {r["post_id"] for r in validation}
    row = train[0]
    prompt, answer = row["messages"]
    assert answer == {"role": "assistant", "content": "in my city"}
    assert "Sentence: The rent here in Leeds keeps going up!\n" in prompt["content"]  # its sentence, not the post
    assert "Post" not in prompt["content"] and "husband" not in prompt["content"]
    assert "Phrase: in Leeds" in prompt["content"] and "location" in prompt["content"]
    again, _ = phrase_rows(load_teacher_rewrites(teacher_file(tmp_path)), validation_share=0.1, seed=3)
    assert [r["post_id"] for r in again] == [r["post_id"] for r in train]  # seeded


def test_rows_of_a_test_profile_are_refused(tmp_path):
    test_user = _first_test_username()
    path = tmp_path / "teacher.jsonl"
    record = {
        "id": f"{test_user}#0",
        "text": "I live in Leeds.",
        "cues": [{"phrase": "in Leeds", "attribute": "location", "generalized": "in my city"}],
        "explanation": "x",
        "rewrite": "I live in my city.",
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="test profiles"):
        phrase_rows(load_teacher_rewrites(path))


def test_a_teacher_row_holding_a_test_comments_text_is_refused_whatever_its_id(tmp_path):
    from stealthflow.data import load_profiles
    from stealthflow.resources import split_path

    test_text = load_profiles(split_path("test"), limit=1)[0].comments[0].text
    path = teacher_file(tmp_path)
    record = {"id": "synthetic-t:copied", "text": test_text, "cues": [], "explanation": "", "rewrite": None}
    with path.open("a", encoding="utf-8") as lines:
        lines.write(json.dumps(record) + "\n")
    with pytest.raises(ValueError, match="comments: teacher rows synthetic-t:copied"):
        phrase_rows(load_teacher_rewrites(path))


def _first_test_username() -> str:
    from stealthflow.resources import split_path

    first = json.loads(split_path("test").read_text(encoding="utf-8").splitlines()[0])
    return first.get("username") or first["id"]


def test_harvest_phrases_writes_a_dataset_the_sft_loader_reads(tmp_path):
    """End to end on disk: the command's files, read back as `train sft` reads them."""
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.training.recipes import Recipe
    from stealthflow.training.sft import load_sft_dataset

    out = tmp_path / "data"
    result = CliRunner().invoke(app, ["harvest-phrases", "--out", str(out), "--teacher", str(teacher_file(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "18 training rows (18 posts), 2 validation rows (2 posts)" in result.output
    assert json.loads((out / "summary.json").read_text())["attributes"] == {"location": 18}
    assert len((out / "validation.jsonl").read_text().splitlines()) == 2
    recipe = Recipe.model_validate({"name": "t", "output_dir": str(tmp_path / "run"), "sft": {"data": str(out)}})
    dataset = load_sft_dataset(recipe)
    assert len(dataset) == 18 and dataset[0]["completion"] == [{"role": "assistant", "content": "in my city"}]


@pytest.mark.parametrize(
    ("suggestion", "phrase", "usable"),
    [
        ("in my city", "in Leeds", True),
        ("in Leeds", "in Leeds", False),  # the phrase itself
        ("In leeds", "in Leeds", False),
        ("near Leeds", "in Leeds", False),  # keeps the name
        ("Turning 30 soon", "Turning 30 next month", False),  # keeps the number
        ("With a birthday coming up", "Turning 30 next month", True),
        ("19F", "29F", False),  # an invented number is no truer
        ("Young person", "29F", True),
        ("My partner", "My husband", True),  # "My" is a word, not a name
        ("a job I have had for many years now and love", "an ER nurse", False),  # 10 words for 3: a rewrite
        ("", "in Leeds", False),
        ("...", "in Leeds", False),
    ],
)
def test_a_suggestion_is_dropped_when_it_is_the_phrase_keeps_its_name_or_number_or_runs_long(
    suggestion, phrase, usable
):
    assert usable_suggestion(suggestion, phrase) is usable


@pytest.mark.parametrize(
    ("suggestion", "phrase"),
    [
        ("near leeds", "in leeds"),  # a name written in lowercase
        ("near Berlin", "in Berlin"),  # names that are words of English too
        ("near Oxford", "in Oxford"),
        ("near Reading", "in Reading"),
        ("near Bath", "in Bath"),
        ("an ER worker", "an ER nurse"),  # "er" is a chat word; "ER" is a name
        ("Leeds's area", "in Leeds"),  # a possessive
        ("near Leeds-Bradford", "in Leeds"),  # a hyphenated name
        ("in Zurich", "in Zürich"),  # accents dropped
        ("near Montreal", "in Montréal"),
        ("twenty-nine", "29"),  # a number spelled out
        ("turning thirty soon", "Turning thirty next month"),
        ("nineteen", "29F"),  # an invented number in words
    ],
)
def test_a_suggestion_keeping_a_word_of_the_phrase_or_a_number_word_is_dropped(suggestion, phrase):
    assert not usable_suggestion(suggestion, phrase)


class FakeSuggester:
    """FAKE phrase generalizer: fixed suggestions per phrase; records each batch it is asked."""

    def __init__(self, table: dict[str, list[str]]):
        self.table = table
        self.batches: list[list[tuple[str, str, str]]] = []

    def __call__(self, items):
        self.batches.append(items)
        return [self.table.get(phrase, []) for _, phrase, _ in items]


def same_meaning(texts):
    """FAKE embedding: every text the same vector (every candidate passes the meaning floor)."""
    return np.ones((len(texts), 4), dtype=np.float32) / 2.0


def test_the_models_suggestions_are_candidates_scored_like_the_others_and_asked_for_all_posts_at_once():
    texts = ["I live in Leeds and the rent keeps going up.", "Grew up in Kerala, moved for uni."]
    suggester = FakeSuggester(
        {"in Leeds": ["in the north", "near Leeds", "in Leeds"], "Kerala": ["a warm place", "Kerala province"]}
    )
    scorer = ScoreByTable(
        {
            "I live in the north and the rent keeps going up.": 1.0,  # the model's suggestion reads best
            "I live in my city and the rent keeps going up.": 0.5,
            "Grew up in a warm place, moved for uni.": 0.8,
        }
    )
    generalizer = Generalizer(scorer, embed=same_meaning, suggest=suggester)
    (leeds, (r1,)), (kerala, (r2,)) = generalizer.generalize(texts, [[("in Leeds", "location")], [("Kerala", "pobp")]])
    assert leeds == "I live in the north and the rent keeps going up." and r1.replacement == "in the north"
    assert kerala == "Grew up in a warm place, moved for uni." and r2.replacement == "a warm place"
    assert suggester.batches == [
        [(texts[0], "in Leeds", "location"), (texts[1], "Kerala", "pobp")]
    ]  # one batch, phrases in their sentences
    assert not [s for s in scorer.seen if "near Leeds" in s or "Kerala province" in s]  # never tried
    assert "I live in my city and the rent keeps going up." in scorer.seen  # the data's candidates are still scored


def test_a_suggestion_bringing_back_another_marked_phrase_of_the_post_is_never_tried():
    text = "As an ER nurse in Leeds, I work nights."
    suggester = FakeSuggester({"an ER nurse": ["a worker near Leeds", "a healthcare worker"]})
    scorer = ScoreByTable({"As a healthcare worker in Leeds, I work nights.": 1.0})
    Generalizer(scorer, embed=same_meaning, suggest=suggester).generalize(
        [text], [[("an ER nurse", "occupation"), ("in Leeds", "location")]]
    )
    assert [(text, "an ER nurse", "occupation")] in suggester.batches  # places are tried first (places_first)
    assert "As a healthcare worker in Leeds, I work nights." in scorer.seen
    assert not [s for s in scorer.seen if "near Leeds" in s]


def test_the_local_method_has_a_suggester_by_default_only_when_an_adapter_ships(tmp_path, monkeypatch):
    from stealthflow import resources
    from stealthflow.anonymize import build_method, suggest
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    bundled = resources.resource_dir
    # a models/ folder of this test; the other resources as bundled
    monkeypatch.setattr(
        resources, "resource_dir", lambda name, override=None: tmp_path / name if name == "models" else bundled(name)
    )
    (tmp_path / "models").mkdir()
    assert build_method("local", Settings(), LLMPool(None), {"deterministic": True}).generalizer.suggest is None
    fake_adapter(tmp_path / "models" / suggest.ADAPTER, '{"peft_type": "LORA"}')
    shipped = build_method("local", Settings(), LLMPool(None), {"deterministic": True}).generalizer.suggest
    assert isinstance(shipped, suggest.PhraseSuggester) and shipped.adapter == tmp_path / "models" / suggest.ADAPTER


def test_the_local_method_takes_a_phrase_adapter_option_and_loads_no_model_until_a_phrase_needs_it(tmp_path):
    from stealthflow.anonymize import build_method
    from stealthflow.anonymize.suggest import PhraseSuggester
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    adapter = fake_adapter(tmp_path / "adapter", '{"peft_type": "LORA"}')
    method = build_method("local", Settings(), LLMPool(None), {"phrase_adapter": adapter, "deterministic": True})
    assert isinstance(method.generalizer.suggest, PhraseSuggester) and method.generalizer.suggest._model is None


def fake_adapter(path, config: str | None, weights: bool = True):
    """A FAKE adapter folder: its config as given, and an empty weights file (nothing loads it until a phrase is
    asked)."""
    path.mkdir()
    if config is not None:
        (path / "adapter_config.json").write_text(config, encoding="utf-8")
    if weights:
        (path / "adapter_model.safetensors").write_bytes(b"")
    return path


@pytest.mark.parametrize(
    ("config", "weights", "message"),
    [
        (None, True, "no adapter_config.json"),
        ("{}", True, "naming a peft_type"),
        ("not json", True, "naming a peft_type"),
        ('{"peft_type": "LORA"}', False, "no adapter weights"),
    ],
)
def test_a_broken_phrase_adapter_is_refused_with_one_line_before_any_work(tmp_path, config, weights, message):
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings
    from stealthflow.data import DataError
    from stealthflow.llm.pool import LLMPool

    adapter = fake_adapter(tmp_path / "adapter", config, weights)
    with pytest.raises(DataError, match=message) as refused:
        build_method("local", Settings(), LLMPool(None), {"phrase_adapter": adapter, "deterministic": True})
    assert "\n" not in str(refused.value) and str(adapter) in str(refused.value)


def untrained_adapter(path):
    """A LoRA adapter on the embedded model whose update is zero (peft starts B at 0): the base model's answers
    through the real loading and generation path."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from stealthflow.llm.embedded import converted_model_path

    model = AutoModelForCausalLM.from_pretrained(converted_model_path(), dtype=torch.float32)
    config = LoraConfig(r=4, target_modules=["q_proj"], task_type="CAUSAL_LM")
    get_peft_model(model, config).save_pretrained(str(path))
    return path


@pytest.mark.real_model
def test_real_model_the_phrase_generalizer_suggests_stand_ins_in_a_local_rewrite(tmp_path):
    """End to end on two posts: the adapter (shipped, else an untrained one) loads, suggests for phrases of both
    posts in one batch, and `local` rewrites the posts with the suggestions among the candidates."""
    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.local import LocalAnonymizer
    from stealthflow.anonymize.suggest import ADAPTER, SUGGESTIONS, PhraseSuggester
    from stealthflow.resources import shipped_adapter
    from stealthflow.utility.fluency import shared_scorer

    suggester = PhraseSuggester(shipped_adapter(ADAPTER) or untrained_adapter(tmp_path / "adapter"))
    posts = [
        "Twelve years as an ER nurse and the rent here in Leeds keeps going up.",
        "My husband and I just adopted a greyhound named Pip.",
    ]
    found = suggester([(posts[0], "in Leeds", "location"), (posts[1], "My husband and I", "married")])
    assert len(found) == 2 and all(1 <= len(s) <= SUGGESTIONS and all(isinstance(x, str) for x in s) for s in found)
    asked = []

    def recording(items):
        asked.append(items)
        return suggester(items)

    anonymizer = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer, suggest=recording))
    rewrites = anonymizer.rewrite_posts(posts)
    assert asked and len({item[0] for item in asked[0]}) == 2  # both posts' phrases in the first batch
    # Each post is rewritten or says which marked phrase stayed (an untrained adapter's suggestions may all be
    # dropped by usable_suggestion: then the data's candidates decide, as without the model).
    assert all(r.text != p or r.unprotected for r, p in zip(rewrites, posts, strict=True))
    assert rewrites[0].text != posts[0] and "Leeds" not in rewrites[0].text
