"""The loop's steps. Each node takes the profile's state and returns the keys it changes.

attack_original → (anonymize → attack → utility) × rounds. The anonymizer sees the latest
text, every attacker's inference for the attributes still at risk, the insight rules for
those attributes, and, after a large utility drop, the original text with the scores.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict

from stealthflow import prompts
from stealthflow.anonymize.output import parse_rewrite
from stealthflow.attack import Attacker, AttackResult, CorrectnessJudge, LLMAttacker, attack_messages
from stealthflow.data.attributes import ATTRIBUTES, DESCRIPTIONS
from stealthflow.insights.memory import InsightMemory
from stealthflow.insights.protection import attacker_beaten
from stealthflow.llm import LLM, LLMCallError, Message
from stealthflow.utility import lexical_utility
from stealthflow.utility.metrics import load_scorers
from stealthflow.workflow.config import WorkflowConfig
from stealthflow.workflow.state import ProfileState
from stealthflow.workflow.trajectory import AnonymizerTurn, AttackRecord, RoundRecord

RoundCallback = Callable[[str, int], None]  # (profile id, round just finished)

# One worker for the local attackers of every profile (a classifier's embedder runs one pass at a time).
_LOCAL_ATTACKS = ThreadPoolExecutor(1, thread_name_prefix="local-attacker")


class Steps:
    def __init__(
        self,
        anonymizer: LLM,
        attackers: list[Attacker],
        judge: CorrectnessJudge,
        config: WorkflowConfig,
        memory: InsightMemory | None = None,
        run_id: str = "",
        use_labels: bool = True,
        on_round: RoundCallback | None = None,
    ):
        if not attackers:
            raise ValueError("the loop needs at least one attacker")
        self.anonymizer = anonymizer
        self.attackers = attackers
        self.judge = judge
        self.config = config
        self.memory = memory  # swapped by the runner after every insight batch
        self.run_id = run_id
        self.use_labels = use_labels  # False: the attackers' confident guesses stand in for labels
        self.on_round = on_round
        self.before_llm_node: Callable[[], None] | None = None  # the runner's cost cap: raises to stop a profile here
        self.params = {
            "anonymizer": {"model": anonymizer.info.model_id, **asdict(anonymizer.params)},
            "attackers": {a.name: _attacker_params(a) for a in attackers},
            "judge": judge.llm.info.model_id if judge.llm else "rules",
            "utility_threshold": config.utility_threshold if config.utility_warnings else None,
            "rounds": config.rounds,
        }

    def prepare(self) -> None:
        """Before the first profile starts: load what the nodes would otherwise load on first use."""
        load_scorers()

    # -- nodes ------------------------------------------------------------------------------
    def attack_original(self, state: ProfileState) -> ProfileState:
        self._may_call_llms()
        profile = state["profile"]
        labels = {a: label.estimate for a, label in profile.labelled().items()} if self.use_labels else {}
        # Attributes no attacker covers (the classifier knows five) cannot be judged.
        attributes = [a for a in list(profile.labelled()) or ATTRIBUTES if any(_covers(x, a) for x in self.attackers)]
        labels = {a: v for a, v in labels.items() if a in attributes}
        attacks = self._attack(profile.text, attributes)
        truth = labels or confident_guesses(attacks, self.config.min_certainty)
        attacks = self._judge(attacks, truth)
        protected = self._protected(attacks, attacks, truth)
        stakes = {"truth": truth, "truth_source": "labels" if labels else "attacker", "warn": False}
        record = self._record(
            profile.id,
            0,
            profile.text,
            attacks,
            protected,
            stakes,
            lexical_utility(profile.text, profile.text).as_dict(),
        )
        return {
            **stakes,
            "attributes": attributes,
            "round": 0,
            "text": profile.text,
            "utility": 1.0,
            "original_attacks": attacks,
            "attacks": attacks,
            "protected": protected,
            "records": [record],
        }

    def anonymize(self, state: ProfileState) -> ProfileState:
        self._may_call_llms()
        at_risk = [a for a, safe in state["protected"].items() if not safe]
        memory = self.memory  # one version for the rules and the record (the runner may swap it meanwhile)
        insights = self._insights(at_risk, memory)
        messages, prompt_id = self.messages(state, at_risk or state["attributes"], insights)
        answer = self.anonymizer.chat(messages)
        rewrite = parse_rewrite(answer.text, state["text"])
        turn = AnonymizerTurn(
            prompt_id=prompt_id,
            messages=messages,
            raw=answer.text,
            explanation=rewrite.explanation,
            parsed=rewrite.parsed,
            utility_warning=state["warn"],
            insights_shown=insights,
            insight_version=memory.version if memory and self.config.use_insights else 0,
            model=self.anonymizer.info.model_id,
        )
        return {"round": state["round"] + 1, "text": rewrite.text, "turn": turn}

    def attack(self, state: ProfileState) -> ProfileState:
        self._may_call_llms()
        attacks = self._judge(self._attack(state["text"], state["attributes"]), state["truth"])
        return {"attacks": attacks, "protected": self._protected(attacks, state["original_attacks"], state["truth"])}

    def utility(self, state: ProfileState) -> ProfileState:
        profile, k = state["profile"], state["round"]
        scores = lexical_utility(profile.text, state["text"])
        warn = self.config.utility_warnings and state["utility"] - scores.mean > self.config.utility_threshold
        record = self._record(
            profile.id,
            k,
            state["text"],
            state["attacks"],
            state["protected"],
            {**state, "warn": warn},
            scores.as_dict(),
            state["turn"],
        )
        if self.on_round:
            self.on_round(profile.id, k)
        return {"utility": scores.mean, "warn": warn, "records": [record]}

    def next_step(self, state: ProfileState) -> str:
        """The conditional edge after `utility`: another round, or the end."""
        if state["round"] >= self.config.rounds:
            return "end"
        if self.config.early_stop and all(state["protected"].values()):
            return "end"
        return "anonymize"

    def _may_call_llms(self) -> None:
        """Nodes that call models ask first: past the cost cap the profile stops at this node boundary
        (its checkpoint keeps the finished nodes, so a rerun continues here)."""
        if self.before_llm_node is not None:
            self.before_llm_node()

    # -- the anonymizer prompt ----------------------------------------------------------------
    def messages(
        self, state: ProfileState, shown: list[str], insights: dict[str, list[str]]
    ) -> tuple[list[Message], str]:
        inferences = "\n\n".join(filter(None, (_inference(attack, a) for a in shown for attack in state["attacks"])))
        prompt_id = "anonymizer"
        insight_block = warning_block = ""
        if insights:  # the rules of each attribute at risk
            rules = "\n".join(f"{DESCRIPTIONS[a]}:\n" + _bullets(texts) for a, texts in insights.items())
            insight_block = "\n" + prompts.render("anonymizer_insights", rules=rules) + "\n"
            prompt_id += "+insights"
        if state["warn"]:
            last = state["records"][-1].utility
            warning_block = (
                "\n"
                + prompts.render(
                    "anonymizer_utility_warning",
                    original=state["profile"].text,
                    **{key: f"{last[key]:.2f}" for key in ("bleu", "rouge1", "rougel")},
                )
                + "\n"
            )
            prompt_id += "+utility_warning"
        user = prompts.render(
            "anonymizer",
            text=state["text"],
            inferences=inferences,
            insights=insight_block,
            utility_warning=warning_block,
        )
        return [
            {"role": "system", "content": prompts.render("anonymizer_system")},
            {"role": "user", "content": user},
        ], prompt_id

    def _insights(self, at_risk: list[str], memory: InsightMemory | None) -> dict[str, list[str]]:
        if not self.config.use_insights or memory is None:
            return {}
        return {a: memory.rules_for(a) for a in at_risk}

    # -- attacks --------------------------------------------------------------------------------
    def _attack(self, text: str, attributes: list[str]) -> list[AttackRecord]:
        # Local attackers (the classifier) run in their worker while this profile's LLM attack is
        # out: the profile waits for the slower of the two, not for their sum.
        local = {
            i: _LOCAL_ATTACKS.submit(attacker.attack_many, [text], [attributes])
            for i, attacker in enumerate(self.attackers)
            if not isinstance(attacker, LLMAttacker)
        }
        remote = {i: a.attack_many([text], [attributes]) for i, a in enumerate(self.attackers) if i not in local}
        records = []
        for i, attacker in enumerate(self.attackers):
            result: AttackResult = (remote[i] if i in remote else local[i].result())[0]
            if result.error:
                raise LLMCallError(f"attacker {attacker.name!r}: {result.error}")
            records.append(
                AttackRecord(
                    attacker=attacker.name,
                    model=_model_of(attacker),
                    messages=attack_messages(text, attributes) if isinstance(attacker, LLMAttacker) else [],
                    raw=result.raw,
                    guesses=result.guesses,
                    well_formed=result.well_formed,
                )
            )
        return records

    def _judge(self, attacks: list[AttackRecord], truth: dict[str, str]) -> list[AttackRecord]:
        return [
            attack.model_copy(
                update={
                    "verdicts": {
                        a: self.judge.verdicts(a, truth[a], g.guesses) for a, g in attack.guesses.items() if a in truth
                    }
                }
            )
            for attack in attacks
        ]

    def _protected(
        self, attacks: list[AttackRecord], original: list[AttackRecord], truth: dict[str, str]
    ) -> dict[str, bool]:
        """Per attribute at stake: beaten by the rewrite, for every attacker that covers it."""
        return {
            attribute: all(
                attacker_beaten(
                    now.guesses.get(attribute), now.verdicts.get(attribute, []), before.verdicts.get(attribute, [])
                )
                for attacker, now, before in zip(self.attackers, attacks, original, strict=True)
                if _covers(attacker, attribute)
            )
            for attribute in truth
        }

    def _record(self, profile_id, k, text, attacks, protected, state, utility, turn=None) -> RoundRecord:
        return RoundRecord(
            run_id=self.run_id,
            profile_id=profile_id,
            round=k,
            text=text,
            anonymizer=turn,
            attacks=attacks,
            utility=utility,
            protected=protected,
            labels=state["truth"],
            labels_source=state["truth_source"],
            utility_warning_next=state["warn"],
            params=self.params,
        )


def confident_guesses(attacks: list[AttackRecord], min_certainty: int) -> dict[str, str]:
    """Unlabelled input: per attribute, the top guess of the most certain attacker, if certain enough."""
    truth: dict[str, str] = {}
    best: dict[str, int] = {}
    for attack in attacks:
        for attribute, guess in attack.guesses.items():
            certainty = guess.certainty or 0
            if guess.guesses and certainty >= min_certainty and certainty > best.get(attribute, 0):
                truth[attribute], best[attribute] = guess.guesses[0], certainty
    return {a: truth[a] for a in ATTRIBUTES if a in truth}


def _inference(attack: AttackRecord, attribute: str) -> str:
    guess = attack.guesses.get(attribute)
    if guess is None or not (guess.guesses or guess.inference):  # not covered by this attacker
        return ""
    certainty = f" (certainty {guess.certainty}/5)" if guess.certainty else ""
    return prompts.render(
        "anonymizer_inference",
        attribute=DESCRIPTIONS[attribute],
        attacker=attack.attacker,
        # A classifier gives no reasoning, only ranked guesses with a confidence.
        inference=guess.inference or "no reasoning given; its top guesses follow",
        guesses=("; ".join(guess.guesses) or "no guess") + certainty,
    )


def _covers(attacker: Attacker, attribute: str) -> bool:
    """Attackers that know only some attributes (the classifier) say so with `covers`."""
    covers = getattr(attacker, "covers", None)
    return covers(attribute) if covers is not None else True


def _bullets(rules: list[str]) -> str:
    return "\n".join(f"- {r}" for r in rules) or "- no insights available"


def _attacker_params(attacker: Attacker) -> dict:
    llm = getattr(attacker, "llm", None)
    return {"model": _model_of(attacker), **(asdict(llm.params) if llm is not None else {})}


def _model_of(attacker: Attacker) -> str:
    llm = getattr(attacker, "llm", None)
    return llm.info.model_id if llm is not None else getattr(attacker, "model_id", attacker.name)
