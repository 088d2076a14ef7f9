"""Public life talked about, and stories: names the writer deals with no one by (a famous person's, a
character's), unless the writer ties the person to themselves.
"""

from __future__ import annotations

import re

from stealthflow.pii_tagger.lexicons import alternation
from stealthflow.placeholders.recognizers.introductions import GREETINGS, introduced_before
from stealthflow.placeholders.recognizers.sentences import (
    capitalises,
    names_writer_or_reader,
    question,
    sentence_around,
    sentence_start,
)

# Public life talked about, not a person the writer deals with: a name right after "an interview
# with", "a biography of", "a statue of" (the work is about the person), or right before "was on
# TV", "scored", "was born in", "'s new album" (what public people do). Words of media, arts,
# politics, sport, history and travel; none says who the person is. Not "room": a room is rented or lent at a private
# address ("renting a room at Cerhenická 61"; benchmarks/results/pii_address_room_and_number.md).
_WORKS = (
    r"interviews?|documentar(?:y|ies)|biograph(?:y|ies)|memoirs?|autobiograph(?:y|ies)|albums?|songs?|films?|movies?|shows?|podcasts?"
    r"|exhibitions?|statues?|monuments?|portraits?|paintings?|novels?|books?|poems?|quotes?|speech(?:es)?|letters|facts|style|legacy|life"
    r"|works?|music|career|history|death|reign|presidency|theor(?:y|ies)|photos|pictures|tour|concert|museum|jokes?|essays?|articles?"
    r"|exhibits?|displays?|lectures?|courses?|chapters?|episodes?|leadership|polic(?:y|ies)|government|administration|campaign|era"
    r"|philosophy|ideas|teachings|discography|filmography"
)
_PUBLIC_BEFORE = re.compile(
    rf"(?i:\b(?:(?:{_WORKS})\s+(?:of|about|by|from|on|at|like)|interviews?\s+with|reading|listening\s+to"
    # a kind of public thing and one like it: "a board game like Catan", "bands such as Coldplay"
    r"|(?:games?|apps?|bands?|series|sitcoms?|anime|manga|artists?|singers?|rappers?|authors?|writers?|players?|brands?|franchises?)\s+(?:like|such\s+as|similar\s+to)"
    # a role, the model's span maybe only the surname: "Who played Alan Turing in the film?"
    r"|(?:who|actor|actress)\s+(?:played|plays|portrayed|portrays|voiced|voices)(?:\s+(?!(?:with|for|against|alongside|by|in|at|on|to)\b)[\w'.-]+){0,2})\s+$)"
    # a song and its artist asked of a speaker: "Play Jolene by Dolly Parton"
    r"|(?:^|[.!?\n])\s*(?i:play|put\s+on)\s+(?:[A-Z][\w'’-]*\s+)*(?:by\s+(?:[A-Z][\w'’-]*\s+)*)?$"
)
_DOES = (
    r"(?i:(?:'s|’s)?\s+(?:(?:was|is|were|are|has|had|have|just|again|also|finally|reportedly)\s+){0,2}(?:on\s+(?:tv|television|the\s+radio|the\s+news|stage|tour)"
    r"|scored|won|wins?|lost|tweeted|posted|announced|released|performed|starred|sang|painted|wrote|composed|directed|invented|discovered|ruled|reigned|died|born|elected"
    r"|addressed|endorsed|campaigned|testified|abdicated"
    # ... asked of them: "did X sing", "how much is X worth", "is X still married"
    r"|sing|paint|compose|invent|discover|reign|abdicate|perform|score"
    r"|(?:net\s+)?worth|still\s+(?:alive|married|together|in\s+(?:power|office)|president|playing|touring|active)"
    r"|packed|crowded|famous|open(?:ed|s)?\s+(?:in|on|daily)|spoke\s+at|(?:gave|delivered)\s+a\s+(?:speech|talk|lecture)|new\s+(?:album|film|movie|book|single|song|show|tour)|(?:album|film|movie|book|tour|speech|concert)s?)\b)"
)
# The model may tag a name in part ("Giorgia" of "Giorgia Meloni was on TV"): what it does is
# looked for past the rest of the name (capitalised words; one word where the writer uses no capitals).
_PUBLIC_AFTER = re.compile(r"(?:\s+[A-Z][\w'.-]*){0,2}" + _DOES)
_PUBLIC_AFTER_LOWERCASE = re.compile(r"(?:\s+[^\W\d_][\w'.-]*)?" + _DOES)
# ... unless what they did was addressed to the writer or about the writer's matter: a correspondent, not an author
# ("Margaret Lindqvist wrote to us yesterday", "Case 1042: Ingrid Hoffmann wrote about the refund"; lexicons.yaml
# `correspondence`). Without it every name of a support ticket "NAME wrote about the ..." was left in clear.
_TO_THE_WRITER = re.compile(rf"\s+(?i:{alternation('correspondence')})\b")
# ... unless the writer ties the person to themselves: "my friend X", "Hi X", "X and I".
OWNED = r"\b(?:my|our|your|his|her|their)\s+(?:\w+\s+){0,2}$"  # "my friend X"
_PERSONAL_BEFORE = re.compile(
    rf"(?i:{OWNED}|\b(?:{GREETINGS}|thanks|thank\s+you)\s*,?\s*$"
    r"|\b(?:i|we)\s+(?:had|have|got)\s+(?:an?\s+)?(?:\w+\s+)?interview\s+with\s+$)"
)
PERSONAL_AFTER = re.compile(r"(?i:\s+and\s+(?:i|me)\b|,?\s+(?:my|our)\s+\w+)")


# A full name as the subject of a question on what the person is, naming neither the writer nor the
# reader ("Is Keanu Reeves actually nice?", "How tall is Shaquille O'Neal?", "What is Ed Sheeran's best
# song?"): a public figure asked about. What someone did is asked of people the writer knows too ("Did
# Jonas Eriksen sign the lease?"), and those mostly come by a first name or with a tie ("Is Harriet still coming?").
_ASKED_ABOUT = re.compile(
    r"\s*(?i:(?:how|what|when|where|why|who|which)\s+(?:\w+\s+)?)?(?i:is|was|are|were)\s+(?P<name>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+)"
)


def tied_to_writer(text: str, start: int, end: int) -> bool:
    """Whether the writer ties the person at text[start:end] to themselves ("my friend X", "Hi X", "X and I"), or
    introduces them as themselves or kin in any covered language ("I'm X", "ich heiße X", "mon fils X":
    introductions.py)."""
    return (
        _PERSONAL_BEFORE.search(text[max(0, start - 48) : start]) is not None
        or introduced_before(text, start)
        or PERSONAL_AFTER.match(text, end) is not None
    )


# Talk of a story on screen, on the page or in a game ("Walter White was never a good person, not even in
# season 1", "Jon Snow knew nothing and neither did the writers in the final season", "the first boss in
# Elden Ring, any tips for Margit"; a numbered or the latest episode, not "crisis episodes"): its names
# are characters, unless the sentence shows a person in the writer's life: dealt with ("watched the
# finale with Marco", "Tom spoiled the finale for me", "ask Priya if she's seen episode 3"), doing what
# people do ("Rahul keeps quoting the villain", "Olivia from accounting"), spoken of as he or she ("Kevin
# hates spoilers so don't tell him") or met ("Grace and Tom are coming over for the finale").
_STORY_TALK = re.compile(
    r"\b(?i:seasons?\s+\d+|series\s+\d+|(?:final|last|first|new|latest)\s+season|episode\s+\d+|(?:final|last|first|new|latest|next)\s+episodes?"
    r"|finale|spoilers?|sequels?|prequels?|trilogy|franchise|fandom|fan\s?fic\w*|reruns?|sitcoms?|tv\s+show|the\s+writers|(?:the|bad|lazy|better|best)\s+writing|storylines?|plot\s+(?:holes?|twists?)"
    r"|cutscenes?|dlc|(?:first|final|last|next|secret|optional)\s+boss|boss\s+fights?|playthroughs?|side\s?quests?|anime|manga"
    r"|characters?|protagonists?|villains?|(?:the|this|that|whole)\s+series)\b"
)
# A word each of _STORY_TALK's matches holds: a sentence without one is passed over by a set look-up
# (~2 us) instead of the pattern's search (~11 us), for every name.
_STORY_WORDS = frozenset(
    "season seasons series episode episodes finale spoiler spoilers sequel sequels prequel prequels trilogy franchise fandom fan fanfic fanfics"
    " fanfiction fanfictions rerun reruns sitcom sitcoms tv writers writing storyline storylines plot cutscene cutscenes dlc boss playthrough"
    " playthroughs side sidequest sidequests anime manga character characters protagonist protagonists villain villains".split()
)
# ... or names a story, a band or a game itself: "Which Zelda game should I play first?", "the Beatles album".
_TITLE_AFTER = re.compile(rf"\s+(?i:{alternation('title_words')})\b(?!\s+night)")  # no verb: "Sarah books", "Tom films"
_DEALT_WITH_BEFORE = re.compile(r"\b(?i:with|ask|asked|tell|told|text|texted|call|called|message|remind|email)\s+$")
_DEALS_AFTER = re.compile(rf"\s+(?i:{alternation('dealings')})\b")
_IN_WRITERS_LIFE = re.compile(rf"\b(?i:{alternation('writers_life')})\b")


_PLAIN_WORD = re.compile(r"\w+")


def _story_talk(sentence: str) -> bool:
    return (
        not _STORY_WORDS.isdisjoint(_PLAIN_WORD.findall(sentence.lower())) and _STORY_TALK.search(sentence) is not None
    )


def a_character(text: str, start: int, end: int) -> bool:
    """Whether the name text[start:end] stands in talk of a story (see _STORY_TALK), or is one's title,
    and the writer deals with no one by it; in a message with capitals (where sentences run together,
    the story may be another's)."""
    return (
        capitalises(text, start)
        and (
            _TITLE_AFTER.match(text, end) is not None
            or (
                _story_talk(sentence := sentence_around(text, start, end)) and _IN_WRITERS_LIFE.search(sentence) is None
            )
        )
        and not tied_to_writer(text, start, end)
        and _DEALT_WITH_BEFORE.search(text[max(0, start - 12) : start]) is None
        and _DEALS_AFTER.match(text, end) is None
    )


def public_talk(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is talked about as public life (see _WORKS) or asked about by a full
    name (see _ASKED_ABOUT), with no personal tie."""
    if tied_to_writer(text, start, end):
        return False
    before = text[max(0, start - 48) : start]
    after = _PUBLIC_AFTER if capitalises(text, start) else _PUBLIC_AFTER_LOWERCASE
    does = after.match(text, end)
    return (
        _PUBLIC_BEFORE.search(before) is not None
        or (does is not None and _TO_THE_WRITER.match(text, does.end()) is None)
        or _asked_about_by_full_name(text, start, end)
    )


# ... unless it asks where someone is or whether they can come, as of a colleague or a friend ("Is Nadia
# Rahman free for a call on Thursday?", "Is Tom Berg still coming?"): a public figure is asked what they are.
_HERE_AND_NOW = re.compile(
    r"(?i:\s+(?:still\s+|already\s+)?(?:free|available|busy|around|off|back|here|there|coming|joining|ok|okay|alright"
    r"|sick|ill|home|ready|late|awake|up|done|finished|allowed|able|invited|booked|staying|arriving)\b)"  # not "in", "working", "leaving": asked of public figures too
)


def _asked_about_by_full_name(text: str, start: int, end: int) -> bool:
    asked_question = question(text, start, end)
    asked = asked_question and _ASKED_ABOUT.match(asked_question)
    if not asked or names_writer_or_reader(asked_question):
        return False
    question_start = sentence_start(text, start)  # where _sentence cut the question
    name_end = question_start + asked.end("name")
    if _HERE_AND_NOW.match(text, name_end):
        return False
    return question_start + asked.start("name") <= start and end <= name_end
