"""training/heldout_to_marked.py: a used held-back set's annotated texts -> marked lines for the tagger's fine-tune."""

from __future__ import annotations

import json

from training_scripts import training_script

from stealthflow.pii_tagger.training.data import read_marked


def _script():
    return training_script("heldout_to_marked")


def test_every_whole_word_occurrence_is_marked_and_a_nested_value_goes_with_the_longer():
    row = {
        "text": "Derek Whitcombe kept it.\nAsk Derek, not Dereka, at 14 Harrow Lane.",
        "pii": [
            {"value": "Derek", "type": "REAL_NAME"},
            {"value": "Derek Whitcombe", "type": "REAL_NAME"},
            {"value": "14 Harrow Lane", "type": "ADDRESS"},
        ],
    }
    assert _script().marked_line(row) == (
        "[Derek Whitcombe](REAL_NAME) kept it. Ask [Derek](REAL_NAME), not Dereka, at [14 Harrow Lane](ADDRESS)."
    )


def test_a_value_whose_marks_would_not_read_back_leaves_its_text_out_and_a_batch_splits_by_language(tmp_path):
    folder, batch = tmp_path / "set", tmp_path / "batch"
    folder.mkdir()
    batch.mkdir()
    rows = [
        {"lang": "en", "text": "Mail Ana at ana@example.org", "pii": [{"value": "Ana", "type": "REAL_NAME"}]},
        {"lang": "de", "text": "Der Zug fällt aus.", "pii": []},
        {"lang": "en", "text": "log [x] token", "pii": [{"value": "[x] token", "type": "CREDENTIAL"}]},
    ]
    (folder / "set.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    counts = _script().write_batch(folder, batch)
    assert counts == {"personal": 1, "negatives": 1, "left out": 1}
    assert read_marked(batch / "personal-en.txt") == [("Mail Ana at ana@example.org", [(5, 8, "REAL_NAME")])]
    assert (batch / "negatives-de.txt").read_text(encoding="utf-8") == "Der Zug fällt aus.\n"
