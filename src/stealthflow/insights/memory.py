"""The insight memory: per attribute, a few scored rules that tell the anonymizer what works.

Scores follow AgentStealth: ADD starts a rule at 2, EDIT and UPVOTE add 1, DOWNVOTE takes 1,
a rule at 0 or below is dropped, and only the best `max_rules` per attribute are kept. Unlike
the reference, scores are capped (`score_cap`), so a rule that was once popular can still be
voted out, and among equal scores the newer rule wins, so fresh rules can enter a full memory.

Every update is one new version; the JSON file keeps the history (operations and the rules
after each version), so a resumed run can return to the memory of its last finished batch.
"""

from __future__ import annotations

import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from stealthflow.insights.ops import Operation

ADD_SCORE = 2


class Rule(BaseModel):
    text: str
    score: int
    added_version: int = 0


class AppliedOperation(BaseModel):
    attribute: str
    kind: str
    number: int | None = None
    rule: str = ""
    outcome: Literal["added", "merged", "applied", "unknown rule"]  # merged: an ADD of a rule already there


class Version(BaseModel):
    version: int
    created: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))
    note: str = ""  # e.g. "batch 3"
    operations: list[AppliedOperation] = Field(default_factory=list)
    rules: dict[str, list[Rule]] = Field(default_factory=dict)  # snapshot after this version


class InsightMemory(BaseModel):
    version: int = 0
    max_rules: int = Field(5, ge=1)
    score_cap: int = Field(10, ge=ADD_SCORE)
    rules: dict[str, list[Rule]] = Field(default_factory=dict)
    history: list[Version] = Field(default_factory=list)

    def rules_for(self, attribute: str) -> list[str]:
        return [rule.text for rule in self.rules.get(attribute, [])]

    def numbered(self, attribute: str) -> str:
        """The rules as the insight prompt shows them (numbers are what operations refer to)."""
        rules = self.rules.get(attribute, [])
        return "\n".join(f"{i}. {r.text} (score {r.score})" for i, r in enumerate(rules, 1)) or "(no rules yet)"

    def apply(
        self, operations: dict[str, list[list[Operation]]], note: str = "", shown: "InsightMemory | None" = None
    ) -> "InsightMemory":
        """A new version with every call's operations applied (per attribute, in order).

        Rule numbers refer to the rules as shown to that call: `shown`, an earlier version when
        the calls ran while later batches were still being applied (pipelined updates), else this
        one. So operations of calls made in parallel never point at each other's additions, and a
        number resolves to the rule's text, which is then looked up in the newest rules.
        """
        version = self.version + 1
        rules = {a: [r.model_copy() for r in rs] for a, rs in self.rules.items()}
        log: list[AppliedOperation] = []
        for attribute, calls in operations.items():
            shown_rules = (shown or self).rules.get(attribute, [])
            current = rules.setdefault(attribute, [])
            for call in calls:
                for op in call:
                    outcome = self._apply_one(op, shown_rules, current, version)
                    log.append(
                        AppliedOperation(
                            attribute=attribute, kind=op.kind, number=op.number, rule=op.rule, outcome=outcome
                        )
                    )
            rules[attribute] = self._prune(current)
        rules = {a: rs for a, rs in rules.items() if rs}
        snapshot = Version(version=version, note=note, operations=log, rules=rules)
        return self.model_copy(update={"version": version, "rules": rules, "history": [*self.history, snapshot]})

    def _apply_one(self, op: Operation, shown: list[Rule], current: list[Rule], version: int) -> str:
        if op.kind == "ADD":
            same = next((r for r in current if r.text.lower() == op.rule.lower()), None)
            if same is not None:  # re-adding a known rule is a vote for it
                same.score = min(self.score_cap, same.score + 1)
                return "merged"
            current.append(Rule(text=op.rule, score=ADD_SCORE, added_version=version))
            return "added"
        if op.number is None or not 1 <= op.number <= len(shown):
            return "unknown rule"
        target = next((r for r in current if r.text == shown[op.number - 1].text), None)
        if target is None:  # already dropped by an earlier operation of this update
            return "unknown rule"
        if op.kind == "EDIT":
            target.text = op.rule
        delta = -1 if op.kind == "DOWNVOTE" else 1
        target.score = min(self.score_cap, target.score + delta)
        return "applied"

    def _prune(self, rules: list[Rule]) -> list[Rule]:
        alive = [r for r in rules if r.score > 0]
        alive.sort(key=lambda r: (r.score, r.added_version), reverse=True)
        return alive[: self.max_rules]

    def with_snapshot(self) -> "InsightMemory":
        """This memory with its current rules recorded in the history (a point to return to)."""
        if any(h.version == self.version for h in self.history):
            return self
        snapshot = Version(version=self.version, note="start", rules=self.rules)
        return self.model_copy(update={"history": [*self.history, snapshot]})

    def at_version(self, version: int) -> "InsightMemory":
        """The memory as it was right after `version` (needs that version in the history)."""
        if version == self.version:
            return self
        for index, entry in enumerate(self.history):
            if entry.version == version:
                return self.model_copy(
                    update={"version": version, "rules": entry.rules, "history": self.history[: index + 1]}
                )
        raise ValueError(f"the insight memory history holds no version {version} (latest {self.version})")

    # -- files ----------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "InsightMemory":
        path = Path(path)
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileNotFoundError(f"{path}: no such insight memory file") from None
        except ValueError as exc:
            raise ValueError(f"{path}: not an insight memory file ({exc.__class__.__name__})") from None

    def save(self, path: str | Path) -> None:
        """Atomic: a crash leaves either the old or the new file, never half of one."""
        write_atomic(Path(path), self.model_dump_json(indent=2))

    def summary(self) -> dict[str, Any]:
        return {"version": self.version, "rules": {a: len(rs) for a, rs in self.rules.items()}}


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temp, path)
