"""Update the insight memory after a batch of profiles: one LLM call per contrastive pair.

Per attribute: every failed anonymization round is paired with the first later round of
the same profile that protected the attribute; each pair is one call showing both attempts.
A batch without pairs for an attribute falls back to one call showing its successes. All
calls of a batch are sent together (the LLM client batches them); their operations are
applied to the memory as it was shown to them. A pipelined run makes a batch's calls (`propose`)
as soon as its profiles finish, showing the newest memory then, and applies them (`update`) in
batch order: the updates' model calls overlap instead of queueing one behind the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from stealthflow import prompts
from stealthflow.data.attributes import DESCRIPTIONS
from stealthflow.insights.memory import InsightMemory
from stealthflow.insights.ops import Operation, parse_operations
from stealthflow.insights.protection import contrastive_pairs, first_success
from stealthflow.llm import LLM, Message
from stealthflow.workflow.config import InsightConfig
from stealthflow.workflow.trajectory import RoundRecord


@dataclass(frozen=True)
class Proposal:
    """An update's operations and the memory version its calls were shown."""

    shown: InsightMemory
    operations: dict[str, list[list[Operation]]]


class InsightLearner:
    def __init__(self, llm: LLM, config: InsightConfig | None = None):
        self.llm = llm
        self.config = config or InsightConfig()

    def update(
        self,
        memory: InsightMemory,
        trajectories: list[list[RoundRecord]],
        note: str = "",
        proposal: Proposal | None = None,
    ) -> InsightMemory:
        """The next version: `proposal` (made earlier, maybe against an older version) or one made now."""
        proposal = proposal or self.propose(memory, trajectories)
        return memory.apply(proposal.operations, note=note, shown=proposal.shown)

    def propose(self, memory: InsightMemory, trajectories: list[list[RoundRecord]]) -> Proposal:
        """The model calls of an update, showing `memory`; applying them is `update`'s job."""
        calls: list[tuple[str, list[Message]]] = []
        for attribute in _attributes(trajectories):
            calls += [(attribute, messages) for messages in self.attribute_calls(memory, attribute, trajectories)]
        answers = self.llm.chat_many([messages for _, messages in calls])
        operations: dict[str, list[list[Operation]]] = {}
        for (attribute, _), answer in zip(calls, answers, strict=True):
            # A failed call proposes nothing; the batch's other calls still count.
            operations.setdefault(attribute, []).append(parse_operations(answer.text, self.config.max_operations))
        return Proposal(memory, operations)

    def attribute_calls(
        self, memory: InsightMemory, attribute: str, trajectories: list[list[RoundRecord]]
    ) -> list[list[Message]]:
        pairs, successes = [], []
        for rounds in trajectories:
            status = [r.protected.get(attribute, False) for r in rounds]
            if attribute not in rounds[0].protected:
                continue
            pairs += [(rounds[f], rounds[s]) for f, s in contrastive_pairs(status)]
            success = first_success(status)
            if success is not None:
                successes.append((rounds[success - 1], rounds[success]))
        if pairs:
            blocks = [
                [self._pair_block(attribute, failed, success)]
                for failed, success in pairs[: self.config.max_pairs_per_attribute]
            ]
        elif successes:
            blocks = [
                [
                    self._success_block(attribute, before, after)
                    for before, after in successes[: self.config.max_successes]
                ]
            ]
        else:
            return []
        return [self._messages(memory, attribute, block) for block in blocks]

    def _messages(self, memory: InsightMemory, attribute: str, examples: list[str]) -> list[Message]:
        user = prompts.render(
            "insight_update",
            attribute=DESCRIPTIONS.get(attribute, attribute),
            rules=memory.numbered(attribute),
            examples="\n\n".join(examples),
            max_operations=self.config.max_operations,
        )
        return [{"role": "system", "content": prompts.render("insight_system")}, {"role": "user", "content": user}]

    def _pair_block(self, attribute: str, failed: RoundRecord, success: RoundRecord) -> str:
        return prompts.render(
            "insight_pair",
            failed_explanation=_explanation(failed),
            failed_text=self._cut(failed.text),
            failed_guesses=failed.guess_summary(attribute),
            success_explanation=_explanation(success),
            success_text=self._cut(success.text),
            success_guesses=success.guess_summary(attribute),
        )

    def _success_block(self, attribute: str, before: RoundRecord, after: RoundRecord) -> str:
        return prompts.render(
            "insight_success",
            before_text=self._cut(before.text),
            before_guesses=before.guess_summary(attribute),
            explanation=_explanation(after),
            after_text=self._cut(after.text),
            after_guesses=after.guess_summary(attribute),
        )

    def _cut(self, text: str) -> str:
        limit = self.config.example_chars
        return text if len(text) <= limit else text[:limit].rstrip() + " […]"


def _attributes(trajectories: list[list[RoundRecord]]) -> list[str]:
    seen: dict[str, None] = {}
    for rounds in trajectories:
        seen.update(dict.fromkeys(rounds[0].protected))
    return list(seen)


def _explanation(record: RoundRecord) -> str:
    return (record.anonymizer.explanation if record.anonymizer else "") or "(none given)"
