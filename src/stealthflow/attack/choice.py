"""Attack by choice: one short question per categorical attribute, answered by the likeliest option.

The model reads the text with the question and the attribute's options (`classes_for`: age as the
classifier's buckets), and each option is scored by the log-probability of its tokens, end-of-turn
token included, after the prompt. The answer is the best-scoring option, so the attacker always
answers, and the softmax of the scores over the options is its probability for each. `normalise`
divides each option's log-probability by its token count (the mean per token) instead of summing it.

Contextual calibration (Zhao et al. 2021, "Calibrate before use"): with `calibration` alpha > 0 each option's
score is log p(option | text) − alpha · log p(option | `CONTENT_FREE`), the second asked once per attribute, so
an option the model prefers whatever the text says loses that preference. `read` (text, attribute) -> text
chooses what of the text the question shows (`attack/reading.py`; default: all of it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from stealthflow import prompts
from stealthflow.attack.classifier import classes_for
from stealthflow.attack.types import AttackResult, AttributeGuess
from stealthflow.data.attributes import DESCRIPTIONS, OPTIONS
from stealthflow.llm import Message

#: the attributes asked by choice: the categorical ones and age in buckets
CHOICE_ATTRIBUTES: tuple[str, ...] = (*OPTIONS, "age")
#: the text that says nothing about its author, for contextual calibration
CONTENT_FREE = "N/A"


def choice_messages(text: str, attribute: str) -> list[Message]:
    """The question about `text` (its lines joined, as the SFT rows cut them) whose answer is one of
    `classes_for(attribute)`."""
    user = prompts.render(
        "choice_attacker",
        text=" ".join(text.split()),
        attribute=DESCRIPTIONS[attribute],
        options="; ".join(classes_for(attribute)),
    )
    return [{"role": "system", "content": prompts.render("attacker_system")}, {"role": "user", "content": user}]


@dataclass(frozen=True)
class Choice:
    """The attacker's answer on one attribute: a probability for each option."""

    attribute: str
    options: tuple[str, ...]
    probabilities: tuple[float, ...]

    @classmethod
    def from_scores(
        cls, attribute: str, options: tuple[str, ...], logprobs: list[float], lengths: list[int], normalise: bool
    ) -> Choice:
        scores = [lp / n if normalise else lp for lp, n in zip(logprobs, lengths, strict=True)]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return cls(attribute, options, tuple(w / total for w in weights))

    def ranked(self) -> list[str]:
        """The options, likeliest first."""
        order = sorted(range(len(self.options)), key=self.probabilities.__getitem__, reverse=True)
        return [self.options[i] for i in order]

    @property
    def answer(self) -> str:
        return self.ranked()[0]

    def probability(self, option: str) -> float:
        return self.probabilities[self.options.index(option)]


class ChoiceAttacker:
    """A causal LM (with or without an adapter) answering `choice_messages` by option likelihood.

    As an `Attacker` it answers the attributes in `CHOICE_ATTRIBUTES` with its top-3 options."""

    name = "choice"

    def __init__(
        self,
        model,
        tokenizer,
        normalise: bool = False,
        calibration: float = 0.0,
        read: Callable[[str, str], str] | None = None,
    ):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.normalise = normalise
        self.calibration = calibration
        self.read = read
        self._content_free: dict[str, list[float]] = {}

    def option_ids(self, messages: list[Message], option: str) -> list[int]:
        """The option's tokens as the chat template writes the answer, up to its end-of-turn token."""
        prompt = self._ids(messages, generation_prompt=True)
        full = self._ids([*messages, {"role": "assistant", "content": option}], generation_prompt=False)
        if full[: len(prompt)] != prompt:
            raise ValueError("the chat template does not extend the prompt with the answer")
        answer = full[len(prompt) :]
        end = self.tokenizer.convert_tokens_to_ids(self.tokenizer.eos_token)
        return answer[: answer.index(end) + 1] if end in answer else answer

    def _ids(self, messages: list[Message], generation_prompt: bool) -> list[int]:
        encoded = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=generation_prompt, return_dict=True
        )
        return list(encoded["input_ids"])

    def option_logprobs(self, text: str, attribute: str) -> tuple[list[float], list[int]]:
        """Summed log-probability and token count of each option's answer after the question on `text`."""
        return self.option_logprobs_many(text, [attribute])[attribute]

    def option_logprobs_many(self, text: str, attributes: list[str]) -> dict[str, tuple[list[float], list[int]]]:
        """`option_logprobs` for several questions on one `text`: the tokens their prompts share (the system
        turn and the text) are read once, then each question and each option on the cached keys and values."""
        import torch

        asked = {a: choice_messages(text, a) for a in attributes}
        prompts = {a: self._ids(messages, generation_prompt=True) for a, messages in asked.items()}
        shared = min(_common_prefix(list(prompts.values())), min(map(len, prompts.values())) - 1)
        scores = {}
        with torch.no_grad():
            first_prompt = next(iter(prompts.values()))
            cache = self.model(input_ids=torch.tensor([first_prompt[:shared]]), use_cache=True).past_key_values
            for attribute, messages in asked.items():
                answers = [self.option_ids(messages, option) for option in classes_for(attribute)]
                out = self.model(
                    input_ids=torch.tensor([prompts[attribute][shared:]]), past_key_values=cache, use_cache=True
                )
                cache, first = out.past_key_values, torch.log_softmax(out.logits[0, -1].float(), -1)
                logprobs = []
                for answer in answers:
                    total = float(first[answer[0]])
                    if len(answer) > 1:
                        rest = self.model(input_ids=torch.tensor([answer[:-1]]), past_key_values=cache, use_cache=True)
                        steps = torch.log_softmax(rest.logits[0].float(), -1)
                        total += float(steps[torch.arange(len(answer) - 1), torch.tensor(answer[1:])].sum())
                        cache = rest.past_key_values
                        cache.crop(1 - len(answer))  # drop this option's tokens: back to the prompt
                    logprobs.append(total)
                cache.crop(shared - len(prompts[attribute]))  # drop the question: back to the shared tokens
                scores[attribute] = (logprobs, [len(a) for a in answers])
        return scores

    def content_free_logprobs(self, attribute: str) -> list[float]:
        """Each option's summed log-probability after the question on `CONTENT_FREE` (asked once)."""
        if attribute not in self._content_free:
            self._content_free[attribute] = self.option_logprobs(CONTENT_FREE, attribute)[0]
        return self._content_free[attribute]

    def option_scores(self, text: str, attribute: str) -> tuple[list[float], list[int]]:
        """Each option's log-probability after the question on what `read` shows of `text`, calibrated, and
        its token count."""
        return self.option_scores_many(text, [attribute])[attribute]

    def option_scores_many(self, text: str, attributes: list[str]) -> dict[str, tuple[list[float], list[int]]]:
        """`option_scores` for several attributes of one text (the questions on one reading share its tokens)."""
        shown = {a: self.read(text, a) if self.read else text for a in attributes}
        scores = {}
        for reading in dict.fromkeys(shown.values()):
            scores |= self.option_logprobs_many(reading, [a for a in attributes if shown[a] == reading])
        if self.calibration:
            for attribute, (logprobs, lengths) in scores.items():
                free = self.content_free_logprobs(attribute)
                scores[attribute] = [lp - self.calibration * f for lp, f in zip(logprobs, free, strict=True)], lengths
        return {a: scores[a] for a in attributes}

    def choose(self, text: str, attribute: str) -> Choice:
        logprobs, lengths = self.option_scores(text, attribute)
        return Choice.from_scores(attribute, classes_for(attribute), logprobs, lengths, self.normalise)

    def choose_many(self, texts: list[str], attributes: list[list[str]]) -> list[dict[str, Choice]]:
        chosen = []
        for text, wanted in zip(texts, attributes, strict=True):
            asked = [a for a in wanted if a in CHOICE_ATTRIBUTES]
            scores = self.option_scores_many(text, asked) if asked else {}
            chosen.append({a: Choice.from_scores(a, classes_for(a), *scores[a], self.normalise) for a in asked})
        return chosen

    def attack_many(self, texts: list[str], attributes: list[list[str]]) -> list[AttackResult]:
        return [as_attack_result(choices) for choices in self.choose_many(texts, attributes)]


def _common_prefix(sequences: list[list[int]]) -> int:
    """How many leading items all `sequences` share."""
    shortest = min(map(len, sequences))
    return next((i for i in range(shortest) if len({seq[i] for seq in sequences}) > 1), shortest)


def as_attack_result(choices: dict[str, Choice], attacker: str = ChoiceAttacker.name) -> AttackResult:
    """Choices as an attacker's answer: the top-3 options of each attribute, always well-formed."""
    guesses = {a: AttributeGuess(attribute=a, guesses=c.ranked()[:3]) for a, c in choices.items()}
    return AttackResult(attacker=attacker, guesses=guesses, well_formed=True)
