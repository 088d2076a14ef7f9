"""benchmarks/pii_false_alarms.py --names: the tagger's REAL_NAME spans on texts without PII, with where they stand
and what the name feature says of their words; and the batch-v recipe, which must not train on its validation lines."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.pii_tagger.training.data import read_marked
from stealthflow.pii_tagger.training.runs import load_finetune_recipe
from stealthflow.placeholders.types import Level, Span

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "pii_false_alarms.py"
# Every batch the xhcj recipes teach: the writers' batches and the used held-back sets c-j.
XHCJ_BATCHES = ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj", "xk", "xl")
XHCJ_BATCHES += ("hc", "hd", "he", "hf", "hg", "hh", "hi", "hj")
HKR = ("hk", "hl", "hm", "hn", "ho", "hp", "hr")  # the used held-back sets k-p and r as training data
sys.path.insert(0, str(SCRIPT.parent))

from pii_false_alarms import name_alarms, position, tally  # noqa: E402


def test_position_tells_a_sentences_first_word_a_greeting_a_list_and_the_middle_of_a_sentence():
    def where(text: str, word: str) -> str:
        start = text.index(word)
        return position(text, start, start + len(word))

    assert where("Juli ist heiß.", "Juli") == "text start"
    assert where("Es regnet. Bueno, mañana.", "Bueno") == "sentence start"
    assert where("Einkauf:\n- Prise Salz", "Prise Salz") == "in a list"  # a list item's first word
    assert where("Hallo Leute, wie geht's?", "Leute") == "after a line's first word"
    assert where("Wir haben Brot, Butter, Käse", "Butter") == "in a list"
    assert where("Ich habe am Samstag frei.", "Samstag") == "inside a sentence"


def test_name_alarms_lists_only_the_taggers_names_on_texts_without_pii_with_each_words_flag():
    rows = [
        {"lang": "de", "text": "Bitte prüfen Sie die Rechnung.", "pii": []},
        {"lang": "de", "text": "Ich bin Jan Roth.", "pii": [{"value": "Jan Roth", "type": "REAL_NAME"}]},
    ]
    found = [  # FAKE detector output: one tagger name and one from another recognizer on the text without PII
        [Span(13, 16, "REAL_NAME", Level.PL2, "pii_tagger", 0.74), Span(0, 5, "REAL_NAME", Level.PL2, "own_name")],
        [Span(8, 16, "REAL_NAME", Level.PL2, "pii_tagger", 0.99)],  # a marked value: no false alarm
    ]
    alarms = name_alarms(rows, found, {"sie": GIVEN, "roth": FAMILY})
    assert alarms == [
        {"lang": "de", "words": "Sie", "score": 0.74, "position": "inside a sentence", "names": ["given"]}
    ]


def test_tally_tells_texts_flagged_by_the_tagger_alone_by_other_recognizers_alone_and_by_both():
    rows = [{"lang": "de", "text": f"Text {n} ohne Daten.", "pii": []} for n in range(4)]
    tagger, email = Span(0, 4, "REAL_NAME", Level.PL2, "pii_tagger", 0.9), Span(5, 6, "EMAIL", Level.PL2, "email")
    found = [[tagger], [email], [tagger, email], []]  # FAKE detector output
    entry = tally(rows, found)["de"]
    assert entry["flagged"] == 3
    assert entry["flagged_by"] == {"tagger alone": 1, "recognizers alone": 1, "both": 1}


@pytest.mark.real_model
def test_the_names_report_runs_the_shipped_student_over_a_file(tmp_path):
    """End to end: the script, the shipped student and its names.tsv; a private name in a text marked as holding
    none is what the report must list."""
    data = tmp_path / "rows.jsonl"
    text = "Gestern war ich mit Katrin Bauer im Kino, der Film war gut."  # no pattern takes the name: the tagger
    data.write_text(json.dumps({"lang": "de", "text": text, "pii": []}) + "\n", encoding="utf-8")
    report = tmp_path / "names.md"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(data), "--names", str(report)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    lines = report.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("## de: 1 REAL_NAME spans")
    assert any(line.startswith("- 'Katrin Bauer' ") and "inside a sentence" in line for line in lines)


@pytest.mark.parametrize(
    ("recipe_file", "batches", "new"),
    [
        ("candidates/pii-tagger-student-finetune-v.yaml", ("v",), ("v",)),
        ("pii-tagger-student-multilingual-finetune-w.yaml", ("d", "v", "wa", "wb", "wc"), ("wa", "wb", "wc")),
        (
            "candidates/pii-tagger-student-finetune-x.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-x.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc"),
            ("xa", "xb", "xc"),
        ),
        (
            "candidates/pii-tagger-student-finetune-xd.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-xd.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd"),
            ("xa", "xb", "xc", "xd"),
        ),
        (
            "pii-tagger-student-finetune-xe.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe"),
        ),
        (
            "candidates/pii-tagger-student-finetune-y.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "y"),
            ("y",),
        ),
        (
            "pii-tagger-student-multilingual-finetune-xe.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe"),
            ("xa", "xb", "xc", "xd", "xe"),
        ),
        (
            "candidates/pii-tagger-student-finetune-xf.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-xf.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf"),
            ("xa", "xb", "xc", "xd", "xe", "xf"),
        ),
        (
            "candidates/pii-tagger-student-finetune-xgh.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xg", "xh"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-xgh.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xg", "xh"),
            ("xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh"),
        ),
        (
            "candidates/pii-tagger-student-finetune-xghf.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-xghf.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh"),
            ("xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh"),
        ),
        (
            "candidates/pii-tagger-student-finetune-xghfij.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-xghfij.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj"),
            ("xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj"),
        ),
        (
            "candidates/pii-tagger-student-finetune-xghfijkl.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj", "xk", "xl"),
            ("v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj", "xk", "xl"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-xghfijkl.yaml",
            ("d", "v", "wa", "wb", "wc", "xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj", "xk", "xl"),
            ("xa", "xb", "xc", "xd", "xe", "xf", "xg", "xh", "xi", "xj", "xk", "xl"),
        ),
        (
            "candidates/pii-tagger-student-finetune-hq.yaml",
            XHCJ_BATCHES + ("hq",),
            ("hq",),
        ),
        (
            "candidates/pii-tagger-student-finetune-hqst.yaml",
            XHCJ_BATCHES + ("hq", "bs", "bt"),
            ("hq", "bs", "bt"),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-hq.yaml",
            XHCJ_BATCHES + ("hq",),
            ("hq",),
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-hqst.yaml",
            XHCJ_BATCHES + ("hq", "bs", "bt"),
            ("hq", "bs", "bt"),
        ),
        *(
            (recipe, XHCJ_BATCHES + ("hq", "bs", "bt", *HKR, "hlc"), HKR)
            for recipe in (
                "candidates/pii-tagger-student-finetune-hkr.yaml",
                "candidates/pii-tagger-student-multilingual-finetune-hkr.yaml",
                "candidates/pii-tagger-student-multilingual-finetune-hkr-b.yaml",
            )
        ),
        *(
            (recipe, XHCJ_BATCHES + ("hq", "bs", "bt", *HKR, "hlc", "hx", "hz", "hlx", "t23a", "t23b"), ("hx", "hz"))
            for recipe in ("pii-tagger-student-finetune-t23.yaml", "pii-tagger-student-multilingual-finetune-t23.yaml")
        ),
        (
            "candidates/pii-tagger-student-multilingual-finetune-t28.yaml",
            XHCJ_BATCHES + ("hq", "bs", "bt", *HKR, "hlc", "hx", "hz", "hlx", "t23a", "t23b", "hzd", "t27a"),
            ("hzd",),
        ),
    ],
)
def test_a_batch_recipe_lists_files_that_exist_and_none_of_its_new_batches_validation_lines(recipe_file, batches, new):
    """Every batch of `batches` is taught; no validation line of the batches `new` to the recipe is (a few short
    lines of validation-d, "Buon appetito!", were also written into earlier batches' training files)."""
    recipe = load_finetune_recipe(REPO / "training" / recipe_file)
    listed = [REPO / path for path in recipe.negatives + recipe.personal + recipe.annotated]
    assert all(path.is_file() for path in listed)
    for batch in batches:
        assert any(path.name.endswith(f"-{batch}.txt") for path in recipe.negatives)
        assert any(path.name.endswith(f"-{batch}.txt") for path in recipe.annotated)
    held_out = {
        text
        for batch in new
        for path in (REPO / f"data/tagger-natural/validation-{batch}").glob("*.txt")
        for text, _ in read_marked(path)
    }
    taught = {text for path in recipe.annotated for text, _ in read_marked(REPO / path)}
    taught |= {line for path in recipe.negatives for line in (REPO / path).read_text(encoding="utf-8").splitlines()}
    assert held_out and not held_out & taught


@pytest.mark.parametrize(
    "recipe_file",
    [
        "pii-tagger-student-finetune-t23.yaml",
        "pii-tagger-student-multilingual-finetune-t23.yaml",
        "candidates/pii-tagger-student-multilingual-finetune-t28.yaml",
    ],
)
def test_these_recipes_teach_no_text_of_the_validation_and_check_sets_u_v_w(recipe_file):
    recipe = load_finetune_recipe(REPO / "training" / recipe_file)
    taught = {" ".join(text.split()) for path in recipe.annotated for text, _ in read_marked(REPO / path)}
    unmarked = recipe.negatives + recipe.personal
    taught |= {" ".join(line.split()) for path in unmarked for line in (REPO / path).read_text().splitlines()}
    checked = [
        " ".join(json.loads(line)["text"].split())
        for name in "uvw"
        for path in (REPO / f"benchmarks/data/pii-heldout-{name}").glob("*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    assert len(checked) == 1800 and not set(checked) & taught
