"""training/lowercase_chat_variants.py: lower-case copies of a used held-back set's chat texts, marks kept."""

from __future__ import annotations

import json

from training_scripts import training_script

from stealthflow.pii_tagger.training.data import read_marked


def _script():
    return training_script("lowercase_chat_variants")


def test_text_and_name_like_values_are_lowered_while_structured_values_and_types_keep_their_case():
    line = "Hi [Anke](REAL_NAME), IBAN [DE89 3704 0044](IBAN), I work at [Siemens AG](EMPLOYER). OK?"
    assert (
        _script().lowered(line)
        == "hi [anke](REAL_NAME), iban [DE89 3704 0044](IBAN), i work at [siemens ag](EMPLOYER). ok?"
    )


def test_only_chat_rows_that_went_to_training_are_copied(tmp_path):
    script = _script()
    rows = [
        {
            "lang": "en",
            "register": "chat",
            "text": f"Tell Priya {n} said hi",
            "pii": [{"value": "Priya", "type": "REAL_NAME"}],
        }
        for n in range(20)
    ]
    rows += [{"lang": "en", "register": "forum", "text": "Ask Priya", "pii": [{"value": "Priya", "type": "REAL_NAME"}]}]
    rows += [{"lang": "de", "register": "chat", "text": f"Bis Montag {n}!", "pii": []} for n in range(5)]
    (tmp_path / "set.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    variants = script.chat_variants([tmp_path])
    held = [n for n in range(20) if script.held_out("personal-en.txt", f"Tell [Priya](REAL_NAME) {n} said hi")]
    assert 0 < len(held) < 20  # the split's ~20 % go to validation, so they are not copied
    assert variants["personal-en"] == [f"tell [priya](REAL_NAME) {n} said hi" for n in range(20) if n not in held]
    assert all(line.startswith("bis montag") for line in variants["negatives-de"])
    out = tmp_path / "personal-en-x.txt"
    out.write_text("".join(line + "\n" for line in variants["personal-en"]), encoding="utf-8")
    assert read_marked(out)[0][1] == [(5, 10, "REAL_NAME")]
