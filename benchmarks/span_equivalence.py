"""Whether two checkouts' detectors find the same spans: a speed change must not change what is found.

The whole detector (the deterministic recognizers, the language guess and the shipped PII tagger) runs over the
texts of benchmarks/data/pii-heldout-c to -h, data/pii_test.jsonl and the tagger's natural validation messages in
seven languages (data/tagger-natural/validation*/, their marks taken out), once with this checkout's code and once
with `--before SRC` (another checkout's src/, in a subprocess), and the span sets (start, end, type) are compared
text by text; `--languages`: instead the six-language texts of data/pii_multilingual_test.jsonl and the languages
files of benchmarks/data/pii-heldout-c to -k; `--heldout`: instead every file of benchmarks/data/pii-heldout-c to -o
(registers and languages) and the comments of data/test.jsonl. A span found by one side only is listed with the tagger's confidence where it has one and how far
that lies from its type's threshold (a float within 1e-4 of a threshold may fall either way on another CPU).
`--stored`: every stored held-back text (each benchmarks/data/pii-heldout* file but pii-heldout-za's, data/pii_test.jsonl
and data/test.jsonl's comments), and beyond the spans what a user gets: each span's score, recognizer and reason, the
text protected (a vault with a fixed key, 50 sessions taking turns, so session values recur), its masked spans, and
whether restoring it gives the text back; the two sides' lines must be equal byte for byte. `--patterns`: the same
texts through the pattern layer alone, the tagger's input (spans with the text each covers, and each text's reading).

    git archive main src | tar -x -C /tmp/before   # the code to compare with
    .venv/bin/python benchmarks/span_equivalence.py --before /tmp/before/src [--languages | --heldout | --stored | --patterns]

Prints whether the two span lists are identical as JSON (start, end, type, confidence, threshold), and writes
benchmarks/results/span_equivalence[_languages|_heldout|_stored|_patterns].json (the counts and every difference).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).parent / "results"
SOURCES = [
    *sorted((ROOT / "benchmarks" / "data").glob("pii-heldout-[cdefgh]/*.jsonl")),
    ROOT / "data" / "pii_test.jsonl",
]
LANGUAGE_SOURCES = [
    ROOT / "data" / "pii_multilingual_test.jsonl",
    *sorted((ROOT / "benchmarks" / "data").glob("pii-heldout-[c-k]/pii_languages_*.jsonl")),
]
MARKED_SOURCES = sorted((ROOT / "data" / "tagger-natural").glob("validation*/*.txt"))  # [value](TYPE) marks
HELDOUT_SOURCES = sorted((ROOT / "benchmarks" / "data").glob("pii-heldout-[c-o]/*.jsonl"))
COMMENTS = ROOT / "data" / "test.jsonl"
# Every stored held-back file but those held for the final measurement (pii-heldout-za), which no run reads.
STORED_SOURCES = [
    *(
        path
        for folder in sorted((ROOT / "benchmarks" / "data").glob("pii-heldout*"))
        if not folder.name.startswith("pii-heldout-za")
        for path in sorted(folder.glob("*.jsonl"))
    ),
    ROOT / "data" / "pii_test.jsonl",
]
CORPORA = ("default", "languages", "heldout", "stored")
SESSIONS = 50  # the stored texts' sessions, taken in turn
NEAR = 1e-4  # a confidence this close to its threshold may be rounded either way


def texts(corpus: str = "default") -> list[str]:
    """The texts of `corpus` (`CORPORA`)."""
    from stealthflow.data.loader import load_profiles
    from stealthflow.pii_tagger.training.data import read_marked

    sources = {"default": SOURCES, "languages": LANGUAGE_SOURCES, "heldout": HELDOUT_SOURCES, "stored": STORED_SOURCES}
    sources = sources[corpus]
    plain = [
        json.loads(line)["text"]
        for path in sources
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    if corpus in ("heldout", "stored"):
        return plain + [c.text for p in load_profiles(COMMENTS) for c in p.comments if c.text.strip()]
    return (
        plain if corpus == "languages" else plain + [text for path in MARKED_SOURCES for text, _ in read_marked(path)]
    )


def spans_found(corpus: str = "default") -> list[list[list]]:
    """Per text, its spans as [start, end, type, tagger confidence or None, that type's threshold or None]."""
    from stealthflow.pii_tagger.model import load_pii_tagger
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    tagger = load_pii_tagger()
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=tagger)])
    thresholds = tagger.span_thresholds
    found = []
    for text in texts(corpus):
        found.append(
            [
                [s.start, s.end, s.type]
                + ([s.score, thresholds.get(s.type)] if s.source == PiiTaggerRecognizer.name else [None, None])
                for s in detector.deterministic(text)
            ]
        )
    return found


def outputs() -> list[str]:
    """Per stored text (`--stored`), as one JSON line: its spans [start, end, type, score, recognizer, reason], the text
    protected, its masked spans and whether restoring it gives the text back."""
    import base64
    import tempfile

    from stealthflow.pii_tagger.model import load_pii_tagger
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.policy import ProtectConfig
    from stealthflow.placeholders.recognizers import build_recognizers

    os.environ["STEALTHFLOW_VAULT_KEY"] = base64.b64encode(b"span_equivalence.py: a fixed key").decode()
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=load_pii_tagger())])
    with tempfile.TemporaryDirectory() as folder:
        config = ProtectConfig(vault_path=Path(folder) / "vault.sqlite", key_source="env", llm_extractor=False)
        protector = Protector(config, open_vault(config), detector)
        lines = []
        for index, text in enumerate(texts("stored")):
            session = f"s{index % SESSIONS}"
            found = [[s.start, s.end, s.type, s.score, s.source, s.reason] for s in detector.deterministic(text)]
            protected = protector.protect(text, session)
            restored = protector.restore(protected.text, session).text == text
            lines.append(json.dumps([found, protected.text, [m.to_json() for m in protected.spans], restored]))
        protector.vault.close()
    return lines


def pattern_outputs() -> list[str]:
    """Per stored text (`--patterns`), as one JSON line: the pattern layer's spans, the tagger's input (`deterministic`
    without it: [start, end, type, score, recognizer, reason, the text covered]), and how the text was read (the
    languages of the whole and of each piece, which route the tagger): alike on both sides, the whole detector's spans
    are alike (its tagger code the same), at a third of `--stored`'s time."""
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    def guess(g) -> list:
        return [g.language, sorted(g.candidates), g.unsure]

    detector = Detector(build_recognizers())
    lines = []
    for text in texts("stored"):
        found = [
            [s.start, s.end, s.type, s.score, s.source, s.reason, text[s.start : s.end]]
            for s in detector.deterministic(text)
        ]
        [(_, reading)] = detector.recognized_with_languages([text], models=False)
        pieces = [[p.start, p.end, guess(p.guess), p.sentences] for p in reading.pieces]
        lines.append(json.dumps([found, guess(reading.guess), pieces]))
    return lines


def compare_outputs(ours: list[str], theirs: list[str], restores: bool) -> dict:
    """The counts of `outputs` (`restores`: its lines end with whether the text restored whole) or `pattern_outputs`,
    and the texts whose lines differ (by index: no value is written out)."""
    import hashlib

    differing = [index for index, (new, old) in enumerate(zip(ours, theirs, strict=True)) if new != old]
    rows = [json.loads(line) for line in ours]
    restored = {"restored_whole": sum(row[3] for row in rows)} if restores else {}
    return {
        "texts": len(ours),
        "spans": sum(len(row[0]) for row in rows),
        "tagger_spans": sum(span[4] == "pii_tagger" for row in rows for span in row[0]),
        **restored,
        "sha1_this_checkout": hashlib.sha1("\n".join(ours).encode()).hexdigest(),
        "sha1_before": hashlib.sha1("\n".join(theirs).encode()).hexdigest(),
        "identical": ours == theirs,
        "texts_differing": differing,
    }


def compare(ours: list[list[list]], theirs: list[list[list]], corpus_name: str = "default") -> dict:
    corpus = texts(corpus_name)
    differences = []
    for index, (new, old) in enumerate(zip(ours, theirs, strict=True)):
        new_set, old_set = {tuple(s[:3]): s for s in new}, {tuple(s[:3]): s for s in old}
        for side, only in (("this checkout only", new_set.keys() - old_set), ("before only", old_set.keys() - new_set)):
            for key in sorted(only):
                span = (new_set if side == "this checkout only" else old_set)[key]
                score, threshold = span[3], span[4]
                differences.append(
                    {
                        "text": index,
                        "side": side,
                        "span": list(key),
                        "value": corpus[index][key[0] : key[1]],
                        "confidence": score,
                        "near_threshold": None if score is None else abs(score - (threshold or 0)) < NEAR,
                    }
                )
    return {
        "texts": len(ours),
        "spans_this_checkout": sum(map(len, ours)),
        "spans_before": sum(map(len, theirs)),
        "texts_differing": len({d["text"] for d in differences}),
        "identical_json": json.dumps(ours) == json.dumps(theirs),
        "differences": differences,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="another checkout's src/ to compare with")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--languages", action="store_true", help="the six-language texts (pii_multilingual_test, pii-heldout-c..k)"
    )
    chosen.add_argument(
        "--heldout", action="store_true", help="every file of pii-heldout-c..o and data/test.jsonl's comments"
    )
    chosen.add_argument(
        "--stored", action="store_true", help="every stored held-back text: spans, masked texts and restores"
    )
    chosen.add_argument(
        "--patterns", action="store_true", help="every stored held-back text: the pattern layer's spans and readings"
    )
    parser.add_argument("--spans", action="store_true", help=argparse.SUPPRESS)  # this process's spans, as JSON
    args = parser.parse_args()
    corpus = next((name for name in ("languages", "heldout", "stored", "patterns") if getattr(args, name)), "default")
    lines = {"stored": outputs, "patterns": pattern_outputs}.get(corpus)
    if args.spans:
        print(json.dumps(lines() if lines else spans_found(corpus)))
        return
    if not args.before:
        parser.error("--before SRC is required")
    env = {**os.environ, "PYTHONPATH": str(Path(args.before).resolve())}
    command = [sys.executable, __file__, "--spans", *([f"--{corpus}"] if corpus != "default" else [])]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    if lines:
        result = compare_outputs(lines(), theirs, restores=corpus == "stored")
        print(json.dumps(result))
    else:
        result = compare(spans_found(corpus), theirs, corpus)
        print(json.dumps({key: value for key, value in result.items() if key != "differences"}))
        for difference in result["differences"]:
            print(difference)
    RESULTS.mkdir(exist_ok=True)
    name = "span_equivalence.json" if corpus == "default" else f"span_equivalence_{corpus}.json"
    (RESULTS / name).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
