"""Coarser wordings of a count, true of the phrase they replace (data/generalize/coarser.yaml): a duration as a range
that holds it ("Eleven years since he went" -> "About a decade since he went"), an exact age of the author's
as its decade ("I'm 34" -> "I'm in my 30s") and a calendar year as its decade ("in 2016" -> "in the 2010s"). They join the candidates of `generalize.candidates` and pass the same
gate and floors."""

from __future__ import annotations

import re
from datetime import date
from functools import cache

from stealthflow.evaluation.evidence import STOP_WORDS
from stealthflow.resources import data_yaml

_COUNT = r"\d{1,3}(?:,\d{3})*|[A-Za-z]+(?:-[A-Za-z]+)?"


@cache
def _data() -> dict:
    return data_yaml("generalize/coarser.yaml")


def number_value(text: str) -> int | None:
    """The value of a count in digits or number words ("12", "twenty-six", "Thirty-odd": 30); None for any other
    word."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})*", text):
        return int(text.replace(",", ""))
    parts = text.casefold().split("-")
    numbers = _data()["numbers"]
    if not all(part in numbers for part in parts) or not numbers[parts[0]]:
        return None
    return sum(numbers[part] for part in parts)


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _duration() -> re.Pattern:
    units = _alternation(_data()["durations"]["units"])
    return re.compile(rf"(?<![\w,'-])(?P<count>{_COUNT})\s+(?P<unit>{units})\b", re.IGNORECASE)


def _last_word(text: str) -> str:
    found = re.findall(r"[\w'-]+", text)
    return found[-1].casefold() if found else ""


def _wordings(value: int, unit: str) -> list[str]:
    """The wordings `durations` lists for `unit` whose range holds `value`."""
    ranges = _data()["durations"]["units"][unit.casefold()]
    return [wording for least, most, wording in ranges if least <= value <= (most or value)]


def _usable(value: int | None, before: str, after: str) -> bool:
    """A count of two or more not after a hedge or a determiner, nor with an age's word after its unit ("Twenty years
    old"): `before` the count, `after` its unit."""
    data = _data()["durations"]
    following = re.match(r"\W*([\w'-]+)", after)
    return (
        value is not None
        and value >= 2
        and _last_word(before) not in {*data["hedges"], *data["determiners"]}
        and not (following and following.group(1).casefold() in data["not_after"])
    )


def vaguer_durations(phrase: str, before: str, after: str) -> list[str]:
    """`phrase` with its first duration of two or more units worded as each range `durations` lists that holds its count
    ("for 6 years" -> "for several years"); a lone count before its unit as the wording's quantity ("Six" of "Six years
    later" -> "Several"); none when it holds no such duration, or the count follows a hedge or a determiner, or stands
    before an age's word (`not_after`: "Twenty years old"). `before`, `after`: the sentence's words around the
    phrase."""
    units = _data()["durations"]["units"]
    unit = re.match(rf"\s+({_alternation(units)})\b", after, re.IGNORECASE)
    if unit is not None and re.fullmatch(_COUNT, phrase):
        value, ending = number_value(phrase), " " + unit.group(1).casefold()
        if not _usable(value, before, after[unit.end() :]):
            return []
        return [_in_case(w.removesuffix(ending), phrase) for w in _wordings(value, unit.group(1)) if w.endswith(ending)]
    for match in _duration().finditer(phrase):
        value = number_value(match["count"])
        if value is None or value < 2:
            continue
        if not _usable(value, before + " " + phrase[: match.start()], phrase[match.end() :] + after):
            return []
        lead, tail = phrase[: match.start()], phrase[match.end() :]
        if not _bare(lead, tail):
            return []
        return [_in_case(lead + wording + tail, phrase) for wording in _wordings(value, match["unit"])]
    return []


def _bare(*parts: str) -> bool:
    """`parts` hold only function words: a wording keeping any other word of the mark would keep its cue ("Twelve years
    as an ER nurse" never -> "Over a decade as an ER nurse")."""
    return all(word.casefold() in STOP_WORDS for part in parts for word in re.findall(r"[\w'-]+", part))


def _in_case(candidate: str, phrase: str) -> str:
    """`candidate` capitalised where `phrase` opened with a capital."""
    return candidate[:1].upper() + candidate[1:] if phrase[:1].isupper() else candidate


def decades(age: int) -> list[str]:
    """The wordings of the stage of life of `age` ("my 30s", "my thirties" for 34); none under the youngest listed."""
    stages = [words for lowest, words in sorted(_data()["ages"].items()) if age >= lowest]
    return list(stages[-1]) if stages else []


def about(age: int) -> list[str]:
    """The count of `age` made vague ("50-something" for 58): `age_counts`; none under the youngest listed."""
    counts = [words for lowest, words in sorted(_data()["age_counts"].items()) if age >= lowest]
    return [counts[-1]] if counts else []


def _leads() -> tuple[str, str]:
    """The alternations of the words before an age: `age_frames` ("I'm"), `age_at` ("at")."""
    data = _data()
    return _alternation(data["age_frames"]), _alternation(data["age_at"])


@cache
def _age() -> re.Pattern:
    frames, at = _leads()
    return re.compile(
        rf"(?<![\w'])(?:(?P<frame>{frames})\s+|(?P<at>{at})\s+)?(?P<age>{_COUNT})(?P<old>\s+years?\s+old)?(?![\w%:$£€])",
        re.IGNORECASE,
    )


@cache
def _lead_before() -> re.Pattern:
    """The words before an age ending the words before a lone count ("a widower at" of "a widower at 58")."""
    frames, at = _leads()
    return re.compile(rf"(?<![\w'])(?:(?P<frame>{frames})|(?P<at>{at}))\s*$", re.IGNORECASE)


def age_decades(phrase: str, before: str, attribute: str = "age", after: str = "") -> list[str]:
    """`phrase` with an exact age of the author's as its decade: "I'm 34" -> "I'm in my 30s" or "I'm 30-something",
    "at 26" -> "in my 20s", the rest of the phrase function words only; a lone count of an age mark after "at" or "I'm" in
    `before` (the sentence's words before the phrase) as a vague count: "58" of "a widower at 58" -> "50-something";
    none for any other phrase, an age no stage covers, or a count before a unit ("at 18 months"; `after`, the sentence's
    words after the phrase, gives the unit of a count that ends it: "I'm 35" of "I'm 35 weeks pregnant")."""
    data = _data()
    lone = attribute == "age" and _lead_before().search(before)
    for match in _age().finditer(phrase):
        value = number_value(match["age"])
        following = re.match(r"\s*([\w'-]+)", phrase[match.end() :] or after)
        if value is None or value >= data["oldest"] or (following and following.group(1).casefold() in data["units"]):
            continue
        head, tail = phrase[: match.start()], phrase[match.end() :]
        if lone and match.span() == (0, len(phrase)):  # "in my 30s" only where "at" is not before it
            stages = [] if lone["at"] else [f"in {stage}" for stage in decades(value)]
            return [_in_case(c, phrase) for c in stages + about(value)]
        if not (match["frame"] or match["at"]) or not _bare(head, tail):
            continue
        lead = match["frame"] or match["at"]
        vague = [f"{head}{lead} {count}{tail}" for count in about(value)]
        lead = match["frame"] + " " if match["frame"] else ""
        return [_in_case(c, phrase) for c in [f"{head}{lead}in {stage}{tail}" for stage in decades(value)] + vague]
    return []


@cache
def _year() -> re.Pattern:
    """A calendar year ("2016", "'89"), the mark's own preposition of `years.before` before it."""
    return re.compile(
        rf"(?:(?P<lead>{_alternation(_data()['years']['before'])})\s+)?(?P<year>'\d{{2}}|\d{{4}})", re.IGNORECASE
    )


@cache
def _year_lead() -> re.Pattern:
    """The end of the words before a lone year: one of `years.before` ("moved here in" of "moved here in 2016")."""
    return re.compile(rf"(?<![\w'])(?:{_alternation(_data()['years']['before'])})\s+$", re.IGNORECASE)


def _names_it(after: str) -> bool:
    """An appositive naming the year follows it (`years.appositive` after its comma: "1980, the year of independence",
    "'86, the fall after I finished"): its decade would make the appositive untrue. A possessive opens a clause of its
    own ("1999, my committee spent..."). On blind sets h-n, 2 of the 49 posts the years changed."""
    following = re.match(r"\s*,\s*([\w'-]+)", after)
    return bool(following) and following.group(1).casefold() in _data()["years"]["appositive"]


def calendar_years(phrase: str, before: str, after: str, this_year: int | None = None) -> list[str]:
    """`phrase`, a calendar year (with its preposition, or after one in `before`), as the decade that holds it ("2016" of
    "moved here in 2016" -> "the 2010s", "back in '89" -> "back in the 80s"); a mark holding its preposition also as how
    long ago it was when `years.ago` words a span that holds its distance from `this_year` (default: now, as the post
    is sent): "in 2016" -> "years ago", "in 1996" -> "decades ago". None for another phrase, a year out of
    `years.earliest`..`latest`, a year after no preposition of `years.before` ("the 2016 floods", "before 2016"), one
    that opens a range or a count ("2016-2018", "2000 people") or that an appositive names (`_names_it`)."""
    data, this_year = _data()["years"], this_year or date.today().year
    match = _year().fullmatch(phrase)
    following = re.match(r"\s*([\w'-]+)", after)
    if (
        match is None
        or not (match["lead"] or _year_lead().search(before))
        or re.match(r"\s*[-–/]\s*'?\d", after)
        or _names_it(after)
        or (following and following.group(1).casefold() in _data()["units"])
    ):
        return []
    written = match["year"]
    short = written.startswith("'")
    year = int(written[1:]) + (1900 if int(written[1:]) > this_year % 100 else 2000) if short else int(written)
    if short and year < 2000:  # "'89" -> "the 80s"; "'05" -> "the 2000s"
        decade = data["short_decade"].format(decade=year // 10 * 10 - 1900)
    else:
        decade = data["decade"].format(decade=year // 10 * 10)
    if not data["earliest"] <= year <= data["latest"]:
        return []
    found = [phrase[: match.start("year")] + decade]
    lead = (match["lead"] or "").casefold()
    ago = [wording for least, wording in sorted(data["ago"].items()) if this_year - year >= least]
    if lead in data["ago_prepositions"] and ago:
        found.append(ago[-1])  # the longest span that holds it: "decades ago" for 1996
    return [_in_case(c, phrase) for c in found]


def coarser(sentence: str, start: int, end: int, attribute: str = "age") -> list[str]:
    """The coarser wordings of sentence[start:end], a mark of `attribute` (a duration, an age, a calendar year), each
    true of it."""
    before, phrase, after = sentence[:start], sentence[start:end], sentence[end:]
    return (
        vaguer_durations(phrase, before, after)
        + age_decades(phrase, before, attribute, after)
        + calendar_years(phrase, before, after)
    )
