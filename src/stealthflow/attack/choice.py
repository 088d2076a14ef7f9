"""Attack by choice: one short question per categorical attribute, answered by the likeliest option.

The model reads the text with the question and the attribute's options (`classes_for`: age as the
classifier's buckets), and each option is scored by the log-probability of its tokens, end-of-turn
token included, after the prompt. The answer is the best-scoring option, so the attacker always
answers, and the softmax of the scores over the options is its probability for each. `normalise`
divides each option's log-probability by its token count (the mean per token) instead of summing it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from stealthflow import prompts
from stealthflow.attack.classifier import classes_for
from stealthflow.attack.types import AttackResult, AttributeGuess
from stealthflow.data.attributes import DESCRIPTIONS, OPTIONS
from stealthflow.llm import Message

#: the attributes asked by choice: the categorical ones and age in buckets
CHOICE_ATTRIBUTES: tuple[str, ...] = (*OPTIONS, "age")


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

    def __init__(self, model, tokenizer, normalise: bool = False):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.normalise = normalise

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
        import torch

        messages = choice_messages(text, attribute)
        prompt = self._ids(messages, generation_prompt=True)
        answers = [self.option_ids(messages, option) for option in classes_for(attribute)]
        with torch.no_grad():
            out = self.model(input_ids=torch.tensor([prompt]), use_cache=True)
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
        return logprobs, [len(a) for a in answers]

    def choose(self, text: str, attribute: str) -> Choice:
        logprobs, lengths = self.option_logprobs(text, attribute)
        return Choice.from_scores(attribute, classes_for(attribute), logprobs, lengths, self.normalise)

    def choose_many(self, texts: list[str], attributes: list[list[str]]) -> list[dict[str, Choice]]:
        return [
            {a: self.choose(text, a) for a in wanted if a in CHOICE_ATTRIBUTES}
            for text, wanted in zip(texts, attributes, strict=True)
        ]

    def attack_many(self, texts: list[str], attributes: list[list[str]]) -> list[AttackResult]:
        return [as_attack_result(choices) for choices in self.choose_many(texts, attributes)]


def as_attack_result(choices: dict[str, Choice], attacker: str = ChoiceAttacker.name) -> AttackResult:
    """Choices as an attacker's answer: the top-3 options of each attribute, always well-formed."""
    guesses = {a: AttributeGuess(attribute=a, guesses=c.ranked()[:3]) for a, c in choices.items()}
    return AttackResult(attacker=attacker, guesses=guesses, well_formed=True)
