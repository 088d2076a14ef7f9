"""Per-phrase generalization, the fluency comparison and the teacher rewrites (FAKE scorers and
small files made here; the real embedded model runs in test_local_anonymizer's real_model test)."""

from __future__ import annotations

import json

import pytest
from gate_fakes import ScoreByTable, floors_gate

from stealthflow.anonymize import syntax
from stealthflow.anonymize.cues import cue_training_set, teacher_cue_examples
from stealthflow.anonymize.gate import FEATURES, Gate
from stealthflow.anonymize.generalize import (
    Generalizer,
    candidates,
    generic_lexicon,
    keeps_generation,
    kin_swap,
    replace_once,
    split_mark,
    teacher_table,
    whole,
)
from stealthflow.data import DataError
from stealthflow.data.schema import Comment, Profile
from stealthflow.harvest.posts import harvest_posts, post_rows, refuse_test_profiles
from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites
from stealthflow.utility.fluency import Fluency, edit_fluency


def candidates_for(sentence: str, phrase: str, attribute: str) -> list[str]:
    start = sentence.index(phrase)
    return candidates(sentence, start, start + len(phrase), attribute)


def test_candidates_fit_the_grammatical_slot_of_the_phrase():
    sentence = "The rent in Leeds keeps going up since my husband left his job as an ER nurse."
    found = candidates_for(sentence, "in Leeds", "location")
    assert "in my city" in found and "around here" in found and "" in found  # a removable adjunct
    assert "in Leeds" not in found and len(found) == len(set(found))
    assert "my partner" in candidates_for(sentence, "my husband", "married")
    assert "" not in candidates_for(sentence, "my husband", "married")  # the subject: the sentence needs it
    # occupation's nouns never take a common noun's place (generic.yaml common_nouns: readers rejected "kitchen" ->
    # "work", "teacher" -> "my field"); its adverbials still replace the phrase around it
    assert not {"a job", "a professional", "my line of work"} & set(
        candidates_for(sentence, "an ER nurse", "occupation")
    )
    assert "on the job" in candidates_for(sentence, "as an ER nurse", "occupation")
    from stealthflow.anonymize.generalize import with_article

    assert with_article("an", "job") == "a job" and with_article("A", "engineer") == "An engineer"
    assert not any(c.startswith(("here", "around")) for c in candidates_for(sentence, "Leeds", "location"))
    # a common noun no teacher cue of the attribute ends with gets no generic stand-in ("this razor" -> "this kid" is
    # false), only its everyday kind (hypernyms.tsv)
    assert candidates_for("Honestly this razor is the best I have tried.", "this razor", "gender") == ["this tool"]


def test_a_name_that_acts_or_names_a_person_never_gets_a_place_stand_in():
    places = {*generic_lexicon()["location"].phrases, *generic_lexicon()["pobp"].phrases}
    for sentence, name in [("Biscuit cried all night.", "Biscuit"), ("Sarah is from Lagos.", "Sarah")]:
        for attribute in ("location", "pobp"):
            assert not places & set(candidates_for(sentence, name, attribute)), (sentence, attribute)
    # a place after a preposition keeps its stand-ins: a place by spaCy's type or by the gazetteer
    assert "this country" in candidates_for("Moved to Norway for work.", "Norway", "location")  # a country
    # spaCy's small model types these as people: after a preposition of place that follows a verb, they are places
    assert "my city" in candidates_for("Moved to Austin for work.", "Austin", "location")
    assert "my city" in candidates_for("Moved to Hamilton for work and the winters are brutal.", "Hamilton", "location")
    assert "my city" in candidates_for("The rent in Leeds keeps going up.", "Leeds", "location")


def test_a_name_number_or_adjective_of_another_kind_than_the_attributes_gets_no_stand_in():
    """Readers rejected "UPI" -> "The city", "One bathroom" -> "Someone bathroom", "eighteen" -> "this stage of
    life", "cosy" -> "local" (benchmarks/results/fluency_reader_seed8.jsonl)."""
    stand_ins = {
        attribute: {w.casefold() for f in ("nouns", "phrases", "adverbials") for w in getattr(s, f)}
        for attribute, s in generic_lexicon().items()
    }
    for sentence, phrase, attribute in [
        ("UPI is the one government tech thing that actually works.", "UPI", "location"),
        ("One bathroom, six people, one hot water tank.", "One", "gender"),
        ("I was eighteen and stunned as a bag of hammers.", "eighteen", "age"),
        ("The landlord calls it cosy.", "cosy", "location"),
    ]:
        found = {c.casefold() for c in candidates_for(sentence, phrase, attribute)}
        assert not found & stand_ins[attribute], (phrase, found)
    assert "my city" in candidates_for("My flat in Tacoma is now 950 a month.", "Tacoma", "location")


def test_a_phrase_about_someone_else_gets_no_stand_in_in_the_authors_words():
    """ "My boyfriend is from Cabra" never becomes "... from the place I grew up"."""
    from stealthflow.anonymize.syntax import speaks_for_author

    theirs = candidates_for("My boyfriend is from Cabra and even he was outraged.", "Cabra", "location")
    assert not any(speaks_for_author(c) for c in theirs), theirs  # never "my hometown": the origin is his
    assert not candidates_for("My boyfriend is from Cabra and even he was outraged.", "Cabra", "pobp")
    for sentence in ("Someone is from Cabra and even he was outraged.", "You grew up in Leeds?"):
        place = sentence.split()[-1].strip("?") if "Leeds" in sentence else "Cabra"
        theirs = candidates_for(sentence, place, "pobp")
        assert not any(speaks_for_author(c) for c in theirs), (sentence, theirs)
    mine = candidates_for("I am from Norway and proud of it.", "Norway", "pobp")  # "Cabra" is of no sure kind
    assert any(speaks_for_author(c) for c in mine), mine


def test_a_clause_whose_subject_names_a_person_is_about_someone_else():
    """ "My sister is from Cork": a subject that may name a person (any noun but those of
    data/generalize/thing_nouns.txt, WordNet's nouns of no person and no group); not a thing ("The rent in Cork"), nor
    the author with them ("My sister and I")."""
    from stealthflow.anonymize.generalize import about_someone_else

    for sentence, theirs in [
        ("My sister is from Cork.", True),
        ("My two roommates grew up in Cork.", True),
        ("The rent in Cork is brutal.", False),
        ("My sister and I are from Cork.", False),
        ("I'm a nurse who grew up in Cork.", False),
        ("She is a nurse who grew up in Cork.", True),
        # the author is the person too: an object of the subject or of its verb, or what the author works as
        ("The vegan in me hates Cork.", False),
        ("Nurses like me in Cork are underpaid.", False),
        ("My parents moved us to Cork when I was 5.", False),
        ("I work as a nurse who lives in Cork.", False),
        ("My whole family is from Cork.", True),  # a group of people (WordNet's noun.group, a social group)
        ("My folks grew up in Cork.", True),
        # a person word WordNet does not know, or a noun with a sense of a person or a group: maybe someone else
        ("My bestie grew up in Cork.", True),
        ("My coworker Dave is from Cork.", True),
        ("My printer is from Cork.", True),
        ("My school is in Cork.", True),
        ("My flat is in Cork.", False),  # no sense of a person or a group
    ]:
        start = sentence.index("Cork")
        assert about_someone_else(sentence, start, start + 4) == theirs, sentence


def test_the_object_of_a_preposition_is_never_dropped_alone():
    """ "She grew up in Texas" became "She grew up in.": the teacher once dropped "Texas", but dropping the object
    alone strands its preposition; the whole prepositional phrase may still go, unless it is the point of a phrasal
    verb of place (data/generalize/place_verbs.txt: "She grew up.")."""
    sentence = "She grew up in Texas."
    assert "" not in candidates_for(sentence, "Texas", "pobp")
    assert "" not in candidates_for(sentence, "in Texas", "pobp")
    sentence = "She met him in Texas."
    assert "" not in candidates_for(sentence, "Texas", "pobp")
    assert "" in candidates_for(sentence, "in Texas", "pobp")


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Every Ghanaian wedding I do, the food runs out before the dancing does.", "Ghanaian wedding"),  # "Every I do"
        ("Respect to BMRCL for that.", "BMRCL"),  # "Respect to for that."
        ("Son and Hwang carrying the team again.", "Hwang"),  # "Son and carrying"
        ("Appam and stew at 6am on Fort Kochi is what I live for.", "stew"),  # "Appam and at 6am"
    ],
)
def test_a_drop_that_leaves_a_word_without_its_head_is_never_a_candidate(sentence, phrase):
    """Blind readers' seed-10 verdicts: each of these drops was printed as protected and judged broken. Of the
    removals readers judged (seeds 2-10), 91 of 110 that leave a fragment (`syntax.strands`) were in posts judged not
    fluent, 446 of 970 of the others (benchmarks/rewrite_damage.py)."""
    start = sentence.index(phrase)
    assert syntax.strands(sentence, start, start + len(phrase))
    assert "" not in candidates_for(sentence, phrase, "location")


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("She met him in Texas.", "in Texas"),  # a whole prepositional phrase
        ("Goethe and Kafka are my favourites.", "and Kafka"),  # a conjunct with its conjunction
        ("My husband and I moved to Leeds last year.", "last year"),  # an adjunct
    ],
)
def test_a_drop_of_a_whole_constituent_leaves_no_fragment(sentence, phrase):
    start = sentence.index(phrase)
    assert not syntax.strands(sentence, start, start + len(phrase))


@pytest.mark.parametrize(
    ("sentence", "phrase", "kind"),
    [
        ("Grew up in Yorkshire and I will defend Yorkshire pudding with my life.", "and I will defend Yorkshire "
         "pudding with my life", "clause"),  # a conjunct clause: "Grew up in my hometown."
        ("Turned 50 on Monday and my kids got me a kayak.", "and my kids got me a kayak", "clause"),
        ("I moved to Leeds when I was 20.", "when I was 20", "clause"),  # a subordinate clause
        ("I speak Portuguese at home and English at work and my brain is tired by Friday.",
         "Portuguese at home and English", "object"),  # "I speak at work"
        ("Grew up between Lagos, Accra and London, so I'm never sure what to call home.",
         "between Lagos, Accra and London, so", "connective"),  # "Grew up, I'm never sure"
        # a claim about every member of a kind, none, or the most of it, widened to more than the post's
        ("Every Thai restaurant in this town is better than the ones back home.", "Thai", "claim"),
        ("No Korean place here does it right.", "Korean", "claim"),
        ("The best Thai food in town is at the market.", "best Thai", "claim"),
        ("The only Thai restaurant in town closed.", "only Thai", "claim"),  # spaCy hangs "only" on "Thai"
        ("Our only Thai restaurant closed.", "Thai", "claim"),  # never "Our only restaurant"
        ("The only Korean place here is great.", "Korean", "claim"),
    ],
)  # fmt: skip
def test_a_removal_never_takes_a_clause_or_every_object_of_a_verb_that_stays(sentence, phrase, kind):
    """Removals readers judged (seeds 2-10, benchmarks/rewrite_damage.py): of 112 that take a clause with its own verb,
    25 were in posts judged faithful (340 of 856 removals that do no damage)."""
    start = sentence.index(phrase)
    assert syntax.damage(sentence, start, start + len(phrase)) == kind
    assert syntax.strands(sentence, start, start + len(phrase))


@pytest.mark.parametrize(
    ("sentence", "phrase", "kind"),
    [
        # blind readers' seed-12 verdicts: each was printed as protected and judged not fluent
        ("Still buy Mrs Balls at the SA shop in Bibra Lake.", "Mrs", "name"),  # "Still buy Balls."
        ("Ring Road was a skating rink.", "Ring", "name"),  # "Road was a skating rink."
        ("Flew down from JFK and lost my voice on Kadooment Day.", "Kadooment", "name"),  # "on Day."
        ("The box 3 tax on our savings is bigger than some people's salary.", "than some people's salary",
         "complement"),  # "is bigger."
        ("Billable hours in Stockholm big law are no different from London, just with better coffee breaks.",
         "from London", "complement"),  # "no different, just"
        ("The hospital matches 4%, is that normal?", "4%", "complement"),  # "The hospital matches, is"
        ("My parents are still in Saltivka, the building across the road has no windows since spring.",
         "in Saltivka", "complement"),  # "My parents are still, the building"
        # blind readers' seed-13 verdicts, each judged not fluent by both readers
        ("My salary is around 36 000 kr before tax after the last raise.", "36", "fragment"),  # "around 000 kr"
        ("Driving the 80 on Parc after midnight, you see all of Montréal.", "of Montréal",
         "complement"),  # "you see all."
        # issue 47 and the readers' notes of seeds 2-12: a measure without the place it is from, a comparative
        # adverb without what it compares to, an adverb without the word it modifies
        ("The new gym is great, it's ten minutes from my kitchen.", "from my kitchen", "complement"),
        ("Yes I can reverse it. Better than your husband parks.", "than your husband parks", "complement"),
        ("I told her I can't afford a flat even with two jobs.", "with two jobs", "fragment"),  # "even."
        ("I send 1200 ringgit home, sometimes less when they cut the overtime.", "less", "fragment"),
        ("Closed at 23:00, chef left early so the sous gets the mopping speech.", "chef", "subject"),  # "left early"
        ("The aunties talk about Eastleigh like it's a different country.", "about Eastleigh", "argument"),
        ("My ex said I was married to my job.", "to my job", "argument"),  # "I was married."
        # blind readers' seeds 13, 16: the noun "the" points at, a phrasal verb whose point is its place
        ("The Sulzer RND was the best engine I ever had the misfortune of nursing.", "of nursing",
         "complement"),  # "the misfortune."
        ("Funny how I got into this off the back of a psychology degree from Cardiff.",
         "of a psychology degree from Cardiff", "complement"),  # "off the back."
        ("Grew up in Torry, three streets from the harbour.", "in Torry, three streets from the harbour",
         "complement"),  # "Grew up."
        # blind readers' seed-17 verdicts, both judged not fluent: what "the same" compares to, a name's number
        ("I was born the same year as the Federal Republic, in a Hamburg with more rubble than roofs.",
         "as the Federal Republic", "comparison"),  # "born the same year, in"
        ("Thirteen Santas is honestly a better system.", "Thirteen", "name"),  # "Santas is honestly"
        # seed 13, both judged not fluent: a counted noun the parser hung on the object, what kind a light noun is
        ("Feeding 400 miners breakfast at 4:30.", "400 miners", "object"),  # "Feeding breakfast"
        ("Tip your delivery guys. They ride in rain for you.", "delivery", "kind"),  # "Tip your guys."
    ],
)  # fmt: skip
def test_a_removal_never_takes_part_of_a_name_or_the_complement_a_word_leaves_its_clause_without(
    sentence, phrase, kind
):
    start = sentence.index(phrase)
    assert syntax.damage(sentence, start, start + len(phrase)) == kind
    assert "" not in candidates_for(sentence, phrase, "location")
    assert all(sentence[a:b] != phrase for a, b in syntax.removals(sentence, start, start + len(phrase)))


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Still buy Mrs Balls at the SA shop.", "Mrs Balls at the SA shop"),  # the whole name goes
        ("The robots are all down on William Nicol.", "William"),  # "Nicol" stays a name (seed 10, judged fine)
        ("We met in Berlin.", "in Berlin"),  # an adjunct of a verb that completes itself
        ("The tax is bigger than some people's salary in winter.", "in winter"),  # the comparison stays
        ("The hospital matches 4% of my pay.", "of my pay"),  # the verb keeps its object
        ("I miss everyone in Berlin.", "in Berlin"),  # "everyone" is a noun phrase of its own, no part of a whole
        # readers accepted these (seeds 12, 13): a noun with more than "the" before it, a phrasal verb not listed
        ("The office has a view of the Vistula, it's the only nice part of Mondays.", "of the Vistula"),
        ("My wife handles all the money of the shop, I only make coffee.", "of the shop"),
        ("My gogo still sends maputi with anyone coming down from Harare.", "from Harare"),
        # seed 2: "that" points, it names no part ("How 'bout that, amigo!?" was no reader's complaint)
        ("It ain't glamorous, but How 'bout that for a Parisian life, amigo!?", "for a Parisian life"),
    ],
)
def test_a_removal_of_a_whole_name_or_of_an_adjunct_beside_a_complement_does_no_damage(sentence, phrase):
    start = sentence.index(phrase)
    assert syntax.damage(sentence, start, start + len(phrase)) not in {"name", "complement"}


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        # the comparing word goes with what it compares to, or a comparison stays whole after the removal
        ("I was born the same year as the Federal Republic, in a Hamburg.", "the same year as the Federal Republic"),
        ("I was born the same year as my cousin, in a Hamburg with more rubble than roofs.", "in a Hamburg"),
        ("It costs more than rent in London.", "in London"),
        # a noun that names its own kind keeps its sentence's meaning without a modifier; a light noun goes whole
        ("Tip your pizza delivery drivers.", "pizza"),
        ("Tip the delivery guys in Leeds.", "in Leeds"),
        ("Feeding breakfast to 400 miners at 4:30.", "400"),
    ],
)
def test_a_removal_that_leaves_no_comparison_kind_or_count_without_its_word_does_no_such_damage(sentence, phrase):
    start = sentence.index(phrase)
    assert syntax.damage(sentence, start, start + len(phrase)) not in {"comparison", "kind", "object"}


@pytest.mark.parametrize(
    ("sentence", "phrase", "split"),
    [
        ("My salary is around 36\u00a0000 kr.", "36", True),  # a no-break space between the groups
        ("My salary is around 36\u202f000 kr.", "36", True),  # a narrow no-break space
        ("My salary is around 36 000 kr.", "000 kr", True),  # the leading group left alone
        ("My salary is around 36 000 kr.", "36 000 kr", False),  # the whole number goes
        ("In 2019 200 people came to the party.", "2019", False),  # a year before a number: two numbers
        ("Took the T-bane at quarter to four and it was packed.", "to four", True),  # issue 47: "at quarter"
        ("Took the T-bane at quarter to four and it was packed.", "at quarter to four", False),  # the whole time
    ],
)
def test_a_removal_never_takes_part_of_a_number_written_in_thousands_groups(sentence, phrase, split):
    start = sentence.index(phrase)
    span = syntax.phrase_span(syntax.parse(sentence), start, start + len(phrase))
    assert syntax.splits_number(span.doc, span.start, span.end) is split


@pytest.mark.parametrize(
    ("text", "phrase", "replacement", "expected"),
    [
        ("Pendik is a sardine experience.", "sardine", "", "Pendik is an experience."),  # seed 12, judged broken
        ("I work as an ER nurse.", "ER nurse", "nurse", "I work as a nurse."),
        ("A huge party in Leeds.", "huge", "", "A party in Leeds."),
        ("Voy a España mañana.", "España", "Europa", "Voy a Europa mañana."),  # no English article: it stays
    ],
)
def test_an_indefinite_article_agrees_with_the_word_that_follows_it_after_an_edit(text, phrase, replacement, expected):
    assert replace_once(text, phrase, replacement) == expected


def test_a_place_completing_a_phrasal_verb_alone_is_no_removal():
    """ "I grew up in Georgia and still can't handle cold weather" never becomes "I grew up and still ..."."""
    sentence = "I grew up in Georgia and still can't handle cold weather."
    start = sentence.index("Georgia")
    assert all("in Georgia" not in sentence[a:b] for a, b in syntax.removals(sentence, start, start + len("Georgia")))


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Turned 50 on Monday and my kids got me a kayak.", "on Monday"),
        ("I speak Portuguese at home and English at work.", "and English"),  # one object of two stays
        ("We went to a Thai restaurant in town.", "Thai"),  # a restaurant still: the claim holds without it
        ("Sunday on Reforma is the best thing about this city.", "about this city"),  # after its noun
    ],
)
def test_a_removal_that_leaves_each_clause_its_verb_and_each_verb_an_object_does_no_damage(sentence, phrase):
    start = sentence.index(phrase)
    assert syntax.damage(sentence, start, start + len(phrase)) is None


def test_a_cue_closing_a_noun_phrase_is_generalized_in_place_and_its_head_stays():
    """ "Twelve years as an ER nurse" never becomes "My line of work", nor "Over a decade as an ER nurse" (a range
    keeping the rest of the mark, `coarser`): the years stay, the job is generalized."""
    from stealthflow.anonymize.generalize import teacher_table

    found = candidates_for("Twelve years as an ER nurse and it shows.", "Twelve years as an ER nurse", "occupation")
    assert "Twelve years in my job" in found
    taught = teacher_table().get("twelve years as an er nurse")
    assert all(c.startswith("Twelve years") for c in found if c != taught), found
    loans = candidates_for(
        "Still paying off my student loans from Leeds Uni.", "my student loans from Leeds Uni", "education"
    )
    assert loans and all(c.startswith("my student loans") for c in loans), loans


def test_a_trailing_modifier_lies_inside_the_phrase_after_its_head():
    """The parse may attach a modifier after the phrase to its head ("My brother" of "My brother in law from Cork
    who drives buses"): that one is not the phrase's; taking it gave a start after the end, and spaCy raised."""
    sentence = "My brother in law from Cork who drives buses came over."
    doc = syntax.parse(sentence)
    for i in range(len(doc)):
        for j in range(i + 1, len(doc) + 1):
            span = doc[i:j]
            found = syntax.trailing_modifier(sentence, span.start_char, span.end_char)
            assert found is None or span.start_char < found[0] < found[1] <= span.end_char, (span.text, found)


def test_the_author_stays_in_a_subject_coordinated_with_a_pronoun():
    found = candidates_for("My husband and I are turning 30 next month.", "My husband and I", "married")
    assert "My partner and I" in found and "We" in {c.capitalize() for c in found}
    assert all(c.casefold() == "we" or c.endswith(" and I") for c in found), found  # never "People close to me"
    assert len({c.casefold() for c in found}) == len(found)


def test_the_teachers_edit_of_a_head_word_generalizes_phrases_it_never_saw(monkeypatch):
    from stealthflow.anonymize import generalize
    from stealthflow.harvest.teacher_rewrites import TeacherCue

    fake = (  # FAKE teacher cues
        TeacherCue("my husband", "married", "my partner"),
        TeacherCue("her husband", "married", "her partner"),
        TeacherCue("the wife", "married", "my partner"),  # once: not enough to reuse
        TeacherCue("a welder", "occupation", "a tradesperson"),
        TeacherCue("as a welder", "occupation", "as a tradesperson"),
        TeacherCue("and", "age", "I"),
        TeacherCue("and", "age", "I"),  # a function word heads nothing
    )
    monkeypatch.setattr(generalize, "teacher_cues", lambda: fake)
    for cached in (generalize.teacher_heads, generalize.cue_heads):
        cached.cache_clear()
    try:
        assert generalize.head_edit("our husband", "married") == "our partner"
        assert generalize.head_edit("an arc welder", "occupation") == "an arc tradesperson"
        assert generalize.head_edit("the wife", "married") is None and generalize.head_edit("and", "age") is None
        assert generalize.head_edit("my husband", "location") is None  # another attribute's edit
    finally:
        for cached in (generalize.teacher_heads, generalize.cue_heads):
            cached.cache_clear()


def test_a_name_modifying_a_noun_gets_no_place_stand_in():
    """ "death by jira tickets" never becomes "death by the city tickets"."""
    places = {*generic_lexicon()["location"].phrases, *generic_lexicon()["location"].nouns}
    for phrase in ("jira", "jira tickets"):
        found = candidates_for("honestly its death by jira tickets at work", phrase, "location")
        assert not any(place in c for c in found for place in places), (phrase, found)


def test_a_candidate_that_leaves_a_preposition_without_its_object_is_never_taken():
    from stealthflow.anonymize.generalize import whole

    assert not whole("I paid off the loans from Leeds Uni.", "I paid off the loans from.")
    assert whole("I paid off the loans from Leeds Uni.", "I paid off the loans from school.")
    assert whole("What are you looking at?", "What are you looking at?")


def test_a_common_noun_takes_only_the_stand_ins_the_teacher_used_for_it():
    """The teacher generalized "husband" with "partner", never "wedding" or "woman" with a partner or a parent."""
    assert "my partner" in candidates_for("I love my husband so much.", "my husband", "married")
    wedding = candidates_for("We are planning a courthouse wedding to save money.", "a courthouse wedding", "married")
    woman = candidates_for("I am a trans woman and this dress works.", "a trans woman", "gender")
    assert not {"a partner", "my partner"} & set(wedding) and not {"a parent", "a someone"} & set(woman), (
        wedding,
        woman,
    )


def test_no_stand_in_puts_the_author_in_place_of_someone_else_or_a_clause_behind_a_preposition():
    mum = candidates_for("Mum rang from Karachi again, asking when I'll visit.", "Mum", "gender")
    kent = candidates_for("Went to a grammar school in Kent and I loved it.", "in Kent", "pobp")
    assert not any("like me" in c for c in mum) and "in where I grew up" not in kent, (mum, kent)
    # Kent: a county and a city, no sure kind: no place stand-in
    assert not any(w in c for c in kent for w in ("region", "hometown", "city", "area")), kent


def test_a_kin_stand_in_keeps_the_generation_of_the_relative_it_replaces():
    """ "Our daughter is 3" -> "Our parent is 3" was printed as protected (the teacher once wrote "parent" where a
    daughter was): a kin word replaces a kin word only of its generation (generic.yaml `generations`)."""
    daughter = candidates_for("Our daughter is 3 and loves trains.", "Our daughter", "gender")
    assert "Our child" in daughter and not any(c.endswith("parent") for c in daughter), daughter
    assert "My parent" in candidates_for("My dad just retired last spring.", "My dad", "gender")
    assert keeps_generation("my partner", "my wife") and not keeps_generation("my kid", "my mom")
    assert keeps_generation("someone", "my wife") and keeps_generation("my city", "Leeds")


def test_a_child_parent_or_grandparent_takes_only_a_kin_word_of_its_generation():
    """Issue 47: "every girl in my grade" -> "every person", "holding mi granny hand" -> "mi family hand": readers
    took such words for a kin word 2 times in 38 (generic.yaml `kin_only`), "someone" for a partner 11 in 30."""
    assert not keeps_generation("a person", "my mom") and not keeps_generation("family", "granny")
    assert not keeps_generation("every person", "every girl") and keeps_generation("every kid", "every girl")
    assert keeps_generation("Someone", "My wife") and keeps_generation("", "my mom")
    found = candidates_for("Honestly every girl in my grade wears the same trainers.", "every girl", "gender")
    assert not any(c.split()[-1] in {"person", "people", "someone"} for c in found), found


def test_stand_ins_readers_rejected_are_not_offered():
    """generic.yaml lists no stand-in readers accepted at most 1 time in 8 on seeds 2-6 ("the place I grew up",
    "this stage of life", "people I work with")."""
    offered = {
        w.casefold()
        for s in generic_lexicon().values()
        for f in ("nouns", "phrases", "adverbials")
        for w in getattr(s, f)
    }
    assert not offered & {"the place i grew up", "this stage of life", "a certain age", "people i work with", "home"}
    # seeds 2-12 (issue 47): "a person" 1 in 25, "line of work" 0 in 19, "my hometown" 0 in 14, "my job" 1 in 13 ...
    assert not offered & {"a person", "line of work", "my hometown", "my job", "folks", "money"}
    assert not any(c.endswith("a person") for c in candidates_for("My mom is coming over.", "My mom", "gender"))
    assert "in the place I grew up" not in candidates_for("Went to a grammar school in Kent.", "in Kent", "pobp")


def test_a_stand_in_pronoun_keeps_the_slot_case():
    assert "we" not in candidates_for("I love my husband so much.", "my husband", "married")
    assert "We" in candidates_for("My husband and I moved.", "My husband and I", "married")


def test_a_marked_stretch_is_split_into_the_constituents_it_spans():
    from stealthflow.anonymize.syntax import pieces

    sentence = "Twelve years as an ER nurse and the rent here in Leeds keeps going up."
    marked = "Twelve years as an ER nurse and the rent here in Leeds"
    # "years" heads cues, "rent" none: of the rent's noun phrase only the modifier holding the name is one
    assert [sentence[a:b] for a, b in pieces(sentence, 0, len(marked), frozenset({"years"}))] == [
        "Twelve years as an ER nurse",
        "here in Leeds",
    ]
    clause = "I moved to Leeds in 2019"
    assert [clause[a:b] for a, b in pieces(clause, 0, len(clause))] == ["Leeds", "2019"]


def test_a_mark_over_several_constituents_of_a_verb_is_split_into_them():
    """ "Lagos for a desk job in Toronto" of "I left Lagos for a desk job in Toronto": the verb's object and adverbial,
    each holding a name, are generalized apart (whole, read as one noun phrase headed by "Lagos", it took none)."""
    from stealthflow.anonymize.syntax import pieces

    sentence = "Still can't believe I left Lagos for a desk job in Toronto."
    marked = "Lagos for a desk job in Toronto"
    start = sentence.index(marked)
    found = pieces(sentence, start, start + len(marked), frozenset({"job"}))
    assert [sentence[a:b] for a, b in found] == ["Lagos", "for a desk job in Toronto"]
    # constituents that do not each hold a name, or are no object and adverbial of one verb, stay one piece
    for other, marked in [
        ("I left my hometown for a desk job last year.", "my hometown for a desk job"),
        ("Mum cried from Southampton to Fremantle and Dad was sick.", "from Southampton to Fremantle"),
    ]:
        start = other.index(marked)
        assert [other[a:b] for a, b in pieces(other, start, start + len(marked), frozenset({"job"}))] == [marked]


def test_a_subject_with_the_author_in_it_stays_whole_and_a_number_leaves_its_date():
    from stealthflow.anonymize.syntax import pieces

    sentence = "My husband and I are turning 30 next month, still paying off my loans."
    marked = "My husband and I are turning 30 next month"
    assert [sentence[a:b] for a, b in pieces(sentence, 0, len(marked), frozenset({"husband"}))] == [
        "My husband and I",
        "30",
    ]


def test_a_stretch_of_several_constituents_is_generalized_piece_by_piece():
    text = "My boyfriend and I moved to Leeds in 2019."
    scorer = ScoreByTable({"My partner and I moved to Leeds in 2019.": 0.1})
    ((new, replacements),) = Generalizer(scorer, floors_gate(-1.0)).generalize(
        [text], [[("My boyfriend and I", "married")]]
    )
    assert new == "My partner and I moved to Leeds in 2019."
    # "I" is no cue; the stand-in is recorded in the teacher's case (the text capitalises it at the sentence start)
    assert [(r.phrase, r.replacement.casefold()) for r in replacements] == [("My boyfriend", "my partner")]


def test_the_teacher_table_holds_the_words_the_teacher_changed():
    from stealthflow.anonymize.generalize import teacher_table
    from stealthflow.harvest.teacher_rewrites import TeacherCue

    cue = TeacherCue("the rent here in Leeds", "location", "the rent here in my city")
    start, end, generalized = cue.core()
    assert (cue.phrase[start:end], generalized) == ("Leeds", "my city")
    assert TeacherCue("34", "age", "30-something").core() == (0, 2, "30-something")
    assert len(teacher_table()) > 2000


def test_replace_once_capitalises_at_a_sentence_start_and_tidies_a_drop():
    assert (
        replace_once("Twelve years as a nurse. Leeds is pricey.", "Leeds", "my city")
        == "Twelve years as a nurse. My city is pricey."
    )
    assert replace_once("I love it, honestly, here.", "honestly", "") == "I love it, here."
    assert replace_once("Nothing here.", "Leeds", "x") is None


def test_a_dropped_phrase_takes_the_brackets_it_filled():
    assert replace_once("Teenager here (15), is it safe?", "15", "") == "Teenager here, is it safe?"
    assert replace_once("Teenager (15) here.", "15", "") == "Teenager here."
    assert replace_once("My son [15] is sad.", "15", "") == "My son is sad."
    assert replace_once("Teenager here (15, F)", "15", "") == "Teenager here (F)"  # not "(, F)"


def test_a_stand_in_takes_the_case_of_its_slot():
    """The teacher's table writes 1 274 of its stand-ins for lowercase phrases capitalised ("here in leeds" -> "Here
    in my city"): mid-sentence a common word opening one goes to lowercase; "I", names and acronyms keep theirs."""
    assert replace_once("The rent here in Leeds is up.", "here in Leeds", "Here in my city") == (
        "The rent here in my city is up."
    )
    assert replace_once("Leeds is up. The rent here in Leeds is up.", "here in Leeds", "My city") == (
        "Leeds is up. The rent my city is up."
    )
    assert replace_once("Our dad is 60.", "Our dad", "our parent") == "Our parent is 60."
    for stand_in in ("I'm from there", "Texas", "TV"):
        assert replace_once("so anyway we went there", "we went there", stand_in) == f"so anyway {stand_in}"


def test_the_best_fluent_replacement_wins_and_dropping_comes_last():
    text = "Rent in Leeds keeps going up."
    scorer = ScoreByTable(
        {"Rent in my city keeps going up.": 0.1, "Rent keeps going up.": 0.8, "Rent here keeps going up.": 0.2}
    )
    ((new, (replacement,)),) = Generalizer(scorer, floors_gate(-1.0)).generalize([text], [[("in Leeds", "location")]])
    assert (
        new == "Rent here keeps going up." and replacement.replacement == "here"
    )  # dropping scored higher but a replacement passes


def test_dropping_is_taken_only_when_no_replacement_reads_fluently():
    scorer = ScoreByTable({"Rent keeps going up.": 0.0})
    ((new, _),) = Generalizer(scorer, floors_gate(-1.0)).generalize(
        ["Rent in Leeds keeps going up."], [[("in Leeds", "location")]]
    )
    assert new == "Rent keeps going up."


def test_a_place_no_candidate_replaces_fluently_leaves_with_the_constituent_around_it():
    """ "exploring York and Paris." never becomes "exploring my city and.": the conjunct goes with its "and"."""
    text = "I love walking old streets, exploring York and Paris. The journey was wild."
    scorer = ScoreByTable({"I love walking old streets, exploring York.": 0.5})  # no stand-in scored: all read badly
    ((new, (replacement,)),) = Generalizer(scorer, floors_gate(0.0)).generalize([text], [[("Paris", "location")]])
    assert new == "I love walking old streets, exploring York. The journey was wild."
    assert replacement.replacement == ""


def test_of_the_removals_the_gate_passes_the_smallest_is_taken():
    text = "I love walking old streets, exploring York and Paris. The journey was wild."
    scorer = ScoreByTable({"I love walking old streets, exploring York.": 0.5, "I love walking old streets.": 1.0})
    ((new, _),) = Generalizer(scorer, floors_gate(0.0)).generalize([text], [[("Paris", "location")]])
    assert new == "I love walking old streets, exploring York. The journey was wild."


def test_a_cue_no_edit_the_gate_passes_leaves_stays_reported_and_its_sentence_stays():
    """Its sentence was dropped whole without the gate ("... should we catch up or just accept loans?" lost): blind
    readers judged 83 of 472 such rewrites faithful (benchmarks/rewrite_damage.py). The cue stays, reported."""
    text = "I love walking old streets, exploring York and Paris. The journey was wild."
    ((new, (replacement,)),) = Generalizer(ScoreByTable({}), floors_gate(0.0)).generalize(
        [text], [[("Paris", "location")]]
    )
    assert new == text and replacement.replacement is None


def test_a_mark_that_does_not_give_its_attribute_away_stays_when_nothing_fits():
    """The cue tagger also marks harmless words: "the snow" marked as a place leaves only by a fluent stand-in."""
    text = "I love walking old streets, exploring York in the snow. The journey was wild."
    ((new, (replacement,)),) = Generalizer(ScoreByTable({}), floors_gate(0.0)).generalize(
        [text], [[("the snow", "location")]]
    )
    assert new == text and replacement.replacement is None


def test_a_known_place_the_small_parser_does_not_type_still_leaves():
    """spaCy's small model gives "Phuket" no entity type: the gazetteer of public names knows it as a place."""
    text = "Beaches replaced by resorts. Miss old Phuket vibes."
    scorer = ScoreByTable({"Miss old vibes.": 0.5})  # FAKE: no stand-in reads well, the removal does
    ((new, _),) = Generalizer(scorer, floors_gate(0.0)).generalize([text], [[("Phuket", "location")]])
    assert new == "Beaches replaced by resorts. Miss old vibes."


def test_a_conjunction_left_without_its_conjunct_is_not_whole():
    assert not whole("dissecting Goethe and Kafka.", "dissecting Goethe and.")
    assert not whole("Meals & museums - cook large batches.", "Meals & - cook large batches.")
    assert whole("I like Goethe and Kafka. But I do.", "I like Goethe. But I do.")


def test_a_whole_noun_phrase_stand_in_never_follows_the_determiner_of_the_marked_noun():
    found = candidates_for(
        "noticed a formerly dodgy backalley near me got turned into an artsy lane", "backalley", "location"
    )
    assert not any(c.startswith(("the ", "my ", "this ")) for c in found), found
    assert "my city" in candidates_for("I really love the pubs here in Leeds.", "Leeds", "location")


def test_a_dropped_phrase_opening_a_sentence_takes_its_dash_with_it():
    assert replace_once("Spotting constellations—I'm teaching.", "Spotting constellations", "") == "I'm teaching."


def test_edit_fluency_compares_only_the_edited_stretch_and_its_junction():
    original = ([1, 2, 3, 4, 5, 6], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0])
    assert edit_fluency(original, original) == Fluency(0.0, 0.0)
    broken = ([1, 2, 9, 5, 6], [-1.0, -1.0, -1.0, -8.0, -1.0])  # the token after the edit is unlikely
    good = ([1, 2, 9, 5, 6], [-1.0, -1.0, -1.0, -1.0, -1.0])
    assert edit_fluency(original, broken).score < -2 < edit_fluency(original, good).score


def teacher_file(tmp_path, rows):
    path = tmp_path / "rewrites.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# A teacher's rewrite of one post: its cue, what replaced it, the rewritten post.
NURSE_REWRITE = {
    "id": "u1#0",
    "text": "I work as a nurse in Leeds",
    "cues": [{"phrase": "a nurse", "attribute": "occupation", "generalized": "a carer"}],
    "explanation": '"a nurse" (occupation)',
    "rewrite": "I work as a carer in Leeds",
}


def test_teacher_rewrites_load_and_refuse_phrases_not_in_the_text(tmp_path):
    rewrites = load_teacher_rewrites(
        teacher_file(tmp_path, [NURSE_REWRITE, {"id": "u1#1", "text": "Hi", "cues": [], "rewrite": None}])
    )
    assert rewrites["u1#0"].spans() == [(10, 17, "occupation")] and rewrites["u1#1"].cues == ()
    # the cue tagger learns the words the teacher changed: "nurse" of "a nurse" -> "a carer"
    assert rewrites["u1#0"].spans(core=True) == [(12, 17, "occupation")]
    assert teacher_cue_examples(rewrites) == [("I work as a nurse in Leeds", [(12, 17, "occupation")]), ("Hi", [])]
    with pytest.raises(DataError, match=":1:"):
        load_teacher_rewrites(
            teacher_file(tmp_path, [dict(NURSE_REWRITE, cues=[{"phrase": "a doctor", "attribute": "occupation"}])])
        )
    with pytest.raises(DataError, match=":1:"):
        load_teacher_rewrites(
            teacher_file(tmp_path, [dict(NURSE_REWRITE, cues=[{"phrase": "a nurse", "attribute": "shoe size"}])])
        )


def test_the_cue_taggers_training_set_is_the_teachers_cues_then_the_posts_without_cues(tmp_path):
    teacher = teacher_file(tmp_path, [NURSE_REWRITE])
    negatives = tmp_path / "calm.txt"
    negatives.write_text("Lovely weather today.\n\nAnyone up for chess?\n", encoding="utf-8")
    examples, trained_on = cue_training_set([teacher], [negatives])
    assert examples == [
        ("I work as a nurse in Leeds", [(12, 17, "occupation")]),
        ("Lovely weather today.", []),
        ("Anyone up for chess?", []),
    ]
    assert (
        trained_on == f"the teacher's changed words of each cue in {teacher} and the posts without cues in {negatives}"
    )
    examples, trained_on = cue_training_set([teacher], [], whole_phrases=True, init=tmp_path / "tagger")
    assert examples == [("I work as a nurse in Leeds", [(10, 17, "occupation")])]
    assert (
        trained_on
        == f"{tmp_path / 'tagger'} (its weights as the start) trained further on the teacher's cue phrases in {teacher}"
    )


def test_post_rows_take_the_teachers_rewrites_and_copies(tmp_path):
    profiles = [
        Profile(id=f"u{i}", comments=[Comment(text=f"I work as a nurse {i}"), Comment(text=f"Nice day {i}")])
        for i in range(4)
    ]
    rows = []
    for i in range(4):
        rows.append(
            {
                "id": f"u{i}#0",
                "text": f"I work as a nurse {i}",
                "cues": [{"phrase": "as a nurse", "attribute": "occupation", "generalized": "in care"}],
                "explanation": '"as a nurse" names the job (occupation).',
                "rewrite": f"I work in care {i}",
            }
        )
        rows.append({"id": f"u{i}#1", "text": f"Nice day {i}", "cues": [], "rewrite": None})
    sft, _ = post_rows(profiles, copy_share=0.5, teacher=load_teacher_rewrites(teacher_file(tmp_path, rows)))
    sources = sorted(r["source"] for r in sft)
    assert sources == ["copy"] * 4 + ["teacher:generalize"] * 4
    edit = next(r for r in sft if r["source"] == "teacher:generalize")
    assert '"as a nurse"' in edit["messages"][0]["content"] and edit["messages"][-1]["content"].endswith(
        "#\nI work in care " + edit["messages"][0]["content"][-1]
    )


def test_teacher_rewrites_of_test_profiles_are_refused(repo, tmp_path):
    test_id = json.loads((repo / "data/test.jsonl").read_text().splitlines()[0])["username"]
    leaked = load_teacher_rewrites(
        teacher_file(tmp_path, [{"id": f"{test_id}#0", "text": "Hi there", "cues": [], "rewrite": None}])
    )
    with pytest.raises(ValueError, match="test profiles"):
        refuse_test_profiles([], teacher=leaked)
    with pytest.raises(ValueError, match="test profiles"):
        harvest_posts(
            [Profile(id="u1", comments=[Comment(text="x y z")])], tmp_path / "out", teacher=leaked, attack=False
        )


def test_the_shipped_teacher_rewrites_are_train_comments_only(repo):
    from stealthflow.harvest.teacher_rewrites import shipped_teacher_file

    rewrites = load_teacher_rewrites(shipped_teacher_file())
    refuse_test_profiles([], teacher=rewrites)  # raises on any test comment
    assert sum(bool(r.cues) for r in rewrites.values()) >= 700


def test_an_initial_ends_no_sentence():
    """ "Dave" shortened to "D." leaves "is from Glasgow" the coworker's: no stand-in in the author's words there."""
    from stealthflow.anonymize.generalize import sentence_around

    text = "My coworker D. is from Glasgow. I am not."
    assert text[slice(*sentence_around(text, "Glasgow"))] == "My coworker D. is from Glasgow. "
    start = text.index("Glasgow")
    assert not any(syntax.speaks_for_author(c) for c in candidates(text[:32], start, start + 7, "location"))


@pytest.mark.parametrize(
    ("text", "phrase", "sentence"),
    [
        ("The Old Stag Inn in St. Ives. Worth it!", "Old Stag Inn", "The Old Stag Inn in St. Ives. "),
        ("We live in Kumasi and the traffic at 5 p.m. is insane.", "Kumasi", None),
    ],
)
def test_an_abbreviation_ends_no_sentence_of_the_rewrite(text: str, phrase: str, sentence: str | None):
    """A removal scored in "The Old Stag Inn in St. " alone ran the words around it together ("anniversaryIves."); in
    "... the traffic at 5 p.m. " alone it took the next clause's subject ("We live at 5 p.m. is insane.")."""
    from stealthflow.anonymize.generalize import sentence_around

    assert text[slice(*sentence_around(text, phrase))] == (sentence or text)


def test_a_removal_never_takes_the_subject_of_the_clause_after_it():
    from stealthflow.anonymize.generalize import sentence_around

    text = "We live on the Ring Road in Kumasi and the traffic at 5 p.m. is insane."
    start, end = sentence_around(text, "Kumasi")
    window = text[start:end]
    taken = [window[a:b] for a, b in syntax.removals(window, window.index("Kumasi"), window.index("Kumasi") + 6)]
    assert taken and not any("traffic" in removal for removal in taken)


def test_candidates_are_scored_in_the_sentence_of_the_phrase_only():
    from stealthflow.anonymize.generalize import sentence_around

    text = "Long day today. Rent in Leeds keeps going up! Anyway, see you."
    start, end = sentence_around(text, "in Leeds")
    assert text[start:end] == "Rent in Leeds keeps going up! "
    seen = []

    class Recording(ScoreByTable):  # FAKE: records what it was asked to score
        def compare(self, originals, rewrites):
            seen.extend(originals)
            return super().compare(originals, rewrites)

    scorer = Recording({"Rent in my city keeps going up!": 0.0})
    ((new, _),) = Generalizer(scorer, floors_gate(-1.0)).generalize([text], [[("in Leeds", "location")]])
    assert new == "Long day today. Rent in my city keeps going up! Anyway, see you."
    assert set(seen) == {"Rent in Leeds keeps going up! "}


def test_the_parser_loads_only_what_the_slots_read_and_no_other_package():
    """spaCy imports every installed package's factory entry point when it builds a pipeline (Presidio's
    brought transformers' pipelines: seconds on a cold CLI); the parser skips them and the components
    syntax.py never reads, in a fresh interpreter."""
    import subprocess
    import sys

    probe = (
        "import sys; from stealthflow.anonymize import syntax; from spacy.util import registry; nlp = syntax.parser(); "
        "print(sorted(nlp.component_names), 'presidio_analyzer' in sys.modules, 'transformers' in sys.modules, "
        "registry._entry_point_factories.entry_points)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == [
        "['attribute_ruler',",
        "'ner',",
        "'parser',",
        "'stealthflow_whole_placeholders',",
        "'tagger',",
        "'tok2vec']",
        *["False"] * 2,
        "True",
    ]


def test_a_placeholder_is_one_word_of_the_parse_and_leaves_only_with_its_phrase():
    """Split into "<", "REAL_NAME_2", ">", a placeholder hung from the verb, and dropping "with my husband" left
    "I went <REAL_NAME_2> to Leeds"; as one word it is the husband's name, in apposition, and leaves with him or not at
    all (protect's gate refuses a rewrite that loses it)."""
    post = "I went with my husband <REAL_NAME_2> to Leeds."
    doc = syntax.parse(post)
    assert [t.text for t in doc][4:7] == ["husband", "<REAL_NAME_2>", "to"] and doc[5].head.text == "husband"
    start = post.index("with my husband")
    assert [post[a:b] for a, b in syntax.removals(post, start, start + len("with my husband"))] == [
        "with my husband <REAL_NAME_2>"
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm 34, and my girlfriend <REAL_NAME_14> says I spend too much at Starbucks.",  # parsed: the name the subject
        "Sorry, I'm on the MTR; my husband <REAL_NAME_23> will pick up the parcel.",  # parsed: the noun the subject
    ],
)
def test_a_relation_before_its_name_placeholder_is_the_subject_and_gets_its_stand_in(sentence):
    """A review's case: the parser reads "<REAL_NAME_14>" as the subject and "my girlfriend" as hung from the verb, so
    the clause looked like someone else's and "my partner" (in the author's words) was not offered."""
    phrase = "my girlfriend" if "girlfriend" in sentence else "my husband"
    assert "my partner" in candidates_for(sentence, phrase, "married")


class ScoreAll:
    """FAKE scorer: every rewrite scores `score`; counts the rewrites it was asked to score."""

    def __init__(self, score: float):
        self.score, self.calls = score, 0

    def compare(self, originals, rewrites):
        self.calls += len(rewrites)
        return [Fluency(self.score, 0.0) for _ in rewrites]


def test_no_trial_or_removal_drops_a_placeholder():
    """Dropping the sentence with <EMAIL_1> in it would make protect reject the whole rewrite."""
    from stealthflow.pipeline.rewrite import check_rewrite

    text = "Hi all. I live in Phuket, mail me at <EMAIL_1> for the keys."
    ((new, replacements),) = Generalizer(ScoreAll(-5.0), floors_gate(0.0)).generalize(
        [text], [[("Phuket", "location")]]
    )
    assert new.count("<EMAIL_1>") == 1
    assert check_rewrite(text, new, {"<EMAIL_1>"}).accepted  # the gate protect runs on a rewrite
    assert ("Phuket" in new) == any(r.replacement is None for r in replacements), (new, replacements)


def test_no_drop_leaves_a_placeholder_without_the_preposition_it_hung_from():
    """A review's case: "paediatric surgeon at" was dropped alone and "<REAL_NAME_42>" sent as if in apposition to the
    author's name; it leaves with its whole phrase (which protect refuses: it would lose the placeholder) or not at
    all. FAKE scorer: every edit reads fluently."""
    text = "I'm <REAL_NAME_41>, paediatric surgeon at <REAL_NAME_42>, contact <EMAIL_2>."
    start = text.index("paediatric surgeon at")
    assert syntax.damage(text, start, start + len("paediatric surgeon at")) == "fragment"
    ((new, (replacement,)),) = Generalizer(ScoreAll(0.5), floors_gate(0.0)).generalize(
        [text], [[("paediatric surgeon at", "occupation")]]
    )
    assert new == text and replacement.replacement is None


def test_a_place_is_tried_before_an_edit_beside_it_can_leave_it_its_verbs_only_complement():
    """A review's case: "at the hospital" left first (the gate passed it once "Luas" read "tram") and "in Dublin", then
    the only complement of "work", stayed named. FAKE scorer: every edit reads fluently."""
    text = "My girlfriend and I take the tram to work at the hospital in Dublin."
    ((new, _),) = Generalizer(ScoreAll(0.5), floors_gate(0.0)).generalize(
        [text], [[("the hospital", "occupation"), ("Dublin", "location")]]
    )
    assert "Dublin" not in new


def test_a_mark_opening_with_the_authors_conjunct_is_split_into_its_names():
    """A review's case: "and I" belongs to "My husband <REAL_NAME_4>" before the mark; read as the mark's head, it kept
    "and I met at Starbucks in Seattle when I was 19" one piece of no place, and "Seattle" stayed."""
    text = "My husband <REAL_NAME_4> and I met at Starbucks in Seattle when I was 19."
    start = text.index("and I met")
    assert [text[a:b] for a, b in split_mark(text, start, len(text) - 1)] == ["Starbucks", "Seattle", "19"]


def test_every_copy_of_a_repeated_phrase_is_generalized_or_reported():
    # FAKE scores: no stand-in reads fluently, every removal does
    generalizer = Generalizer(ScoreAll(-0.5), floors_gate(0.0, -1.0))
    text = "I had fun in Phuket. We were happy in Phuket last year. I miss the beaches in Phuket."
    ((new, replacements),) = generalizer.generalize([text], [[("Phuket", "location")]])
    assert new == "I had fun. We were happy last year. I miss the beaches."  # each copy leaves with its constituent
    text = "Love the beaches in Phuket. Phuket is my home. I grew up in Phuket."  # the subject copy cannot leave
    ((new, replacements),) = generalizer.generalize([text], [[("Phuket", "location")]])
    assert "Phuket" in new and any(r.replacement is None for r in replacements), (new, replacements)


@pytest.mark.parametrize(
    ("text", "phrase", "attribute"),
    [
        ("I just turned fifty last week.", "fifty", "age"),
        ("My dad is sixty-five and still runs.", "sixty-five", "age"),
        ("She told me her plans.", "She", "gender"),
        ("Rent keeps going up.", "up", "location"),
    ],
)
def test_a_marked_phrase_is_generalized_or_reported_whatever_its_words(text, phrase, attribute):
    """A stop word ("fifty", "she") is no reason to skip a phrase; one that stays is reported (None)."""
    ((new, replacements),) = Generalizer(ScoreAll(0.5), floors_gate(0.0)).generalize([text], [[(phrase, attribute)]])
    assert replacements, new
    stays = phrase in new.split() or phrase + "." in new.split()
    assert stays == any(r.replacement is None for r in replacements), (new, replacements)


def test_a_spelled_out_age_gets_no_stock_stand_in_and_is_reported():
    """Readers rejected "eighteen" -> "this stage of life" and "forty" -> "a certain age" (a number is no kind the
    age stand-ins replace): the number stays, reported as not protected, however well a stand-in would read."""
    ((new, (replacement,)),) = Generalizer(ScoreAll(0.5), floors_gate(0.0)).generalize(
        ["I just turned fifty last week."], [[("fifty", "age")]]
    )
    assert new == "I just turned fifty last week." and replacement.replacement is None, (new, replacement)


def test_a_long_run_on_sentence_costs_a_bounded_number_of_scorings():
    """Only the nearest constituents around the phrase are tried for removal, however deep the sentence nests."""
    from stealthflow.anonymize.generalize import MAX_CANDIDATES, MAX_REMOVALS

    names = ["Tom", "Ann", "Bob", "Sue", "Max", "Eve", "Jim", "Liz", "Ned", "Kay", "Sam", "Zoe"]
    chain = " ".join(f"who knew a guy called {name} with a sister" for name in names)
    text = f"I met a friend {chain} who lives in Phuket near the old market."
    scorer = ScoreAll(-0.5)  # FAKE scores: no stand-in reads fluently, every removal does
    ((new, _),) = Generalizer(scorer, floors_gate(0.0, -1.0)).generalize([text], [[("Phuket", "location")]])
    assert "Phuket" not in new
    assert scorer.calls <= MAX_CANDIDATES + 1 + MAX_REMOVALS


class FakeEmbed:
    """FAKE sentence embedder: a fixed unit vector per text (anything else: a vector of its own, near nothing)."""

    def __init__(self, table: dict[str, list[float]]):
        self.table = table

    def __call__(self, texts):
        import numpy as np

        rows = []
        for n, text in enumerate(texts):
            row = np.array(self.table.get(text, [0.0, 0.0, 0.0]) + [0.0] * 5, dtype=np.float32)
            if not row.any():
                row[3 + n % 5] = 1.0
            rows.append(row / np.linalg.norm(row))
        return np.stack(rows)


def test_a_stand_in_that_means_another_thing_is_not_tried():
    """A stand-in that reads best but lies below the meaning floor is not taken; the phrase stays, reported."""
    text = "Honestly my husband is the best cook."
    found = candidates_for(text, "my husband", "married")
    assert "my partner" in found, found  # the slot takes it
    scorer = ScoreByTable({"Honestly my partner is the best cook.": 1.0})  # FAKE: it reads well
    far = {"my husband": [1.0, 0.0, 0.0], **{c: [0.0, 1.0, 0.0] for c in found}}
    embed = FakeEmbed(far)  # FAKE: every candidate means another thing
    ((rewrite, (replacement,)),) = Generalizer(scorer, floors_gate(0.0), embed=embed).generalize(
        [text], [[("my husband", "married")]]
    )
    assert rewrite == text and replacement.replacement is None
    near = FakeEmbed({**far, "my partner": [0.9, 0.1, 0.0]})  # FAKE: near enough
    ((rewrite, _),) = Generalizer(scorer, floors_gate(0.0), embed=near).generalize(
        [text], [[("my husband", "married")]]
    )
    assert rewrite == "Honestly my partner is the best cook."


def test_a_candidate_the_gate_turns_away_gives_way_to_the_next_one():
    """The acceptance gate, not the fluency score, decides: the best-reading stand-in is turned away when the gate
    judges its words too far from the phrase's, and the next candidate the gate passes is taken."""
    text = "Honestly my husband and I are the best cooks."
    scorer = ScoreByTable(
        {"Honestly my partner and I are the best cooks.": 2.0, "Honestly we are the best cooks.": 0.5}
    )  # FAKE scores
    embed = (
        FakeEmbed(  # FAKE: both stand-ins pass the meaning floor; "partner" is far from "husband", the word it replaces
            {
                "my husband and I": [1.0, 0.0, 0.0],
                "my partner and I": [0.6, 0.8, 0.0],
                "We": [0.6, 0.8, 0.0],
                "we": [0.6, 0.8, 0.0],
                "husband": [1.0, 0.0, 0.0],
                "partner": [0.0, 1.0, 0.0],
            }
        )
    )
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("nearness")] = 1.0
    gate = Gate((0.0,) * len(FEATURES), (1.0,) * len(FEATURES), tuple(weights), -0.5, 0.5)  # FAKE: nearness >= 0.5
    ((rewrite, (replacement,)),) = Generalizer(scorer, gate, embed=embed).generalize(
        [text], [[("my husband and I", "married")]]
    )
    assert rewrite == "Honestly we are the best cooks." and replacement.replacement == "We"


def test_a_removal_never_takes_the_only_complement_of_its_verb():
    """ "My boyfriend is from Cabra and even he was outraged" never becomes "... is and even he was outraged": the
    copula's predicate, or a verb's only complement, stays; the place stays too and is reported unprotected."""
    assert syntax.removals("They're from Cork, she said, and so am I.", 15, 19) == []
    assert syntax.removals("I live in Leeds and work as a nurse.", 10, 15) == []
    sentence = "Moved to Hamilton for work and the winters are brutal."  # "for work" still completes "Moved"
    assert (6, 17) in syntax.removals(sentence, 9, 17)
    for text, place in [
        ("My boyfriend is from Cabra and even he was outraged.", "Cabra"),
        ("They're from Cork, she said, and so am I.", "Cork"),
    ]:
        ((new, (replacement,)),) = Generalizer(ScoreAll(0.0), floors_gate(0.0)).generalize(
            [text], [[(place, "pobp")]]
        )  # reads well
        assert new == text and replacement.replacement is None, new


@pytest.mark.parametrize(
    "sentence",
    [
        "<REAL_NAME_22> son got into Cambridge, while my child is doing an apprenticeship at the supermarket.",
        "Her son got into Cambridge, while my daughter is doing an apprenticeship at Tesco.",
    ],
)
def test_a_clause_set_off_by_a_comma_completes_no_verb_before_it(sentence):
    """A review's case: "got into Cambridge," was sent as "got,": the "while" clause counted as another complement of
    "got", so "into Cambridge" did not look like its only one."""
    start = sentence.index("Cambridge")
    assert syntax.removals(sentence, start, start + len("Cambridge")) == []


def test_the_kind_rules_hold_for_the_teachers_own_edits_too():
    """The teacher's table gave "kitchen" -> "work" past common_nouns: false, its head edits "30" -> "a certain age"
    although readers rejected that stand-in (generic.yaml rejected)."""
    found = candidates_for(
        'Dad had me code as "brain exercise" - kitchen still alien territory tbh!', "kitchen", "occupation"
    )
    assert "work" not in found, found
    assert "a certain age" not in candidates_for("I am 30.", "30", "age")
    # a phrase headed by a person noun takes no place stand-in for the place at its end ("As a city"); the teacher's
    # edit of the place itself ("Here in Leeds" -> "Here in my city", twice) keeps the nurse: "As a nurse in my city"
    found = candidates_for("As a nurse in Leeds, I see this every shift.", "As a nurse in Leeds", "location")
    assert not any("city" in c and "nurse" not in c for c in found), found


def test_who_the_clause_is_about_follows_relative_pronouns_and_coordinated_authors():
    from stealthflow.anonymize.generalize import about_someone_else

    def about(sentence, phrase):
        start = sentence.index(phrase)
        return about_someone_else(sentence, start, start + len(phrase))

    assert about("My boyfriend, who grew up in Cork, thinks Dublin is overrated.", "Cork")
    assert not about("My mom and I moved to Leeds from Lagos last year.", "Lagos")
    assert not about("I grew up in Cork.", "Cork")


def test_an_empty_mark_stays_reported_instead_of_raising():
    ((new, (replacement,)),) = Generalizer(ScoreAll(0.0), floors_gate(0.0)).generalize(
        ["I am from Cork."], [[("", "pobp")]]
    )
    assert new == "I am from Cork." and replacement.replacement is None


def test_a_name_glued_to_markup_in_a_marked_clause_is_a_piece_of_its_own():
    """spaCy tags "Cork</b></p" X, outside every noun phrase: the mark "My wife is from <b>Cork<" had split to "My
    wife" alone, and Cork stayed in a text reported protected."""
    text = "<p>My wife is from <b>Cork</b></p>"
    start, end = text.index("My"), text.index("Cork") + len("Cork<")
    assert any("Cork" in text[a:b] for a, b in split_mark(text, start, end))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("My boyfriend is from _Cork_ and even he was outraged.", "_Cork_"),
        ("My wife is from ~~Cork~~ and loves it", "~~Cork~~"),
        ("we live in manchester with our two kids", "manchester"),
    ],
)
def test_a_word_of_a_marked_clause_that_could_be_a_name_is_a_piece_found_whole(text, name):
    """A proper noun, a capitalised word stripped of markdown, or a lowercase place of the gazetteer, that no noun
    phrase of the clause covers, is a piece of its own, widened to the word characters glued to it (a piece is looked
    up word-bounded: "Cork" of "_Cork_" was never found, and counted as replaced)."""
    pieces = [text[a:b] for a, b in split_mark(text, 0, len(text))]
    assert name in pieces, pieces


@pytest.mark.parametrize(
    ("sentence", "piece", "left_over"),
    [
        ("I'm 19, still living with my parents, and I'm saving up.", "I'm", True),
        ("It rained all week, so we stayed in.", "so", True),
        ("Winters here are brutal, eh.", "eh", False),  # an interjection can tell a place
        ("Third Mainland Bridge this morning na punishment.", "na", False),  # Nigerian Pidgin, not a function word
        ("Mate, I've been registered four years, I'm both.", "both", True),
        ("We met two years ago.", "two", False),  # a number can tell an age
        ("My wife loves it.", "My wife", False),
        ("Got back from the gym at six.", "back from", True),  # "back": data/generalize/plain_adverbs.txt
        ("We honestly never expected it.", "honestly", True),
        ("I threw out my back again.", "my back", False),  # a noun here, not the adverb
        ("I moved back home to Lagos.", "back home to Lagos", False),  # a place tells
        ("I'm raising two boys alone.", "alone", False),  # the last word of a teacher's change: not plain
    ],
)
def test_a_piece_of_only_function_words_pronouns_or_auxiliaries_is_a_leftover(sentence, piece, left_over):
    start = sentence.rindex(piece)
    assert syntax.leftover(sentence, start, start + len(piece)) is left_over


def test_a_leftover_piece_is_no_piece_of_its_mark_unless_the_teacher_changed_it():
    """Split, "I'm 19, still living with my parents, and I'm" keeps the pieces that tell the age, not the second
    "I'm"; a mark of "so" alone leaves none; "here", which the teacher changed for a location (data/teacher-rewrites),
    stays, and so does a piece holding "she", which it changed for gender."""
    text = "I'm 19, still living with my parents, and I'm saving up for college."
    mark = "I'm 19, still living with my parents, and I'm"
    assert [text[a:b] for a, b in split_mark(text, 0, len(mark))] == ["I'm 19", "still living with my parents"]
    text = "It rained all week, so we stayed in."
    assert split_mark(text, text.index("so"), text.index("so") + 2) == []
    text = "Winters here are brutal."
    assert split_mark(text, text.index("here"), text.index("here") + 4) == [(8, 12)]
    text = "The girlfriend reckons I'll have a bad back by 40, she's optimistic."
    start = text.index("she's")
    assert syntax.leftover(text, start, start + 5) is True
    assert syntax.leftover(text, start, start + 5, teacher_table()) is False  # the teacher changed "she"


@pytest.mark.parametrize(
    ("text", "mark", "core"),
    [
        ("My wife and I finally sold the flat last week.", "My wife and I finally", "My wife and I"),
        (
            "So I'm turning 40 this year and honestly it feels strange.",
            "I'm turning 40 this year",
            "turning 40 this year",
        ),
        ("Winters here are brutal.", "here", "here"),  # the teacher changed "here" for a location: it stays whole
        ("We grew up in Leeds.", "grew up", "grew up"),  # a particle belongs to its verb
        ("She lives with her husband now.", "her husband now", "her husband"),
    ],
)
def test_the_core_of_a_piece_is_without_the_words_at_its_ends_that_tell_nothing(text, mark, core):
    start = text.index(mark)
    assert syntax.core(text, start, start + len(mark), teacher_table()) == (
        text.index(core),
        text.index(core) + len(core),
    )


@pytest.mark.parametrize(
    ("sentence", "mark", "attribute", "stand_in"),
    [
        (
            "Honestly my wife and I finally got a weekend off.",
            "my wife and I finally",
            "married",
            "my partner and I finally",
        ),
        ("Honestly my salary barely covers the rent.", "Honestly my salary", "income", "Honestly my income"),
        (
            "I'm turning 30 next month, send cake.",
            "I'm turning 30 next month",
            "age",
            "I'm having a birthday next month",
        ),
    ],
)
def test_a_piece_takes_the_stand_ins_of_its_core_with_the_words_around_it(sentence, mark, attribute, stand_in):
    """Issue 47: "My husband and I finally" was looked up whole, so the written stand-ins of "my husband and i" were
    never tried; the words at a piece's ends that tell nothing (an adverb of data/generalize/plain_adverbs.txt, a
    subject and its auxiliary) stay as written around the stand-ins of the words between, in the slot's case."""
    start = sentence.index(mark)
    assert stand_in in candidates(sentence, start, start + len(mark), attribute)


@pytest.mark.parametrize(
    ("sentence", "mark", "place"),
    [
        ("I live in Leeds, UK and the rent keeps going up.", "Leeds", "Leeds, UK"),
        ("I live in Leeds, UK and the rent keeps going up.", "UK", "Leeds, UK"),
        ("The rent here in Perth, Scotland keeps going up.", "here in Perth", "here in Perth, Scotland"),
        ("In Leeds, Tom keeps going up the walls.", "Leeds", "Leeds"),  # a person after the comma is no place
        ("Rent in Leeds, sadly, keeps going up.", "Leeds", "Leeds"),  # nor is a word that is no name
        ("Board games for two: Patchwork, Jaipur, 7 Wonders Duel.", "Jaipur", "Jaipur"),  # nor a list of no places
    ],
)
def test_a_place_written_with_its_region_is_one_place(sentence, mark, place):
    """The real parser: a name widens to the names written with it across a comma as one place."""
    start = sentence.index(mark)
    first, last = syntax.place_with_region(sentence, start, start + len(mark))
    assert sentence[first:last] == place


@pytest.mark.parametrize(
    ("sentence", "mark", "value"),
    [
        ("My students are 16-17.", "16", "16-17"),
        ("My students are 16-17.", "17", "16-17"),
        ("My kids are 16 to 17 now.", "16", "16 to 17"),
        ("Age 30, 31 next week.", "30", "30"),  # a comma joins no range
        ("I paid 15 for 2 of them.", "15", "15"),
    ],
)
def test_a_number_joined_to_another_by_a_dash_or_to_is_one_value(sentence, mark, value):
    """The real parser."""
    start = sentence.index(mark)
    first, last = syntax.number_range(sentence, start, start + len(mark))
    assert sentence[first:last] == value


def test_one_end_of_a_range_takes_no_stand_in_alone():
    """ "16" of "16-17" leaves with its range or not at all: never "under 18-17" (FAKE scorer: it rates that best)."""
    text = "My students are 16-17."
    scorer = ScoreByTable({"My students are under 18-17.": 0.0, "My students are young-17.": 0.0})
    ((new, done),) = Generalizer(scorer, floors_gate(-1.0)).generalize([text], [[("16", "age")]])
    assert "-17" not in new or new == text
    assert [r.phrase for r in done] == ["16-17"]


def test_a_removal_takes_a_place_written_with_its_region_whole():
    """ "in London" of "The winters in London, ON are brutal" never leaves "ON" behind. "Born and raised in London, ON"
    is a clause of its sentence (the parser takes "ON" for the subject of "and the winters"): no removal takes it."""
    for sentence in ["The winters in London, ON are brutal.", "I know cold winters from years in London, ON."]:
        start = sentence.index("London")
        stretches = [sentence[a:b] for a, b in syntax.removals(sentence, start, start + len("London"))]
        assert stretches and all("London, ON" in s for s in stretches), stretches
    for sentence in [
        "Born and raised in London, ON and the winters there are brutal.",
        "Born and raised in London, ON, I know cold winters.",
    ]:
        start = sentence.index("London")
        assert syntax.removals(sentence, start, start + len("London")) == [], sentence


def test_a_group_of_kin_may_become_the_family():
    """Demo post-2's "with the kids" (marked income) stayed: no stand-in of its generation fits it, and "family" was
    refused as of no generation. A plural kin word behind a possessive takes its collective (generic.yaml
    `collectives`), whatever the mark's attribute; behind "the" only in a post naming the author's own kin (a teacher's
    "the kids" are pupils); a single kin word, a count, someone else's or a phrase holding more never."""
    post = "My husband and I finally paid off the loans. Celebrating with the kids this weekend!"
    kids = "Celebrating with the kids this weekend!"
    assert "with the family" in candidates(kids, 12, 25, "income", post)
    assert not any("family" in c for c in candidates_for(kids, "with the kids", "income"))  # whose kids: unknown
    teacher = "I teach science. The kids are brilliant, the system is not."
    assert not any("family" in c for c in candidates(teacher, 17, 25, "age", teacher))
    assert "my family" in candidates_for("I still live with my parents and it's fine.", "my parents", "age")
    assert keeps_generation("my family", "kids", determiner="my") and not keeps_generation("family", "granny")
    assert keeps_generation("the family", "kids", post, "the") and not keeps_generation("the family", "kids", "", "the")
    assert not keeps_generation("my family", "kids", "", "The") and not keeps_generation("family", "kids", post, "")
    assert not any("family" in c for c in candidates_for("We have two kids and a dog.", "two kids", "age"))
    sister = "My sister's kids visit on Sundays."
    assert not any("family" in c for c in candidates_for(sister, "My sister's kids", "age"))
    assert not any("family" in c for c in candidates_for("My granny makes the best soup.", "My granny", "age"))
    iloilo = "My husband and the kids are in Iloilo, I call every night."
    assert "the family" not in candidates(iloilo, 15, 37, "location", iloilo)


def test_a_kin_swap_is_one_kin_word_for_another_of_its_generation_and_nothing_else():
    wife = "My kids now speak with an accent and my wife cries a little every time."
    assert kin_swap(wife, wife.replace("wife", "partner"))
    assert kin_swap("Her mum wants 150 guests.", "Her parent wants 150 guests.")
    assert not kin_swap("Her mum wants 150 guests.", "Her child wants 150 guests.")  # another generation
    assert not kin_swap(wife, wife.replace("my wife", "someone"))  # no kin word put in
    assert not kin_swap("Her mum wants 150 guests.", "Her parent wants guests.")  # more than the kin word changed
    assert not kin_swap("The rent in Leeds is mad.", "The rent in my city is mad.")
    assert not kin_swap("Dad used to lift me.", "Parent used to lift me.")  # a name of address, no relation


def test_the_teachers_generalization_of_a_word_is_a_candidate_only_for_its_attribute_and_when_written_twice():
    """The shipped teacher rewrites: "mother" -> "parent" (written 4 times for gender) stays a candidate; "16" ->
    "under 18" (once, for an age) never replaces a bus's number marked as a place, nor "Spanish" -> "old" (once) a
    Spanish account; a whole phrase the teacher generalized once is still its own."""
    from stealthflow.anonymize.generalize import taught_for, teacher_table

    assert taught_for("mother", "gender") == "parent"
    assert teacher_table().get("16") == "under 18" and taught_for("16", "age") is None
    assert teacher_table().get("spanish") == "old" and taught_for("Spanish", "location") is None
    assert taught_for("mother", "occupation") is None  # written for another attribute
    assert "under 18" not in candidates_for("Driving the 16 through town on a Saturday night.", "16", "location")
    assert taught_for("twelve years as an ER nurse", "occupation") == teacher_table()["twelve years as an er nurse"]


def test_a_common_noun_takes_no_stand_in_the_teacher_wrote_only_for_a_name_ending_on_it():
    """The teacher wrote "a big city" for "London town" and "around here" for "in Cape Town", never a city for the
    common noun "town": "a small town" never -> "the city", "a city" or "my city"; "an ER nurse" (capitals only: no
    name) still teaches what a nurse takes."""
    from stealthflow.anonymize.generalize import taught_words

    found = candidates_for("I'm from a small town and it's huge.", "a small town", "location")
    assert not any("city" in c for c in found), found
    assert "city" not in taught_words().get(("location", "town"), frozenset())
    assert "job" in taught_words()[("occupation", "nurse")]


def test_a_removal_never_takes_the_verb_its_sentence_says_what_it_says_with():
    """Issue 47's report: "The salary jump from Leeds paid for my partner's Spanish course and then some." became "The
    salary jump and then some." (spaCy hangs "paid" on "Leeds" as a participle, so no other check saw a clause go).
    A sentence that keeps another verb, or that had only a participle or a relative clause to lose, keeps its
    removals (readers accepted "Twenty-six years and they still think ...", "Second postdoc.")."""
    sentence = "The salary jump from Leeds paid for my partner's Spanish course and then some."
    stretch = "from Leeds paid for my partner's Spanish course"
    start = sentence.index(stretch)
    assert syntax.damage(sentence, start, start + len(stretch)) == "verb"
    at = sentence.index("Leeds")
    assert all("paid" not in sentence[a:b] for a, b in syntax.removals(sentence, at, at + len("Leeds")))
    for sentence, phrase in [
        (
            "Twenty-six years teaching history and they still think the Cold War was a Netflix series.",
            "teaching history",
        ),
        ("Second postdoc, 52k, in a city where a 4 1/2 is now 1,800.", ", 52k, in a city where a 4 1/2 is now 1,800"),
        ("300 covers, two guys on eggs and chef yelling HANDS every ten seconds.", " and chef yelling HANDS"),
    ]:
        start = sentence.index(phrase)
        assert syntax.damage(sentence, start, start + len(phrase)) != "verb", sentence


@pytest.mark.parametrize(
    ("text", "mark", "pieces"),
    [
        # issue 47's report: the clause split kept the name, not the verb that made the clause a cue
        ("When June retired we sold the house and moved closer to the grandkids.", "When June retired we sold the "
         "house", []),
        ("June retired last spring and she still bakes for us.", "June", []),
        ("Four years since Raymond passed and I gave away his fishing tackle.", "Four years since Raymond passed",
         ["Four"]),  # what else could be a name stays a piece
        ("My wife Carmela is gone three years in March.", "Carmela", ["Carmela"]),  # leaves with "My wife"
        # the author's own name, a month, a place the name lexicon also holds: pieces still
        ("Hi, I am June and I retired last year.", "June", ["June"]),
        ("Since June I have been retired.", "Since June", ["Since June"]),
        ("My mother still thinks Berlin is a temporary thing.", "Berlin", ["Berlin"]),
        ("Hamilton gets a bad rap but the gardens are lovely.", "Hamilton", ["Hamilton"]),  # blind set n-r's
    ],
)  # fmt: skip
def test_a_lone_given_name_of_someone_else_is_no_piece_of_a_mark(text, mark, pieces):
    start = text.index(mark)
    assert [text[a:b] for a, b in syntax.pieces(text, start, start + len(mark))] == pieces
