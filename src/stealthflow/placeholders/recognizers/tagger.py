"""The PII span tagger as a recognizer: names, addresses, employers, health, income and secrets
that only context gives away (models/pii-tagger-student: a small convolutional tagger distilled
from models/pii-tagger, MiniLM + a token-classification head, which loads the same way by name
or directory and costs ~7x more per KB).

It runs on CPU over the detector's whole batch (`find_many`), on the same normalised text as
the regex recognizers, so its spans map back to the original offsets like theirs. It loads its
model, so `build_recognizers` builds it only when asked (`protect.tagger`, `--no-tagger`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import cache, lru_cache
from pathlib import Path

from stealthflow.placeholders.language import ENGLISH
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer, sentence_start
from stealthflow.placeholders.recognizers.context import (
    ANIMALS,
    KEEPERS,
    RELATIVES,
    THINGS,
    anothers_life,
    capitalises,
    impersonal_money,
    landmark_address,
    names_writer_or_reader,
    sentence_around,
    sentence_end,
)
from stealthflow.placeholders.recognizers.everyday_nouns import everyday_thing
from stealthflow.placeholders.recognizers.gate import skipping
from stealthflow.placeholders.recognizers.public_names import brand, name_key, public_name, region_names, text_words
from stealthflow.placeholders.recognizers.secrets import (
    KEYS_PRESSED,
    buys_a_discount,
    introduced_as_secret,
    named_as_other_number,
    secret_word_length,
    starts_with_other_kind,
)
from stealthflow.placeholders.types import Span
from stealthflow.resources import resource_dir

SHIPPED = "pii-tagger-student"  # the fast student; "pii-tagger", its MiniLM teacher, by config (protect.tagger_model)
# A list item's marker at the start of a line ("- ", "2. "): no span runs on from one item into the
# next ("- Jairaj Gade, Sanjuan S.L.\n- Martin Johnson, ..." was one employer span).
_LIST_MARKER = re.compile(r"(?m)^[ \t]*(?:[-*•]|\d{1,2}[.)])(?=[ \t])")
_TRIM = " \t\n,;:.!?\"'()[]-–—"  # a sentence's punctuation around a value is not part of it (a list's or an aside's dash too)
# An amount: digits, or a number in words before its multiplier ("two million"; not "million" alone).
_AMOUNT = re.compile(
    r"\d|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|few|couple)"
    r"(?:\s+of)?\s+(?:hundred|thousand|million|billion|grand|lakh|crore)\b",
    re.IGNORECASE,
)
# Money, not a quantity of something else ("250 ml", "58 cents a litre"): a currency sign, code or
# word, or the shorthand people use for incomes and savings ("72k", "80 grand", "4 lakh").
_MONEY = re.compile(
    r"[$€£¥₹₩₽₺₦₱฿₿₴₫₪]|\bR\s?\d|\d\s*[kKmM]\b|\b(?i:kr|usd|eur|gbp|chf|cad|aud|nzd|inr|jpy|cny|rmb|sek|nok|dkk|pln|brl|mxn|zar|ngn|kes|btc|eth"
    r"|dollars?|bucks|euros?|pounds?|quid|yen|yuan|rupees?|lakhs?|crores?|francs?|kronor|kroner|kronur|krona|zloty|pesos?|reais|rand|naira|shillings?"
    r"|bitcoins?|grand|thousand|million|billion|salary|income|savings|debt|loans?|mortgage|pension)\b"
)
# Words of work or study: an EMPLOYER span stands in their company (or names an organisation
# itself), not after "photos at" or "houses near" (a place the model took for a company). A game's
# "final boss" or "boss fight" is no one's boss.
_WORK = re.compile(
    r"\b(?i:work\w*|job|employ\w*|hired?|fired|quit|resign\w*|join\w*|promot\w*|intern\w*|colleagues?|(?<!final\s)boss(?!\s+fights?\b)|manager|team|office"
    r"|company|firm|career|position|role|salary|earns?|earning|paid|pays?|(?<!on\s)(?<!special\s)offer\w*|contract|shifts?|staff|start\w*|stud(?:y|ied|ying|ent)"
    r"|degree|graduat\w*|school|universit\w*|college|class|course|teach\w*|professor|nurse|engineer|analyst|developer|employer"
    r"|leav\w*|left|let\s+go|laid\s+off|redundan\w*|years|as\s+an?\s+(?:\w+\s+){1,2}(?:at|for|with))\b"
)
# ... or follows a person in a list of people and where they work ("- Willem Keijser, KPMG").
_LISTED_AFTER_SOMEONE = re.compile(
    r"(?:^|\n)[^\n]*?[-–—*•][^\S\n]+[^\W\d_][\w.'’-]*(?:[^\S\n]+[^\W\d_][\w.'’-]*){0,3},[^\S\n]*$"
)
# Company forms and institutions: words only an organisation's name holds.
_FIRM_OR_INSTITUTION = (
    r"inc|ltd|llc|plc|gmbh|ag|spa|s\.?r\.?l|bv|nv|ab|oy|corp\w*|company|group|holdings?|associates|bank|hospital"
    r"|clinic|universit\w*|college|school|academy|institute|agency"
)
_ORGANISATION = re.compile(rf"\b(?i:{_FIRM_OR_INSTITUTION}|sa|as|co|partners|e\.v|and|et|und|y|e)\b|[&,-]")
_SAINT_PLACE = re.compile(
    r"(?:Saint|Sainte|St|Ste|San|Santa|Santo|São)-[A-Z]"
)  # "Saint-Rémy", "Santa-Cruz": a place's hyphen
# An organisation's department, and a letter's greeting: "Dear Hilton Reservations," is written to a company.
_DEPARTMENT = r"support|reservations|bookings|help\s?desk|customer\s+(?:service|services|care|support)|admissions|team"
_DEPARTMENT_ENDS = re.compile(rf"\b(?i:{_DEPARTMENT})$")
_GREETED = re.compile(r"(?:^|\n)\s*(?i:dear|hi|hello|hey|to)\s+$")
# ... as a name's last word: a firm, a school or a department, not a person ("Levesque BV", "Watson and Sons", "Sutton College").
_ORGANISATION_ENDS = re.compile(
    rf"\b(?i:{_FIRM_OR_INSTITUTION}|kg|kgaa|sarl|s\.a|s\.l|hb|sons"
    rf"|{_DEPARTMENT})\.?$"
)

# Public life talked about, not a person the writer deals with: a name right after "an interview
# with", "a biography of", "a statue of" (the work is about the person), or right before "was on
# TV", "scored", "was born in", "'s new album" (what public people do). Words of media, arts,
# politics, sport, history and travel; none says who the person is.
_WORKS = (
    r"interviews?|documentar(?:y|ies)|biograph(?:y|ies)|memoirs?|autobiograph(?:y|ies)|albums?|songs?|films?|movies?|shows?|podcasts?"
    r"|exhibitions?|statues?|monuments?|portraits?|paintings?|novels?|books?|poems?|quotes?|speech(?:es)?|letters|facts|style|legacy|life"
    r"|works?|music|career|history|death|reign|presidency|theor(?:y|ies)|photos|pictures|tour|concert|museum|jokes?|essays?|articles?"
    r"|rooms?|exhibits?|displays?|lectures?|courses?|chapters?|episodes?|leadership|polic(?:y|ies)|government|administration|campaign|era"
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
# ... unless the writer ties the person to themselves: "my friend X", "Hi X", "X and I".
_OWNED = r"\b(?:my|our|your|his|her|their)\s+(?:\w+\s+){0,2}$"  # "my friend X"
_PERSONAL_BEFORE = re.compile(
    rf"(?i:{_OWNED}|\b(?:hi|hey|hello|dear|thanks|thank\s+you|i'm|i\s+am|this\s+is)\s*,?\s*$"
    r"|\b(?:i|we)\s+(?:had|have|got)\s+(?:an?\s+)?(?:\w+\s+)?interview\s+with\s+$)"
)
_PERSONAL_AFTER = re.compile(r"(?i:\s+and\s+(?:i|me)\b|,?\s+(?:my|our)\s+\w+)")
# A place or a thing, not a person: a name right after "in" or "near" ("It was 20 degrees in
# Stonehenge"), after "to" where a journey goes ("Flight 59 to Angkor Wat", "the train to
# Istanbul", "the 17:32 to Manchester") or after an article ("the Sagrada Familia"); not a
# possessive ("in Anna's car").
_JOURNEY_TO = r"(?:flights?|trains?|bus|coach|ferry|trip|journey|fly|flying|flew|travel\w*|drive|driving|drove|\d{1,2}[:.]\d\d)\s+(?:\S*\d\S*\s+)?to"
# Where people move ("we just moved to Austin", "My parents emigrated to Victoria", "Moving back to
# Charlotte next year"): a person or a sentence's start moves, not a thing ("The ticket moved to Sam");
# one word, in a sentence without work talk (people move to firms too).
_MOVERS_WORDS = (
    r"(?i:just|finally|recently|eventually|already|also|then|soon|actually|officially|all|both|have|has|had|will|would|are|were|was|is|am|be|been|"
    r"getting|going|gonna|want|wanted|plan|planned|planning|hope|hoping|decided|thinking|considering|of|about|to|and)"
)
_MOVED_TO = re.compile(
    rf"(?:[.!?\n]\s*|\b(?i:i|we|he|she|they|you|(?:my|our|his|her|their)\s+[\w-]+)(?:['’][a-z]+)?\s+)(?:{_MOVERS_WORDS}\s+){{0,3}}"
    r"(?i:mov(?:e|es|ed|ing)|relocat\w+|emigrat\w+)(?:\s+(?i:back|out|over|away|down|up))?\s+to\s+$"
)
# Where someone is from ("I'm originally from Dayton", "She's from Savannah", "we hail from Cork"): a
# place; not what comes from someone ("The card is from Savannah", "a message from Savannah").
_FROM_PLACE = re.compile(
    r"(?:\b(?i:i|we|you|they|he|she)(?:['’](?i:m|re|s)|\s+(?i:am|are|is|was|were|come|comes|came|hail|hails|hailed))\s+(?:(?i:originally|all|both)\s+)?"
    r"|\b(?i:originally)\s+)from\s+$"
)
_PLACE_BEFORE = re.compile(
    rf"\b(?i:in|near|around|across|outside|{_JOURNEY_TO})\s+(?:the\s+)?(?:[A-Z][\w'-]*\s+){{0,2}}$|\b(?i:the|a|an)\s+(?:[A-Z][\w'-]*\s+)*$"
)
# ... or a mountain's, a lake's, a river's name ("Mount Kinabalu climb", "Lake Bled in winter"), or part
# of an institution's name ("The Museum of New Zealand Te Papa Tongarewa", "the Bank of Montreal").
_PLACE_NAMED_BEFORE = re.compile(
    r"\b(?:Mount|Mt\.?|Lake|Loch|Lough|River|Cape|Glacier|(?:Isle|Island|Gulf|Bay)\s+of|Monte|Mont|Lago|Lac)\s+$"
    r"|\b(?:Museum|University|College|Bank|Institute|Academy|Library|Gallery|Church|Cathedral|Basilica|Abbey|Temple|Palace|Castle|Tower|Hospital"
    r"|School|Department|Ministry|Republic|Kingdom|Federation|Society|Council|Court)\s+of\s+(?:(?:the|and|of|de|la|del|des|du|di|[A-Z][\w'’-]*)\s+)*$"
)
_PLACE_BEFORE_LOWERCASE = re.compile(
    rf"\b(?:in|near|around|across|outside|{_JOURNEY_TO})\s+(?:the\s+)?(?:\w+\s+)?$|\b(?:the|a|an)\s+$"
)
# A word that is a name and a verb, used as the verb: "Mark the invoice as paid", "can you bill
# them", "we should chase the supplier": first in its sentence or after "you", "please", a modal,
# and followed by an object.
_VERB_BEFORE = re.compile(
    r"(?i:(?:^|[.!?\n]\s*|\b(?:you|please|pls|can|could|will|would|should|must|let's|and|then|'ll|’ll)\s+)$)"
)
# A word first in its sentence that opens a question ("Will you check it?", "May I ask"): a name's word
# followed by a subject pronoun, where a name is followed by a verb or a comma ("Anna, will you ...").
# (Idioms such as "Jack of all trades" were dropped this way too, by "of"/"for" and a lowercase word; that
# cost names such as "Chen of all people" and caught none of the idioms of fresh messages, so it went.)
_SENTENCE_START = re.compile(r"(?:^|[.!?\n]\s*|^\W+)$")
_PRONOUN_AFTER = re.compile(r"\s+(?i:you|i|we|they|he|she)\b")
_VERB_AFTER = re.compile(
    r"(?i:\s+(?:this|that|these|those|the|a|an|it|them|him|her|me|us|my|your|our|their|its|all|as|out|up|off|yourself|myself|himself|herself|themselves|ourselves)\b)"
)  # "Max out the card", "Pat yourself on the back"


# A full name as the subject of a question on what the person is, naming neither the writer nor the
# reader ("Is Keanu Reeves actually nice?", "How tall is Shaquille O'Neal?", "What is Ed Sheeran's best
# song?"): a public figure asked about. What someone did is asked of people the writer knows too ("Did
# Jonas Eriksen sign the lease?"), and those mostly come by a first name or with a tie ("Is Harriet still coming?").
_ASKED_ABOUT = re.compile(
    r"\s*(?i:(?:how|what|when|where|why|who|which)\s+(?:\w+\s+)?)?(?i:is|was|are|were)\s+(?P<name>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)+)"
)


def tied_to_writer(text: str, start: int, end: int) -> bool:
    """Whether the writer ties the person at text[start:end] to themselves ("my friend X", "Hi X", "X and I")."""
    return (
        _PERSONAL_BEFORE.search(text[max(0, start - 48) : start]) is not None
        or _PERSONAL_AFTER.match(text, end) is not None
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
_TITLE_AFTER = re.compile(
    r"\s+(?i:game|movies?|film|albums?|soundtracks?|franchise|series|saga|novels|fandom|songs|lyrics|trilogy|universe|dlc)\b(?!\s+night)"
)  # no verb: "Sarah books", "Tom films"
_DEALT_WITH_BEFORE = re.compile(r"\b(?i:with|ask|asked|tell|told|text|texted|call|called|message|remind|email)\s+$")
_DEALS_AFTER = re.compile(
    r"\s+(?i:said|says|told|texted|asked|thinks|reckons|recommend\w*|wants|spoil\w*|made\s+me|got\s+me|lent|gave|sent|showed|introduced|came"
    r"|keeps|hates|loves|from|is\s+(?:obsessed|watching|reading|playing|writing|coming))\b"
)
_IN_WRITERS_LIFE = re.compile(
    r"\b(?i:he|she|him|her|his|hers|he['’]s|she['’]s|they|them|their|coming|come|came|over|visit\w*|joining|invited|tonight|tomorrow|weekend|party|dinner|lunch|drinks)\b"
)


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
    return (
        _PUBLIC_BEFORE.search(before) is not None
        or after.match(text, end) is not None
        or _asked_about_by_full_name(text, start, end)
    )


# ... unless it asks where someone is or whether they can come, as of a colleague or a friend ("Is Nadia
# Rahman free for a call on Thursday?", "Is Tom Berg still coming?"): a public figure is asked what they are.
_HERE_AND_NOW = re.compile(
    r"(?i:\s+(?:still\s+|already\s+)?(?:free|available|busy|around|off|back|here|there|coming|joining|ok|okay|alright"
    r"|sick|ill|home|ready|late|awake|up|done|finished|allowed|able|invited|booked|staying|arriving)\b)"  # not "in", "working", "leaving": asked of public figures too
)


def _asked_about_by_full_name(text: str, start: int, end: int) -> bool:
    question = _question(text, start, end)
    asked = question and _ASKED_ABOUT.match(question)
    if not asked or names_writer_or_reader(question):
        return False
    question_start = sentence_start(text, start)  # where _sentence cut the question
    name_end = question_start + asked.end("name")
    if _HERE_AND_NOW.match(text, name_end):
        return False
    return question_start + asked.start("name") <= start and end <= name_end


_NAME_WORD = re.compile(r"\S+")


def capitalised_part(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span without the lowercase words at its ends, where the writer capitalises names: the
    model runs on into the sentence ("Nvidia overvalued", "rob Peter"). Words inside stay ("Ludwig
    van Beethoven"), as do words with a capital anywhere ("al-Zahra", "d'Arc") and words of scripts without case."""
    return _without_end_words(text, start, end, _lowercase_word)  # all lowercase: as it is, and not_a_name decides


def _without_end_words(text: str, start: int, end: int, dropped) -> tuple[int, int]:
    """text[start:end] from its first to its last word for which `dropped(word)` is false (the words
    between stay); as it is if there is none."""
    kept = [word for word in _NAME_WORD.finditer(text, start, end) if not dropped(word.group())]
    return (kept[0].start(), kept[-1].end()) if kept else (start, end)


def _lowercase_word(word: str) -> bool:
    return any(c.islower() for c in word) and not any(c.isupper() for c in word)


def not_a_name(text: str, start: int, end: int) -> bool:
    """A REAL_NAME span that the words around it show is something else: lowercase where the writer
    capitalises names, a place after "in", a verb ("Mark the invoice"), a thing ("Pearl barley")."""
    value, before = text[start:end], text[max(0, start - 48) : start]
    if value.islower() and capitalises(text, start):
        return True
    if (
        " " not in value
        and len(value) > 1
        and value.isupper()
        and not text.isupper()
        and not _name_lexicon().get(value.casefold())
    ):
        return True  # an acronym the lexicon does not know as a name, where the writer writes in lowercase too ("my IBAN: DE89...")
    if text.startswith(("'s", "’s"), end):
        return False
    if (_PLACE_BEFORE if capitalises(text, start) else _PLACE_BEFORE_LOWERCASE).search(
        before
    ) or _PLACE_NAMED_BEFORE.search(before):
        return True
    # (the pattern's cheap precondition first; "\n": the text's start opens a sentence)
    moved = (
        " " not in value
        and before.rstrip()[-2:].lower() == "to"
        and _MOVED_TO.search(before if start > len(before) else "\n" + before)
    )
    from_place = " " not in value and before.rstrip()[-4:].lower() == "from" and _FROM_PLACE.search(before)
    if (moved or from_place) and not _WORK.search(sentence_around(text, start, end)):
        return True  # not with work talk: "moved to Halvorsen for a senior role" is a firm
    if (
        " " not in value
        and _SENTENCE_START.search(before)
        and (_PRONOUN_AFTER.match(text, end) or _thing_after(text, end) or _listed_with_things(text, end))
    ):
        return True
    return " " not in value and _VERB_BEFORE.search(before) is not None and _VERB_AFTER.match(text, end) is not None


# Names of no one the writer deals with, shown by the words next to them: a feast or a saint
# ("St. Patrick's Day", "Burns Night", "St. Mary's Church"); an animal or a thing people name (ANIMALS: "our
# dog Biscuit", "Pepper the hamster", "Bella, our beagle", "the robot vacuum we call Dusty"); a
# storm ("Storm Ciarán", "hurricane Milton"). Not the people who look after them ("our dog walker Sarah").
_STORMS = r"storm|hurricane|typhoon|cyclone|tornado|tropical\s+(?:storm|depression)"
_NAMED_KIND_BEFORE = re.compile(
    rf"\b(?i:{ANIMALS}|{THINGS}|{_STORMS})(?P<called>\s+(?:(?i:is|was|we|i)\s+)?(?i:called|call|named))?(?P<comma>,)?\s+$"
)
_NAMED_KIND_AFTER = re.compile(
    rf",?\s+(?i:(?:my|our|the|his|her|their|a|an)\s+(?:[\w-]+\s+)?(?:{ANIMALS}|{THINGS}))\b(?!['’]s|\s+(?i:{KEEPERS})\b)"
)
_STORM_OPENS = re.compile(rf"(?i:{_STORMS})\s")
_SAINT_OPENS = re.compile(r"(?:St|Ste|Saint|Sainte)\b\.?(?:\s|$)", re.IGNORECASE)
_FEAST = re.compile(r"(?:['’]s)?\s+(?:Day|Eve|Night)\b")


# AI and voice assistants: a name of no one where the sentence talks of AI, code or a device, or of
# another assistant ("Is Claude better than Gemini for coding?", "Alexa, set a timer"); elsewhere
# a person may carry it ("Claude said he'd be late"). Names no one has are never a person's.
_OWNED_BEFORE = re.compile(rf"(?i:{_OWNED})")  # the tie of _PERSONAL_BEFORE without its greetings
_ASSISTANTS = frozenset(
    {"alexa", "siri", "cortana", "bixby", "claude", "gemini", "bard", "grok", "llama", "mistral", "jarvis"}
)
_ASSISTANTS_ONLY = frozenset({"chatgpt", "copilot", "deepseek", "perplexity", "midjourney", "qwen", "gpt"})
_AI_TALK = re.compile(
    r"\b(?i:ai|a\.i\.|chat\s*bots?|bots?|assistants?|llms?|models?|prompts?|openai|anthropic|google|amazon|apple|microsoft|echo|speaker|"
    r"coding|regex|python|javascript|sql|timer|alarm|thermostat|playlist|set\s+a|remind\s+me|turn\s+(?:on|off)|"  # not "code": "Tell Alexa the code for the gate"
    + "|".join(sorted(_ASSISTANTS | _ASSISTANTS_ONLY))
    + r")\b"
)


def names_an_assistant(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is an AI or voice assistant's name in talk of AI, code or devices (_ASSISTANTS)."""
    key = text[start:end].casefold()
    if key in _ASSISTANTS_ONLY:
        return True
    if (
        key not in _ASSISTANTS
        or _OWNED_BEFORE.search(text[max(0, start - 48) : start])
        or _PERSONAL_AFTER.match(text, end)
    ):
        return False  # "my friend Claude", "Gemini and I"; "Hey Siri" greets the assistant
    sentence = sentence_around(text, start, end)
    offset = sentence_start(text, start)
    return any(not (offset + m.start() == start and offset + m.end() == end) for m in _AI_TALK.finditer(sentence))


# Sayings, stand-in names and figures of folklore that hold a name of no one ("Bob's your uncle",
# "every Tom, Dick and Harry", "rob Peter to pay Paul", "fill it in as John Doe", "Santa Claus").
_SAYINGS = re.compile(
    r"\b(?i:bob['’]?s\s+your\s+uncle|simon\s+says|lady\s+luck|doubting\s+thomas|peeping\s+tom|jack\s+of\s+all\s+trades|"
    r"tom,?\s+dick,?\s+(?:and|&)\s+harry|smart\s+alec|nosy\s+parker|jack\s+the\s+lad|uncle\s+sam|mother\s+nature|father\s+time|"
    r"father\s+christmas|john\s+bull|average\s+joe|plain\s+jane|dear\s+john|johnny[-\s]come[-\s]lately|even\s+stevens|for\s+pete['’]?s\s+sake|"
    r"happy\s+as\s+larry|john\s+doe|jane\s+doe|richard\s+roe|joe\s+bloggs|jane\s+bloggs|joe\s+schmoe|john\s+q\.?\s+public|"
    r"max\s+mustermann|erika\s+mustermann|fulano\s+de\s+tal|peter\s+to\s+pay\s+paul|achilles['’]?\s+(?:heel|tendon)|romeo\s+and\s+juliet|"
    r"santa\s+claus|jack\s+frost|elementary,?\s+my\s+dear\s+watson|faith,?\s+hope,?\s+(?:and|&)\s+charity|grace\s+before\s+meals|say(?:ing|s)?\s+grace)\b"
)
_SAYING_REACH = 32  # characters around a name: a saying is at most this long


def in_a_saying(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies inside a saying or a stand-in name (_SAYINGS)."""
    left = max(0, start - _SAYING_REACH)
    return any(
        left + m.start() <= start and end <= left + m.end() for m in _SAYINGS.finditer(text[left : end + _SAYING_REACH])
    )


def names_a_feast(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] names a feast or a day ("St. Patrick" of "St. Patrick's Day", "Burns Night"),
    by its capitals: in lowercase chat a name before "day" is a person's as often ("tom day off")."""
    if not capitalises(text, start):
        return False
    inside = _FEAST.search(text, start, end)  # the model's span took the day in ("St. Nicholas Day")
    return _FEAST.match(text, end) is not None or (inside is not None and inside.end() == end)


_FESTIVAL = re.compile(
    r"(?i:ramadan|ramazan|eid(?:\s+al-(?:fitr|adha))?|diwali|deepavali|hanukkah|chanukah|passover|pesach|easter|christmas|xmas|lent|advent|holi|vesak"
    r"|navratri|dussehra|onam|pongal|nowruz|kwanzaa|thanksgiving|halloween|hogmanay|purim|sukkot|shavuot|yom\s+kippur|rosh\s+hashanah|mardi\s+gras)"
)
_KEPT_AFTER = re.compile(
    r"\s+(?:(?i:is|are|was|were)\s+)?(?i:observed|celebrated)\b(?!\s+(?i:his|her|their|the|a|an|my|our|its)\b)"
)  # "How is Ramadan observed?", not "Ramadan celebrated his birthday"
_WHEN_BEFORE = re.compile(
    r"\b(?i:during|throughout|celebrat\w*|observ\w*|over|before|after|until|till|since|this|last|next|happy)\s+$"
)  # not "for": a gift for Ramadan may be for a person
# A breed or an animal as the name itself ("Our Border Collie is bored"), chat shorthand ("brb", "tbh"),
# a programming language's literal ("returns [None, None]"), a monarch or a pope by their number ("Henry VIII").
_WORD_OF_NO_ONE = re.compile(
    rf"(?i:{ANIMALS}|brb|lol|lmao|rofl|omg|tbh|idk|imo|imho|smh|afk|ttyl|gg|wp|np|ty|thx|pls|plz|nvm|fyi|btw|irl|ikr|tho|ngl|fr|istg|wyd|hbu|gtg|g2g)"
    r"|None|True|False|Null|NaN|Undefined|[A-Z][a-z]+\s+(?:II|III|IV|VII|VIII|IX|XI|XII|XIII|XIV|XV|XVI)"  # not "VI", "V", "X": initials too
)


def no_person(text: str, start: int, end: int) -> bool:
    """Whether the words next to a name show it is a feast's, a saint's, an animal's, a thing's, a
    storm's (see ANIMALS), an assistant's or a saying's: no one the writer deals with, even after
    "my" ("my dog Biscuit")."""
    if names_a_feast(text, start, end) or _SAINT_OPENS.match(text, start, end) or _STORM_OPENS.match(text, start, end):
        return True
    if _FESTIVAL.fullmatch(text, start, end) and (
        _WHEN_BEFORE.search(text[max(0, start - 24) : start]) or _KEPT_AFTER.match(text, end)
    ):
        return True  # "during Ramadan", "until Diwali", "How is Eid celebrated" (a person may be called Ramadan)
    if _WORD_OF_NO_ONE.fullmatch(text, start, end):
        return True  # "Our Border Collie", "brb grabbing food", "[None, None]", "Henry VIII"
    if names_an_assistant(text, start, end) or in_a_saying(text, start, end):
        return True
    kind = _NAMED_KIND_BEFORE.search(text[max(0, start - 40) : start])
    # "the cat, Smokey, sleeps", not "feed the cat, Tom"; in lowercase chat only "called" or "named" says
    # it ("fixing my bike tobias foody and ..." runs sentences together)
    if kind and (not kind["comma"] or text.startswith(",", end)) and (capitalises(text, start) or kind["called"]):
        return True
    return _NAMED_KIND_AFTER.match(text, end) is not None


_NEXT_WORD = re.compile(r" ([a-z]+)\b(?!['’])")


def _thing_after(text: str, end: int) -> bool:
    """Whether an everyday noun follows, as a word that is also a name opens a sentence about a thing:
    "Pearl barley in a stew", "Iris scanners at the airport" (a person is followed by a verb: "Anna cooks")."""
    following = _NEXT_WORD.match(text, end)
    return following is not None and capitalises(text, end) and everyday_thing(following[1])


# The next item of a list: "Holly and ivy", "Iris, tulip or daffodil bulbs".
_NEXT_ITEM = re.compile(r"(?:\s*,\s*|\s+(?:and|or|&|nor)\s+)(?:(?:a|an|some)\s+)?([a-z]+)\b(?!['’])")
# ... that is a person, whom a name is listed with as often ("Tom and kids", "Anna and family").
_PEOPLE_WORD = re.compile(
    rf"(?:{RELATIVES}|{KEEPERS}|kids?|child(?:ren)?|bab(?:y|ies)|family|fam|friends|folks|crew|gang|team|co|company|colleagues|guests"
    r"|others|everyone|lads|girls?|boys?|parents|cousins|grandparents|hubby|bf|gf|housemates?|flatmates?|roommates?|mates?|pals?"
    r"|buddy|buddies|classmates?|students?|teachers?|doctors?|nurses?|neighbou?rs|staff)"
)


def _listed_with_things(text: str, end: int) -> bool:
    """Whether a word that is also a name opens a sentence as one of a list of things: "Holly and ivy
    decorations", "Iris, tulip or daffodil bulbs" (not "Tom and kids are coming")."""
    item = _NEXT_ITEM.match(text, end)
    return (
        item is not None
        and capitalises(text, end)
        and everyday_thing(item[1])
        and _PEOPLE_WORD.fullmatch(item[1]) is None
    )


# Street words of the languages the tagger learnt addresses in: an address without a house number
# names its street ("Elm Street", "Rue Oberkampf", "Kastanienallee"); a landmark does not ("Alexanderplatz").
_STREET = re.compile(
    r"\b(?i:street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|square|sq|terrace|close|crescent|row|parkway"
    r"|highway|hwy|flat|apartment|apt|suite|unit|rue|chemin|allée|impasse|quai|via|viale|piazza|corso|vicolo|calle|avenida|plaza|paseo|carrer"
    r"|rua|travessa|largo|praça|ulica|ul|aleja|al|osiedle)\b"
    r"|(?i:straße|strasse|str\.|weg|gasse|allee|damm|ufer|laan|straat|gracht|plein|steeg|kade|gatan|vägen|gade|vej|veien|katu)\b"
)


_ADDRESSED = (
    r"(?i:sir|sirs|madam|madame|ma['’]am|mister|miss|missus|mrs?|ms|mx|dr|doctor|prof|professor|gentlemen|ladies)\.?"
)
_FORM_OF_ADDRESS = re.compile(rf"{_ADDRESSED}(?:\s*(?i:or|and|/|&)\s*{_ADDRESSED})*")  # "Sir", "Sir or Madam"


def plausible(label: str, value: str) -> bool:
    """Cheap shape checks: a name holds no digit and, in a script with case, two letters or more (an
    emoji is none); an employer or a condition holds a letter; an income or asset holds an amount of money (the model alone tags
    "litre" in "cents a litre", "250 ml" in a recipe); an address holds a word and a house number
    or a street word (not the "1" of "version 4.2.1", not a landmark's name). A secret has 4
    characters or more (a PIN's minimum; the student tags pieces of "version 4.2.1")."""
    if label == "FINANCE":  # a bare sum must find its money in its sentence (in_context)
        return _AMOUNT.search(value) is not None and (
            _MONEY.search(value) is not None or _BARE_SUM.fullmatch(value) is not None
        )
    if (
        label == "REAL_NAME"
    ):  # "the Dyson V15", "RTX 4070": a product's name holds digits, a person's none; "Dear Sir or Madam" names no one
        letters = sum(c.isalpha() for c in value)
        return (
            not any(c.isdigit() or c == "_" for c in value)
            and not _FORM_OF_ADDRESS.fullmatch(value)
            and (letters >= 2 or (letters == 1 and not _cased_letters(value)))
        )  # not "A", "X", "OPENAI_API", "🧩"; "英" is a name
    if label == "CREDENTIAL":
        return len(value) >= 4
    if label in ("EMPLOYER", "HEALTH"):  # "☔": the student reads an emoji after a word as one
        return any(c.isalpha() for c in value)
    if label == "ADDRESS":  # "Dr. Amira Haddad": a title, not a drive
        has_digit = re.search(r"\d", value) is not None
        return re.search(r"[^\W\d_]{2,}", value) is not None and (
            has_digit or (_STREET.search(value) is not None and not _TITLE_OPENS.match(value))
        )
    return True


_TITLE_OPENS = re.compile(r"(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sr|Sra|Herr|Frau|Mme|Mlle)\.?\s+[A-Z]")


def _cased_letters(value: str) -> bool:
    return any(c.lower() != c.upper() for c in value)


_LEADING_DASH = re.compile(r"(?:[^\w\s]+\s+)?")
# What ends a secret: a space, quote, bracket or a separator between a name and its value.
_SECRET_BREAK = re.compile(r"[\s\"'“”‘’`()<>\[\]{},;:=|/]")


def whole_secret(text: str, start: int, end: int) -> tuple[int, int]:
    """A model's secret span grown to the whole token it sits in: the model stops short of a symbol
    ("Secur3Pass" of "Secur3Pass!", "Yellow3" of "Mellow!Yellow3"); a full stop after it ends the sentence.
    The token's ends are looked up among the text's breaks, found once (`_secret_breaks`): a span
    inside a long token does not walk it again."""
    breaks = _secret_breaks(text)
    at = bisect_left(breaks, start)
    start = min(start, breaks[at - 1] + 1 if at else 0)
    at = bisect_left(breaks, end, at)
    grown = max(end, breaks[at] if at < len(breaks) else len(text))
    while grown > end and text[grown - 1] == ".":
        grown -= 1
    return start, grown


@lru_cache(maxsize=1)  # the text of the last span grown; cleared after each batch (find_many)
def _secret_breaks(text: str) -> list[int]:
    return [match.start() for match in _SECRET_BREAK.finditer(text)]


# Health as a topic of research, charities or news, right next to the condition ("a new study links X
# to poor sleep", "money for X research", "a cure for X"), in a sentence that names no one: nobody's condition.
_TOPIC = r"stud(?:y|ies)|research\w*|scientists?|charit(?:y|ies)|fundrais\w*|awareness|trials?|vaccines?|vaccinations?|shots|jabs|cure"
_HEALTH_TOPIC_BEFORE = re.compile(rf"\b(?i:{_TOPIC})\s+(?:[\w'-]+\s+){{0,3}}$")
_HEALTH_TOPIC_AFTER = re.compile(
    rf"(?:'s)?(?:\s+(?!(?i:the|a|an|this|that)\b)[\w'-]+){{0,2}}\s+(?i:{_TOPIC})\b"
)  # past the rest of the condition's name
# Someone a condition can belong to: a pronoun or a relative (a possessive would be "Crohn's disease" too).
_ONESELF_OR_KIN = (
    r"i|i'm|i've|i'd|me|my|mine|we|(?-i:us|Us)|our|he|she|him|her|his|hers|they|them|their"  # not "the US"
    r"|mum|mom|dad|wife|husband|partner|son|daughter|brother|sister|grandma|grandpa|kids?|baby|friend|boss"
)
_SOMEONE = re.compile(rf"\b(?i:{_ONESELF_OR_KIN}|you|your)\b")
# A medicine or condition asked about in general ("How long does amoxicillin stay in your body?", "Can you
# take ibuprofen and paracetamol together?"): a question naming no one but a generic "you". Whether
# something is normal is asked about the writer ("Is it normal to feel tired with migraines?"; not "a normal headache").
_SOMEONE_BUT_YOU = re.compile(rf"\b(?i:{_ONESELF_OR_KIN})\b")
# A condition as a risk anyone runs, in a sentence naming no one but a generic "you" ("Drink plenty of
# water to avoid kidney stones", "Smoking raises the risk of a stroke").
_RISK_BEFORE = re.compile(
    r"\b(?i:avoid\w*|prevent\w*|risks?\s+of|chances?\s+of|causes?|caused\s+by|leading\s+cause\s+of|protects?\s+against|ward\s+off)\s+(?:(?i:a|an|the)\s+)?$"
)
# A condition of people in general ("Is fasting safe for people with high blood pressure", "exercise
# for adults living with diabetes"), in a sentence naming no one.
_PEOPLE_WITH = re.compile(
    r"\b(?i:people|persons|patients|anyone|someone|those|adults|children|women|men|folks|sufferers|individuals|teens|teenagers|athletes|seniors"
    r"|the\s+elderly)\s+(?i:with|who\s+(?:have|has|had|get|suffer\s+from|live\s+with)|suffering\s+from|living\s+with|diagnosed\s+with)"
    r"\s+(?:(?i:a|an|mild|severe|chronic|high|low)\s+)?$"
    r"|\b(?i:if\s+you\s+(?:get|have|suffer\s+from|struggle\s+with))\s+$"  # advice to anyone: "keep windows shut if you get hay fever"
)
# Conditions compared as kinds ("the difference between asthma and COPD", "a virus vs bacteria"), in a sentence naming no one.
_COMPARED = re.compile(
    r"\b(?i:differences?\s+between|vs\.?|versus|compared?\s+(?:to|with)|(?:tell|told)\s+apart)(?!\w)"
)
_NORMAL = re.compile(r"\b(?i:(?:is|are)\s+(?:it|this|that)\s+normal|normal\s+(?:to|for))\b")


def impersonal_health(text: str, start: int, end: int) -> bool:
    """Whether the condition text[start:end] is a topic of research or charities (the word right
    next to it) in a sentence that names no one, a risk anyone runs (see _RISK_BEFORE), a kind
    compared with another (see _COMPARED) or asked about in general (see _SOMEONE_BUT_YOU)."""
    sentence = sentence_around(text, start, end)
    near_topic = _HEALTH_TOPIC_BEFORE.search(text[max(0, start - 48) : start]) or _HEALTH_TOPIC_AFTER.match(text, end)
    if near_topic is not None and _SOMEONE.search(sentence) is None:
        return True
    if _RISK_BEFORE.search(text[max(0, start - 32) : start]) and _SOMEONE_BUT_YOU.search(sentence) is None:
        return True
    if _PEOPLE_WITH.search(text[max(0, start - 48) : start]) and _SOMEONE_BUT_YOU.search(sentence) is None:
        return True
    if capitalises(text, start) and _COMPARED.search(sentence) and _SOMEONE_BUT_YOU.search(sentence) is None:
        return True
    question = _question(text, start, end)
    return question is not None and _SOMEONE_BUT_YOU.search(question) is None and _NORMAL.search(question) is None


# Where a condition shows itself as one: in its own words ("kidney disease", "-itis", a condition or
# medicine the tagger learnt, such as "ADHD"), in its sentence's words of health care, or right after
# "has", "with", "taking", "I'm", "my" unless it is an everyday thing (everyday_nouns.py); an acronym
# alone is no condition ("Lisa Su took over AMD"). The model alone tags everyday nouns in everyday
# messages as conditions ("for hemming trousers", "a toddler", "with density").
_MEDICAL_WORD = re.compile(
    r"(?i:\w+(?:itis|osis|emia|aemia|oma|pathy|algia|plegia|trophy|phobia|ectomy|otomy|uria|cytosis|ism)\b"
    r"|\b(?:syndrome|disease|disorder|cancer|tumou?r|deficiency|infection|injury|diabetes|depression|anxiety|addiction|allerg\w*|palsy|fever"
    r"|virus|flu|covid|attacks?|failure|stroke|ulcers?|stones?|apnea|apnoea|reflux|murmur|sclerosis|arthritis|pressure|cholesterol|fatigue"
    r"|pain|clot|fracture|concussion|hernia|disc|miscarriage|migraines?|asthma|epilepsy|eczema|dementia|autism|dyslexia|insomnia|tinnitus|vertigo|gout|lupus|mono|shingles)\b)"
)
_NEXT_WORDS = re.compile(r"(?:['’]s)?(?:[\s-]+[\w'’]+){0,2}")  # the model may tag "kidney" of "kidney disease"
_ARTICLE_START = re.compile(r"^(?:a|an)\s+")
_HEALTH_TALK = re.compile(
    r"\b(?i:diagnos\w*|doctors?|dr|gp|physician|consultant|specialist|surgeon|psychiatrist|therapist|nurses?|hospital\w*|clinic\w*|a&e|icu|ward"
    r"|surgery|operation|medic\w*|meds|pills?|tablets?|prescri\w*|dos(?:e|es|age)|mg|treat\w*|therap\w*|symptoms?|conditions?|chronic|flare\w*"
    r"|relapse\w*|remission|recover\w*|sick|ill|illness|health(?!y|ier|iest)\w*|suffer\w*|struggl\w*|cop(?:e|ing)|episodes?|infection|allerg\w*|injur\w*"
    r"|scan|mri|bloods|biopsy|refills?|runs\s+in\s+(?:my|the|our|his|her)\s+family)\b"
)
_PAST_PARTICIPLE = re.compile(r"[a-z]{3,}ed|[a-z]*(?:done|gone|seen|eaten|taken|given|written)")
_HAVE_BEFORE = re.compile(r"\b(?i:have|has|had|['’]ve)\s+$")
_OBJECT_AFTER = re.compile(r"\s+(?i:it|this|that|them|everything)\b")
_HEALTH_BEFORE = re.compile(
    r"\b(?i:have|has|had|having|got|with|taking|takes|took|take|on|i'm|i\s+am|am|is|are|was|being|been|my|his|her|their|our)\s+"
    r"(?:(?:a|an|mild|severe|bad|chronic|early|late|stage\s+\w+|type\s+\w+)\s+)?$"
)


# The word that ends a condition's name, where the model tagged only its first word or two: "kidney"
# of "stage 3 kidney disease", "social" of "social anxiety", "Meniere" of "Meniere's disease".
_CONDITION_HEAD = re.compile(
    r"(?i:syndrome|disease|disorder|cancer|tumou?r|deficiency|infection|injury|diabetes|anxiety|addiction|attacks?|failure|ulcers?|stones?"
    r"|apnea|apnoea|reflux|murmur|pressure|pain|clot)"
)
_CONDITION_REST = re.compile(r"(?:['’]s)?(?:[ \t-]+[\w'’]+){1,2}")


def _whole_condition(text: str, end: int) -> int:
    """Where a condition whose tagged part ends at `end` ends: past the last of the next two words
    (on the same line, no punctuation between) that ends a condition's name; `end` if none does."""
    rest = _CONDITION_REST.match(text, end)
    heads = [word for word in re.finditer(r"[\w'’]+", rest[0]) if _CONDITION_HEAD.fullmatch(word[0])] if rest else []
    return end + heads[-1].end() if heads else end


# What an amount is, said right after it, where the model stopped short or ran on: "£80,000 in student
# loans" (tagged "£80,000 in"), "$84K base", "6 grand a month", "a 10k bonus", "₦470,000 monthly" (not "plus bonus").
_AMOUNT_KIND = re.compile(
    r"[ \t]+(?i:in[ \t]+(?:[\w-]+[ \t]+)?(?:loans?|debt|savings|stocks|shares|bonds|crypto|bitcoin|pension|401k|isa|ira|mortgage)\b"
    r"|base\b|net\b|gross\b|bonus\b|raise\b|(?:monthly|yearly|annually|weekly|hourly)\b|(?:an?|per)[ \t]+(?:year|month|week|hour)\b)"
)


def _whole_amount(text: str, start: int, end: int) -> int:
    """Where an amount tagged as text[start:end] ends: at its last word of money (the model runs on:
    "C$40,000 to savings", "CHF 132,000 plus bonus"), then past what it is, said right after it."""
    words = list(_NAME_WORD.finditer(text, start, end))
    money = [word for word in words if _MONEY.search(word[0]) or _AMOUNT.search(word[0])]
    if money and money[-1] is not words[-1]:
        end = money[-1].end()
    kind = _AMOUNT_KIND.match(text, end)
    return kind.end() if kind else end


@cache
def _learnt_conditions() -> frozenset[str]:
    from stealthflow.placeholders.tagger_data import CONDITIONS, MEDICATIONS

    return frozenset(_condition_key(value) for value in CONDITIONS + MEDICATIONS)


def _condition_key(value: str) -> str:
    return _ARTICLE_START.sub("", value.casefold())  # "a herniated disc" is "herniated disc"


def shows_as_health(text: str, start: int, end: int) -> bool:
    """Whether text[start:end], tagged as a condition, shows itself as one (see _MEDICAL_WORD)."""
    value = text[start:end]
    if _MEDICAL_WORD.search(value + _NEXT_WORDS.match(text, end)[0]) or _condition_key(value) in _learnt_conditions():
        return True
    if _HEALTH_TALK.search(sentence_around(text, start, end)) is not None:
        return True
    if (
        _PAST_PARTICIPLE.fullmatch(value)
        and _HAVE_BEFORE.search(text, max(0, start - 8), start)
        and _OBJECT_AFTER.match(text, end)
    ):
        return (
            False  # "May have overdone it": "have" helps a verb (not "He has overdosed twice", "I've been depressed")
        )
    return _HEALTH_BEFORE.search(text[max(0, start - 40) : start]) is not None and not everyday_thing(
        value.rsplit(None, 1)[-1]
    )  # not "with a pushchair", "I have extra courgettes"


# A bare shorthand amount after an article names a kind of account or a hypothetical sum ("Is a 401k better
# than a Roth IRA?", "compound interest on a 10k investment"), someone's money only where the writer or
# reader has it; with a currency ("a $236k mortgage") it is an amount someone owes or earns.
_ARTICLE = re.compile(r"(?i:(?:a|an)\s)")
_ARTICLE_BEFORE = re.compile(r"(?i:\b(?:a|an)\s+)$")
_CURRENCY = re.compile(r"[$€£¥₹₩₽₺₦₱฿₿₴₫₪]|\b(?i:dollars?|euros?|pounds?|usd|eur|gbp)\b")
# A number without a currency that counts something other than money ("20k miles", "10k steps", "5k followers").
_COUNTED_THING = re.compile(
    r"\d[\d.,]*\s*(?i:k|m|thousand|million)?\s*(?i:miles?|mi|km|kms|kilomet(?:er|re)s?|met(?:er|re)s?|feet|ft|steps|followers|subscribers|views|likes|downloads|users|calories|kcal"
    r"|words|people|visitors|streams|plays|mph|rpm|kg|kgs|lbs?|runners|members|signatures|hours|hrs)\b"
)


# A price per unit of something bought ("£1.45 a litre", "$3.89/gal", "€2 per bottle"; not per hour, week,
# month or year, as wages are paid), or a shop's offer ("3 for £2").
_PER_UNIT_OF_GOODS = re.compile(
    r"\s*(?i:a|an|per|/)\s*(?i:litre|liter|ltr|l|gallon|gal|kilo|kg|kilogram|lb|pint|bottle|can|pack|packet|bag|box|ticket|item|piece|slice|portion|serving|dozen|loaf|tin|jar|carton)\b"
)
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


_MODEL_CODE = re.compile(r"\s(?=[\w-]*\d)[A-Za-z][\w-]*$")  # a last word of letters and digits
_GENERATION = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\s+gen(?:eration)?\b")  # a product's, no floor or house number


def _a_product(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a brand's product: past a leading article, a brand and the product's
    name ("a Shimano 105 chain"), or the product's name right after its brand ("Hyundai" of "Hyundai Ioniq 6")."""
    if brand(text, _past_article(text, start, end), end):
        return True
    words = text_words(text)
    inside = words.overlapping(start, end)
    return (
        bool(inside)
        and inside[0] > 0
        and words.adjacent(inside[0] - 1, inside[0])
        and brand(text, words.spans[inside[0] - 1][0], end)
    )


def _past_article(text: str, start: int, end: int) -> int:
    """Where text[start:end] starts past a leading article ("a Shimano 105 chain")."""
    article = _ARTICLE.match(text, start, end)
    return article.end() if article else start


def _kind_of_amount(text: str, start: int, end: int, sentence: str) -> bool:
    after_article = _ARTICLE.match(text, start) or _ARTICLE_BEFORE.search(text[max(0, start - 4) : start])
    return (
        after_article is not None
        and _CURRENCY.search(text, start, end) is None
        and not names_writer_or_reader(sentence)
    )


# A sum written without its currency ("we've saved 8,500 towards the wedding"): thousands, not a year.
_BARE_SUM = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d\d)?|\d{5,}")
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
_OWNED_MONEY = re.compile(
    r"\b(?i:salar(?:y|ies)|incomes?|earn\w*|wages?|pay|pays|paid|payslip|take-?home|bring\s+home|bonus\w*|raise|offer\w*|savings?|saved|save"
    r"|debts?|owe[sd]?|owing|loans?|mortgages?|pension\w*|inherit\w*|worth|rent|budget\w*|bank|accounts?|invest\w*|portfolio"
    r"|funds?|assets?|wealth|401k|ira|make|makes|making|made|living|live\s+on|afford\w*|household|annual|expectations?)\b"
)


def ownerless_price(sentence: str) -> bool:
    """Whether an amount is a price of something: its sentence names no one (see _SOMEONE) and holds
    no word of money someone has (see _OWNED_MONEY)."""
    return _SOMEONE.search(sentence) is None and _OWNED_MONEY.search(sentence) is None


_SCORE_BEFORE = re.compile(
    r"\b(?i:scores?|beat|beats|beaten|drew\s+with|defeated|(?:won|lost)\s+(?:to|against))\b\W*$"
)  # right before the teams
_PRICE_OR_VERSION = re.compile(
    r"[$€£¥₹]\s?\d|\b[vV]?\d+\.\d+(?:\.\d+)*\b(?![.,]?\d)"
)  # no house number is priced or has decimals
_ISBN = re.compile(r"97[89](?:[- ]?\d){9}[- ]?[\dX]")  # a book's number: 13 digits opening with 978 or 979
_MONTH = r"(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?|january|february|march|april|may|june|july|august|september|october|november|december"
_DATE = re.compile(
    rf"(?i:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})(?:,?\s+\d{{4}})?|(?:{_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)"
)
_DIRECTIONS = re.compile(
    r"(?i:(?:north|south|east|west)(?:[\s-]*(?:north|south|east|west))?(?:\s+(?:and|&|or|to)\s+(?:north|south|east|west)(?:[\s-]*(?:east|west))?)*)"
)
# A number of something, not a house number: a measure ("250 g", "2 tsp", "3,492 km", "6 or 7 minutes")
# or, twice or more, a count of things to buy or cook with ("2 onions, 1 tin kidney beans").
_MEASURE = re.compile(
    r"\d+(?:[.,/]\d+)*(?:\s*(?:or|to|-|–)\s*\d+(?:[.,/]\d+)*)?\s?(?:(?:kg|mg|ml|cl|oz|lbs?|tsp|tbsp|cups?|km|kms|miles?|mi|cm|mm|ft|feet|grams?|kilos?|kilograms?|litres?|liters?|ounces?|inch(?:es)?|met(?:re|er)s?"
    r"|minutes|mins|hours|hrs|seconds|secs|(?i:minuten|stunden|sekunden|minutos|horas|segundos|heures|secondes)|degrees|°[CF]?|%|KB|MB|GB|TB|mph|kph|km/h)(?![\w/])"
    r"|[glm](?=\s+[a-z]))"  # not a postcode's "9G" or a flat's "41g,"; "40 Minuten Verspätung"
)
_COUNTED = re.compile(
    r"\b\d+\s?(?i:tins?|cans?|cloves?|pinch(?:es)?|bunch(?:es)?|slices?|packs?|packets?|bags?|bottles?|cartons?|jars?|dozen|x|eggs?|onions?|carrots?"
    r"|potatoes|tomatoes|apples?|bananas?|lemons?|limes?|peppers?|sticks?|sprigs?|handfuls?|stages|laps|rounds|sets|reps)\b"
)


_NUMBER_START = re.compile(r"(?<![\w.,])\d")  # a number's first digit, not within a code ("B9G")


def measured(text: str, start: int, end: int) -> bool:
    """Whether the numbers of text[start:end] measure or count things (see _MEASURE), as a recipe, a
    shopping list or a race's facts do: no address."""
    if any(_MEASURE.match(text, number.start()) for number in _NUMBER_START.finditer(text, start, end)):
        return True
    return len(_COUNTED.findall(text, start, end)) >= 2


def names_a_place(value: str, cased: bool) -> bool:
    """Whether an address names its street or place: a word not in lowercase (any word of 3 letters
    where the writer types no capitals) nor an uppercase code: not "LH 454 lands" (a flight),
    "SN-88213-XK" (a serial number), "TPM 2.0", "platform 9"."""
    words = re.findall(r"[^\W\d_]+", value)
    if not cased:
        return any(len(word) >= 3 for word in words)
    return any(len(word) >= 2 and not word[0].islower() and not word.isupper() for word in words)


_QUESTION_WORD = re.compile(
    r"\s*(?i:how|what|why|when|which|who|where|is|are|was|were|does|do|did|can|could|should|will|would|has|have)\b"
)


def _question(text: str, start: int, end: int) -> str | None:
    """The sentence holding text[start:end] if it asks a question: opens with a question word, ends with "?"."""
    sentence = sentence_around(text, start, end)
    stop = sentence_end(text, end)
    return sentence if _QUESTION_WORD.match(sentence) and stop is not None and text[stop.start()] == "?" else None


# A form's field name, not its value ("Condition(s): none").
_FIELD_NAME = re.compile(r"(?:\(s\))?:(?!\S)")  # not "a heart murmur :)"
# Numbers of everyday life: a time or a race time ("14:30", "2:03:40"), a score ("31-28"), a count
# joined to its thing ("3-bed", "4-slice"), a key combination ("shift+2").
_EVERYDAY_NUMBER = re.compile(
    rf"\d{{1,2}}(?::\d\d){{1,2}}(?i:[ap]m)?|\d{{1,3}}[-–]\d{{1,3}}|\d+(?:\.\d+)?-[a-z]+(?:-[a-z]+)*|{KEYS_PRESSED}"
)


_KEYS_PRESSED = re.compile(KEYS_PRESSED)
# A secret word, then what the secret opens: "the wifi password on a standard netgear router".
_SECRET_OF_BEFORE = re.compile(
    r"\b(?i:password|passcode|pin|code|login)\s+(?:for|on|of|to|at|in)\s+(?:(?i:a|an|the|my|your|our|this|that|standard|default|new|old)\s+){0,3}$"
)


def bare_secret(value: str) -> bool:
    """Whether a value no secret word introduces can still be a secret: it holds a digit ("pruning" is
    a word) and no space ("60 brownies, 48"), and is no everyday number (see _EVERYDAY_NUMBER)."""
    return (
        re.search(r"\d", value) is not None
        and re.search(r"\s", value) is None
        and _EVERYDAY_NUMBER.fullmatch(value) is None
    )


def in_context(label: str, text: str, start: int, end: int) -> bool:
    """What the value's surroundings must show, where the model alone over-reaches on text it was
    not trained on: a secret is not a number its words name as another kind ("build number X",
    "error code X", "56113 chairs") and, where no secret word introduces it, looks like one
    (bare_secret); an amount without a currency is money where someone saved, earns or owes it; a
    condition shows itself as one (shows_as_health) and is no form's field name; an employer stands
    in talk of work or study, or names an organisation; a name or an employer in lowercase is one
    only where the writer does not use capitals ("i watched the chase" is not a name in a message
    that capitalises its names), and no famous person's or place's name (public_names.py) unless
    the writer ties the person to themselves, nor a character in talk of a story (a_character); a
    condition, an amount or an employer is no one's where its sentence tells another's life
    (context.py `anothers_life`)."""
    if label in ("HEALTH", "FINANCE", "EMPLOYER") and anothers_life(text, start, end):
        return False  # "Stephen Hawking lived with ALS", "Our cat has diabetes"
    if label == "CREDENTIAL":
        if (
            named_as_other_number(text, start, end)
            or _ISBN.fullmatch(text, start, end)
            or _KEYS_PRESSED.fullmatch(text, start, end)
            or buys_a_discount(sentence_around(text, start, end))
        ):
            return (
                False  # "build number X", "978-0-261-10295-4" (a book), "Ctrl+Shift+T", "Use code SPRING20 for 20% off"
            )
        if _SECRET_OF_BEFORE.search(text[max(0, start - 48) : start]) and not any(c.isdigit() for c in text[start:end]):
            return (
                False  # "reset the wifi password on a standard netgear router": what the secret opens, not the secret
            )
        return introduced_as_secret(text, start, end) or bare_secret(text[start:end])
    if label == "ADDRESS" and (
        not names_a_place(text[start:end], cased=capitalises(text, start))
        or (starts_with_other_kind(text[start:end]) and not _STREET.search(text, start, end))
    ):
        return False  # "Platform 53641", "Invoice 2024-117": a number named as another kind, no street
    if (
        label == "ADDRESS"
        and not _STREET.search(text, start, end)
        and _SCORE_BEFORE.search(text, max(sentence_start(text, start), start - 24), start)
    ):
        return False  # "Final score: Lakers 112, Celtics 108", "Inter Miami beat Orlando 3-1": teams and their scores
    if label == "ADDRESS" and (
        landmark_address(text, start) or _DATE.fullmatch(text, start, end) or _PRICE_OR_VERSION.search(text, start, end)
    ):
        return False  # "Tate Modern", "15 April 1912", "Paperwhite $99", "Minecraft 1.20"
    if (
        label == "ADDRESS"
        and not _STREET.search(text, start, end)
        and (
            measured(text, start, end)
            or _GENERATION.search(text, start, end)
            or ("," not in text[start:end] and _a_product(text, start, end))
        )
    ):
        return False  # "2 tsp baking", "500g mince, 2 onions", "Hyundai Ioniq 6", "Kindle Paperwhite 11th gen": a recipe, a shopping list, a product
    if label == "FINANCE":
        if (
            _COUNTED_THING.match(text, start) is not None
            or _race_distance(text, start, end)
            or _MULTIBUY_BEFORE.search(text, max(0, start - 12), start)
        ):
            return False  # "20k miles", "10k followers", "ran a 5k", "3 for £2": a count, a distance or a shop's offer, not money someone has
        sentence = sentence_around(text, start, end)
        saved_or_earned = _SAVED_OR_EARNED.search(sentence) is not None
        if _PER_UNIT_OF_GOODS.match(text, end) and not saved_or_earned and _PAID.search(sentence) is None:
            return False  # "£1.45 a litre": a price (not "I'm paid £3 per bag I pack")
        if _MONEY.search(text, start, end) is None and not saved_or_earned:
            return False  # "8,500" is money only in "we've saved 8,500", not in "8,500 runners"
        if buys_a_discount(sentence) or (_BILL_TALK.search(sentence) and not saved_or_earned):
            return False  # a shop's terms, a bill shared: "ten dollars off your first order over $50", "$16 each if four of us split it"
        return not (
            impersonal_money(sentence) or _kind_of_amount(text, start, end, sentence) or ownerless_price(sentence)
        )
    if label == "HEALTH" and (
        not shows_as_health(text, start, end) or impersonal_health(text, start, end) or _FIELD_NAME.match(text, end)
    ):
        return False
    if label == "EMPLOYER":
        if (
            (capitalises(text, start) and text[start:end].islower())
            or names_a_feast(text, start, end)
            or _DIRECTIONS.fullmatch(text, start, end)
            or _WORD_OF_NO_ONE.fullmatch(text, start, end)
        ):
            return False  # no organisation ("overpay a student loan", "St. George's Day parade", "East and West", "Henry VIII")
        if _GREETED.search(text[max(0, start - 12) : start]) and _DEPARTMENT_ENDS.search(text, start, end):
            return False  # an organisation written to ("Dear Hilton Reservations,"), not where someone works
        work_talk = _WORK.search(sentence_around(text, start, end)) is not None
        if work_talk and not text.startswith(("'s", "’s"), end):
            return True
        # Without work talk, or before a possessive, no famous place or person ("the train to the Champs-Élysées":
        # its hyphen is no "Hewlett-Packard"; "Mbappé's wages at Real"); else an organisation's name or a list
        # of people and where they work shows it.
        if public_name(text, start, end) and not brand(text, start, end):  # "Google" is both
            return False
        if _MODEL_CODE.search(text, start, end) and brand(text, start, end):
            return False  # a brand's product by its model: "Sony ZV-E10", "Canon EOS R50"
        if city_and_region(text, start, end) or _SAINT_PLACE.match(text, start, end):
            return False  # "Austin, Texas", "Saint-Rémy": places, their comma or hyphen no firm's
        return (
            work_talk
            or _ORGANISATION.search(text, start, end) is not None
            or _LISTED_AFTER_SOMEONE.search(text[max(0, start - 80) : start]) is not None
        )
    if label == "REAL_NAME" and (
        not_a_name(text, start, end)
        or no_person(text, start, end)
        or (public_name(text, start, end) and not tied_to_writer(text, start, end))
        or a_character(text, start, end)
        or _condition_key(text[start:end]) in _learnt_conditions()  # "Adderall is hard to find"
    ):
        return False
    if label in ("REAL_NAME", "ADDRESS", "EMPLOYER"):
        return not public_talk(text, start, end)
    return True


_PLACE_WORDS = r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2}"
_CITY_AND_REGION = re.compile(rf"(?P<city>{_PLACE_WORDS}),\s*(?P<region>{_PLACE_WORDS})")


def city_and_region(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a place and the region or country it lies in ("Austin, Texas",
    "Portland, Oregon"): capitalised words, one comma, a country or a region (`region_names`), and no
    brand before the comma. (The comma had made it a firm's name, as in "Smith, Jones & Co".)"""
    match = _CITY_AND_REGION.fullmatch(text, start, end)
    return (
        match is not None and name_key(match["region"]) in region_names() and not brand(text, start, match.end("city"))
    )


def shipped_pii_tagger_dir() -> Path:
    return resource_dir("models") / SHIPPED


@cache
def load_pii_tagger(directory: str | None = None):
    from stealthflow.tagging import SpanTagger

    path = Path(directory) if directory else shipped_pii_tagger_dir()
    if directory and not path.exists() and (resource_dir("models") / directory).is_dir():  # a shipped one by name
        path = resource_dir("models") / directory
    if not (path / "tagger.safetensors").exists():
        raise FileNotFoundError(
            f"{path}: no PII tagger weights (train them: stealthflow tagger train; or turn the tagger off: --no-tagger / protect.tagger: false)"
        )
    return SpanTagger.load(path)


@register_recognizer
class PiiTaggerRecognizer(Recognizer):
    name, type = "pii_tagger", "REAL_NAME"  # each span carries the type the tagger gave it
    model_backed = True
    languages = frozenset({ENGLISH})  # trained on English text only
    batch_size = 32

    def __init__(self, directory: str | None = None):
        self.directory = directory

    def find(self, text: str) -> list[Span]:
        return self.find_many([text])[0]

    def find_many(self, texts: list[str], settled: list[list[Span]] | None = None) -> list[list[Span]]:
        """`settled`: the pattern recognizers' spans; the structured values among them (types the
        tagger does not label: a phone number, an email) bound its spans, so a name the model runs
        into a phone number is kept on its own instead of giving way with it; so do list markers."""
        tagger = load_pii_tagger(self.directory)
        structured = [
            [(s.start, s.end) for s in spans if s.type not in tagger.labels] for spans in settled or [[] for _ in texts]
        ]
        bounds = [
            ranges + [match.span() for match in _LIST_MARKER.finditer(text)]
            for text, ranges in zip(texts, structured, strict=True)
        ]
        try:
            tagged_texts = tagger.tag_many(texts, self.batch_size, bounds)
            return [
                self._spans_in(text, spans, ranges)
                for text, spans, ranges in zip(texts, tagged_texts, structured, strict=True)
            ]
        finally:  # none of the batch's texts stays in memory
            text_words.cache_clear()
            _secret_breaks.cache_clear()
            _kept.cache_clear()

    def _spans_in(self, text: str, tagged_spans, structured: list[tuple[int, int]]) -> list[Span]:
        spans = []
        starts, ends = sorted(start for start, _ in structured), sorted(end for _, end in structured)
        for tagged in tagged_spans:
            if tagged.label == "CREDENTIAL" and _beside(text, tagged.start, tagged.end, starts, ends):
                continue
            if span := self._span(text, tagged):
                spans += self._person_apart(text, span)
        return spans

    def _person_apart(self, text: str, span: Span) -> list[Span]:
        """An employer span that opens with a person's name and a comma, as two spans: the person, and
        the rest where it still passes as an employer ("- Pascuala Cuevas, University of Port Amy" in
        a list of people and where they work); else the span as it is. (Addresses split the same way
        lost validation address precision and recall, 0.015 each.)"""
        comma = text.find(",", span.start, span.end)
        if span.type != "EMPLOYER" or comma <= span.start or not (name := _person_in(text, span.start, comma)):
            return [span]
        rest = span.end - len(text[comma + 1 : span.end].lstrip())  # past the comma and the spaces after it
        if not _kept(span.type, text, rest, span.end):
            return [span]
        return [self.span(*name, span.score, "REAL_NAME"), self.span(rest, span.end, span.score, span.type)]

    def _span(self, text: str, tagged) -> Span | None:
        value = text[tagged.start : tagged.end]
        trim = " \t\n" if tagged.label == "CREDENTIAL" else _TRIM  # a secret keeps every character it may hold
        start = tagged.start + len(value) - len(value.lstrip(trim))
        end = tagged.end - (len(value) - len(value.rstrip(trim)))
        if tagged.label == "CREDENTIAL":
            start += secret_word_length(text[start:end])  # "password lantern42": the value only
            start += len(_LEADING_DASH.match(text, start, end)[0])  # "- mango123": not the list's dash
            end = start + len(re.sub(r"\s+[^\w\s]+$", "", text[start:end]))  # "448812 -": not the sentence's dash
            start, end = whole_secret(text, start, end)
        if tagged.label == "REAL_NAME":
            start, end = _without_identifiers(text, start, end)
        if tagged.label == "EMPLOYER" and (run_on := _POSSESSIVE_RUN_ON.search(text, start, end)):
            end = (
                run_on.start() + 2
            )  # "Duolingo's 365-day streak": the organisation, then its possessive (dropped next)
        if tagged.label == "REAL_NAME" and (owned := _POSSESSIVE_BEFORE_NAME.search(text, start, end)):
            end = owned.start() + 2  # "Terry Pratchett's Discworld": the person, then what is theirs
        if tagged.label in ("REAL_NAME", "EMPLOYER") and text.endswith(("'s", "’s"), start, end):
            end -= 2  # "Dr. Nakamura's email": the name, not its possessive
        if tagged.label == "REAL_NAME" and capitalises(text, start):
            start, end = capitalised_part(text, start, end)
        if tagged.label == "HEALTH":
            end = _whole_condition(text, end)
        if tagged.label == "FINANCE":
            end = _whole_amount(text, start, end)
        label = tagged.label
        if label == "REAL_NAME" and (
            brand(text, start, end)
            or _ORGANISATION_ENDS.search(text, start, end)
            or (_SAINT_OPENS.match(text, start, end) and _ORGANISATION.search(text, start, end))
        ):
            label = "EMPLOYER"  # a brand, a firm or a school the model took for a person ("Employer: KPMG", "Levesque BV", "St. Aidan's Academy"): kept where an employer would be
        kept = _kept(label, text, start, end)
        if not kept and label in ("ADDRESS", "EMPLOYER") and (name := _person_within(text, start, end)):
            label, (start, end) = (
                "REAL_NAME",
                name,
            )  # a person taken for a place or a company where nothing bears that out
            kept = _kept(label, text, start, end)
        return self.span(start, end, tagged.score, label) if kept else None


# The model runs an organisation on past its possessive into a number ("Duolingo's 365-day streak"):
# no firm's name goes on that way ("McDonald's", "Sainsbury's head office" do go on).
_POSSESSIVE_RUN_ON = re.compile(r"['’]s\s+(?=\d)")
# ... and a person's name past its possessive into what is theirs ("Terry Pratchett's Discworld").
_POSSESSIVE_BEFORE_NAME = re.compile(
    rf"(?<=\w)['’]s\s+(?=[A-Z])(?!(?i:{_FIRM_OR_INSTITUTION})\b)"
)  # not "'s Gravensande", "St. Mary's Academy"


def _without_identifiers(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span without the words at its ends that hold an underscore: a variable's or a key's
    name the model ran on into ("Regards, Mateo Okafor OPENAI_API_KEY=...")."""
    return _without_end_words(
        text, start, end, lambda word: "_" in word
    )  # all identifiers: as it is, and plausible() drops it


def _person_within(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where text[start:end] reads as a person's name ("Heard from Anneliese Vogt today"): the whole of
    it, or the part before its first comma ("Hans Müller, IBAN ..."), each without the lowercase
    words at its ends where the writer uses capitals ("Write to Paavo Lehtinen at ...")."""
    comma = text.find(",", start, end)
    return _person_in(text, start, end) or (_person_in(text, start, comma) if comma > start else None)


def _person_in(text: str, start: int, end: int) -> tuple[int, int] | None:
    """text[start:end] as a person's name, without the words at its ends a model ran on into
    (lowercase ones where the writer capitalises, function words where not); None if it reads as none."""
    name_start, name_end = (
        capitalised_part(text, start, end) if capitalises(text, start) else _without_function_words(text, start, end)
    )
    return (
        (name_start, name_end)
        if reads_as_person(text, name_start, name_end) and not brand(text, name_start, name_end)
        else None
    )


def _without_function_words(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] without the English function words at its ends: in chat without capitals, the
    words a model ran on into ("text kofi mensah on 07700 900123")."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return _without_end_words(text, start, end, lambda word: word.casefold() in ENGLISH_STOP_WORDS)


def _beside(text: str, start: int, end: int, starts: list[int], ends: list[int]) -> bool:
    """Whether text[start:end] touches a range of the sorted `starts` and `ends`, with no word between:
    a secret the model ran into a structured value ("token: xoxb-...", "Security answer: f59p48a97ys7ug
    Enver") is that value, which its recognizer holds; what is left beside it is its cue or a
    neighbour. Only the nearest range on each side can touch it."""
    after, before = bisect_left(starts, end), bisect_right(ends, start) - 1
    return (after < len(starts) and _WORD_CHAR.search(text, end, starts[after]) is None) or (
        before >= 0 and _WORD_CHAR.search(text, ends[before], start) is None
    )


_WORD_CHAR = re.compile(r"\w")


@lru_cache(maxsize=256)  # the spans of a long token grow to one secret: it is judged once; cleared after each batch
def _kept(label: str, text: str, start: int, end: int) -> bool:
    return end > start and plausible(label, text[start:end]) and in_context(label, text, start, end)


@cache
def _name_lexicon() -> dict[str, int]:
    from stealthflow.tagging.names import LEXICON, load_lexicon

    return load_lexicon(shipped_pii_tagger_dir() / LEXICON)


def given_name(word: str) -> bool:
    """Whether `word` is a given name of the student's name lexicon (Faker's, tagging/names.py)."""
    from stealthflow.tagging.names import GIVEN  # the tagging package loads torch: not before a tagger runs

    return bool(_name_lexicon().get(word.casefold(), 0) & GIVEN)


def reads_as_person(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] reads as a person's full name: two or three words, capitalised where the
    writer capitalises, the last a family name of the student's name lexicon (Faker's, tagging/names.py)
    and the first a given name or a word it does not know ("Anneliese Vogt", "Lindiwe Mthembu"; not "Lyme Regis")."""
    words = text[start:end].split()
    if not 2 <= len(words) <= 3 or (capitalises(text, start) and not all(word[0].isupper() for word in words)):
        return False
    from stealthflow.tagging.names import FAMILY, GIVEN  # the tagging package loads torch: not before a tagger runs

    lexicon = _name_lexicon()
    first, last = (lexicon.get(word.casefold(), 0) for word in (words[0], words[-1]))
    return bool(last & FAMILY) and (first == 0 or bool(first & GIVEN))
