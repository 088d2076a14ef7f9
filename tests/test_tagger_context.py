"""The PII tagger's context rules (pii_tagger/filters/: each label's `plausible` and `in_context`): what a span's
surroundings must show before a model's guess is kept. Unit cases give the rule a span as the
model would (a TaggedSpan over the value, no model); the real-model test runs both shipped
taggers through the detector on distractors written for these rules and on personal messages."""

from __future__ import annotations

import pytest

from stealthflow.pii_tagger.filters import kept as filter_keeps
from stealthflow.pii_tagger.filters.address import measured
from stealthflow.pii_tagger.filters.unlisted import GATES_DECIDE
from stealthflow.pii_tagger.model import TaggedSpan, shipped_pii_tagger_dir
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer, _verified
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.placeholders.recognizers.secrets import named_as_other_number


def kept(text: str, value: str, label: str, language: str = "en") -> tuple[str, str] | None:
    """The span the recognizer keeps when the model tags `value` (its first occurrence) as `label` in a text read as
    `language`: shaped and filtered, and where no word list shows it (`GATES_DECIDE`), read by the shipped gates as
    detection reads it."""
    start = text.index(value)
    recognizer = PiiTaggerRecognizer()
    span = recognizer._span(text, TaggedSpan(start, start + len(value), label, 0.95), language == "en")
    if span is not None and GATES_DECIDE in span.reason:
        gates = [*recognizer.verifiers.values(), *recognizer.gates]
        span = next(iter(_verified(gates, [text], [[span]], [set()], [frozenset({language})])[0]), None)
    return None if span is None else (text[span.start : span.end], span.type)


DROPPED = [
    # numbers that are not secrets: no secret word before them, or a public kind of code
    ("The build number is 80132, nothing changed.", "80132", "CREDENTIAL"),
    ("Error code 92184 means the server is down.", "92184", "CREDENTIAL"),
    ("The invoice number is 48213.", "48213", "CREDENTIAL"),
    ("The model number on the fridge is RF28R7351SG.", "RF28R7351SG", "CREDENTIAL"),
    ("the area code is 0207 for central london", "0207", "CREDENTIAL"),
    ("We need 56113 chairs for the party.", "56113", "CREDENTIAL"),
    ("Python 3.12 is out.", "3.12", "CREDENTIAL"),
    # codes in capitals and digits name products, models, courses, bookings ("the code" alone does not make them secrets);
    # a date; a number with its kind in the span; a rate
    ("The code on the box is 5012-A for assembly.", "5012-A", "CREDENTIAL"),
    ("Is the Samsung QN90C worth it over the LG C3?", "QN90C", "CREDENTIAL"),
    ("Deadline is 2024-11-30 for the grant application.", "2024-11-30", "CREDENTIAL"),
    ("platform 53 for the train to big ben", "platform 53", "CREDENTIAL"),
    ("the average rent in the old town is 16927 a month", "16927", "CREDENTIAL"),
    ("Claim 2023-4471 is still under review.", "2023-4471", "CREDENTIAL"),
    ("Is a 2.4GHz wifi network slower than 5GHz?", "5GHz", "CREDENTIAL"),
    ("Is a 4 digit PIN safer than a pattern lock?", "4 digit", "CREDENTIAL"),
    ("Is 120/80 a normal blood pressure reading?", "120/80", "CREDENTIAL"),
    ("Error 0xC000021A on boot, any fixes?", "0xC000021A", "CREDENTIAL"),
    ("The PR number is 4417, can someone review it?", "4417", "CREDENTIAL"),
    ("The webinar ID is 883 1200 4419.", "883 1200 4419", "CREDENTIAL"),
    ("The model code is KD-55X85L for the Sony TV.", "KD-55X85L", "CREDENTIAL"),
    ("The part code is 7-1192-A, order it from the dealer.", "7-1192-A", "CREDENTIAL"),
    ("Does the XPS 13 9340 have a headphone jack?", "XPS 13 9340", "CREDENTIAL"),
    ("Firmware v3.8.1-rc2 bricked the router for some people.", "v3.8.1-rc2", "CREDENTIAL"),
    # amounts that are not money, or money that is no one's income
    # a place where people move, though a name too
    ("My wife and I just moved to Austin after I finished my PhD.", "Austin", "REAL_NAME"),
    ("moving back to Charlotte next year, can't wait", "Charlotte", "REAL_NAME"),
    ("My parents emigrated to Victoria in the 80s.", "Victoria", "REAL_NAME"),
    ("Thinking of moving back to Savannah when the lease ends.", "Savannah", "REAL_NAME"),
    ("She's originally from Dayton, like me.", "Dayton", "REAL_NAME"),  # where someone is from
    ("My Tesla needed new tyres after just 20k miles.", "20k miles", "FINANCE"),  # a count, not money
    ("I hit 10k followers today!", "10k", "FINANCE"),
    ("I ran a 5k in 27 minutes, a personal best.", "a 5k", "FINANCE"),  # a race's distance
    ("The marathon is 42 km but the 10k loop is more my speed", "10k", "FINANCE"),
    # a shop's code, said by what it buys
    ("Use code SPRING20 at checkout for 20% off all garden tools.", "SPRING20", "CREDENTIAL"),
    # names of no one: a form of address, a mountain, things listed with things, a famous saying
    ("Dear Sir or Madam, I am writing to ask about group tours.", "Sir", "REAL_NAME"),
    ("Dear Sir or Madam, I am writing to ask about group tours.", "Madam", "REAL_NAME"),
    ("Dear Sir or Madam, I am writing to ask about group tours.", "Sir or Madam", "REAL_NAME"),
    ("Mount Kinabalu climb, do you need a guide?", "Kinabalu", "REAL_NAME"),
    ("Holly and ivy decorations are up in the hall.", "Holly", "REAL_NAME"),
    ("Iris, tulip or daffodil bulbs for a shady spot?", "Iris", "REAL_NAME"),
    ("Elementary, my dear Watson, is never said in the stories.", "Watson", "REAL_NAME"),
    ("Who designed the Sydney Opera House, Jorn Utzon right?", "Jorn Utzon", "REAL_NAME"),  # "Jørn Utzon", typed plain
    # a condition of people in general; a shopping list is no address
    ("Is intermittent fasting safe for people with high blood pressure", "high blood pressure", "HEALTH"),
    (
        "shopping list for the chilli: 500g mince, 2 onions, 1 tin kidney beans",
        "500g mince, 2 onions, 1 tin kidney beans",
        "ADDRESS",
    ),
    ("recipe says 250 g flour and 2 tsp baking powder", "2 tsp baking", "ADDRESS"),  # numbers that measure
    ("how long to boil an egg for a runny yolk, 6 or 7 minutes?", "a runny yolk, 6", "ADDRESS"),
    (
        "The 2024 Tour de France covered 3,492 km over 21 stages",
        "2024 Tour de France covered 3,492 km over 21 stages",
        "ADDRESS",
    ),
    ("Coupon WELCOME10 takes ten dollars off your first order over $50", "$50", "FINANCE"),  # a shop's terms
    # an organisation written to; part of an institution's name; one of a kind of public things
    (
        "Dear Hilton Reservations, I would like to know whether your property offers early check-in.",
        "Hilton Reservations",
        "REAL_NAME",
    ),
    ("The Museum of New Zealand Te Papa Tongarewa is free to enter.", "Tongarewa", "REAL_NAME"),
    ("Looking for a board game like Catan but shorter", "Catan", "REAL_NAME"),
    # a breed, chat shorthand, a date, a product, directions, a firm's possessive the model ran on past
    ("Our Border Collie is bored in the flat on rainy days.", "Collie", "REAL_NAME"),
    ("brb grabbing food then we can queue ranked again", "brb", "REAL_NAME"),
    ("The Titanic sank on 15 April 1912; how long did it take to go down?", "15 April 1912", "ADDRESS"),
    ("Does the Tesla Model 3 have a better range than the Hyundai Ioniq 6?", "Hyundai Ioniq 6", "ADDRESS"),
    ("Why did the Roman Empire split into East and West?", "East and West", "EMPLOYER"),
    ("Duolingo's 365-day streak badge is weirdly motivating tbh.", "Duolingo's 365-day", "EMPLOYER"),
    # a literal of code, a monarch by their number, a book's number, a price or a version taken for an address
    ("why does my list comprehension return [None, None, None]?", "None", "REAL_NAME"),
    ("Ask me 10 quiz questions about the Tudors, starting with Henry VIII and Anne Boleyn.", "Henry VIII", "EMPLOYER"),
    ("Is 978-0-261-10295-4 the ISBN of the HarperCollins paperback of The Hobbit?", "978-0-261-10295-4", "CREDENTIAL"),
    ("Was the Kindle Paperwhite $99 or $109 during Prime Day?", "Paperwhite $99", "ADDRESS"),
    ("In Minecraft 1.20, how do I find an ancient city?", "Minecraft 1.20", "ADDRESS"),
    (
        "Reading order for Terry Pratchett's Discworld books?",
        "Terry Pratchett's Discworld",
        "REAL_NAME",
    ),  # the person (famous), not what is his
    # a festival, a bill shared, a place with a saint's hyphen
    ("What happens during Ramadan and how is Eid al-Fitr celebrated?", "Ramadan", "REAL_NAME"),
    ("Bill for the pizza came to $64, so it's $16 each if four of us split it.", "$16", "FINANCE"),
    ("Is The Starry Night based on the view from his window at Saint-Rémy?", "Saint-Rémy", "EMPLOYER"),
    ("Add 250 ml of milk and stir.", "250 ml", "FINANCE"),
    ("Gas went up to 58 cents a litre.", "58 cents a litre", "FINANCE"),
    ("Our quarterly revenue target is 2 million.", "million", "FINANCE"),
    ("A Tesla costs around 45k.", "45k", "FINANCE"),
    ("The average salary for nurses is about 38000 pounds.", "about 38000 pounds", "FINANCE"),
    ("Is a 401k better than a Roth IRA?", "a 401k", "FINANCE"),
    ("How does compound interest work on a 10k investment over 20 years?", "10k", "FINANCE"),
    ("A 4-slice toaster for £35, decent or rubbish?", "£35", "FINANCE"),
    (
        "Tickets cost 120 kr at the door.",
        "120 kr",
        "FINANCE",
    ),  # crowns, but a price  # a price: no one in the sentence, no word of someone's money
    ("Gas is $3.89 a gallon here, is that normal now?", "$3.89 a gallon", "FINANCE"),
    # famous people and places (recognizers/public_names.py), unless the writer ties them to themselves; products
    ("How many titles has Roger Federer won?", "Roger Federer", "REAL_NAME"),
    ("How many titles has Roger Federer won?", "Federer", "REAL_NAME"),
    ("whats the quickest way from Shibuya to Asakusa", "Shibuya", "REAL_NAME"),
    ("Review: the Dyson V15 picks up everything but the battery dies fast.", "the Dyson V15", "REAL_NAME"),
    # health as a topic of research or charity, next to it, with no one in the sentence
    ("A new study links atrial fibrillation to poor sleep.", "atrial fibrillation", "HEALTH"),
    ("The charity raised money for rheumatoid arthritis research.", "rheumatoid", "HEALTH"),
    # ... or asked about in general, by no one but a generic "you"
    ("How long does amoxicillin stay in your body after the last dose?", "amoxicillin", "HEALTH"),
    ("Can you take ibuprofen and paracetamol together?", "paracetamol", "HEALTH"),
    # a landmark is no address (no house number); a place is no employer outside talk of work
    ("It was 20 degrees in Alexanderplatz yesterday.", "Alexanderplatz", "ADDRESS"),
    ("Flight LH 454 lands at 14:20.", "LH 454 lands", "ADDRESS"),
    ("The serial number is SN-88213-XK.", "SN-88213-XK", "ADDRESS"),
    ("The train leaves from platform 9 at 17:45.", "platform 9", "ADDRESS"),
    ("Windows 11 needs TPM 2.0.", "TPM 2.0", "ADDRESS"),
    ("Invoice 2024-117 is still unpaid.", "Invoice 2024-117", "ADDRESS"),
    # a famous address talked about as a landmark, tied to no one
    ("10 Downing Street is smaller than it looks on TV.", "10 Downing Street", "ADDRESS"),
    ("Can you visit 221B Baker Street in London?", "221B Baker Street", "ADDRESS"),
    ("We took photos at Piccadilly Circus.", "Piccadilly Circus", "EMPLOYER"),
    ("What's the best way to get from Heathrow to Kings Cross?", "Heathrow", "EMPLOYER"),
    # public figures in public life, in part or whole, cased or not
    ("I watched an interview with Rafael Nadal.", "Rafael Nadal", "REAL_NAME"),
    ("Giorgia Meloni was on TV again last night.", "Giorgia", "REAL_NAME"),
    ("quick question joe biden was on tv again last night", "joe biden", "REAL_NAME"),
    ("Has anyone read the new biography of Winston Churchill?", "Winston Churchill", "REAL_NAME"),
    ("Jackie Chan was born in 1954, I think.", "Jackie", "REAL_NAME"),
    ("Taylor Swift's new album drops on Friday.", "Taylor Swift", "REAL_NAME"),
    ("Mount Kilimanjaro was packed with tourists.", "Kilimanjaro", "REAL_NAME"),
    ("It was 62 degrees in Stonehenge yesterday.", "Stonehenge", "REAL_NAME"),
    ("It was 9 degrees in Mount Kilimanjaro yesterday.", "Kilimanjaro", "REAL_NAME"),
    ("it was 17 degrees in machu picchu yesterday", "picchu", "REAL_NAME"),
    ("The Sagrada Familia is still unfinished.", "Familia", "REAL_NAME"),
    ("Tell me a joke about Elon Musk.", "Elon", "REAL_NAME"),
    ("Greta Thunberg spoke at the UN again.", "Greta Thunberg", "REAL_NAME"),
    ("Our book club is reading Toni Morrison this month.", "Toni", "REAL_NAME"),
    ("Zelensky addressed the parliament yesterday.", "Zelensky", "REAL_NAME"),
    ("Analyse the leadership of Jacinda Ardern during the pandemic.", "Jacinda Ardern", "REAL_NAME"),
    ("Who played Alan Turing in the film?", "Turing", "REAL_NAME"),
    ("Is Kim Kardashian still married?", "Kim Kardashian", "REAL_NAME"),
    ("how much is jeff bezos worth now", "jeff bezos", "REAL_NAME"),
    ("Did Djokovic win Wimbledon this year?", "Djokovic", "REAL_NAME"),
    # a full name asked about, or a film or song asked for
    ("Is Keanu Reeves actually nice or is that just PR?", "Keanu Reeves", "REAL_NAME"),
    ("What is Ed Sheeran's best selling song?", "Sheeran", "REAL_NAME"),
    ("How tall is Shaquille O'Neal?", "Neal", "REAL_NAME"),
    ("Recommend films like Amelie.", "Amelie", "REAL_NAME"),
    ("Play Jolene by Dolly Parton.", "Dolly", "REAL_NAME"),
    # places where a journey goes
    ("Flight 59 to Angkor Wat is boarding.", "Angkor", "REAL_NAME"),
    ("Platform 4 for the 17:32 to Manchester.", "Manchester", "REAL_NAME"),
    ("We took photos at Stonehenge. I've been a nurse since 2020.", "Stonehenge", "EMPLOYER"),
    # words that are also names, used as words
    ("Mark the invoice as paid, please.", "Mark", "REAL_NAME"),
    ("can you mark this as done", "mark", "REAL_NAME"),
    ("We should chase the supplier about the delay.", "chase", "REAL_NAME"),
    ("I need to pick up some ivy for the garden.", "ivy", "REAL_NAME"),
    # questions that open with a word that is also a name
    ("Will you be able to check my essay tonight?", "Will", "REAL_NAME"),
    ("Max out the volume, the bass is too quiet.", "Max", "REAL_NAME"),
    ("Pat yourself on the back, the release went fine.", "Pat", "REAL_NAME"),
    # everyday nouns are no conditions where nothing about health is near them; a name has two letters (in a script
    # with case); an employer in lowercase where the writer capitalises is none; a secret no word introduces has no space
    ("Recommend a good sewing machine? Mostly for hemming trousers.", "hemming", "HEALTH"),
    ("Why do my houseplants keep getting brown crispy tips?", "brown crispy", "HEALTH"),
    ("Any tips for getting a toddler to stay in their own bed?", "toddler", "HEALTH"),
    (
        "Dubai in July with a pushchair, is the metro air conditioned enough?",
        "a pushchair",
        "HEALTH",
    ),  # an everyday thing after "with"
    (
        "Pearl barley in a stew, do you need to soak it first?",
        "Pearl",
        "REAL_NAME",
    ),  # a name's word opening a sentence about a thing
    ("A drake and two ducks have moved into our pond.", "A", "REAL_NAME"),
    ("Why is everyone suddenly leaving X for Bluesky?", "X", "REAL_NAME"),
    ("Is it better to overpay a student loan or invest the money?", "overpay", "EMPLOYER"),
    ("Bake sale count: 60 brownies, 48 flapjacks, 36 cupcakes.", "60 brownies, 48", "CREDENTIAL"),
    # ... nor a time, a score, a count joined to its thing or a key combination
    ("Half marathon done in 2:03:40, just missed sub two.", "2:03:40", "CREDENTIAL"),
    ("Won 31-28 with a field goal as time expired.", "31-28", "CREDENTIAL"),
    ("A 3-bed semi round here goes for about 350k now.", "3-bed", "CREDENTIAL"),
    ("shift+2 gives me a quote mark instead of @, how do I fix it?", "shift+2", "CREDENTIAL"),
    # ux21's report M3: everyday phrases and a commit's hash raised "a secret was found, rotate your credentials"
    ("Two toddlers and a 9-to-5 at an accounting firm, anyone?", "9-to-5", "CREDENTIAL"),
    (
        "The commit is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b.",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "CREDENTIAL",
    ),
    ("MODE:err429 for the next reply", "err429", "CREDENTIAL"),
    # "as a" is talk of work only before a job and where it is done ("as a cashier at"), not "as a kid"
    ("Hobbiton tour is pricey but as a Tolkien nerd I regret nothing.", "Hobbiton", "EMPLOYER"),
    (
        "Summer fruits are on offer at Hollins Farm Shop this week.",
        "Hollins Farm Shop",
        "EMPLOYER",
    ),  # a promotion, not a job offer
    # a sum without its currency is money only where someone saved, earns or owes it; "normal" is asked about the writer
    ("8,500 runners finished the marathon this year.", "8,500", "FINANCE"),
    ("How do doctors tell a migraine apart from a normal headache?", "a migraine", "HEALTH"),
    # a place the model took for a company stays a place (not a person's name: "Regis" is no family name)
    ("Mary Anning found fossils in Lyme Regis as a girl.", "Lyme Regis", "EMPLOYER"),
    # a famous place is no organisation for its hyphen; a form's field name is no condition
    ("Flight 5139 to the Champs-Élysées is boarding.", "Champs-Élysées", "EMPLOYER"),
    ("Hey! I inherited a raise from my aunt. Condition(s): the results", "Condition", "HEALTH"),
    # names of no one the writer deals with: feasts and saints, animals and things people name, storms
    ("Happy St. Patrick's Day everyone!", "St. Patrick", "REAL_NAME"),
    ("St. George's Day parade starts at noon.", "St. George", "EMPLOYER"),
    ("St. Nicholas Day is when Dutch kids get their presents, right?", "St. Nicholas Day", "REAL_NAME"),
    ("Burns Night supper ideas that aren't haggis?", "Burns", "REAL_NAME"),
    ("St. Mary's Church has a lovely bell tower.", "St. Mary's Church", "REAL_NAME"),
    ("My dog Biscuit chewed the sofa again, any tips?", "Biscuit", "REAL_NAME"),
    ("Should I get Bella, our beagle, a raincoat?", "Bella", "REAL_NAME"),
    ("Rex, our German shepherd, barks at the postman.", "Rex", "REAL_NAME"),
    ("Pepper the hamster escaped again lol", "Pepper", "REAL_NAME"),
    ("The neighbour's cat, Smokey, sleeps in our shed.", "Smokey", "REAL_NAME"),
    ("St. Ives is packed in August.", "St", "REAL_NAME"),
    ("The robot vacuum we call Dusty got stuck under the bed.", "Dusty", "REAL_NAME"),
    ("Our sourdough starter is called Clint Yeastwood.", "Clint Yeastwood", "REAL_NAME"),
    ("Will Storm Babet flood the river again?", "Storm Babet", "REAL_NAME"),
    ("tropical storm Alberto is bringing rain to Texas", "Alberto", "REAL_NAME"),
    # AI and voice assistants in talk of AI, code or devices
    ("Is Claude better than Gemini for coding?", "Claude", "REAL_NAME"),
    ("Alexa, set a timer for ten minutes.", "Alexa", "REAL_NAME"),
    ("Hey Siri, remind me to call mum.", "Siri", "REAL_NAME"),
    ("Ask Copilot to write the regex.", "Copilot", "REAL_NAME"),
    # sayings and stand-in names
    ("Bob's your uncle, job done.", "Bob", "REAL_NAME"),
    ("Simon says touch your nose.", "Simon", "REAL_NAME"),
    ("It's not for every Tom, Dick and Harry.", "Tom, Dick", "REAL_NAME"),
    ("Fill in the form as John Doe for the test account.", "John Doe", "REAL_NAME"),
    ("Don't rob Peter to pay Paul with your credit cards.", "Paul", "REAL_NAME"),
    ("Santa Claus is coming to the shopping centre on Saturday.", "Santa", "REAL_NAME"),
]

# another's life: a famous person's, an animal's, a thing's, a character's, people's in general
DROPPED += [
    ("Stephen Hawking lived with ALS for more than fifty years.", "ALS", "HEALTH"),
    ("Lionel Messi earns around $60 million a year at Inter Miami.", "$60 million a year", "FINANCE"),
    ("Michael J. Fox has Parkinson's and started a foundation for research.", "Michael J. Fox", "EMPLOYER"),
    ("Apparently Kim Kardashian has psoriasis.", "psoriasis", "HEALTH"),
    ("Did Jeff Bezos really work at McDonald's as a teenager?", "McDonald", "EMPLOYER"),
    ("The King's cancer diagnosis was announced in February.", "cancer", "HEALTH"),
    ("Mbappé's wages at Real are lower than what PSG paid him.", "Mbappé", "EMPLOYER"),
    ("Our cat has diabetes and needs insulin twice a day.", "insulin", "HEALTH"),
    ("My horse has laminitis so no riding this week.", "laminitis", "HEALTH"),
    ("In the show, the detective has OCD and it drives the plot.", "OCD", "HEALTH"),
    ("A junior developer in Berlin earns about 50k euros.", "50k euros", "FINANCE"),
    ("Average teacher pay in the US is around 70k.", "around 70k", "FINANCE"),  # "US" is no "us"
    ("US researchers say a new study links migraines to poor sleep.", "migraines", "HEALTH"),
    ("Drink plenty of water to avoid kidney stones.", "kidney stones", "HEALTH"),
    ("Lisa Su took over AMD when it was close to bankrupt.", "AMD", "HEALTH"),  # an acronym alone is no condition
    ("Adderall is hard to find in pharmacies this month.", "Adderall", "REAL_NAME"),  # a medicine the tagger learnt
]

# from the blind batches: emoji, prices, products, scores, conditions as kinds, stories, keys pressed
DROPPED += [
    ("Rain again in Manchester, shocking absolutely nobody ☔", "☔", "REAL_NAME"),
    ("Petrol at £1.45 a litre at the Tesco by the ring road, cheapest I've seen in months", "£1.45", "FINANCE"),
    ("Ruby red grapefruit is on offer, 3 for £2, stocking up.", "£2", "FINANCE"),
    ("70% of the way through my couch to 5k program and enjoying it.", "5k", "FINANCE"),
    ("Your order total comes to $47.82 including shipping and tax.", "$47.82", "FINANCE"),
    (
        "Die Deutsche Bahn hat schon wieder 40 Minuten Verspätung.",
        "Deutsche Bahn hat schon wieder 40 Minuten Verspätung",
        "ADDRESS",
    ),
    ("which is healthier, brown rice or quinoa, per 100 grams", "quinoa, per 100 grams", "ADDRESS"),
    ("The Kindle Paperwhite 11th gen is honestly all you need.", "Kindle Paperwhite 11th gen", "ADDRESS"),
    ("Compare the Tesla Model 3 and the Hyundai Ioniq 6 for range in winter.", "Ioniq 6", "ADDRESS"),
    ("Final score: Lakers 112, Celtics 108 after a late three-pointer.", "Lakers 112, Celtics 108", "ADDRESS"),
    ("Lionel Messi scored twice as Inter Miami beat Orlando 3-1 on Saturday.", "Orlando 3-1", "ADDRESS"),
    ("Which is better for beginners, Canon EOS R50 or Sony ZV-E10?", "Sony ZV-E10", "EMPLOYER"),
    ("Elden Ring DLC final boss is absolutely unfair, took me 63 tries lol", "Elden Ring DLC", "EMPLOYER"),
    ("Explain the difference between a virus and bacteria.", "virus", "HEALTH"),
    ("The pharmacy on the high street is doing flu shots this week.", "flu", "HEALTH"),
    ("The radio says to keep windows shut if you get hay fever.", "hay fever", "HEALTH"),
    ("May have overdone it at the gym, can barely walk today.", "overdone", "HEALTH"),
    ("Anyone at the allotment on Sunday? I have extra courgettes to give away.", "extra courgettes", "HEALTH"),
    (
        "The secret to a good sourdough is a healthy starter and a long, cold fermentation.",
        "cold fermentation",
        "HEALTH",
    ),
    ("Hot take: Walter White was never a good person, not even in season 1", "Walter White", "REAL_NAME"),
    ("Sherlock series 4 ruined the whole show for me, Moriarty deserved better writing", "Moriarty", "REAL_NAME"),
    ("Which Zelda game should I play first?", "Zelda", "REAL_NAME"),
    ("How is Ramadan observed and when does it start this year?", "Ramadan", "REAL_NAME"),
    ("how do i reset the wifi password on a standard netgear router", "netgear", "CREDENTIAL"),
    # a famous place after "from", "to", "in" is a place, even in talk of work (ux19's report M5: kept as an employer,
    # "Glasgow" was then masked as EMPLOYER wherever it came again in the session: "we just moved to <EMPLOYER_2>")
    (
        "Twenty years as a teacher and my back hurts; Rafael Ortega from Glasgow recommended a physio.",
        "Glasgow",
        "EMPLOYER",
    ),
    ("I work as a nurse and we just moved to Belfast.", "Belfast", "EMPLOYER"),
    # ... while what an author wrote is still public life
    ("Agatha Brennan wrote three bestselling novels before 1950.", "Agatha Brennan", "REAL_NAME"),
    ("Press the key combination Ctrl+Shift+T to reopen the last closed tab.", "Ctrl+Shift+T", "CREDENTIAL"),
]

KEPT = [
    # a room rented or lent at an address is no public work's room (benchmarks/results/pii_address_room_and_number.md)
    ("We are renting a room at Cerhenická 61 until March.", "Cerhenická 61", "ADDRESS"),
    (
        "Write a welcome note for the guests in my spare room at Tulpstraat 22-III, 1071 KX Amsterdam.",
        "Tulpstraat 22-III, 1071 KX Amsterdam",
        "ADDRESS",
    ),
    # "No." before a house number ends no sentence: the span keeps its street
    (
        "Please forward my post to Door No. 70, Banyan Street, Kochi 682020 until March.",
        "Door No. 70, Banyan Street, Kochi 682020",
        "ADDRESS",
    ),
    # a correspondent, not an author: "wrote" is public life only when what follows is not addressed to the writer
    # or about their matter (ux19's report H1: every name of 20 000 "Case N: NAME wrote about the ..." tickets stayed)
    ("Margaret Lindqvist wrote to us yesterday.", "Margaret Lindqvist", "REAL_NAME"),
    ("Case 1042: Ingrid Hoffmann wrote about the refund for her broken laptop.", "Ingrid Hoffmann", "REAL_NAME"),
    ("Tobias Wren wrote back within the hour.", "Tobias Wren", "REAL_NAME"),
    # the person in the writer's life beside talk of a story; the condition, the wage, the address beside these rules' words
    ("Kevin hates spoilers so don't tell him anything about the finale.", "Kevin", "REAL_NAME"),
    ("Watched the final season with Marco last night, what a ride.", "Marco", "REAL_NAME"),
    ("Rahul keeps quoting the villain from season 4 at every dinner.", "Rahul", "REAL_NAME"),
    ("Chidinma was diagnosed with sickle cell anaemia and has crisis episodes every winter.", "Chidinma", "REAL_NAME"),
    ("I've been depressed since the move.", "depressed", "HEALTH"),
    ("My mum has asthma, and her GP says it isn't COPD.", "asthma", "HEALTH"),
    ("I earn $19 an hour at the depot.", "$19 an hour", "FINANCE"),
    (
        "My total take-home is £2,100 a month.",
        "£2,100 a month",
        "FINANCE",
    ),  # an order total is a price; "total" alone is not
    ("I'm paid £3 per bag I pack at the warehouse.", "£3", "FINANCE"),
    ("My brother has overdosed twice this year.", "overdosed", "HEALTH"),
    ("Ramadan celebrated his birthday at the office on Friday.", "Ramadan", "REAL_NAME"),
    ("Deliver it to Aldi Kerkstraat 12, Utrecht please.", "Kerkstraat 12, Utrecht", "ADDRESS"),
    ("The wifi password for the cabin is lantern42.", "lantern42", "CREDENTIAL"),
    # the people listed beside a word that is also a name; money beside a race word; a condition of someone
    ("Holly and Sam are coming over for dinner.", "Holly", "REAL_NAME"),
    ("Tom and kids send their love.", "Tom", "REAL_NAME"),
    ("I got a 5k bonus at work for finishing the project.", "a 5k bonus", "FINANCE"),
    ("My dad lives with high blood pressure.", "high blood pressure", "HEALTH"),
    ("The parcel goes to 12 Orchard Road, 2 doors down from the bakery.", "12 Orchard Road", "ADDRESS"),
    (
        "I started at Sainsbury's head office in May.",
        "Sainsbury's head office",
        "EMPLOYER",
    ),  # a firm's name past its possessive, in lowercase words
    ("Forward it to Jesse VI Okafor by Monday.", "Jesse VI Okafor", "REAL_NAME"),  # initials, not a monarch's number
    (
        "I bought a gift for Ramadan, he starts at the bank on Monday.",
        "Ramadan",
        "REAL_NAME",
    ),  # a person called Ramadan
    (
        "We split the bill, but I earn $72,000 a year as a teacher.",
        "$72,000 a year",
        "FINANCE",
    ),  # a salary beside a bill shared
    ("I split my week between Google and Meta as a contractor.", "Google and Meta", "EMPLOYER"),  # work talk
    # crowns with spaced thousands: "kr" is money
    ("I make kr 50 000 a month before tax.", "kr 50 000 a month", "FINANCE"),
    ("My salary is 45 000 kr per month.", "45 000 kr per month", "FINANCE"),
    # another's life, next to the writer's
    ("Selena Gomez and my sister both have lupus.", "lupus", "HEALTH"),
    ("Grandad has Parkinson's, just like Michael J. Fox.", "Parkinson's", "HEALTH"),
    ("Our dog walker has Crohn's and can't come this week.", "Crohn's", "HEALTH"),
    ("Paris has asthma and can't come to PE.", "asthma", "HEALTH"),  # one word, also a given name
    ("Amazon just promoted me to team lead!", "Amazon", "EMPLOYER"),
    ("A month after the surgery the hernia came back.", "hernia", "HEALTH"),  # no people in general
    (
        "frida kahlo scored twice in the second half the new job pays 5 million yen",
        "5 million yen",
        "FINANCE",
    ),  # no telling where a sentence ends
    # the people around the pets, feasts and saints above
    ("Our dog walker Sarah Okafor is on holiday, can you recommend someone?", "Sarah Okafor", "REAL_NAME"),
    ("Sarah, our dog walker, is on holiday.", "Sarah", "REAL_NAME"),
    ("Can you feed the cat, Tomasz? I'm stuck at work.", "Tomasz", "REAL_NAME"),
    ("Claude said he'd be late to the meeting.", "Claude", "REAL_NAME"),
    ("Simon said he'd bring the cake.", "Simon", "REAL_NAME"),
    ("Tom, Dick's brother, is coming too.", "Tom", "REAL_NAME"),
    ("Tell Alexa the code for the gate is on the fridge.", "Alexa", "REAL_NAME"),
    ("My friend Claude is learning python.", "Claude", "REAL_NAME"),
    ("fyi i work at leonard wright and day and need to ask for a raise", "leonard wright and day", "EMPLOYER"),
    ("shoutout to aoibhinn reid for fixing my bike tobias foody will join the call", "tobias foody", "REAL_NAME"),
    ("Can you remind Patrick that his birthday dinner is on St. Patrick's Day?", "Patrick", "REAL_NAME"),
    ("My sister Holly had her baby on Valentine's Day!", "Holly", "REAL_NAME"),
    ("Milton Adeyemi is coming to fix the boiler tomorrow.", "Milton Adeyemi", "REAL_NAME"),
    ("Our neighbour Finn Larsen lent us his boat for the weekend.", "Finn Larsen", "REAL_NAME"),
    ("Since 2016 I have worked for St. Loretta's Academy.", "St. Loretta's Academy", "EMPLOYER"),
    # secrets introduced by a secret word, before or after
    ("The gate code is 4471, see you Saturday!", "4471", "CREDENTIAL"),
    ("Login for the router: admin / velvet-harbor-12", "velvet-harbor-12", "CREDENTIAL"),
    ("use copper771 to open the lockbox", "copper771", "CREDENTIAL"),
    ("Security answer: sunflower", "sunflower", "CREDENTIAL"),
    ("the wifi at the cabin is tiger-orbit-7", "tiger-orbit-7", "CREDENTIAL"),
    ("the wifi password is 9-to-5, believe it or not", "9-to-5", "CREDENTIAL"),  # a secret word still wins
    ("the commit's deploy token is a9f3k2m81q", "a9f3k2m81q", "CREDENTIAL"),
    ("k7q2zp9m is my password, don't share it", "k7q2zp9m", "CREDENTIAL"),
    ("Got a text from the bank: 448812. What now?", "448812", "CREDENTIAL"),
    ("The SMS said 448812.", "448812", "CREDENTIAL"),
    ("my phone passcode is 4471", "4471", "CREDENTIAL"),
    ("verification code: K7Q2ZP", "K7Q2ZP", "CREDENTIAL"),
    # money in any of the ways people write it
    ("I earn $72,000 a year.", "$72,000 a year", "FINANCE"),
    ("They offered me 85k plus bonus.", "85k", "FINANCE"),
    ("My pension pot is 240 grand.", "240 grand", "FINANCE"),
    ("My salary is ₹12 lakh.", "₹12 lakh", "FINANCE"),
    ("I have 3 BTC in a cold wallet.", "3 BTC", "FINANCE"),
    ("we live on R45 000 per month", "R45 000 per month", "FINANCE"),
    ("We have two million in the bank.", "two million", "FINANCE"),
    ("I'm trying to sell my car, it's worth 12k.", "12k", "FINANCE"),
    # addresses with a house number, employers in talk of work or named as organisations
    ("Ship it to Kastanienallee 12, 10435 Berlin please.", "Kastanienallee 12, 10435 Berlin", "ADDRESS"),
    ("I was let go from Vantage Insurance yesterday.", "Vantage Insurance", "EMPLOYER"),
    ("Three years at Brightline Logistics today. Thanks everyone!", "Brightline Logistics", "EMPLOYER"),
    ("- Raymond Vidal, Gute GmbH", "Gute GmbH", "EMPLOYER"),
    # people tied to the writer, even next to words of public life
    ("My brother Kofi Mensah won an award at school today!", "Kofi Mensah", "REAL_NAME"),
    ("I had an interview with Sarah Lindqvist at the bank today.", "Sarah Lindqvist", "REAL_NAME"),
    ("We watched a movie with Chloe Martin last night.", "Chloe Martin", "REAL_NAME"),
    ("Tell Mark the meeting moved to Thursday.", "Mark", "REAL_NAME"),
    ("lol mark you were right", "mark", "REAL_NAME"),
    ("Jamal and I are going to the concert on Friday.", "Jamal", "REAL_NAME"),
    ("We watched the final at Priya's place.", "Priya", "REAL_NAME"),
    ("Maria said the essay was fine.", "Maria", "REAL_NAME"),  # first in its sentence, then a verb: no question
    ("Chen of all people forgot the password, lol.", "Chen", "REAL_NAME"),
    ("Anna, will you check my essay tonight?", "Anna", "REAL_NAME"),
    ("I'm flying to see Maria next week.", "Maria", "REAL_NAME"),
    ("The ticket moved to Sam after standup.", "Sam", "REAL_NAME"),  # a thing moves to a person
    ("The card is from Savannah, so sweet.", "Savannah", "REAL_NAME"),  # what comes from someone
    ("I think the ticket moved to Sam.", "Sam", "REAL_NAME"),
    ("I'm moving in with Austin next month.", "Austin", "REAL_NAME"),
    ("We moved to Emma's place for the summer.", "Emma", "REAL_NAME"),
    ("My husband moved to Grant Thornton in January.", "Grant Thornton", "REAL_NAME"),  # people move to firms too
    ("I moved to Halvorsen for a senior role.", "Halvorsen", "REAL_NAME"),
    ("Who played with Jonas at the park yesterday?", "Jonas", "REAL_NAME"),  # not a role
    ("Is Harriet still coming to the barbecue?", "Harriet", "REAL_NAME"),  # asked about by a first name
    ("Did Elena Petrova send you the slides?", "Elena Petrova", "REAL_NAME"),  # the reader is in the question
    ("Did Jonas Eriksen sign the lease yet?", "Jonas Eriksen", "REAL_NAME"),  # what someone did, not what they are
    (
        "Is Nadia Rahman free for a call on Thursday?",
        "Nadia Rahman",
        "REAL_NAME",
    ),  # where someone is, whether they can come
    ("Is Tom Berg still coming to the offsite?", "Tom Berg", "REAL_NAME"),
    ("Hi, I'm Tane Whatarau and I need help writing a cover letter.", "Tane Whatarau", "REAL_NAME"),
    ("I went to school in Leeds with Aisha Bello.", "Aisha Bello", "REAL_NAME"),
    (
        "My friend Michael Jordan is coming over tonight.",
        "Michael Jordan",
        "REAL_NAME",
    ),  # a famous name, tied to the writer
    ("Please add Anna de la Cruz to the guest list.", "Anna de la Cruz", "REAL_NAME"),
    # a famous name (data/public_names.txt) introduced as the writer's own or kin's, in any covered language
    ("Ich heiße Thomas Müller und wohne in Köln.", "Thomas Müller", "REAL_NAME"),
    ("Soy David Silva, vivo en Sevilla.", "David Silva", "REAL_NAME"),
    ("Bonjour, je suis Paul Martin, joignable au 06 12 34 56 78", "Paul Martin", "REAL_NAME"),
    ("Mon fils, Paul Martin, a trois ans.", "Paul Martin", "REAL_NAME"),
    ("Address: al. Łączna 10/61, Gdańsk", "al. Łączna 10/61, Gdańsk", "ADDRESS"),
    ("Name: Yuta Kimura\nAddress: Dunja-Martin-Ring 40", "Dunja-Martin-Ring 40", "ADDRESS"),
    (
        "Send it to my flat on Rue Oberkampf, Paris.",
        "Rue Oberkampf, Paris",
        "ADDRESS",
    ),  # no house number: a street word
    ("Our house is on Birchwood Lane, Springfield.", "Birchwood Lane, Springfield", "ADDRESS"),
    ("Deliver to Kastanienallee, Berlin please.", "Kastanienallee, Berlin", "ADDRESS"),
    ("My mum is in a clinical trial for breast cancer.", "breast cancer", "HEALTH"),
    ("Is it normal to feel tired all the time with migraines?", "migraines", "HEALTH"),
    (
        "Sorry, my piles are back and I can't sit through the film.",
        "piles",
        "HEALTH",
    ),  # "pile" is a thing, "piles" a condition
    ("Grace has her first swimming lesson on Saturday.", "Grace", "REAL_NAME"),  # "has" is no plural of "ha"
    ("Anna cooks for everyone on Sundays.", "Anna", "REAL_NAME"),  # a verb, not a thing
    ("we've saved 8,500 towards the wedding and the venue wants more", "8,500", "FINANCE"),
    (
        "My husband drives forklifts at Tolland Packaging and the night shifts are wrecking him.",
        "Tolland Packaging",
        "EMPLOYER",
    ),
    ("As a cashier at Brookfield Foods I get twenty minutes for lunch.", "Brookfield Foods", "EMPLOYER"),
    ("I got an offer from Hollins Farm Shop, should I take it?", "Hollins Farm Shop", "EMPLOYER"),
    ("- William Roberts, Google\n- Ana Lima, Siemens", "Google", "EMPLOYER"),  # a brand the gazetteer also holds
    ("Name: Ines Vogel\nCondition(s): a heart murmur :)", "a heart murmur", "HEALTH"),
    ("Got a text from the bank: the code is 31-28-44.", "31-28-44", "CREDENTIAL"),
    ("Can you take ibuprofen with my asthma?", "asthma", "HEALTH"),
    ("Should I put a 10k bonus into my pension?", "a 10k bonus", "FINANCE"),
    ("Transfer a $236k mortgage to the new bank.", "a $236k mortgage", "FINANCE"),
    ("Household income: $85,000", "$85,000", "FINANCE"),  # no one named, but money someone has
    ("Net worth: roughly $2.4M.", "$2.4M", "FINANCE"),  # not the worth of a thing
    ("The new job pays $64,000.", "$64,000", "FINANCE"),
    ("22 Baker Street is our new flat, come by after 6.", "22 Baker Street", "ADDRESS"),
    ("door code for my building is 7-1192", "7-1192", "CREDENTIAL"),
    # a condition shows itself: its own words (a part the model tagged is widened to them: test_pii_tagger.py), words of care, "has", "I'm"
    ("My sister has lupus and the heat makes it worse.", "lupus", "HEALTH"),
    ("I'm bipolar and my new manager doesn't know, should I tell her?", "bipolar", "HEALTH"),
    ("Her GP finally sent her for tests for the tremor.", "tremor", "HEALTH"),
    ("Dad was diagnosed with ADHD at 50.", "ADHD", "HEALTH"),
    ("Since my miscarriage I skip baby showers.", "miscarriage", "HEALTH"),
    ("Her endo flares every winter, any tips?", "endo", "HEALTH"),
    ("Our stepson 英 starts school next week.", "英", "REAL_NAME"),
    ("Forward the slides to Li before noon.", "Li", "REAL_NAME"),
    ("here are my creds: admin, Secur3Pass!", "Secur3Pass!", "CREDENTIAL"),
]


def test_a_secret_span_leaves_out_the_word_introducing_it_and_a_trailing_dash():
    text = "my account: anna / password lantern42"
    assert kept(text, "password lantern42", "CREDENTIAL") == ("lantern42", "CREDENTIAL")
    text = "448812 - that's what the app showed me"
    assert kept(text, "448812 -", "CREDENTIAL") == ("448812", "CREDENTIAL")


def test_a_secret_span_grows_to_the_whole_token_the_model_cut_short():
    text = "here are my creds: admin, Secur3Pass!"
    assert kept(text, "Secur3Pass", "CREDENTIAL") == ("Secur3Pass!", "CREDENTIAL")
    text = "here's the wifi code - mango123"
    assert kept(text, "- mango123", "CREDENTIAL") == ("mango123", "CREDENTIAL")
    text = "Got a text from the bank: 448812."
    assert kept(text, "448812", "CREDENTIAL") == ("448812", "CREDENTIAL")
    text = "Which card ending 4242? The Visa one."
    assert kept(text, "4242", "CREDENTIAL") is None  # a card's last digits: the cued FINANCE span, no secret


def test_a_name_loses_the_lowercase_words_the_model_ran_on_into_where_the_writer_capitalises_names():
    assert kept("Can you ask Kofi tomorrow morning?", "Kofi tomorrow", "REAL_NAME") == ("Kofi", "REAL_NAME")
    assert kept("Don't rob Peter to pay the bills.", "rob Peter", "REAL_NAME") == ("Peter", "REAL_NAME")
    assert kept("i think tom said so", "tom said", "REAL_NAME") == (
        "tom said",
        "REAL_NAME",
    )  # no capitals: left as the model said
    assert kept("Please cc Fatima al-Zahra on this.", "Fatima al-Zahra on", "REAL_NAME") == (
        "Fatima al-Zahra",
        "REAL_NAME",
    )


def test_the_writers_case_is_judged_on_the_line_so_a_lowercase_message_beside_a_capitalised_one_keeps_its_names():
    log = "user: Can you remind me what I said yesterday?\nuser: call me when you land our wife fadekemi starts school next week"
    assert kept(log, "fadekemi", "REAL_NAME") == ("fadekemi", "REAL_NAME")
    assert (
        kept("Can you remind me? i think tom said so", "tom", "REAL_NAME") is None
    )  # one line, capitalised: a lowercase word is no name
    forms = "Employer: Northwind Traders\nemployer: ikea, since 2019"
    assert kept(forms, "ikea", "EMPLOYER") == ("ikea", "EMPLOYER")


@pytest.mark.parametrize(
    ("text", "tagged", "name"),
    [
        ("Ich bin geb. am 03.04.1991 in Graz. Grüße, jürgen müller.", "jürgen", "jürgen müller"),
        ("Danke für die Hilfe mit dem Formular. Viele Grüße, jürgen müller", "jürgen müller", "jürgen müller"),
        ("I was born in Graz in 1991. cheers, sarah connolly", "sarah", "sarah connolly"),
    ],
)
def test_a_lowercase_signature_after_a_capitalised_text_is_a_name_whole(text, tagged, name):
    """ux21's report H1: a signature's case is its own; the model's first name grows to the signature's words."""
    assert kept(text, tagged, "REAL_NAME") == (name, "REAL_NAME")


def test_a_sign_off_before_a_sentence_leaves_the_lines_case_and_the_words_alone():
    text = "Thanks for the help. Cheers, see you on monday and tuesday next week at the office"
    assert kept(text, "monday", "REAL_NAME") is None  # no signature: more than three words to the line's end


def test_an_acronym_or_an_identifier_is_no_persons_name():
    assert kept("my IBAN: DE44 3704 0044 0532 9130 00", "IBAN", "REAL_NAME") is None
    assert kept("Ask JOHN about it, he knows.", "JOHN", "REAL_NAME") == (
        "JOHN",
        "REAL_NAME",
    )  # a given name in capitals
    assert kept("OPENAI_API_KEY=sk-proj-abc", "OPENAI_API", "REAL_NAME") is None
    assert kept("Regards, Mateo Okafor OPENAI_API_KEY=sk-proj-abc", "Mateo Okafor OPENAI_API", "REAL_NAME") == (
        "Mateo Okafor",
        "REAL_NAME",
    )


MONEY_NO_LIST_SHOWS = [
    # a currency the word lists do not hold, a sum written with a dot, the writer in the verb ("devo", "prendo"): the
    # finance gates keep them
    ("en", "My salary is SAR 6,500 now and rent takes half.", "SAR 6,500", True),
    ("en", "Still owe AED 3,200 on the card from the move.", "AED 3,200", True),
    ("en", "Kindly deduct the Rs 18,000 advance from my pay.", "Rs 18,000", True),
    ("pt", "Ainda devo 3.200 € ao senhorio desde março.", "3.200 €", True),
    ("it", "Mi hanno alzato l'affitto a 850 e prendo 1.240 al mese.", "1.240", True),
    ("nl", "Verdien nu 2.350 netto per maand.", "2.350", True),
    # ... and drop what is no one's money
    ("en", "Tickets went on sale at 10am and 40,000 sold out in an hour.", "40,000", False),
    ("en", "Add 250 ml of milk and stir.", "250 ml", False),
    ("de", "Das Deutschlandticket kostet 49 € im Monat und gilt bundesweit.", "49 €", False),
    ("it", "Un caffè al bar costa ormai 1,40 euro a Milano.", "1,40 euro", False),
]


@pytest.mark.parametrize(("language", "text", "value", "someones"), MONEY_NO_LIST_SHOWS)
def test_money_no_word_list_shows_goes_to_the_finance_gates(language, text, value, someones):
    """A FINANCE span holding an amount in which the word lists show no money or no owner is neither kept nor dropped
    by the filter: the finance verifier and its language's finance reader decide, as detection reads it
    (benchmarks/results/pii_finance_gates_decide.md, pii_finance_gates_decide_languages.md)."""
    start = text.index(value)
    reason = filter_keeps("FINANCE", text, start, start + len(value), language == "en")
    assert reason == f"finance filter: {GATES_DECIDE}"
    assert kept(text, value, "FINANCE", language) == ((value, "FINANCE") if someones else None)


def test_a_name_or_employer_is_masked_without_its_possessive():
    text = "Help me answer Dr. Nakamura's email."
    assert kept(text, "Dr. Nakamura's", "REAL_NAME") == ("Dr. Nakamura", "REAL_NAME")


@pytest.mark.parametrize(("text", "value", "label"), DROPPED)
def test_a_guess_its_context_contradicts_is_dropped(text, value, label):
    assert kept(text, value, label) is None


@pytest.mark.parametrize(("text", "value", "label"), KEPT)
def test_a_guess_its_context_supports_is_kept_with_exact_bounds(text, value, label):
    assert kept(text, value, label) == (value, label)


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Ryanair charging for the cabin bag again, I give up.", "Ryanair", None),
        ("Is Nvidia overvalued at this point?", "Nvidia", None),
        ("Review: Aldi's own brand coffee pods are just as good.", "Aldi", None),
        ("Name: Inge Persson\nEmployer: KPMG", "KPMG", ("KPMG", "EMPLOYER")),
        ("- Willem Keijser, Siemens\n- Anna Berg, Tesco", "Siemens", ("Siemens", "EMPLOYER")),
        ("I've been at Ryanair for six years now.", "Ryanair", ("Ryanair", "EMPLOYER")),
        (
            "Zara is coming to the party.",
            "Zara",
            ("Zara", "REAL_NAME"),
        ),  # a brand, and a name Faker gives people: not on the list
        (
            "My Nespresso Vertuo leaks from the bottom after every capsule.",
            "Nespresso Vertuo",
            None,
        ),  # a brand's product
        ("Ask Nespresso support, not Mei Lin.", "Mei Lin", ("Mei Lin", "REAL_NAME")),
    ],
)
def test_a_brand_the_model_took_for_a_person_is_an_employer_where_work_shows_and_dropped_elsewhere(
    text, value, expected
):
    assert kept(text, value, "REAL_NAME") == expected


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Name: Frédérique Navarro\nEmployer: Brown Ltd", "Brown Ltd", ("Brown Ltd", "EMPLOYER")),
        ("- Jane Leonard, Smith Inc\n- Willem Keijser, KPMG", "Smith Inc", ("Smith Inc", "EMPLOYER")),
        ("I teach at Sutton College these days.", "Sutton College", ("Sutton College", "EMPLOYER")),
        (
            "Ask Sutton Collins about the rota.",
            "Sutton Collins",
            ("Sutton Collins", "REAL_NAME"),
        ),  # no company form: a person
    ],
)
def test_a_firm_or_school_the_model_took_for_a_person_is_an_employer(text, value, expected):
    assert kept(text, value, "REAL_NAME") == expected


def test_a_saints_school_the_model_took_for_a_person_is_an_employer_where_work_shows():
    assert kept("Since 2016 I have worked for St. Loretta's Academy.", "St. Loretta's Academy", "REAL_NAME") == (
        "St. Loretta's Academy",
        "EMPLOYER",
    )
    assert kept("St. Mary's Church has a lovely bell tower.", "St. Mary's Church", "REAL_NAME") is None


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        ("Heard from Anneliese Vogt today, she's moving back from Munich!", "Anneliese Vogt", "EMPLOYER"),
        ("Please send the revised quote to Lindiwe Mthembu by Friday.", "Lindiwe Mthembu", "ADDRESS"),
    ],
)
def test_a_person_the_model_took_for_a_place_or_a_company_without_support_is_a_name(text, value, label):
    assert kept(text, value, label) == (value, "REAL_NAME")


@pytest.mark.parametrize(
    ("text", "tagged", "name"),
    [
        # the words the model ran on into before a structured value: lowercase ones where the writer
        # capitalises, what follows a comma, function words in chat without capitals
        ("Write to Paavo Lehtinen at +44 20 7946 0959", "Paavo Lehtinen at", "Paavo Lehtinen"),
        ("Send 500 euros to Hans Müller, IBAN DE44 3704 0044 0532 9130 00.", "Hans Müller, IBAN", "Hans Müller"),
        ("please text kofi mensah on 07700 900123 tonight", "kofi mensah on", "kofi mensah"),
        # a title opens no drive
        ("My dentist Dr. Amira Haddad, 0161 496 0000, moved her practice.", "Dr. Amira Haddad", "Dr. Amira Haddad"),
        # a letter's sign-off: the name, a line break, the address (the address filter drops the whole span)
        (
            "Merci d'avance.\nCordialement,\nClaire Dubois\n7 allée des Roses, 69003 Lyon",
            "Claire Dubois\n7 allée des Roses, 69003 Lyon",
            "Claire Dubois",
        ),
        (
            "Thanks.\nBest,\nClaire Dubois\n7 Rose Lane, Leeds LS6 2AB",
            "Claire Dubois\n7 Rose Lane, Leeds LS6 2AB",
            "Claire Dubois",
        ),
    ],
)
def test_a_person_inside_a_span_taken_for_an_address_is_the_name_alone(text, tagged, name):
    assert kept(text, tagged, "ADDRESS") == (name, "REAL_NAME")


def test_an_address_keeps_its_street_word_after_a_name_and_a_title_with_a_house_number():
    assert kept("Ship it to 12 Elm Dr., Austin", "12 Elm Dr.", "ADDRESS") == ("12 Elm Dr", "ADDRESS")
    assert kept("We moved to Harbour Dr in Cork.", "Harbour Dr", "ADDRESS") == ("Harbour Dr", "ADDRESS")


@pytest.mark.parametrize(
    ("text", "measures"),
    [
        ("add 250g flour", True),
        ("2 tsp baking", True),
        ("6 or 7 minutes", True),
        ("500g mince, 2 onions", True),
        ("12 Orchard Road, Leeds", False),
        ("834 Brown Island, Port Scott, AB B9G 9G7", False),  # a postcode's "9G" measures nothing
        ("Studio 41g, Timothy Rapids", False),  # a flat's number
        ("Flat 3, 18 Harbour Road", False),
    ],
)
def test_numbers_that_measure_or_count_things_are_told_from_house_numbers(text, measures):
    assert measured(text, 0, len(text)) is measures


def test_a_number_named_as_another_kind_unless_a_secret_word_comes_between():
    text = "Error code 5 means the server is down. The door code is 2231."
    assert not named_as_other_number(text, text.index("2231"), text.index("2231") + 4)
    text = "Error code 92184 means the server is down."
    assert named_as_other_number(text, 11, 16)
    text = "my phone passcode is 4471"
    assert not named_as_other_number(text, 21, 25), "a secret word after 'phone'"
    text = "We need 56113 chairs for the party."
    assert named_as_other_number(text, 8, 13)


# --- the shipped models ------------------------------------------------------------------------

DISTRACTORS = [
    "My wife and I just moved to Austin after I finished my PhD. Loving the tacos here!",
    "Barack Obama's memoir is on my reading list.",
    "The documentary about Nelson Mandela was moving.",
    "Messi scored a hat-trick against Bolivia last night.",
    "I watched an interview with Serena Williams.",
    "Taylor Swift announced three more tour dates in Europe.",
    "Mark the invoice as paid, please.",
    "The build number is 80132, nothing changed.",
    "The invoice number is 48213.",
    "The model number on the fridge is RF28R7351SG.",
    "Error code 34275 means the server is down.",
    "We need 56113 chairs for the party.",
    "Add 250 ml of milk and stir for 3 minutes.",
    "Gas went up to 58 cents a litre.",
    "We took photos at Piccadilly Circus.",
    "It was 20 degrees in Alexanderplatz yesterday.",
    "Houses near Victoria Falls cost a fortune.",
    "Is Kim Kardashian still married?",
    "Who played Alan Turing in the film?",
    "The code on the box is 5012-A for assembly.",
    "Invoice 2024-117 is still unpaid according to accounting.",
    "The meeting ID is 845 2219 0371, join at 10.",
    "A new study links atrial fibrillation to poor sleep.",
    "Platform 4 for the 17:32 to Manchester.",
    "Is Keanu Reeves actually nice or is that just PR?",
    "How long does amoxicillin stay in your body after the last dose?",
    "Is a 401k better than a Roth IRA?",
    "10 Downing Street is smaller than it looks on TV.",
    "The part code is 7-1192-A, order it from the dealer.",
    "How many titles has Roger Federer won?",
    "Did Steve Jobs really get fired from Apple?",
    "Is Angkor Wat doable in one day?",
    "Happy St. Patrick's Day everyone!",
    "St. David's Day: daffodils or leeks on the lapel?",
    "My dog Biscuit chewed the sofa again, any tips?",
    "Should I get Bella, our beagle, a raincoat?",
    "The neighbour's cat, Smokey, sleeps in our shed.",
    "Storm Ciarán knocked out power across the south.",
    "St. Mary's Church has a lovely bell tower.",
    "Stephen Hawking lived with ALS for more than fifty years.",
    "Serena Williams nearly died from a pulmonary embolism after giving birth.",
    "Lionel Messi earns around $60 million a year at Inter Miami.",
    "Our cat has diabetes and needs insulin twice a day.",
    "Use code SPRING20 at checkout for 20% off all garden tools.",
    "Dear Sir or Madam, I am writing to ask about group tours of the Reichstag dome in March.",
    "Mount Kinabalu climb, do you need a guide?",
    "Holly and ivy decorations are up in the hall.",
    "I ran a 5k in 27 minutes, a personal best.",
    "Is intermittent fasting safe for people with high blood pressure",
    "shopping list for the chilli: 500g mince, 2 onions, 1 tin kidney beans, 3 cloves garlic",
    "Who designed the Sydney Opera House, Jorn Utzon right?",
    "recipe says 250 g flour and 2 tsp baking powder can i use self raising instead",
    "Coupon WELCOME10 takes ten dollars off your first order over $50",
    "Dear Hilton Reservations, I would like to know whether your Times Square property offers early check-in.",
    "The Museum of New Zealand Te Papa Tongarewa is free to enter.",
    "Looking for a board game like Catan but shorter, maybe 30 minutes",
]
PERSONAL = [
    ("Our dog walker Sarah Okafor is on holiday, can you recommend someone?", "Sarah Okafor", "REAL_NAME"),
    ("Can you remind Patrick that his birthday dinner is on St. Patrick's Day?", "Patrick", "REAL_NAME"),
    ("My cousin Bernadette is getting married in Galway.", "Bernadette", "REAL_NAME"),
    ("My brother Kofi Mensah won an award at school today!", "Kofi Mensah", "REAL_NAME"),
    ("Forward this to Kenji Watanabe and cc me.", "Kenji Watanabe", "REAL_NAME"),
    ("I work at Brightline Logistics in the finance team.", "Brightline Logistics", "EMPLOYER"),
    ("Please deliver to Flat 3, 18 Harbour Road, Cork.", "Flat 3, 18 Harbour Road, Cork", "ADDRESS"),
    ("I earn $72,000 a year as a teacher.", "$72,000", "FINANCE"),
    ("The gate code is 4471, see you Saturday!", "4471", None),  # a secret of either kind (pattern or tagger)
    # no house number, no secret word: what the first versions of the rules dropped
    ("Send it to my flat on Rue Oberkampf, Paris.", "Rue Oberkampf, Paris", "ADDRESS"),
    ("Got a text from the bank: 448812. What now?", "448812", None),
    ("here are my creds: admin, Secur3Pass!", "Secur3Pass!", None),  # the model stops short of the "!"
    ("I have 38k in my 401k and I'm 35, am I behind?", "38k", "FINANCE"),
    ("Our new place is 1815 Maple Avenue, Columbus.", "1815 Maple Avenue, Columbus", "ADDRESS"),
    ("Selena Gomez and my sister both have lupus.", "lupus", "HEALTH"),  # a famous name beside the writer's kin
]


@pytest.fixture(scope="module", params=["pii-tagger", None], ids=["pii-tagger", "shipped-students"])
def real_detector(request):
    """The MiniLM teacher on every text, or the shipped students (each text to its language's, route.py)."""
    import torch

    torch.set_num_threads(1)
    directory = request.param and str(shipped_pii_tagger_dir().parent / request.param)
    return Detector([*build_recognizers(), PiiTaggerRecognizer(directory)])


# A French event in English text: the first six-language student flagged it; the negatives of the second
# writer's batch and data/train.jsonl's comments taught it away.
FRENCH_EVENT = "The 2024 Tour de France covered 3,492 km over 21 stages"


@pytest.mark.real_model
def test_shipped_taggers_leave_a_french_event_in_english_text_unflagged(real_detector):
    assert real_detector.detect_many([FRENCH_EVENT]) == [[]]


# Letter openings, sentence-opening words and markup of the development sets (benchmarks/data/pii-heldout-c, -d)
# that the student before the third writer's batch took for names, employers or addresses; that batch's
# negatives and the name threshold (0.60) let them be.
OPENERS = [
    "Die Grippewelle ist dieses Jahr früh dran, laut RKI sind die Zahlen schon im Oktober gestiegen.",
    "Beste leden,  De jaarvergadering vindt plaats op zaterdag 12 april om 14.00 uur in het clubhuis.  Het bestuur",
    "Exmos. Senhores,  Gostaria de saber a disponibilidade do alojamento no Algarve de 1 a 8 de agosto.  Cumprimentos",
    "| Ingredient | Amount | |---|---| | Plain flour | 250 g | | Butter | 125 g | | Sugar | 100 g | | Eggs | 2 |",
    "RT @BBCBreaking: Heavy snow warning issued for northern England and Scotland, Met Office says up to 20cm possible",
]


# A known false alarm of the multilingual student (models/pii-tagger-student-multilingual/README.md, limits): it
# takes "Aktenzeichen" for a name; the name verifier (pii_tagger/verifier.py) drops it.
GERMAN_FORM_LETTER = (
    "Musterbrief Widerspruch: Sehr geehrte Damen und Herren, hiermit lege ich Widerspruch gegen Ihren Bescheid "
    "vom [Datum], Aktenzeichen [Az.], ein. Begründung folgt"
)


@pytest.mark.real_model
def test_the_shipped_student_leaves_a_german_form_letter_unflagged():
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])
    assert [GERMAN_FORM_LETTER[s.start : s.end] for s in detector.detect(GERMAN_FORM_LETTER)] == []


@pytest.mark.real_model
def test_the_shipped_student_leaves_letter_openings_and_sentence_openers_unflagged():
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])  # each text to its language's student
    found = detector.detect_many(OPENERS)
    # A retweet's "@BBCBreaking" is taken by the handle recognizer (a brand's account beyond the brand list is a
    # handle like any other, docs/pii-tagger.md): what this test asks of is the tagger around it.
    found = [[s for s in spans if s.source != "handle"] for spans in found]
    assert {
        text: [text[s.start : s.end] for s in spans] for text, spans in zip(OPENERS, found, strict=True) if spans
    } == {}


@pytest.mark.real_model
def test_shipped_taggers_leave_these_distractors_unflagged(real_detector):
    found = real_detector.detect_many(DISTRACTORS)
    assert {
        text: [text[s.start : s.end] for s in spans] for text, spans in zip(DISTRACTORS, found, strict=True) if spans
    } == {}


@pytest.mark.real_model
def test_shipped_taggers_mask_a_street_without_a_number(real_detector, request):
    """The teacher masks "Birchwood Lane, Springfield" whole; the fine-tuned student stopped at
    the comma, so the street was masked and the town stayed in clear. Strict: fails once the student masks it again."""
    if request.node.callspec.id == "shipped-students":
        reason = "known miss of the English student's t23 fine-tune (models/pii-tagger-student/README.md): 0.30"
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    text = "Our house is on Birchwood Lane, Springfield."
    found = [text[s.start : s.end] for s in real_detector.detect(text) if s.type == "ADDRESS"]
    assert any(span.startswith("Birchwood Lane") for span in found), found


@pytest.mark.real_model
def test_shipped_taggers_still_find_values_in_personal_messages(real_detector):
    for (text, value, label), spans in zip(PERSONAL, real_detector.detect_many([t for t, *_ in PERSONAL]), strict=True):
        found = {text[s.start : s.end]: s.type for s in spans}
        holding = [
            span for span in found if value in span and len(span) <= len(value) + 12
        ]  # the value, maybe with "a year" or "in my 401k"
        assert holding, (text, found)
        assert label is None or found[holding[0]] == label, (text, found)


@pytest.mark.real_model
def test_the_shipped_student_masks_a_correspondents_full_name_whatever_the_verb():
    """ux19's report H1: the student tags the name (confidence 0.99), and the public-life filter took "wrote" for an
    author's; "said" was always kept."""
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer()])
    texts = [
        "Margaret Lindqvist wrote to us yesterday.",
        "Case 1042: Margaret Lindqvist wrote about the refund for her broken laptop; call back on +44 7700 912345.",
        "Margaret Lindqvist said the parcel was damaged.",
    ]
    for text, spans in zip(texts, detector.detect_many(texts), strict=True):
        assert ("Margaret Lindqvist", "REAL_NAME") in [(text[s.start : s.end], s.type) for s in spans], text


@pytest.mark.real_model
def test_shipped_taggers_read_each_line_of_a_chat_log_in_its_own_case(real_detector):
    log = "Hi Dana, the report is attached. Thanks!\nok cool so text kofi mensah on his new number tonight"
    found = [log[s.start : s.end] for s in real_detector.detect(log)]
    assert "kofi mensah" in found, found


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("We moved to Austin, Texas.", "Austin, Texas", None),  # a place and its state, not "Smith, Jones & Co"
        ("I grew up in Portland, Oregon, and miss the rain.", "Portland, Oregon", None),
        ("Has anyone been to Asheville, North Carolina?", "Asheville, North Carolina", None),
        ("I work at Acme, Texas branch.", "Acme, Texas", ("Acme, Texas", "EMPLOYER")),  # work talk
        ("Send it to Hartley, Dunn & Co today.", "Hartley, Dunn & Co", ("Hartley, Dunn & Co", "EMPLOYER")),
    ],
)
def test_a_place_and_its_region_taken_for_an_employer_is_dropped_where_no_work_shows(text, value, expected):
    assert kept(text, value, "EMPLOYER") == expected


@pytest.mark.parametrize(
    ("text", "value", "label"),
    [
        ("Ich arbeite jetzt bei der Sparkasse Hannover.", "Sparkasse Hannover", "EMPLOYER"),
        ("Mon frère bosse chez Dassault depuis mars.", "Dassault", "EMPLOYER"),
        ("Trabajo en Mercadona desde enero.", "Mercadona", "EMPLOYER"),
        ("mijn zus heeft Hashimoto en slikt nu pillen", "Hashimoto", "HEALTH"),
        ("Depuis ma rectocolite je mange peu.", "rectocolite", "HEALTH"),
        ("Ich verdiene 2.400 € netto im Monat.", "2.400 €", "FINANCE"),
        ("Guadagno 1.500 euro al mese.", "1.500 euro", "FINANCE"),
    ],
)
def test_a_value_in_another_language_is_kept_where_that_languages_cue_words_show_it(text, value, label):
    """The filters read the cue words of the six other languages too (data/pii-tagger/lexicons.yaml,
    `*_other_languages`): the English ones alone dropped these."""
    assert kept(text, value, label) == (value, label)
