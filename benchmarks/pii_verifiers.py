"""Fit the PII tagger's verifiers (pii_tagger/verifier.py), one per label of `KINDS`, on the annotated development sets.

    python benchmarks/pii_verifiers.py all                # table and fit of the shipped labels: one command, ~4 min
    python benchmarks/pii_verifiers.py table runs/verifier_spans.jsonl                   # the labelled table alone
    python benchmarks/pii_verifiers.py fit runs/verifier_spans.jsonl --labels ADDRESS --write   # fit from a table
    python benchmarks/pii_verifiers.py fit runs/spans.jsonl --labels REAL_NAME --more real32 pii-heldout-zd  # and theirs
    python benchmarks/pii_verifiers.py context runs/verifier_spans.jsonl --english-only --write  # HEALTH's context
    python benchmarks/pii_verifiers.py table runs/spans.jsonl --files /work/real32/real_pii.jsonl  # with real text
    python benchmarks/pii_verifiers.py context runs/spans.jsonl --real real32 --lose 1 --score FILE  # chosen on it
    python benchmarks/pii_verifiers.py context runs/spans.jsonl --real real32 --given 0.12 0.32 0.32 0.16  # rebuilt

`table` runs the detector as `protect` builds it (one text at a time) over every annotated set but the final checks,
with verifiers that keep every span and record its features; each span the tagger keeps of a verified label is right
when it overlaps an annotated value (any type, as benchmarks/pii_registers.py counts precision). Besides the spans,
per label each text's annotated values of that label and which of them the other spans (every span but the tagger's of
that label) find, and whether the other spans flag a text without personal data, so `fit` can tell recall and texts
flagged at any threshold. No value's text is written, only features, labels and, for HEALTH, the hashed buckets of the
context terms of its spans and of its other examples (`health_examples`).

`context` fits the HEALTH context model (pii_tagger/context_model.py) and chooses its thresholds (`fit_context`); with
`--real`, on annotated real text too (`table --files`: files outside the repository, each a set named by its folder),
its thresholds and the HEALTH verifier's chosen on that text's out-of-fold scores (`choose_on_real`).

`fit` splits by set (`FIT_SETS`, for the labels of `APART` `NAME_FIT_SETS`, to fit a gradient-boosted tree ensemble per
label, sklearn, training only; `CHOOSE_SETS`, for `APART` `NAME_CHOOSE_SETS`, to choose its thresholds): of the pairs (texts read as English, texts in the six other languages) on a
grid of 0.02, the one that flags the fewest texts without personal data on the choice sets while the label's recall
there, English and six-language files each, falls by at most `--budget` (1.5 points) against keeping every span.
With `--more`, the six-language rows of those sets of the table (`table --files`) are fitted and chosen on too, every
fitted row scored out of fold by set for the choice (benchmarks/results/pii_names_languages.md). `--write` replaces
data/pii-tagger/<label>_verifier.json with the new fit. finance_verifier.json was fitted with the t23 students; the
other files with the students before t23 (each file's `chosen` names its sets): their refits with the t23 students
failed their rule on w or lost values on u and v (benchmarks/results/pii_batch_t24.md).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from dataclasses import replace
from functools import cache, partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "training"))

import pii_registers  # noqa: E402
from heldout_to_marked import marked_line  # noqa: E402
from pii_multilingual import predict  # noqa: E402
from pii_registers import gold_spans  # noqa: E402
from split_marked_batch import held_out  # noqa: E402

from stealthflow.pii_tagger.context_model import CONTEXT_FILE, ContextModel, hashed_terms  # noqa: E402
from stealthflow.pii_tagger.lexicons import condition_key, entries_alternation, learnt_conditions  # noqa: E402
from stealthflow.pii_tagger.verifier import KINDS, Candidate, Verifier, settles, shipped_verifiers  # noqa: E402
from stealthflow.placeholders.language import ENGLISH, OTHERS, language_file  # noqa: E402
from stealthflow.resources import resource_dir  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "data"
FIT_SETS = ("pii-heldout", *(f"pii-heldout-{s}" for s in "cdefghijklm"), "pii_test", "pii_multilingual_test")
TREES, DEPTH, RATE = 150, 3, 0.05  # the ensemble's size, each tree's depth, its learning rate
FOLDS = 5  # the folds, grouped by set, that score the fitted rows out of fold for a choice with `--more`
# The sets each label's thresholds are chosen on. u and v check the verifiers but the name's (scored after their
# choice); the name verifier's are chosen on them alone. w: the final check, never in the table.
CHOOSE_SETS = tuple(f"pii-heldout-{s}" for s in "nopqr")
NAME_CHOOSE_SETS = ("pii-heldout-u", "pii-heldout-v")
# The used held-back sets the students train on, 80 % of each file (training/heldout_to_marked.py; the shipped
# students' cards). The name verifier is fitted on spans of text the students did not train on: the other 20 % of
# these sets (the texts `held_out` sends to validation) and the sets no student read. The shipped name_verifier.json and
# health_verifier.json predate this split (their `chosen`: fitted on pii-heldout, -c to -m); their refits by it failed
# their rules on w (benchmarks/results/pii_batch_t23.md, pii_batch_t24.md) and are not shipped.
TRAINED_SETS = tuple(f"pii-heldout-{s}" for s in "cdefghijklmnopqrxz")
NAME_FIT_SETS = ("pii-heldout", "pii_test", "pii_multilingual_test", *TRAINED_SETS)
# The sets only the HEALTH context model (pii_tagger/context_model.py) and the HEALTH verifier are fitted on besides
# `NAME_FIT_SETS`, every text: the training sets written like web pages (tr26a-d, half of them health talk in general,
# the "general" examples the other sets lack) and like the held-back sets (tr24a, tr24b), and the used held-back sets
# za, zb and zc. Files without "languages" or "registers" in their name take each row's kind from its "lang".
CONTEXT_SETS = (*(f"pii-train-tr24{s}" for s in "ab"), *(f"pii-train-tr26{s}" for s in "abcd"),
                *(f"pii-heldout-z{s}" for s in "abc"))  # fmt: skip
CONTEXT_WINDOW, CONTEXT_BUCKETS = 8, 1 << 14  # words on either side of a span; hashed buckets of its terms
CONTEXT_STRENGTHS = (0.1, 0.3, 1.0, 3.0)  # the inverse L2 strengths the context model's cross-validation tries
CONTEXT_FIT_SETS = (*NAME_FIT_SETS, *CONTEXT_SETS)
# Its thresholds are chosen on the sets written like real web pages, half of them health talk in general; the budget
# is the ship rule's on real web text: 2 of 58 English HEALTH values (benchmarks/results/pii_health_t27.md).
CONTEXT_CHOOSE_SETS = tuple(f"pii-train-tr26{s}" for s in "abcd")
CONTEXT_BUDGET = 3.4


# The labels `all` and `fit` write by default: those whose verifier passed the ship rule fixed before the check sets
# were scored (on pii-heldout-u, v and w, both files each, benchmarks/pii_registers.py: texts without personal data
# flagged fall and the label's recall falls by at most 1.5 points). ADDRESS's did not: flagged 182 -> 172 of 900, but
# ADDRESS values found 131 -> 128 of 132 (2.3 points). FINANCE's and CREDENTIAL's did: each alone 178 -> 176 and
# 178 -> 175 of 900, FINANCE values found 126 -> 125 of 161, CREDENTIAL 34 -> 34 of 43. REAL_NAME's is refitted apart
# (`--labels REAL_NAME`).
SHIPPED = ("HEALTH", "EMPLOYER", "FINANCE", "CREDENTIAL")


# The labels fitted on text the students did not train on (`NAME_FIT_SETS`) and chosen on u and v (`NAME_CHOOSE_SETS`).
APART = ("REAL_NAME", "HEALTH")


def choice_sets(label: str) -> tuple[str, ...]:
    return NAME_CHOOSE_SETS if label in APART else CHOOSE_SETS


def fit_sets(label: str) -> tuple[str, ...]:
    return NAME_FIT_SETS if label in APART else FIT_SETS


def trained_on(name: str, row: dict) -> bool:
    """Whether the students train on `row` of set `name` (it went to training, not to validation)."""
    if name not in TRAINED_SETS or (line := marked_line(row)) is None:
        return False
    return not held_out(f"{'personal' if row['pii'] else 'negatives'}-{row['lang']}.txt", line)


class Recorder:
    """A verifier that keeps every span and records each one's features (the text it was read in too)."""

    def __init__(self, label: str):
        self.label, self.seen = label, []

    def least(self, languages: frozenset[str]) -> float:
        """Above 0, so that every span is scored (a threshold of 0 scores none: recognizer.py), and below its 1.0."""
        return 0.5

    @property
    def kind(self):
        return KINDS[self.label]

    def judge_many(self, candidates: list[Candidate]) -> list[float | None]:
        self.seen += [(c.text, c.start, c.end, *self.features(c)) for c in candidates]
        return [1.0] * len(candidates)

    def features(self, c: Candidate) -> tuple[list[float], list[int] | None]:
        """Its kind's features, and for HEALTH the buckets of its terms, which `context` fits the context model on."""
        terms = (
            hashed_terms(c.text, c.start, c.end, CONTEXT_WINDOW, CONTEXT_BUCKETS) if self.label == "HEALTH" else None
        )
        return self.kind.compute(*c), terms


def annotated_files(more: tuple[Path, ...] = ()) -> list[tuple[str, str | None, Path]]:
    """(set, kind, file) of every annotated file but the final checks': kind "en" for English registers, "ml" for
    the six languages, None where each row's "lang" tells; then the files of `more`, each a set named by its folder
    (annotated real text outside the repository: /work/real32/real_pii.jsonl is set "real32"; check sets)."""
    files = []
    for name in dict.fromkeys(FIT_SETS + NAME_FIT_SETS + CHOOSE_SETS + NAME_CHOOSE_SETS + CONTEXT_SETS):
        if name == "pii_test":
            files.append((name, "en", ROOT / "data" / "pii_test.jsonl"))
        elif name == "pii_multilingual_test":
            files.append((name, "ml", ROOT / "data" / "pii_multilingual_test.jsonl"))
        else:
            files += [(name, file_kind(path), path) for path in sorted((SETS / name).glob("pii_*.jsonl"))]
    return files + [(path.resolve().parent.name, file_kind(path), path) for path in more]


def file_kind(path: Path) -> str | None:
    return "en" if "registers" in path.name else "ml" if "languages" in path.name else None


def read_rows(path: Path) -> list[dict]:
    """Rows as {"text", "pii": [{"value", "type"}]} (files with offsets, "spans", converted)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        if "pii" not in row:
            row["pii"] = [{"value": row["text"][s:e], "type": kind} for s, e, kind in row.get("spans", [])]
    return rows


def overlapping(span: tuple[int, int], others) -> list[int]:
    return [i for i, (s, e, *_) in enumerate(others) if s < span[1] and span[0] < e]


def table(out: Path, more: tuple[Path, ...] = ()) -> None:
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.policy import ProtectConfig
    from stealthflow.placeholders.recognizers import build_recognizers

    recorders = {label: Recorder(label) for label in KINDS}
    recognizers = [
        PiiTaggerRecognizer(verifiers=recorders) if isinstance(recognizer, PiiTaggerRecognizer) else recognizer
        for recognizer in build_recognizers(models=True)
    ]
    detector, config = Detector(recognizers), ProtectConfig()
    with out.open("w", encoding="utf-8") as sink:
        for name, kind, path in annotated_files(more):
            for index, row in enumerate(read_rows(path)):
                for recorder in recorders.values():
                    recorder.seen.clear()
                text = row["text"]
                spans = [s for s in detector.detect(text) if config.masks(s.type, s.level)]
                gold = gold_spans(row)
                record = {"set": name, "kind": kind or ("en" if row.get("lang", "en") == "en" else "ml"), "row": index}
                record |= {"clean": not gold, "labels": {}}
                record["trained"] = trained_on(name, row)
                for label, recorder in recorders.items():
                    values = [(s, e) for s, e, t in gold if t == label]
                    others = [(s.start, s.end) for s in spans if not (s.source == "pii_tagger" and s.type == label)]
                    candidates = []
                    for piece, start, end, x, terms in recorder.seen:
                        offset = 0 if piece == text else text.find(piece)
                        if offset >= 0:
                            where = (start + offset, end + offset)
                            candidates.append(
                                {"right": bool(overlapping(where, gold)), "values": overlapping(where, values), "x": x}
                                | {"covered": bool(overlapping(where, others))}
                                | ({"terms": terms} if terms is not None else {})
                            )
                    record["labels"][label] = {
                        "values": len(values),
                        "found_apart": [bool(overlapping(v, others)) for v in values],
                        "flagged_apart": bool(others) and not gold,
                        "candidates": candidates,
                    }
                    if label == "HEALTH":
                        tagged = [(start, end) for _, start, end, *_ in recorder.seen]
                        record["labels"][label]["extra"] = health_examples(text, gold, values, tagged)
                sink.write(json.dumps(record) + "\n")
            print(f"{name} {path.name}: done", file=sys.stderr, flush=True)


def health_examples(
    text: str, gold: list[tuple[int, int, str]], values: list[tuple[int, int]], tagged: list[tuple[int, int]]
) -> list[dict]:
    """Examples for the context model besides the tagger's spans (`tagged`), as the terms' buckets: the annotated HEALTH
    `values` the tagger missed (personal), and each condition of the data files' lists (`_conditions`) that neither
    the tagger nor the annotation (`gold`, any type) holds (health talk in general, by the annotation's reading)."""
    personal = [v for v in values if not overlapping(v, tagged)]
    general = [m.span() for m in _conditions().finditer(text) if not overlapping(m.span(), gold + tagged)]
    return [
        {"right": right, "terms": hashed_terms(text, start, end, CONTEXT_WINDOW, CONTEXT_BUCKETS)}
        for right, spans in ((True, personal), (False, general))
        for start, end in spans
    ]


@cache
def _conditions() -> re.Pattern[str]:
    """Any condition or medicine of the tagger's English lists and of data/languages/<code>.yaml `conditions`."""
    listed = set(learnt_conditions())
    listed |= {condition_key(c) for code in (ENGLISH, *OTHERS) for c in language_file(code).get("conditions", ())}
    return re.compile(rf"(?<!\w)(?i:{entries_alternation(listed)})(?!\w)")


def outcome(rows: list[dict], keep) -> dict:
    """A label's values found, texts without personal data flagged, spans kept right/wrong, when a candidate is kept
    where `keep(candidate)` (`rows`: the table's rows of that label, each with its text's "clean")."""
    found = total = flagged = clean = right = wrong = 0
    for row in rows:
        kept = [c for c in row["candidates"] if keep(c)]
        total += row["values"]
        found += sum(apart or any(i in c["values"] for c in kept) for i, apart in enumerate(row["found_apart"]))
        clean += row["clean"]
        flagged += row["clean"] and (row["flagged_apart"] or bool(kept))
        right += sum(c["right"] for c in kept)
        wrong += sum(not c["right"] for c in kept)
    return {"values": total, "found": found, "clean": clean, "flagged": flagged, "right": right, "wrong": wrong}


def kept(candidate: dict, english: float, others: float, at: int) -> bool:
    """Whether a verifier keeps a candidate at these thresholds (`Verifier.least`, by its "english" feature at `at`)."""
    return candidate["score"] >= (english if candidate["x"][at] else others)


def trees_of(model) -> tuple:
    """The trees of a fitted sklearn GradientBoostingClassifier (binary) as `Verifier.trees`."""
    trees = []
    for (estimator,) in model.estimators_:
        tree = estimator.tree_
        trees.append(
            tuple(
                (int(tree.feature[i]) if tree.children_left[i] >= 0 else -1, float(tree.threshold[i]),
                 int(tree.children_left[i]), int(tree.children_right[i]), float(tree.value[i, 0, 0]))
                for i in range(tree.node_count)
            )
        )  # fmt: skip
    return tuple(trees)


def fit(path: Path, labels: list[str], budget: float, write: bool, more: tuple[str, ...] = ()) -> None:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for label in labels:
        rows = [
            {**r["labels"][label], "set": r["set"], "kind": r["kind"], "clean": r["clean"], "trained": r["trained"]}
            for r in records
            if label in r["labels"]
        ]
        fit_label(label, rows, budget, write, more)


def fit_label(label: str, rows: list[dict], budget: float, write: bool, more: tuple[str, ...] = ()) -> None:
    """Fit the `label` verifier on the rows of its `fit_sets` (for REAL_NAME, those the students did not train on) and
    the six-language rows of the `more` sets, choose its thresholds on the rows of its `choice_sets` and those, print the
    outcome and write it (`--write`) to its weights file. With `more`, the fitted rows are scored out of fold by set
    (`FOLDS` folds, each set's rows by a model fitted without them) for the choice."""
    import numpy as np

    kind, choose_sets = KINDS[label], choice_sets(label)

    def added(row: dict) -> bool:
        return row["set"] in more and row["kind"] == "ml"

    fitted_rows = [
        row for row in rows if (row["set"] in fit_sets(label) or added(row)) and not (label in APART and row["trained"])
    ]
    train = [c for row in fitted_rows for c in row["candidates"] if not settles(kind, c["x"])]
    x = np.array([c["x"] for c in train], dtype=float)
    y = np.array([c["right"] for c in train], dtype=int)
    model = boosted(x, y)
    base = float(model._raw_predict_init(x[:1])[0, 0])
    verifier = Verifier(label, trees_of(model), base, RATE, 0.0, 0.0)
    candidates = [c for row in rows for c in row["candidates"]]
    for c, score in zip(candidates, verifier.scores([c["x"] for c in candidates]), strict=True):
        c["score"] = float("inf") if settles(kind, c["x"]) else score  # kept unscored
    assert np.abs(np.array(verifier.scores(x.tolist())) - model.predict_proba(x)[:, 1]).max() < 1e-9
    if more:
        score_out_of_fold(label, fitted_rows)
    at = kind.features.index("english")
    chosen_rows = {
        k: [r for r in rows if (r["set"] in choose_sets or added(r)) and r["kind"] == k] for k in ("en", "ml")
    }
    before = {k: outcome(chosen, lambda c: True) for k, chosen in chosen_rows.items()}
    best = (0, 0.0, 0.0)  # texts flagged fewer, minus the thresholds (English, others): of equals, the lowest
    steps = [step / 50 for step in range(50)]
    for english in steps:
        for others in steps:
            keep = partial(kept, english=english, others=others, at=at)
            after = {k: outcome(chosen, keep) for k, chosen in chosen_rows.items()}
            if all(
                100 * (before[k]["found"] - after[k]["found"]) / max(before[k]["values"], 1) <= budget for k in after
            ):
                best = max(best, (sum(before[k]["flagged"] - after[k]["flagged"] for k in after), -english, -others))
    english, others = -best[1], -best[2]
    verifier = Verifier(label, verifier.trees, verifier.base, verifier.rate, english, others)
    keep = partial(kept, english=english, others=others, at=at)
    report = {"label": label, "fit_spans": len(train), "fit_right": int(y.sum()), "thresholds": [english, others]}
    by_set = defaultdict(list)
    for row in rows:
        by_set[(row["set"], row["kind"])].append(row)
    report["by_set"] = {
        f"{name} {k}": {"before": outcome(chosen, lambda c: True), "after": outcome(chosen, keep)}
        for (name, k), chosen in sorted(by_set.items())
    }
    for k, chosen in chosen_rows.items():
        report[f"choose_{k}"] = {"before": before[k], "after": outcome(chosen, keep)}
    print(json.dumps({k: v for k, v in report.items() if k != "by_set"}, indent=1))
    print("importances:", dict(zip(kind.features, (round(w, 3) for w in model.feature_importances_), strict=True)))
    if write:
        write_verifier(verifier, report, len(train), choose_sets, budget, more)


def boosted(x, y):
    """A gradient-boosted tree ensemble (`TREES`, `DEPTH`, `RATE`, seed 0) fitted on features `x` and labels `y`."""
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, random_state=0).fit(x, y)


def score_out_of_fold(label: str, rows: list[dict]) -> None:
    """Each scored candidate of `rows` (the fitted rows) scored again by a model fitted without its set's rows: the
    sets in `FOLDS` folds (`GroupKFold`, grouped by set)."""
    import numpy as np
    from sklearn.model_selection import GroupKFold

    kind = KINDS[label]
    scored = [(row["set"], c) for row in rows for c in row["candidates"] if not settles(kind, c["x"])]
    x = np.array([c["x"] for _, c in scored], dtype=float)
    y = np.array([c["right"] for _, c in scored], dtype=int)
    groups = [name for name, _ in scored]
    for fit_at, score_at in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        for i, score in zip(score_at, boosted(x[fit_at], y[fit_at]).predict_proba(x[score_at])[:, 1], strict=True):
            scored[i][1]["score"] = float(score)


def fit_context(
    path: Path,
    budget: float,
    english_only: bool,
    write: bool,
    real: tuple[str, ...] = (),
    lose: int = 0,
    scored: tuple[Path, ...] = (),
    kept_sets: tuple[str, ...] = (),
    keep: int = 0,
    given: tuple[float, ...] = (),
) -> None:
    """Fit the HEALTH context model (pii_tagger/context_model.py) on the HEALTH spans the tagger kept in the texts of
    `CONTEXT_FIT_SETS` and of the `real` sets of the table (annotated real text, `table --files`) the students did
    not train on, and on the other examples of those texts (`health_examples`): a logistic regression over their
    terms' buckets, its L2 strength chosen by the area under the ROC curve in 5-fold cross-validation grouped by text.
    Without `real`, its thresholds (texts read as English, as others; 0 for others with `english_only`) are chosen on
    the out-of-fold scores of `CONTEXT_CHOOSE_SETS`: of 0-0.98 by 0.02, the one that drops the most wrong spans while
    the HEALTH values found there fall by at most `budget` percent. With `real`, on the out-of-fold scores of the real
    sets, with the HEALTH verifier's (`choose_on_real`, with `lose`, `kept_sets` and `keep`), or `given` (the
    verifier's, then the context model's, English and others each: a candidate rebuilt, not chosen). Prints the outcome on the
    choice sets and on u and v (scored by the model fitted on all), and for each file of `scored` (a `real` set's
    file) the whole detector's HEALTH figures on it out of fold (`real_out_of_fold`); `--write` replaces
    data/pii-tagger/health_context.json (with `real`, the thresholds of data/pii-tagger/health_verifier.json too)."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    def matrix(candidates: list[dict]) -> csr_matrix:
        indices = [b for c in candidates for b in c["terms"]]
        pointers = np.cumsum([0] + [len(c["terms"]) for c in candidates])
        return csr_matrix((np.ones(len(indices)), indices, pointers), shape=(len(candidates), CONTEXT_BUCKETS))

    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows = [{**r["labels"]["HEALTH"], "set": r["set"], "kind": r["kind"], "clean": r["clean"]} for r in records]
    fitted_on = (*CONTEXT_FIT_SETS, *real)
    train, groups, spans = [], [], 0
    for number, (row, record) in enumerate(zip(rows, records, strict=True)):
        if row["set"] in fitted_on and not record["trained"]:
            examples = row["candidates"] + row.get("extra", [])
            spans += len(row["candidates"])
            train += examples
            groups += [number] * len(examples)
    x, y = matrix(train), np.array([c["right"] for c in train], dtype=int)
    folds = list(GroupKFold(n_splits=5).split(x, y, groups))

    def out_of_fold(strength: float) -> np.ndarray:
        scores = np.zeros(len(train))
        for fit_at, score_at in folds:
            model = LogisticRegression(C=strength, max_iter=2000).fit(x[fit_at], y[fit_at])
            scores[score_at] = model.predict_proba(x[score_at])[:, 1]
        return scores

    tried = {strength: out_of_fold(strength) for strength in CONTEXT_STRENGTHS}
    aucs = {strength: roc_auc_score(y, scores) for strength, scores in tried.items()}
    strength = max(aucs, key=aucs.get)
    full = LogisticRegression(C=strength, max_iter=2000).fit(x, y)
    for c, score in zip(train, tried[strength], strict=True):
        c["score"] = float(score)
    fitted = {id(c) for c in train}
    rest = [c for row in rows for c in row["candidates"] if id(c) not in fitted]
    for c, score in zip(rest, full.predict_proba(matrix(rest))[:, 1] if rest else [], strict=True):
        c["score"] = float(score)

    def kept_at(threshold: float):
        return lambda c: c["score"] >= threshold

    def rows_of(sets: tuple[str, ...], kind: str) -> list[dict]:
        return [row for row in rows if row["set"] in sets and row["kind"] == kind]

    if real:
        candidates = [c for row in rows for c in row["candidates"]]
        shipped = shipped_verifiers()["HEALTH"]
        for c, score in zip(candidates, shipped.scores([c["x"] for c in candidates]), strict=True):
            c["verifier"] = score  # the shipped trees' score, which `choose_on_real` chooses a threshold of
        if given:
            verifier, chosen = replace(shipped, threshold=given[0], threshold_others=given[1]), given[2:]
            how = "thresholds given (`--given`, not chosen)"
        else:
            verifier, chosen = choose_on_real(
                [row for row in rows if row["set"] in real],
                lose,
                [row for row in rows if row["set"] in kept_sets],
                keep,
            )
            how = (
                f"thresholds chosen with the HEALTH verifier's on the out-of-fold scores of {', '.join(real)} "
                f"(`choose_on_real`, at most {lose} HEALTH values lost"
                + (
                    f", at most {keep} of {', '.join(kept_sets)} in English and in six-language files each"
                    if kept_sets
                    else ""
                )
                + ")"
            )
        thresholds = dict(zip(("en", "ml"), chosen, strict=True))
        choice = (
            f"{how}: verifier {verifier.threshold}, {verifier.threshold_others}; "
            f"context model (texts read as English, as others) {thresholds['en']}, {thresholds['ml']}"
        )
        before_keep, after_keep = (
            partial(passes, shipped, {"en": 0.0, "ml": 0.0}),
            partial(passes, verifier, thresholds),
        )
        checks = ((real, f"{', '.join(real)} (out of fold)"), (NAME_CHOOSE_SETS, "u and v"))
    else:
        thresholds = {}
        for kind in ("en", "ml"):
            chosen, before = rows_of(CONTEXT_CHOOSE_SETS, kind), outcome(rows_of(CONTEXT_CHOOSE_SETS, kind), kept_at(0))
            best = (0, 0.0)  # wrong spans dropped, minus the threshold: of equals, the lowest
            for threshold in (step / 50 for step in range(50)):
                after = outcome(chosen, kept_at(threshold))
                if 100 * (before["found"] - after["found"]) / max(before["values"], 1) <= budget:
                    best = max(best, (before["wrong"] - after["wrong"], -threshold))
            thresholds[kind] = 0.0 if english_only and kind == "ml" else -best[1]
        choice = (
            f"thresholds (texts read as English, as others): {thresholds['en']}, {thresholds['ml']}, of 0-0.98 by 0.02 "
            f"the one that drops the most wrong spans of {', '.join(CONTEXT_CHOOSE_SETS)} (out-of-fold scores) for at "
            f"most {budget} % of their HEALTH values"
            + (" (others: 0, the gate is off in the six languages)" if english_only else "")
        )
        before_keep, after_keep = kept_at(0), None  # after: each file kind's threshold
        checks = ((CONTEXT_CHOOSE_SETS, "choice sets (out of fold)"), (NAME_CHOOSE_SETS, "u and v"))
    summary = []
    for sets, name in checks:
        for kind in ("en", "ml"):
            after_of_kind = after_keep or kept_at(thresholds[kind])
            before, after = outcome(rows_of(sets, kind), before_keep), outcome(rows_of(sets, kind), after_of_kind)
            summary.append(
                f"{name}, {kind}: HEALTH values found {before['found']} -> {after['found']} of {before['values']}, "
                f"spans right / kept {before['right']} / {before['right'] + before['wrong']} -> {after['right']} / "
                f"{after['right'] + after['wrong']}, texts without PII flagged {before['flagged']} -> {after['flagged']}"
                f" of {before['clean']}"
            )
    about = (
        f"fitted on the HEALTH spans the tagger kept in {', '.join(fitted_on)} (texts the students did not train "
        f"on; {spans} spans and {len(train) - spans} other examples, `health_examples`; {int(y.sum())} of them "
        f"personal), L2 strength C = {strength} of {list(CONTEXT_STRENGTHS)} by the "
        "area under the ROC curve in 5-fold cross-validation grouped by text ("
        + ", ".join(f"{c}: {auc:.3f}" for c, auc in aucs.items())
        + f"); {choice}. "
        + "; ".join(summary)
    )
    print(about)
    for path_of_set in scored:
        name = path_of_set.resolve().parent.name
        numbers = [n for n, record in enumerate(records) if record["set"] == name]
        held = [{groups[i] for i in score_at} for _, score_at in folds]
        models = [LogisticRegression(C=strength, max_iter=2000).fit(x[fit_at], y[fit_at]) for fit_at, _ in folds]
        gates = [
            ContextModel(CONTEXT_WINDOW, float(m.intercept_[0]), tuple(float(w) for w in m.coef_[0]),
                         thresholds["en"], thresholds["ml"])
            for m in models
        ]  # fmt: skip
        fold_of = [next((k for k, numbers_held in enumerate(held) if n in numbers_held), 0) for n in numbers]
        print(real_out_of_fold(path_of_set, fold_of, gates, verifier))
    if write:
        model = ContextModel(CONTEXT_WINDOW, float(full.intercept_[0]), tuple(float(w) for w in full.coef_[0]),
                             thresholds["en"], thresholds["ml"])  # fmt: skip
        target = resource_dir("data") / CONTEXT_FILE
        target.write_text(json.dumps(model.to_json(chosen=about), separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {target}")
        if real:
            stored = json.loads((resource_dir("data") / verifier.kind.weights).read_text(encoding="utf-8"))
            store_verifier(verifier, f"{stored['chosen']}; thresholds then set on real text with the context "
                                     f"model's (health_context.json): {choice}")  # fmt: skip


def real_out_of_fold(path: Path, fold_of: list[int], gates: list[ContextModel], verifier: Verifier) -> str:
    """The whole detector's HEALTH figures on the annotated real text at `path` (as benchmarks/pii_registers.py counts
    them, one text at a time), English passages and the others: as shipped, and with the HEALTH `verifier` and the
    context model fitted without each passage's fold (`gates[fold_of[i]]` for passage i)."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    def detector(gate: ContextModel | None) -> Detector:
        verifiers = {**shipped_verifiers(), "HEALTH": verifier} if gate else shipped_verifiers()
        tagger = PiiTaggerRecognizer(verifiers=verifiers, gates=(gate,) if gate else ())
        return Detector([tagger if isinstance(r, PiiTaggerRecognizer) else r for r in build_recognizers(models=True)])

    rows = read_rows(path)
    before = predict(detector(None), [row["text"] for row in rows])
    after: list = [None] * len(rows)
    for fold, gate in enumerate(gates):
        at = [i for i, f in enumerate(fold_of) if f == fold]
        for i, spans in zip(at, predict(detector(gate), [rows[i]["text"] for i in at]), strict=True):
            after[i] = spans
    lines = []
    for part, english in (("English", True), ("six languages", False), ("all", None)):
        at = [i for i, row in enumerate(rows) if english is None or (row.get("lang", "en") == "en") == english]
        figures = []
        for predictions in (before, after):
            scores = pii_registers.score([rows[i] for i in at], [predictions[i] for i in at])
            flagged = sum(bool(predictions[i]) for i in at if not rows[i]["pii"])
            figures.append(
                f"HEALTH values found {scores['recall_by_type'].get('HEALTH')}, spans right / masked "
                f"{scores['precision_by_type'].get('HEALTH')}, texts without PII flagged {flagged} of "
                f"{sum(not rows[i]['pii'] for i in at)} ({scores['flagged_by_type'].get('HEALTH', 0)} by HEALTH)"
            )
        lines.append(f"{path} out of fold, {part}: {figures[0]} -> {figures[1]}")
    return "\n".join(lines)


def passes(verifier: Verifier, context: dict[str, float], candidate: dict) -> bool:
    """Whether a HEALTH candidate of the table passes the HEALTH `verifier` and the context model at the `context`
    thresholds ("en", "ml"), by its text's "english" feature; its "score" is the context model's."""
    english = candidate["x"][KINDS["HEALTH"].features.index("english")]
    least = verifier.threshold if english else verifier.threshold_others
    return candidate["verifier"] >= least and candidate["score"] >= context["en" if english else "ml"]


def choose_on_real(
    rows: list[dict], lose: int, kept_rows: list[dict] = (), keep: int = 0
) -> tuple[Verifier, tuple[float, float]]:
    """The shipped HEALTH verifier with new thresholds, and the context model's (texts read as English, as others),
    chosen on `rows` (the table's rows of real text, each candidate with its out-of-fold context "score"): of 0-0.98 by
    0.02 each, those that keep the fewest wrong spans no other recognizer's span covers (a covered span is masked
    whatever the gate says), while the HEALTH values found fall by at most `lose` against the shipped verifier alone,
    and those of `kept_rows` (rows of sets the model was not fitted on, by their files' kind) by at most `keep` in
    English files and in six-language files each; of equals, the lowest thresholds. The candidates carry the shipped
    trees' "verifier" score. English texts and the others are chosen apart, then the pair of choices that spends at most
    `lose` values between them."""
    shipped = shipped_verifiers()["HEALTH"]
    at = KINDS["HEALTH"].features.index("english")
    grid = [step / 50 for step in range(50)]

    def as_shipped(c: dict) -> bool:
        return passes(shipped, {"en": 0.0, "ml": 0.0}, c)

    best: dict[str, dict[int, tuple]] = {}  # kind -> values lost -> (wrong kept, threshold sum, verifier, context)
    for kind, english in (("en", True), ("ml", False)):
        part = [row for row in rows if any(bool(c["x"][at]) == english for c in row["candidates"])]
        kept_part = [row for row in kept_rows if row["kind"] == kind]
        found, kept_found = outcome(part, as_shipped)["found"], outcome(kept_part, as_shipped)["found"]
        best[kind] = {}
        for least in grid:
            trees = replace(shipped, threshold=least, threshold_others=least)
            for context in grid:
                gate = partial(passes, trees, {"en": context, "ml": context})
                after = outcome(part, lambda c, gate=gate: c["covered"] or gate(c))
                lost = found - after["found"]
                option = (after["wrong"], least + context, least, context)
                if (
                    lost <= lose
                    and option < best[kind].get(lost, (float("inf"),))
                    and kept_found - outcome(kept_part, gate)["found"] <= keep
                ):
                    best[kind][lost] = option
    (_, _, english, context_en), (_, _, others, context_ml) = min(
        ((best["en"][a], best["ml"][b]) for a in best["en"] for b in best["ml"] if a + b <= lose),
        key=lambda pair: (pair[0][0] + pair[1][0], pair[0][1] + pair[1][1]),
    )
    return replace(shipped, threshold=english, threshold_others=others), (context_en, context_ml)


def write_verifier(
    verifier: Verifier,
    report: dict,
    fitted: int,
    choose_sets: tuple[str, ...],
    budget: float,
    more: tuple[str, ...] = (),
) -> None:
    """`verifier` to its weights file, with how `fit_label` fitted and chose it."""
    label, english, others = verifier.label, verifier.threshold, verifier.threshold_others
    held = " (of the sets the students train on, only the texts they did not train on)" if label in APART else ""
    added = f" and the six-language rows of {', '.join(more)}" if more else ""
    folds = f" (those of the sets fitted on out of fold, {FOLDS} folds by set)" if more else ""
    chosen_text = (
        f"fitted on {', '.join(fit_sets(label))}{held}{added} ({fitted} {label} spans the tagger kept); thresholds (texts "
        f"read as English, as others): {english}, {others}, of 0-0.98 by 0.02 those that flag the fewest texts without "
        f"personal data, costing at most {budget} points of {label} recall on {', '.join(choose_sets)}{added}{folds} "
        "(English and six-language files each): on them, texts without personal data flagged "
        + "; ".join(
            f"{k} {report[f'choose_{k}']['before']['flagged']} -> {report[f'choose_{k}']['after']['flagged']}"
            f" of {report[f'choose_{k}']['before']['clean']}, {label} values found "
            f"{report[f'choose_{k}']['before']['found']} -> {report[f'choose_{k}']['after']['found']}"
            f" of {report[f'choose_{k}']['before']['values']}"
            for k in ("en", "ml")
        )
    )
    store_verifier(verifier, chosen_text)


def store_verifier(verifier: Verifier, chosen: str) -> None:
    """`verifier` to its weights file, one line a tree, with how it was fitted and chosen (`chosen`)."""
    target = resource_dir("data") / verifier.kind.weights
    stored = verifier.to_json(chosen=chosen)
    trees = stored.pop("trees")
    lines = json.dumps(stored, indent=1, ensure_ascii=False)[:-2] + ',\n "trees": [\n'  # one line a tree
    lines += ",\n".join("  " + json.dumps(tree, separators=(",", ":")) for tree in trees) + "\n ]\n}\n"
    target.write_text(lines, encoding="utf-8")
    print(f"wrote {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    table_command = commands.add_parser("table", help="the labelled table of the spans the tagger keeps")
    table_command.add_argument("out", type=Path)
    table_command.add_argument(
        "--files",
        type=Path,
        nargs="+",
        default=(),
        help="more annotated files, each a set named by its folder: real text outside the repository, check sets",
    )
    fit_command = commands.add_parser("fit", help="fit the verifiers and choose their thresholds")
    fit_command.add_argument("table", type=Path)
    fit_command.add_argument(
        "--more",
        nargs="+",
        default=(),
        help="sets of the table (`table --files`) whose six-language rows it is fitted and chosen on too (out of fold)",
    )
    all_command = commands.add_parser("all", help="the table (in a temporary file), then fit")
    context_command = commands.add_parser("context", help="fit the HEALTH context model and choose its thresholds")
    context_command.add_argument("table", type=Path)
    context_command.add_argument("--budget", type=float, default=CONTEXT_BUDGET, help="HEALTH recall it may cost, %%")
    context_command.add_argument("--english-only", action="store_true", help="no gate in the six other languages")
    context_command.add_argument("--write", action="store_true", help="write data/pii-tagger/health_context.json")
    context_command.add_argument(
        "--real", nargs="+", default=(), help="the table's sets of real text (`table --real`) to fit and choose on"
    )
    context_command.add_argument("--lose", type=int, default=0, help="HEALTH values of --real the choice may cost")
    context_command.add_argument(
        "--kept", nargs="+", default=(), help="sets whose HEALTH values --keep bounds the loss of"
    )
    context_command.add_argument("--keep", type=int, default=0, help="HEALTH values of --kept the choice may cost")
    context_command.add_argument(
        "--given",
        type=float,
        nargs=4,
        default=(),
        metavar=("VERIFIER_EN", "VERIFIER_OTHERS", "CONTEXT_EN", "CONTEXT_OTHERS"),
        help="with --real: these thresholds, not chosen (a candidate rebuilt)",
    )
    context_command.add_argument(
        "--score",
        type=Path,
        nargs="+",
        default=(),
        help="the --real sets' files: the whole detector on them, out of fold",
    )
    for command in (fit_command, all_command):
        command.add_argument("--labels", nargs="+", choices=list(KINDS), default=list(SHIPPED))
        command.add_argument("--budget", type=float, default=1.5, help="recall points of its label a verifier may cost")
        command.add_argument("--write", action="store_true", help="write data/pii-tagger/<label>_verifier.json")
    args = parser.parse_args()
    if args.command == "context" and args.score and not args.real:
        parser.error("--score reads the --real sets' files: give --real too")
    if args.command == "context" and args.given and not args.real:
        parser.error("--given sets the thresholds chosen on --real sets: give --real too")
    if args.command == "table":
        table(args.out, tuple(args.files))
    elif args.command == "fit":
        fit(args.table, args.labels, args.budget, args.write, tuple(args.more))
    elif args.command == "context":
        fit_context(
            args.table,
            args.budget,
            args.english_only,
            args.write,
            tuple(args.real),
            args.lose,
            tuple(args.score),
            tuple(args.kept),
            args.keep,
            tuple(args.given),
        )
    else:
        with tempfile.TemporaryDirectory() as tmp:
            table(Path(tmp) / "spans.jsonl")
            fit(Path(tmp) / "spans.jsonl", args.labels, args.budget, args.write)


if __name__ == "__main__":
    main()
