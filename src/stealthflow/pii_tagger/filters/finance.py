"""A FINANCE span: money someone has, earns or owes, not a price, a count, a distance or a shop's offer."""

from __future__ import annotations

import re

from stealthflow.pii_tagger.filters.health import SOMEONE
from stealthflow.pii_tagger.filters.unlisted import GATES_DECIDE
from stealthflow.pii_tagger.lexicons import alternation
from stealthflow.placeholders.recognizers.gate import skipping
from stealthflow.placeholders.recognizers.secrets import buys_a_discount
from stealthflow.placeholders.recognizers.sentences import (
    anothers_life,
    impersonal_money,
    names_writer_or_reader,
    sentence_around,
)

# An amount: digits, or a number in words before its multiplier ("two million"; not "million" alone).
AMOUNT = re.compile(
    r"\d|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|few|couple)"
    r"(?:\s+of)?\s+(?:hundred|thousand|million|billion|grand|lakh|crore)\b",
    re.IGNORECASE,
)
# Money, not a quantity of something else ("250 ml", "58 cents a litre"): a currency sign, code or
# word, or the shorthand people use for incomes and savings ("72k", "80 grand", "4 lakh").
MONEY = re.compile(rf"[$€£¥₹₩₽₺₦₱฿₿₴₫₪]|\bR\s?\d|\d\s*[kKmM]\b|\b(?i:{alternation('money_words')})\b")
ARTICLE = re.compile(r"(?i:(?:a|an)\s)")
_ARTICLE_BEFORE = re.compile(r"(?i:\b(?:a|an)\s+)$")
_CURRENCY = re.compile(r"[$€£¥₹₩₽₺₦₱฿₿₴₫₪]|\b(?i:dollars?|euros?|pounds?|usd|eur|gbp)\b")
# A number without a currency that counts something other than money ("20k miles", "10k steps", "5k followers").
_COUNTED_THING = re.compile(rf"\d[\d.,]*\s*(?i:k|m|thousand|million)?\s*(?i:{alternation('counted_things')})\b")


# A price per unit of something bought ("£1.45 a litre", "$3.89/gal", "€2 per bottle"; not per hour, week,
# month or year, as wages are paid), or a shop's offer ("3 for £2").
_PER_UNIT_OF_GOODS = re.compile(
    rf"\s*(?:(?i:a|an|per)\s+|/\s*)(?i:{alternation('goods_units')})\b"
)  # "a" then "l" of "al mese" is no "a litre"
_MULTIBUY_BEFORE = re.compile(r"\b\d+\s+for\s+$")
_PAID = skipping(re.compile(r"\b(?i:paid|pays?\s+(?:me|us|him|her|them)|commission)\b"))


# A race's distance, not money: "I ran a 5k in 27 minutes", "training for a 10k", "the 10k fun run".
_DISTANCE = re.compile(r"(?:(?i:an?|the)\s+)?(?P<number>\d{1,3})\s?[kK]")
_RACE_BEFORE = re.compile(
    r"\b(?i:ran|run|runs|running|jog\w*|walk\w*|rac(?:e|ed|es|ing)|finish\w*|enter\w*|complet\w*|couch\s+to|(?:sign\w*\s+up|train\w*)\s+for)\s+(?:(?i:a|an|the|my|his|her|their|our|another|first|this|that|next)\s+)?$"
)
_RACE_AFTER = re.compile(
    r"\s+(?i:run|race|fun\s+run|walk|loop|course|route|trail|swim|ride|time|pace|training|plan|program(?:me)?|app|challenge|in\s+(?:under\s+|about\s+|just\s+(?:over|under)\s+)?\d+|personal\s+best|pb)\b"
)


def _race_distance(text: str, start: int, end: int) -> bool:
    distance = _DISTANCE.fullmatch(text, start, end)
    if distance is None:
        return False
    number = distance.start("number")
    return (
        _RACE_BEFORE.search(text[max(0, number - 48) : number]) is not None or _RACE_AFTER.match(text, end) is not None
    )


def _kind_of_amount(text: str, start: int, end: int, sentence: str) -> bool:
    after_article = ARTICLE.match(text, start) or _ARTICLE_BEFORE.search(text[max(0, start - 4) : start])
    return (
        after_article is not None
        and _CURRENCY.search(text, start, end) is None
        and not names_writer_or_reader(sentence)
    )


# A sum written without its currency ("we've saved 8,500 towards the wedding"): thousands, not a year.
BARE_SUM = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d{5,}")
# ... is money only where its sentence says someone saved, earns or owes it (not "made 2,500 cupcakes").
_SAVED_OR_EARNED = skipping(
    re.compile(
        r"\b(?i:salar(?:y|ies)|incomes?|earn\w*|wages?|savings?|saved|debts?|owe[sd]?|owing|loans?|mortgages?|pension\w*|inherit\w*|bonus\w*)\b"
    )
)
# A bill paid or shared, an order's total: what something cost, no one's income or savings ("my total take-home" is).
_BILL_TALK = skipping(
    re.compile(
        r"\b(?i:bill|tab|receipt|order\s+total|subtotal|checkout|basket|cart|split\w*|chip(?:ped|ping)?\s+in|go(?:ing)?\s+dutch|per\s+(?:person|head))\b"
    )
)
# Money someone has, earns or owes: what makes an amount an income or an asset. A price with no one
# in its sentence and none of these words ("A 4-slice toaster for £35", "Gas is $3.89 a gallon") is no one's.
OWNED_MONEY = re.compile(
    r"\b(?i:salar(?:y|ies)|incomes?|earn\w*|wages?|pay|pays|paid|payslip|take-?home|bring\s+home|bonus\w*|raise|offer\w*|savings?|saved|save"
    r"|debts?|owe[sd]?|owing|loans?|mortgages?|pension\w*|inherit\w*|worth|rent|budget\w*|bank|accounts?|invest\w*|portfolio"
    r"|funds?|assets?|wealth|401k|ira|make|makes|making|made|living|live\s+on|afford\w*|household|annual|expectations?"
    rf"|{alternation('owned_money_other_languages')})\b"
)


def ownerless_price(sentence: str) -> bool:
    """Whether an amount is a price of something: its sentence names no one (see SOMEONE) and holds
    no word of money someone has (see OWNED_MONEY)."""
    return SOMEONE.search(sentence) is None and OWNED_MONEY.search(sentence) is None


def plausible(value: str) -> bool:
    """An income or asset holds an amount (the model alone tags "savings" or "month" near one); whether it is money is
    asked in its context (in_context)."""
    return AMOUNT.search(value) is not None


def _shows_money(text: str, start: int, end: int, saved_or_earned: bool) -> bool:
    """Whether text[start:end] is money by the word lists: a currency in it, or a bare sum in a sentence where someone
    saved, earns or owes it ("we've saved 8,500", not "8,500 runners")."""
    return MONEY.search(text, start, end) is not None or (
        saved_or_earned and BARE_SUM.fullmatch(text, start, end) is not None
    )


def in_context(text: str, start: int, end: int, english: bool = True) -> str | None:  # the same in every language
    """Why text[start:end] is kept as money someone has, earns or owes, None if it is not: no one's
    where its sentence tells another's life (`anothers_life`); not a count, a distance, a shop's offer
    or terms, a price per unit, a bill, a price or a statistic; an amount without a currency is money
    only where someone saved, earns or owes it. Where the word lists show no money (no currency, no one saving or
    earning it) or no owner (no one in its sentence, no word of money someone has), the gates decide (its verifier and
    reader, `unlisted.GATES_DECIDE`: "Salary is SAR 6,500", "₹42,300 overdue since June", "Devo 3.200 € ao senhorio":
    the writer is in the verb)."""
    if anothers_life(text, start, end):
        return None  # "Lionel Messi earns $60 million a year"
    if (
        _COUNTED_THING.match(text, start) is not None
        or _race_distance(text, start, end)
        or _MULTIBUY_BEFORE.search(text, max(0, start - 12), start)
    ):
        return None  # "20k miles", "10k followers", "ran a 5k", "3 for £2": a count, a distance or a shop's offer, not money someone has
    sentence = sentence_around(text, start, end)
    saved_or_earned = _SAVED_OR_EARNED.search(sentence) is not None
    if _PER_UNIT_OF_GOODS.match(text, end) and not saved_or_earned and _PAID.search(sentence) is None:
        return None  # "£1.45 a litre": a price (not "I'm paid £3 per bag I pack")
    if not _shows_money(text, start, end, saved_or_earned):
        return GATES_DECIDE  # "8,500" is money in "we've saved 8,500", not in "8,500 runners"
    if buys_a_discount(sentence) or (_BILL_TALK.search(sentence) and not saved_or_earned):
        return None  # a shop's terms, a bill shared: "ten dollars off your first order over $50", "$16 each if four of us split it"
    if impersonal_money(sentence) or _kind_of_amount(text, start, end, sentence):
        return None
    if ownerless_price(sentence):
        return GATES_DECIDE
    return "money someone in the sentence has, earns or owes"
