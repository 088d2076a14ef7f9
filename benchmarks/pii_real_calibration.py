"""Choose the PII tagger's gate thresholds on annotated real text: each gate a span of the tagger passes (the label's
verifier, the context models, the name candidate judge, the health reader) keeps spans from a threshold per route
(texts read as English, the six other languages); this chooses them on passages people wrote, not on the generated
and helper-written sets the gates were fitted on.

    python benchmarks/pii_real_calibration.py record runs/real_spans.jsonl FILE ...     # ~1 s a passage
    python benchmarks/pii_real_calibration.py fit runs/real_spans.jsonl [--routes en] [--labels ...] [--guard T] [--write]

`record` runs the detector as `protect` builds it with every gate's thresholds near 0, so that each span any gate
would drop is kept with every gate's score (from its reason), and writes per passage its route, the annotated values'
types (each occurrence) and per span its type, the values it overlaps and its scores (no text: real passages are not
ours to redistribute).

`fit` simulates the gates on that table: a span is masked when each score reaches its gate's threshold for the
passage's route (0: not scored); precision is spans overlapping an annotated value of those masked, recall annotated
values overlapped of those annotated (each occurrence), as `pii_registers.py` counts them. Per route, two passes of
coordinate ascent over the gates (`GATES`, in order): each threshold of {0, 0.02, ..., 0.98} maximising the F1 of its
label, ties to the one nearest the shipped threshold; `--labels`: only those labels' gates move; `--guard TABLE`: a
threshold is admissible only while another recorded set's recall and share of clean passages flagged stay within
`GUARD_POINTS` of the shipped thresholds'. `--write` stores the chosen thresholds in the shipped files (each file's
`chosen` says so). The rule a choice must pass before it ships (held-back real passages, the
development sets) is not checked here: benchmarks/results/pii_real_calibration.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_registers import gold_spans  # noqa: E402

ROUTES = ("en", "others")
GRID = tuple(round(0.02 * step, 2) for step in range(50))
GUARD_POINTS = 2.0  # how far the guard's recall may fall, and its share of clean passages flagged rise, in points
_NOTE = re.compile(r"^(?:a name of the lexicons, )?([a-z_ ]+?) (?:verifier |judge )?(\d\.\d\d)")


@dataclass(frozen=True)
class Gate:
    """A gate as a span's reason names it (`note`, the `nth` note of that name), its label and the file holding its
    thresholds (`keys`: the threshold of each route in it; None where the route has none)."""

    note: str
    label: str
    file: str  # under the resource directory: "data/..." or "models/..."
    keys: tuple[str | None, str | None] = ("threshold", "threshold_others")
    nth: int = 1

    @property
    def name(self) -> str:
        return self.note if self.nth == 1 else f"{self.note} (unlisted)"


GATES = (
    Gate("name", "REAL_NAME", "data/pii-tagger/name_verifier.json"),
    Gate("real_name context", "REAL_NAME", "data/pii-tagger/name_context.json"),
    Gate("name candidate", "REAL_NAME", "data/pii-tagger/name_candidates.json"),
    Gate("health", "HEALTH", "data/pii-tagger/health_verifier.json"),
    Gate("health context", "HEALTH", "data/pii-tagger/health_context.json"),
    Gate("health context", "HEALTH", "data/pii-tagger/health_unlisted_context.json", nth=2),
    Gate("health reader", "HEALTH", "models/pii-health-reader/reader.json", ("threshold", None)),
    Gate("employer", "EMPLOYER", "data/pii-tagger/employer_verifier.json"),
    Gate("employer context", "EMPLOYER", "data/pii-tagger/employer_unlisted_context.json"),
    Gate("finance", "FINANCE", "data/pii-tagger/finance_verifier.json"),
)


def _path(gate: Gate, root: Path | None) -> Path:
    """The file of `gate` under `root` (a tree holding data/ and models/; None: the shipped resources)."""
    from stealthflow.resources import resource_dir

    kind, _, rest = gate.file.partition("/")
    return root / gate.file if root else resource_dir(kind) / rest


def shipped_thresholds(root: Path | None = None) -> dict[str, dict[str, float]]:
    """route -> gate name -> its threshold in the gates' files (`root`: see `_path`)."""
    chosen: dict[str, dict[str, float]] = {route: {} for route in ROUTES}
    for gate in GATES:
        stored = json.loads(_path(gate, root).read_text(encoding="utf-8"))
        for route, key in zip(ROUTES, gate.keys, strict=True):
            chosen[route][gate.name] = float(stored[key]) if key else 0.0
    return chosen


def scores_in(reason: str) -> dict[str, float]:
    """Gate name -> score, read from a span's reason."""
    scores: dict[str, float] = {}
    seen: dict[str, int] = {}
    for part in reason.split("; "):
        if match := _NOTE.match(part.strip()):
            note = match.group(1).strip()
            seen[note] = seen.get(note, 0) + 1
            gate = next((g for g in GATES if g.note == note and g.nth == seen[note]), None)
            scores[gate.name if gate else note] = float(match.group(2))
    return scores


def detector_scoring_everything():
    """The detector as `protect` builds it, every gate's thresholds near 0 (each span scored by every gate)."""
    from stealthflow.pii_tagger.context_model import shipped_context_models
    from stealthflow.pii_tagger.name_candidates import shipped_candidate_judge
    from stealthflow.pii_tagger.reader import shipped_readers
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.pii_tagger.verifier import shipped_verifiers
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    def near_zero(gate):
        others = {"threshold_others": 1e-4} if hasattr(gate, "threshold_others") else {}
        return replace(gate, threshold=1e-4, **others)

    # The detector reads the English pattern recognizers' HEALTH matches with the tagger's readers too: near 0 here,
    # so the matches they would drop reach the table.
    tagger = PiiTaggerRecognizer(
        verifiers={label: near_zero(v) for label, v in shipped_verifiers().items()},
        gates=tuple(near_zero(g) for g in (*shipped_context_models(), *shipped_readers())),
        candidates=near_zero(shipped_candidate_judge()),
    )
    return Detector([*build_recognizers(), tagger])


def record(out: Path, files: list[Path]) -> None:
    detector = detector_scoring_everything()
    out.parent.mkdir(parents=True, exist_ok=True)
    passages = 0
    with out.open("w", encoding="utf-8") as sink:
        for path in files:
            for line in path.open(encoding="utf-8"):
                row = json.loads(line)
                values = gold_spans(row)
                spans = [
                    {
                        "type": span.type,
                        "values": [i for i, (a, b, _) in enumerate(values) if a < span.end and span.start < b],
                        "scores": scores_in(span.reason),
                    }
                    for span in detector.deterministic(row["text"])
                ]
                route = "en" if row.get("lang", "en") == "en" else "others"
                sink.write(json.dumps({"route": route, "values": [kind for _, _, kind in values], "spans": spans}))
                sink.write("\n")
                passages += 1
    print(f"{passages} passages of {len(files)} files -> {out}")


def masked(span: dict, thresholds: dict[str, float]) -> bool:
    return all(thresholds.get(gate, 0.0) <= 0 or score >= thresholds[gate] for gate, score in span["scores"].items())


def figures(rows: list[dict], thresholds: dict[str, float], label: str | None = None) -> dict:
    """Precision, recall and passages without personal data flagged, of `label`'s spans and values (None: all)."""
    spans = right = found = total = flagged = clean = 0
    for row in rows:
        kept = [span for span in row["spans"] if masked(span, thresholds)]
        if not row["values"]:
            clean += 1
            flagged += bool(kept)
        of_label = [span for span in kept if label in (None, span["type"])]
        spans += len(of_label)
        right += sum(1 for span in of_label if span["values"])
        wanted = [i for i, kind in enumerate(row["values"]) if label in (None, kind)]
        total += len(wanted)
        found += sum(1 for i in wanted if any(i in span["values"] for span in kept))
    precision = right / spans if spans else 0.0
    recall = found / total if total else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 4), "spans": spans,
            "right": right, "found": found, "values": total, "flagged": f"{flagged}/{clean}"}  # fmt: skip


def fit(
    rows: list[dict],
    route: str,
    root: Path | None = None,
    guard: list[dict] | None = None,
    labels: tuple[str, ...] | None = None,
) -> dict[str, float]:
    """The thresholds of `route` chosen on `rows` (coordinate ascent, two passes) from those in the gates' files,
    printing what changed. `guard`: passages of other annotated sets on which a threshold is admissible only while,
    with every threshold as it then stands, recall (of the one label moved, when `labels` names one) stays within
    `GUARD_POINTS` of the shipped thresholds' and the share of passages without personal data flagged rises by at
    most as many percentage points. `labels`: only the
    gates of these labels move (None: every gate)."""
    shipped = shipped_thresholds(root)[route]
    thresholds = dict(shipped)
    rows = [row for row in rows if row["route"] == route]
    guard = [row for row in guard or [] if row["route"] == route]
    print(f"{route}: {len(rows)} passages; shipped thresholds: {figures(rows, thresholds)}")
    guarded_label = labels[0] if labels and len(labels) == 1 else None  # one label moved: its recall is guarded
    floor = _guarded(guard, shipped, guarded_label)

    def admissible(trial: dict[str, float]) -> bool:
        if not guard:
            return True
        recall, flagged = _guarded(guard, trial, guarded_label)
        return recall >= floor[0] - GUARD_POINTS and flagged <= floor[1] + GUARD_POINTS

    for _ in range(2):
        for gate in GATES:
            if labels and gate.label not in labels:
                continue
            if not any(gate.name in span["scores"] for row in rows for span in row["spans"]):
                continue
            allowed = [t for t in GRID if admissible({**thresholds, gate.name: t})] or [thresholds[gate.name]]
            thresholds[gate.name] = max(
                allowed,
                key=lambda t: (
                    figures(rows, {**thresholds, gate.name: t}, gate.label)["f1"],
                    -abs(t - shipped[gate.name]),
                ),
            )
    for gate in GATES:
        if thresholds[gate.name] != shipped[gate.name]:
            print(f"  {gate.name}: {shipped[gate.name]} -> {thresholds[gate.name]}")
    print(f"  chosen: {figures(rows, thresholds)}")
    for label in sorted({gate.label for gate in GATES}):
        print(f"  {label}: {figures(rows, shipped, label)} -> {figures(rows, thresholds, label)}")
    if guard:
        print(f"  guard ({len(guard)} passages): {figures(guard, shipped)} -> {figures(guard, thresholds)}")
        if guarded_label:
            print(
                f"  guard, {guarded_label}: {figures(guard, shipped, guarded_label)} -> {figures(guard, thresholds, guarded_label)}"
            )
    return thresholds


def _guarded(rows: list[dict], thresholds: dict[str, float], label: str | None = None) -> tuple[float, float]:
    """Recall (of `label`'s values; None: all) and the percentage of passages without personal data flagged, in
    points."""
    if not rows:
        return 0.0, 0.0
    got = figures(rows, thresholds, label)
    flagged, clean = (int(n) for n in got["flagged"].split("/"))
    return 100 * got["recall"], 100 * flagged / max(clean, 1)


def write(route: str, thresholds: dict[str, float], source: str, root: Path | None = None) -> None:
    """Each changed threshold of `route` into its gate's file, in place (the rest of the file byte for byte), its
    `chosen` extended by how."""
    shipped = shipped_thresholds(root)[route]
    for gate in GATES:
        key = gate.keys[ROUTES.index(route)]
        if key is None or thresholds[gate.name] == shipped[gate.name]:
            continue
        path = _path(gate, root)
        text = path.read_text(encoding="utf-8")
        note = (
            f"{key} {thresholds[gate.name]} (was {shipped[gate.name]}) chosen on real annotated passages by "
            f"benchmarks/pii_real_calibration.py ({source})"
        )
        text, changed = re.subn(rf'("{key}":\s*)[0-9.eE+-]+', rf"\g<1>{thresholds[gate.name]}", text, count=1)
        chosen = json.loads(text).get("chosen", "")
        told = json.dumps(f"{chosen}; {note}" if chosen else note, ensure_ascii=False)
        if chosen:
            text = re.sub(r'("chosen":\s*)"(?:[^"\\]|\\.)*"', lambda m: m.group(1) + told, text, count=1)
        else:
            text = text.replace("{", '{"chosen": ' + told + ", ", 1)
        if changed != 1 or json.loads(text)[key] != thresholds[gate.name]:
            raise SystemExit(f"{path}: could not set {key}")
        path.write_text(text, encoding="utf-8")
        print(f"  wrote {path}: {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    record_command = commands.add_parser("record", help="every span of annotated passages with its gates' scores")
    record_command.add_argument("out", type=Path)
    record_command.add_argument("files", nargs="+", type=Path)
    fit_command = commands.add_parser("fit", help="choose each route's thresholds on a recorded table")
    fit_command.add_argument("table", type=Path)
    fit_command.add_argument("--routes", nargs="+", choices=ROUTES, default=list(ROUTES))
    fit_command.add_argument("--guard", type=Path, help="a table of other sets the choice must not worsen (`fit`)")
    fit_command.add_argument("--labels", nargs="+", help="move only the gates of these labels (default: all)")
    fit_command.add_argument("--write", action="store_true", help="store the chosen thresholds in the shipped files")
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.files)
        return
    rows = [json.loads(line) for line in args.table.open(encoding="utf-8")]
    guard = [json.loads(line) for line in args.guard.open(encoding="utf-8")] if args.guard else None
    for route in args.routes:
        thresholds = fit(rows, route, guard=guard, labels=tuple(args.labels) if args.labels else None)
        if args.write:
            write(route, thresholds, f"{args.table.name}: {sum(1 for r in rows if r['route'] == route)} passages")


if __name__ == "__main__":
    main()
