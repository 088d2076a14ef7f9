"""Secrets introduced by context in wordings the first patterns missed (issue 19 item 4: the
held-out set left these in clear), and prose around the same words that must stay unflagged."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector


@pytest.fixture(scope="module")
def detector():
    return Detector()


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Log in to the router with password Tr0ub4dor&3 and reboot it.", "PASSWORD", "Tr0ub4dor&3"),
        ("ssh using the passphrase blue-Falcon-77 please", "PASSWORD", "blue-Falcon-77"),
        ("Please rotate 9fQxL2mV8rT4kZ1pW6yB3nC7 before Friday.", "API_KEY", "9fQxL2mV8rT4kZ1pW6yB3nC7"),
        ("the code they texted is 906812", "OTP", "906812"),
        ("The code I got was 4417, can you enter it?", "OTP", "4417"),
        ("They sent me a code. It's 956712", "OTP", "956712"),
        # more wordings people introduce secrets with (written for these tests, not taken from any test set)
        ("the password for my bank account is Kq8!vLz2", "PASSWORD", "Kq8!vLz2"),
        ("wifi pw is Coffee4All", "PASSWORD", "Coffee4All"),
        ("pass: x7Yt-99aa", "PASSWORD", "x7Yt-99aa"),
        ("DB_PASSWORD=s3cr3tPassw0rd", "PASSWORD", "s3cr3tPassw0rd"),
        ("export PGPASSWORD='pg_Secret_99'", "PASSWORD", "pg_Secret_99"),
        ("username jdoe password Rainbow77", "PASSWORD", "Rainbow77"),
        ("login admin / Sp4rkle!9", "PASSWORD", "Sp4rkle!9"),
        ("credentials: root:T0mato#55", "PASSWORD", "T0mato#55"),
        ("what's the password? It's Marigold_81", "PASSWORD", "Marigold_81"),
        ("I changed my password to Ocean$Breeze7 yesterday", "PASSWORD", "Ocean$Breeze7"),
        ("log in with MCqTUfFtpC as the password", "PASSWORD", "MCqTUfFtpC"),
        ("Mango2024! is the password for the router", "PASSWORD", "Mango2024!"),
        ("the pin for my card is 5521", "PASSWORD", "5521"),
        ("door code 4471", "PASSWORD", "4471"),
        ("the passcode to the gate is 1379", "PASSWORD", "1379"),
        ("the code is 552918", "OTP", "552918"),
        ("I got the code 490678 by SMS.", "OTP", "490678"),
        ("I got the code 4417 by SMS, the sale ends today", "OTP", "4417"),  # a sale is no discount the code buys
        ("482913 is your verification code", "OTP", "482913"),
        ("they texted me 906812 to log in", "OTP", "906812"),
        ("enter 334455 when it asks for the code", "OTP", "334455"),
        ("verification code: K7Q2ZP", "OTP", "K7Q2ZP"),
        ("backup code: 8f3k-29dj", "OTP", "8f3k-29dj"),
        ("2FA: 118822", "OTP", "118822"),
        ("rotate the key 9fQxL2mV8rT4kZ1pW6y", "API_KEY", "9fQxL2mV8rT4kZ1pW6y"),
        ("please regenerate 9fQxL2mV8rT4kZ1pW6yB3nC7", "API_KEY", "9fQxL2mV8rT4kZ1pW6yB3nC7"),
        ("I leaked q8Xv3Lm29PzR7tKw5NbYc4Hs in a public repo, help", "API_KEY", "q8Xv3Lm29PzR7tKw5NbYc4Hs"),
        ("I accidentally pushed my key Yh7Tq2Lm9Pz4Wk8R to the repo", "API_KEY", "Yh7Tq2Lm9Pz4Wk8R"),
        ("my password's Tiger!88", "PASSWORD", "Tiger!88"),
        ("I need the wifi password, it's Yellow-Duck-7", "PASSWORD", "Yellow-Duck-7"),
        ("log in with password zKqWpLmRtY today", "PASSWORD", "zKqWpLmRtY"),  # random letters: detect-secrets entropy
        ("the wifi key is Coffee4All", "PASSWORD", "Coffee4All"),
        ("the wifi is Nimbus!68", "PASSWORD", "Nimbus!68"),
        ("Security answer: copper897", "PASSWORD", "copper897"),
        ("the lock combination is 12-34-56", "PASSWORD", "12-34-56"),
        ("Login for the router: admin / 509973", "PASSWORD", "509973"),
        ("use 61-82-97 to open the lockbox", "PASSWORD", "61-82-97"),
        ("your verification number is 661122", "OTP", "661122"),
        ("the code is 48 29 13", "OTP", "48 29 13"),
        ("SSN: 123456789", "NATIONAL_ID", "123456789"),
        # not HMRC's specimen QQ 12 34 56 C: Q opens no number, and it is no one's
        ("my national insurance number is AB 12 34 56 C", "NATIONAL_ID", "AB 12 34 56 C"),
        # Presidio drops this published sample SSN; it used to come out as a PHONE
        ("My SSN is 123-45-6789", "NATIONAL_ID", "123-45-6789"),
        # a dash as the separator, "combo", past-tense key verbs, who sent a code, what entering it does
        ("Password - Tr0ub4dor&3", "PASSWORD", "Tr0ub4dor&3"),
        ("the combo is 12-34-56", "PASSWORD", "12-34-56"),
        ("bike lock combo: 4471", "PASSWORD", "4471"),
        ("I already rotated 9fQxL2mZp8RtV4kWn7Ys but check the logs.", "API_KEY", "9fQxL2mZp8RtV4kWn7Ys"),
        ("We revoked Zk82LmQp4XrT9vWb3Nc1 yesterday.", "API_KEY", "Zk82LmQp4XrT9vWb3Nc1"),
        ("The OTP they sent is 448812.", "OTP", "448812"),
        ("the pin they texted me is 5521", "OTP", "5521"),
        ("Enter 883104 to verify your account.", "OTP", "883104"),
        ("the new password will be Lantern#42", "PASSWORD", "Lantern#42"),
        ("I set the wifi password as Coffee4All", "PASSWORD", "Coffee4All"),
        ("the verification code they sent: 731904", "OTP", "731904"),
        ("I shared my key Yh7Tq2Lm9Pz4Wk8R in the team chat", "API_KEY", "Yh7Tq2Lm9Pz4Wk8R"),
        ("PW for the admin panel is Lantern42", "PASSWORD", "Lantern42"),
        ("my password, Lantern42, got leaked", "PASSWORD", "Lantern42"),
        ("password (Lantern42)", "PASSWORD", "Lantern42"),
        ("user anna pass Lantern42", "PASSWORD", "Lantern42"),
        ("wifi: HomeNet / Lantern42", "PASSWORD", "Lantern42"),
        ("The password I set is Lantern42", "PASSWORD", "Lantern42"),
        ("The code from the SMS is 448812", "OTP", "448812"),
        ("the code in the email was 448812", "OTP", "448812"),
        ("it asked for a code and I put in 448812", "OTP", "448812"),
        ("They sent a code to my phone, 448812, what do I do?", "OTP", "448812"),
        # abbreviations, other languages, what the value is changed to, what holds it, how a code arrives (issue 19 item 5)
        ("pass is hunter22 dont tell anyone", "PASSWORD", "hunter22"),
        ("pswd: Mellow!Yellow3", "PASSWORD", "Mellow!Yellow3"),
        ("p/w is Summer22", "PASSWORD", "Summer22"),
        ("Passwort: Sonnenblume77", "PASSWORD", "Sonnenblume77"),
        ("le mot de passe est Chaton2022", "PASSWORD", "Chaton2022"),
        # a few words of what it opens between the word and "is" (ux26 H7: masked as a name, "-77" left in clear)
        ("Mi contraseña del banco es Perro-Azul-77", "PASSWORD", "Perro-Azul-77"),
        ("Das Passwort für das Online-Banking ist Sonne-Mond-42", "PASSWORD", "Sonne-Mond-42"),
        ("my password is literally bananas99", "PASSWORD", "bananas99"),
        ("router admin pw changed to R0uter!Home", "PASSWORD", "R0uter!Home"),
        # an account named by "admin" before "user/password" (ux19's report H2; data/secret_words.yaml login_words)
        ("router admin is admin/hunter2.", "PASSWORD", "hunter2"),
        ("the NAS administrator login is root:Birch#41", "PASSWORD", "Birch#41"),
        ("the password, which is Otter-Pond-14, expires Friday", "PASSWORD", "Otter-Pond-14"),
        ("my passwords are Lemon77 for email and Lime88 for the bank", "PASSWORD", "Lemon77"),
        ("it's asking for my password, I typed Cactus44 but it failed", "PASSWORD", "Cactus44"),
        ("the new password is gonna be Walrus-77", "PASSWORD", "Walrus-77"),
        ("here's the wifi code - mango123", "PASSWORD", "mango123"),
        ("lockbox is 0412, the key's inside", "PASSWORD", "0412"),
        ("the code to the bike lock is 5-3-9-1", "PASSWORD", "5-3-9-1"),
        ("PUK code 48213377", "PASSWORD", "48213377"),
        ("Use 519302 to sign in. Do not share this code.", "OTP", "519302"),
        ("the bank texted 448123 to confirm the transfer", "OTP", "448123"),
        ("G-448201 is your Google verification code.", "OTP", "G-448201"),
        ("Backup code 77421-90813", "OTP", "77421-90813"),
        # a code of digit groups is masked whole (a reviewer's text)
        ("Tell him the booking code is 2231 8890 1120 4455.", "OTP", "2231 8890 1120 4455"),
        ("my pin is 1234 5678, do not share it", "PASSWORD", "1234 5678"),
        ("my recovery key is 1A2B-3C4D-5E6F-7G8H", "OTP", "1A2B-3C4D-5E6F-7G8H"),
        ("the password's been changed to Orchid#42", "PASSWORD", "Orchid#42"),
        ("the pass for the guest network is Visitor2024", "PASSWORD", "Visitor2024"),
        ("front door keypad: 7391", "PASSWORD", "7391"),
        ("the admin password I set for the router is HomeNet!77", "PASSWORD", "HomeNet!77"),
        ("Amazon sent me 773902 to verify my login", "OTP", "773902"),
        # a phone number stays one where no word names it as another kind of number
        ("Ring me on 020 7946 0958 about the invoice.", "PHONE", "020 7946 0958"),
        # a street address tied to the writer stays one, a famous one talked about as a landmark does not (below)
        ("We live at 22 Baker Street now, come by after 6.", "ADDRESS", "22 Baker Street"),
        # the street types and units are the PII tagger's lexicon (data/pii-tagger/lexicons.yaml), one list for both
        ("Send it to 44 Old Mill Hwy Suite 200 please.", "ADDRESS", "44 Old Mill Hwy Suite 200"),
    ],
)
def test_secrets_introduced_by_context_are_found(detector, text, kind, value):
    assert (kind, value) in {(s.type, text[s.start : s.end]) for s in detector.detect(text)}


@pytest.mark.parametrize(
    "text",
    [
        "I forgot which password manager we use, it's 2024 after all.",
        "The code review took 45 minutes. It's fine now.",
        "Please rotate the tyres every 10000 km.",
        "Sign in with password reset enabled.",
        "it's 2024",
        "code 404 error",
        "the password policy requires 12 characters",
        "the password must be at least 8 characters",
        "Set the password to expire after 90 days",
        "what's the password policy? It's strict",
        "The password is stored in the vault",
        "my pin is stuck in the drawer",
        "Connect the wire to pin 13",
        "password: ********",
        "my zip code is 90210",
        "error code 5003 again",
        "HTTP code: 404",
        "the code is 1000 lines long",
        "promo code SAVE20 gave 20% off",
        "The code is 482913 for 12.5% off your first order",  # the dot of 12.5 ends no sentence: what it buys is said
        "Use the code SUMMER20 at checkout for a discount on garden tools.",  # a shop's code: what it buys is said
        "Enter the code XMAS2024 for free shipping",
        "user: anna / role: admin",
        "He sent me 2000 dollars",
        "enter 5000 as the amount",
        "I pasted the whole stack trace into the chat",
        "accidentally committed 3f9a2b7c8d1e4f5a6b7c8d9e0f1a2b3c4d5e6f7a to main",
        "The key is to stay consistent",
        "call 666-12-3456",
        "password PowerShell scripts",
        "with password Protection enabled",
        "the wifi is 2.4GHz",
        "the wifi is down again",
        "use keys to open the door",
        "login page 2 / 2023",
        "social media posts from 2019",
        "Password - see the vault",
        "the combo meal was 12 dollars",
        "we rotated the tyres last week",
        "Enter 5000 to confirm the amount in dollars",
        "the password will be emailed to you",
        "the new password will be 12 characters long",
        "I shared my screen with the team",
        "The code on the box is 5012-A for assembly.",
        "I need to pass 2 exams this term",
        "error code for the timeout is 5003",
        "my password, as usual, is somewhere safe",
        "the code review found bugs, 1200 lines in total",
        "wifi: slow again today",
        "There's a password issue with the app since the update.",
        "The day pass is 120 for the whole family.",
        "le mot de passe est trop court",
        "la contraseña del correo es muy larga y tiene 12 caracteres",
        "mot de passe oublié?",
        "The password, which is the one IT sent, expired.",
        "passwords are never stored in plain text",
        "the new password is gonna be long",
        "the wifi code - ask at the bar",
        "the lockbox is by the back door",
        "the code for the door is on the fridge",
        "Use Chrome to sign in, Safari is broken.",
        "I texted 2000 people to confirm",
        "Where do I find the recovery key in BitLocker?",
        # numbers the words before them name as another kind, and a year's serial number, are no phone numbers
        "Invoice 2024-117 is still unpaid according to accounting.",
        "The meeting ID is 845 2219 0371, join at 10.",
        "Part number 8843-229 for the dishwasher filter.",
        "Ticket 2023-0456 was closed without a fix.",
        "2023-0456 was closed without a fix.",
        "Conference call ID 512 330 9981, no PIN needed.",
        "Claim 2023-4471 is still under review.",
        "The Teams meeting code is 291 447 803 12.",
        "10 Downing Street is smaller than it looks on TV.",
        "Is 1600 Pennsylvania Avenue open for tours?",
    ],
)
def test_prose_around_the_same_words_is_not_flagged(detector, text):
    assert detector.detect(text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [  # data/secret_words.yaml code_words_other_languages (written for these tests, not taken from any test set)
        ("Der Türcode ist 4471, bis Samstag!", "4471"),
        ("Mein PIN ist 9051, nicht weitersagen.", "9051"),
        ("le code de la porte du bâtiment c'est 62B19", "62B19"),
        ("El código del portal de mi tía es 3308.", "3308"),
        ("il codice del portone è 7720, citofona pure", "7720"),
        ("De deurcode is 5813.", "5813"),
        ("o código do portão da garagem é 4402", "4402"),
    ],
    ids=["de", "de-pin", "fr", "es", "it", "nl", "pt"],
)
def test_a_door_code_or_pin_in_the_six_languages_is_a_password(detector, text, value):
    assert ("PASSWORD", value) in {(s.type, text[s.start : s.end]) for s in detector.detect(text)}


@pytest.mark.parametrize(
    "text",
    [
        "Il codice del portone è rotto da tre giorni.",
        "El código de acceso es de 6 dígitos.",
        "Der Türcode ist seit gestern neu, frag Anna.",
        "Le digicode est en panne depuis lundi.",
    ],
)
def test_talk_of_a_door_code_without_its_digits_is_not_flagged(detector, text):
    assert not [s for s in detector.detect(text) if s.type == "PASSWORD"]


def test_each_english_code_word_holds_a_trigger_of_the_password_pattern():
    """The password pattern runs only around its trigger words: each code word must hold one."""
    from stealthflow.placeholders.recognizers.secrets import PasswordRecognizer, secret_words

    triggers = PasswordRecognizer.triggers
    assert all(any(trigger in word for trigger in triggers) for word in secret_words()["code_words"])


def test_a_second_secret_in_one_sentence_is_masked_too(detector):
    """ux19's report H2: the wifi password was masked and the router's went out in clear."""
    text = "Password for the wifi is Tr0ub4dor&3xyz, router admin is admin/hunter2."
    found = [text[s.start : s.end] for s in detector.detect(text) if s.type == "PASSWORD"]
    assert found == ["Tr0ub4dor&3xyz", "hunter2"]


def test_a_login_pattern_stops_at_the_sentence_end(detector):
    """ "log in for me. ssh into 2a00:..." is not a user name and a password: the address stays an IP."""
    text = "My password is Chen2005! so log in for me. ssh into 2a00:23c6:9fb::3e and restart it"
    assert {(s.type, s.text_in(text)) for s in detector.detect(text)} == {
        ("PASSWORD", "Chen2005!"),
        ("IP_ADDRESS", "2a00:23c6:9fb::3e"),
    }


def test_a_recognizer_gets_the_whole_batch_of_normalised_texts_once():
    """A model-backed recognizer (the tagger) batches its forward passes: the detector hands each
    recognizer every text of a `detect_many` call at once, normalised, and maps its spans back."""
    from stealthflow.placeholders.recognizers import Recognizer

    class Batched(Recognizer):  # a fake model: flags the word "secret" in each text
        name, type = "batched_fake", "PASSWORD"
        calls: list[list[str]] = []

        def find_many(self, texts):
            self.calls.append(texts)
            return [[self.span(t.index("secret"), t.index("secret") + 6)] if "secret" in t else [] for t in texts]

    recognizer = Batched()
    texts = ["a se\u200bcret here", "nothing", "secret"]
    spans = Detector([recognizer]).detect_many(texts)
    assert recognizer.calls == [["a secret here", "nothing", "secret"]]
    assert [[t[s.start : s.end] for s in found] for t, found in zip(texts, spans, strict=True)] == [
        ["se\u200bcret"],
        [],
        ["secret"],
    ]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("1. call Deborah\n2. pay rent\n3. pick up the dry cleaning", ["Deborah"]),
        ("remind me to text Sam Okafor tomorrow", ["Sam Okafor"]),
        ("I need to ring Ingrid before the meeting", ["Ingrid"]),
        # no one: a day, a kin word, a brand, a service, the caller themself
        ("text Sunday if the forecast holds", []),
        ("call Mom tonight", []),
        ("Please call Tesco about the refund", []),
        ("Call Center hours are 9-5", []),
        ("email Support with the ticket number", []),
        ("call me when you land", []),
    ],
)
def test_someone_to_call_text_or_email_is_a_name(detector, text, names):
    assert [text[s.start : s.end] for s in detector.detect(text) if s.type == "REAL_NAME"] == names


def test_a_forms_values_end_with_their_line(detector):
    text = "Name: Esna Safak\nEmployer: Google\nPosition: Analyst"
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [
        ("Esna Safak", "REAL_NAME"),
        ("Google", "EMPLOYER"),
    ]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Call Dr. Patel at 555-123-4567. He's at 42 Elm St.", "Patel"),
        ("Frau Dr. Müller wohnt in der Goethestr. 12a. Sie ist 54.", "Müller"),
        ("la mamma (sig.ra Moretti) chiede più tempo", "Moretti"),
        ("Contactez M. Lefèvre au plus vite, merci.", "Lefèvre"),
        ("reminder sent (Ms Ada Fenwick) for appointment 09:30", "Ada Fenwick"),
        ("Frau Müller Bescheid geben, bitte.", "Müller"),  # a noun after a surname is no part of it
        # a run of titles, then the name; a possessive's "'s" is no part of it (a reviewer's texts)
        ("Herr Doktor Schmidt's practice in Graz closed.", "Schmidt"),
        ("Herr Prof. Dr. Müller hält heute die Vorlesung.", "Müller"),
        ("Mrs Okafor's son got into Cambridge.", "Okafor"),
        # a capital after the surname's apostrophe (a reviewer's texts)
        ("Mr O'Connor signed the lease yesterday.", "O'Connor"),
        ("Ask Mr. O'Sullivan about the invoice.", "O'Sullivan"),
        ("Mme D'Amico arrive demain à la gare.", "D'Amico"),
    ],
)
def test_a_title_and_the_surname_after_it_are_one_name(detector, text, name):
    """The titled_name recognizer reads the titles with the name; the detector masks the name without them (ux21 M4:
    `placeholders/titles.py`)."""
    assert (name, "REAL_NAME") in [(text[s.start : s.end], s.type) for s in detector.detect(text)]


def test_a_brand_with_a_title_is_no_name(detector):
    text = "Wednesday wardrobe: Dr Martens boots and a Barbour jacket."
    assert [s for s in detector.detect(text) if s.type == "REAL_NAME"] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("For the zine: sort code 20-32-53, account 74061952, reference ZINE.", "20-32-53, account 74061952"),
        ("Bank: Nationwide, sort 07-01-16, acc 19283746\nStart date Monday", "07-01-16, acc 19283746"),
        ("sent today from my account 40-11-62 71934028. Sorry it's late", "40-11-62 71934028"),
        ("my acct is 60-83-71 / 44019825 (Monzo) xx", "60-83-71 / 44019825"),
        ("My account number is 40318826 and my sort code is 20-45-77.", "40318826 and my sort code is 20-45-77"),
    ],
)
def test_a_sort_code_and_its_account_number_are_bank_details(detector, text, value):
    assert (value, "FINANCE") in [(text[s.start : s.end], s.type) for s in detector.detect(text)]


@pytest.mark.parametrize(
    "text",
    [
        "The match on 12-05-24 drew 12345678 viewers.",  # a date and a count, no bank word
        "Sort code 40-11-62 in the bank's help page is just an example.",  # no account number
    ],
)
def test_a_date_like_number_without_bank_details_stays(detector, text):
    assert not [s for s in detector.detect(text) if s.source == "bank_details"]


@pytest.mark.parametrize(
    ("text", "value"),
    [  # left in clear before (ux27's H9); 021000021 is a routing number whose ABA check holds
        ("Routing 021000021 account 483920175.", "021000021 account 483920175"),
        ("Wire it to routing 021000021, acct 483920175.", "021000021, acct 483920175"),
    ],
)
def test_a_routing_number_and_its_account_are_bank_details(detector, text, value):
    assert (value, "FINANCE") in [(text[s.start : s.end], s.type) for s in detector.detect(text)]


def test_a_routing_number_whose_check_fails_is_no_bank_details(detector):
    assert not [s for s in detector.detect("Routing 021000022 account 483920175.") if s.source == "routing_account"]


@pytest.mark.parametrize("text", ["My Venmo is @carlos-m-88", "Follow me @carlos-m-88 on Venmo"])
def test_a_handle_with_hyphens_is_one_handle(detector, text):
    """The handle "@carlos-m-88" was cut at its first hyphen: "<USERNAME_1>-m-88" (ux27's H9)."""
    assert ("@carlos-m-88", "USERNAME") in [(text[s.start : s.end], s.type) for s in detector.detect(text)]


def test_a_sentry_dsns_key_is_a_secret(detector):
    """The DSN's key was masked as a USERNAME, a PL2 value (ux27's M8)."""
    text = "SENTRY_DSN: https://4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c@o123456.ingest.sentry.io/7654321"
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [
        ("4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "API_KEY")
    ]
