"""The typed state of one profile's graph (checkpointed after every node)."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from stealthflow.data.schema import Profile
from stealthflow.workflow.trajectory import AnonymizerTurn, AttackRecord, RoundRecord


class ProfileState(TypedDict, total=False):
    profile: Profile  # the input (original text and labels)
    attributes: list[str]  # attributes the attackers are asked about
    truth: dict[str, str]  # per attribute at stake: the label, or the attackers' confident round-0 guess
    truth_source: str  # "labels" or "attacker"
    round: int  # last finished round (0 = the original was attacked)
    text: str  # the latest text
    utility: float  # U(round): mean of BLEU, ROUGE-1, ROUGE-L against the original
    warn: bool  # the next anonymizer prompt carries the utility warning
    original_attacks: list[AttackRecord]  # round-0 attacks, one per attacker
    attacks: list[AttackRecord]  # attacks on `text`
    protected: dict[str, bool]  # per attribute at stake, over all attackers
    turn: AnonymizerTurn  # this round's anonymizer turn until the round is recorded
    records: Annotated[list[RoundRecord], operator.add]  # one per finished round


# Classes the SQLite checkpointer may rebuild from its msgpack payloads.
CHECKPOINT_TYPES = [
    ("stealthflow.data.schema", "Profile"),
    ("stealthflow.data.schema", "Comment"),
    ("stealthflow.data.schema", "AttributeLabel"),
    ("stealthflow.attack.types", "AttributeGuess"),
    ("stealthflow.workflow.trajectory", "AnonymizerTurn"),
    ("stealthflow.workflow.trajectory", "AttackRecord"),
    ("stealthflow.workflow.trajectory", "RoundRecord"),
]
