"""Passport numbers and user names: each named by a cue (data/passports.yaml, data/usernames.yaml) in the seven
languages, checked where a check digit is written; a bare word, an email's local part or an order number is
neither. A user name is restored after protect, and both are masked by the real `stealthflow protect` command."""

from __future__ import annotations

import sys
from functools import cached_property

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from placeholder_fixtures import make_protector, protect_config
from test_multilingual import protect_command, run_protect

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.placeholders.recognizers.passports import PassportRecognizer, icao_check_digit
from stealthflow.placeholders.recognizers.usernames import QuotedNameRecognizer, UsernameRecognizer, handle_shaped

# ICAO 9303's specimen passport: its machine-readable zone, whose check digits hold
SPECIMEN_ZONE = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"


def _values(recognizer, text: str) -> list[str]:
    return [text[span.start : span.end] for span in recognizer.find(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("hab dir den Reisepass gescannt, Nummer ist C4J7XK2R8, gültig bis 2031", "C4J7XK2R8"),
        ("Mon passeport n° 19AB23456 expire en juin.", "19AB23456"),
        ("Mi número de pasaporte está mal. El correcto es XDB507318.", "XDB507318"),  # the cue a sentence before
        ("allego copia del mio passaporto n. YB4829173 e del permesso", "YB4829173"),
        ("Paspoortnummer NRF4L29K1, houder Thomas", "NRF4L29K1"),
        ("O meu passaporte tem o n.º CB729104 e o NIF", "CB729104"),
        ("If some kind soul finds a UK passport number 552918374, please call.", "552918374"),
        ("Please find my passport details: passport no. X4829103K, issued 2022.", "X4829103K"),  # no country's format
    ],
    ids=["de", "fr", "es", "it", "nl", "pt", "en", "en-any-format"],
)
def test_a_passport_number_near_its_cue_is_found_in_each_language(text, value):
    assert _values(PassportRecognizer(), text) == [value]


@pytest.mark.parametrize(
    "text",
    [
        "Reisepass beantragt. Ihre Bestellung C4J7XK2R8 wurde versandt.",  # a passport's format, an order's word
        "My passport photo was awful. Order 552918374 shipped today.",  # an order number near the word
        "passport renewal takes 6 weeks since 20240112, see form ABC.",  # a cue, a date
        "Reisepass Nr.: C01X00T471",  # written with a check digit that does not hold
    ],
)
def test_no_passport_for_an_order_number_a_date_or_a_wrong_check_digit(text):
    assert _values(PassportRecognizer(), text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Mein Reisepass läuft ab; Termin … am 20250314, Vorgangsnummer 12345678",  # a date, a case's number
        "Passport photos cost 12 EUR, my flight LH4567890 leaves",  # a flight
        "Passeport expiré, réservation 987654321 annulée",  # a booking
        "Il passaporto è scaduto, ordine AB1234567",  # an order
        "Paspoort verlopen, factuur 20240112 betaald",  # an invoice's date
        "Passport lost. Check number 123456789",  # a cheque
        "Passport lost. Case id 87654321",  # digits with no number word
        "Passport renewal is slow. I waited weeks. Then AB1234567 came.",  # two sentences on
    ],
)
def test_a_number_of_another_kind_near_a_passport_word_is_no_passport(text):
    assert _values(PassportRecognizer(), text) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Has anyone had their passport renewal stuck? Mine (number 533218794) has", "533218794"),
        ("Passport number on my old one is 118472603.", "118472603"),
        ("doc_type=passport country=GB number=533271904", "533271904"),
    ],
)
def test_digits_within_reach_of_a_passport_word_are_taken_after_a_number_word(text, value):
    assert _values(PassportRecognizer(), text) == [value]


def test_a_check_digit_written_after_the_number_must_hold():
    assert icao_check_digit("C01X00T47") == 8
    span = PassportRecognizer().find("Reisepass Nr.: C01X00T478")[0]
    assert span.score == 1.0 and "DE format" in span.reason


def test_a_passports_machine_readable_zone_is_found_without_a_cue():
    found = PassportRecognizer().find("scan:\n" + SPECIMEN_ZONE)
    assert [(span.type, span.score) for span in found] == [("PASSPORT", 1.0)]
    assert PassportRecognizer().find(SPECIMEN_ZONE.replace("L898902C36", "L898902C35")) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Ticket: Login nicht möglich. Benutzername: schwarzwaldbaer88, E-Mail folgt", "schwarzwaldbaer88"),
        ("Mon compte (pseudo : chat_noir_1987) a été piraté.", "chat_noir_1987"),
        ("Cuidado con el usuario ElReyDelDescuento, me vendió un móvil roto", "ElReyDelDescuento"),
        ("Cuidado com o usuário VendeTudoBarato: paguei 950", "VendeTudoBarato"),  # not the word after its colon
        ("Il mio nome utente è fra_tessitore e il codice non arriva", "fra_tessitore"),
        ("Mijn gebruikersnaam is hvdberg1961 en het e-mailadres klopt", "hvdberg1961"),
        ("meu usuário no fórum é carteiro_bh_79.", "carteiro_bh_79"),
        ("IP: 85.214.132.117\nUser: mschaefer\nPW: geheim", "mschaefer"),  # a plain word after "User:"
        ("My username is kfitzgerald and the temporary password expired", "kfitzgerald"),
        ("My Steam is xX_NightOwl_Xx if anyone wants to play", "xX_NightOwl_Xx"),
        ("DM me, I'm tinkerdad_77 on the Discord as well.", "tinkerdad_77"),
        ('[quote="vanderwolf_ops"]Can someone help', "vanderwolf_ops"),
        ("Nov 28 sshd[2215]: Accepted publickey for jrutherford from 109.150.2.1", "jrutherford"),
        ('File "/home/kpatel/projects/app.py", line 3', "kpatel"),
        ("java.io.FileNotFoundException: C:\\Users\\AhmedKhalil\\Documents\\a.txt", "AhmedKhalil"),
        ("DM me (u/wardsister_em).", "wardsister_em"),
        ("Alguém passou por isto? Obrigado, Nelson_Gaia", "Nelson_Gaia"),  # a handle signing off
        ('<span class="author">posted by&nbsp;<b>sparrowhawk_22</b></span>', "sparrowhawk_22"),
        ("[22:10] javi_rm: quién viene mañana?", "javi_rm"),  # a chat log's speaker
        ('109.150.33.71 - dmorales [02/Jun/2024:18:44:10 +0000] "GET / HTTP/1.1"', "dmorales"),  # an access log
        ("Ticket 3321: l'utente lrossi non riesce ad accedere", "lrossi"),  # a lowercase word no language uses
        ("Melding 20931: gebruiker pvdberg kan niet inloggen", "pvdberg"),
        ('Zitat von schrauber_kalle: "Login für den Server"', "schrauber_kalle"),  # a quote's author
        ("citação de churrasqueiro_rs: entra com root", "churrasqueiro_rs"),
        ("systemd-logind[402]: New session 12 of user fcolombo.", "fcolombo"),
        # a quote's or a comment's header, a code comment's owner (ux26 H4: left in clear)
        ("dave_m wrote:\n> I agree", "dave_m"),
        ("Quote from dave_m:\n> I agree", "dave_m"),
        ("On Mon, 3 Nov 2026, j.fletcher98 wrote:\n> I agree", "j.fletcher98"),
        ("    # TODO(lucas.meyer): fix this", "lucas.meyer"),
        ("**sarah_k84** · 2 days ago\nGreat post, thanks!", "sarah_k84"),
    ],
)
def test_a_user_name_after_its_cue_is_found(text, value):
    assert _values(UsernameRecognizer(), text) == [value]


@pytest.mark.parametrize(
    "text",
    ["Quote from Tom Hughes:\n> I agree with this.", "Quote from Tom Hughes: I agree with this.", "[quote=Tom Hughes]"],
)
def test_a_name_in_a_quotes_header_is_a_real_name(text):
    """ux26 H1: the PII tagger left "Quote from Tom Hughes:" in clear in a short text ("Quoting" it masked)."""
    assert [(text[s.start : s.end], s.type) for s in QuotedNameRecognizer().find(text)] == [("Tom Hughes", "REAL_NAME")]


@pytest.mark.parametrize("text", ["Posted by Tom Hughes on Monday", "Quote from the Guardian:", "quote from: Admin"])
def test_no_name_in_a_quotes_header_that_reads_as_none(text):
    assert QuotedNameRecognizer().find(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Login: anna.k@gmail.com, password in the vault",  # an email's local part is no user name
        "the user is not allowed to log in; login failed twice",  # common words after the cues
        "Mein Benutzername ist gesperrt, bitte helfen",  # a plain word after a linking word, not English
        "Est-ce que userName est obligatoire ?",  # ... nor after an English label and a French linking word
        "tinkerdad_77 and moth_and_rust",  # handle-shaped words without a cue
        'File "/home/runner/work/app.py" and /home/ubuntu/.ssh',  # accounts every system has
        "export DISCORD_TOKEN=abc123 and GITHUB_TOKEN",  # a site's name inside a variable
        "The release is v2.1 on Steam next week",  # a version is no user name
        "Thanks, Bob",  # a name signing off is the tagger's, not a user name
        "[10:02] I think so\n1.2.3.4 - - [02/Jun/2024:10:00:00 +0000]",  # no speaker's handle, no log user
        "The server wrote: nothing.\nTODO refactor this later",  # no handle before the marker, no owner in brackets
        "**max_retries** | default 3",  # a table of options
    ],
)
def test_no_user_name_without_a_cue_or_for_a_common_or_generic_word(text):
    assert _values(UsernameRecognizer(), text) == []


@pytest.mark.parametrize(
    "text",
    [
        "user = get_user(request)",  # a call
        "user=request.user",  # an attribute
        "threads = num_workers * 2",  # a word too common to be a cue
        "slack: v2_beta",
        "We need to handle 2FA",
        "Nutzer 2FA aktivieren",  # no small letter: a code
        "der Nutzer Klaus hat geschrieben",  # a capitalised word right after the label: a name, the tagger's
        "el usuario nuevo no puede entrar",  # a frequent word right after the label
        "Kennung: ABC-123",
        "user 12345 reported",  # a record's number
        "Login: fehlgeschlagen",  # frequent words of the label's language
        "Benutzer: unbekannt",
        "utilisateur : inconnu",
        "usuario: desconocido",
        "Utente: sconosciuto",
        "Gebruiker: onbekend",
        "Utilizador: desconhecido",
        "/home/projekte/app_v2",
    ],
)
def test_no_user_name_in_code_or_for_a_frequent_word_of_another_language(text):
    assert _values(UsernameRecognizer(), text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Reply to Hans-Peter Meier-Lüdenscheid",  # a hyphenated first name is a name's shape
        "posted by Jean-Pierre Dupont",
        "[quote=Anna-Lena Schmidt]",
        "Best, Q3_Report_final",  # a document, a team, a service desk signing off
        "Bedankt, Team_Noord",
        "Obrigado, Suporte_TI",
    ],
)
def test_a_hyphenated_name_or_a_team_is_no_user_name(text):
    assert _values(UsernameRecognizer(), text) == []


def test_a_handle_is_shaped_and_a_word_or_a_version_is_not():
    assert all(map(handle_shaped, ["c.brady", "MoonlitFerret", "lenny#4471", "gh0st", "hans-peter"]))
    assert not any(map(handle_shaped, ["password", "Anna", "v2.1", "12345", "Hans-Peter"]))


def test_each_span_says_why_it_was_found():
    (username,) = UsernameRecognizer().find("Benutzername: wolle_aus_bochum")
    (passport,) = PassportRecognizer().find("mi pasaporte (PAK482917)")
    assert username.reason == "after the user-name word 'benutzername'" and username.score == 0.9
    assert passport.reason.startswith("after the passport word 'pasaporte'") and "ES format" in passport.reason


def test_the_detector_types_a_login_name_as_username_not_as_an_email():
    detector = Detector(build_recognizers())
    text = "Usuario: fer.castillo92. Correo: fer.castillo92@gmail.com"
    found = sorted((text[s.start : s.end], s.type) for s in detector.detect(text))
    assert found == [("fer.castillo92", "USERNAME"), ("fer.castillo92@gmail.com", "EMAIL")]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a handle after a space was read as the word before it and an email ("Schatz@jule.kaffeeklatsch")
        ("hab ich meinen Schatz @jule.kaffeeklatsch kennengelernt", [("@jule.kaffeeklatsch", "USERNAME")]),
        ("Suivez-moi sur @lea.dessine, je poste", [("@lea.dessine", "USERNAME")]),
        ("mail me at zed.quux @mailbox.org", [("zed.quux @mailbox.org", "EMAIL")]),  # an address written apart
    ],
)
def test_a_handle_after_a_space_is_a_user_name_and_an_address_written_apart_an_email(text, found):
    detector = Detector(build_recognizers())
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == found


@pytest.mark.parametrize(
    ("text", "emails"),
    [
        ("Mail jane.doe @mycompany.internal for access", ["jane.doe @mycompany.internal"]),
        (
            "ping k.weber @intranet.corp or r.ivanova @build-01.lan",
            ["k.weber @intranet.corp", "r.ivanova @build-01.lan"],
        ),
        ("Kontakt: m.schulz @firma.intern", ["m.schulz @firma.intern"]),
        ("jdoe @corp.lan", ["jdoe @corp.lan"]),
    ],
)
def test_an_address_at_an_internal_domain_written_apart_is_one_email(text, emails):
    """The email recognizer's domain rule holds after " @" too: no local part is left in clear."""
    detector = Detector(build_recognizers())
    assert [(text[s.start : s.end], s.type) for s in detector.detect(text)] == [(e, "EMAIL") for e in emails]


def test_an_address_written_apart_leaves_nothing_in_clear_and_is_restored(tmp_path, monkeypatch):
    """The real protector on a real SQLite vault: the whole address masked, the reply restored."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protected = protector.protect("Mail jane.doe @mycompany.internal for access", "s")
    assert protected.text == "Mail <EMAIL_1> for access"
    assert protector.restore("Wrote to <EMAIL_1>.", "s").text == "Wrote to jane.doe @mycompany.internal."


def test_the_command_writes_a_languages_frequent_words(tmp_path):
    """`stealthflow tagger language-words` on a wordfreq list (a small one written here, in its format)."""
    import gzip

    import msgpack
    from typer.testing import CliRunner

    from stealthflow.cli import app

    wordfreq, out = tmp_path / "small_de.msgpack.gz", tmp_path / "words-de.txt"
    buckets = [[] for _ in range(700)]  # bucket i: Zipf 9 - i/100
    buckets[100] = ["und", "unbekannt", "2fa"]
    buckets[600] = ["fehlgeschlagen"]  # Zipf 3
    buckets[601] = ["mschaefer"]
    with gzip.open(wordfreq, "wb") as handle:
        msgpack.pack([{"format": "cB", "version": 1}, *buckets], handle)
    result = CliRunner().invoke(app, ["tagger", "language-words", str(wordfreq), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").split() == ["fehlgeschlagen", "unbekannt", "und"]
    common = tmp_path / "common-de.txt"
    result = CliRunner().invoke(
        app, ["tagger", "language-words", str(wordfreq), "--min-zipf", "5.5", "--out", str(common)]
    )
    assert result.exit_code == 0, result.output
    assert common.read_text(encoding="utf-8").split() == ["unbekannt", "und"]  # Zipf 8; "fehlgeschlagen" 3 is not


def test_a_user_name_is_restored_after_protect(tmp_path, monkeypatch):
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    typed = "Mijn gebruikersnaam is hvdberg1961, kun je mijn account ontgrendelen?"
    protected = protector.protect(typed, "s")
    assert "hvdberg1961" not in protected.text and "<USERNAME_1>" in protected.text
    reply = protected.text.replace("kun je mijn account ontgrendelen?", "je account is weer open.")
    assert protector.restore(reply, "s").text == "Mijn gebruikersnaam is hvdberg1961, je account is weer open."


def test_a_passport_and_a_user_name_through_the_protect_command(tmp_path):
    """The real command on a real vault: both masked with their type, the reason in the span JSON."""
    text = "Mein Benutzername ist m.krueger84. Hier meine Reisepassnummer: CJ4R7M2N9."
    row = protect_command(tmp_path, text, tagger=False)
    assert row["text"] == "Mein Benutzername ist <USERNAME_1>. Hier meine Reisepassnummer: <PASSPORT_1>."
    reasons = {span["type"]: span["reason"] for span in row["spans"]}
    assert reasons["USERNAME"].startswith("username: after the user-name word")
    assert reasons["PASSPORT"].startswith("passport: after the passport word 'reisepassnummer'")
    (tmp_path / "again").mkdir()  # a fresh vault: each run has a key of its own
    explained = " ".join(run_protect(tmp_path / "again", text, False, "--explain").stderr.split())  # rich wraps lines
    assert "masked PASSPORT" in explained and "passport: after the passport word 'reisepassnummer'" in explained
    assert "confidence 0.90" in explained and "m.krueger84" not in explained


def _growth(find, unit: str, small: int, times: int) -> float:
    """How many more lines of Python `find` runs on `times` x `small` copies of `unit` than on `small`: a count of
    the work done, the same on any machine and under any load (a timing would not be)."""

    def lines(copies: int) -> int:
        count = 0

        def trace(frame, event, arg):
            nonlocal count
            if event == "line":
                count += 1
            return trace

        text = unit * copies
        sys.settrace(trace)
        try:
            find(text)
        finally:
            sys.settrace(None)
        return count

    return lines(small * times) / lines(small)


@pytest.mark.parametrize(
    ("recognizer", "unit"),
    [
        (UsernameRecognizer(), "[22:10] a_1: hi\n"),  # a chat log's speakers
        (UsernameRecognizer(), "1.2.3.4 - a_1 ["),  # an access log's users
        (PassportRecognizer(), "passport C01X00T47 "),  # cues, each reaching the next numbers too
    ],
    ids=["chat-log", "access-log", "passports"],
)
def test_many_spans_take_work_in_proportion_to_the_text(recognizer, unit):
    """Eight times the text: about eight times the work (checking each span against all kept ones: about 60)."""
    recognizer.find(unit)  # patterns compiled
    assert len(recognizer.find(unit * 500)) == 500
    assert _growth(recognizer.find, unit, 500, 8) < 24


class FullScanUsernames(UsernameRecognizer):
    """A fake gate: every pattern is tried at every place in the text, as a full scan tries it."""

    @cached_property
    def _starts(self):
        return lambda text: list(range(len(text)))


class FullScanPassports(PassportRecognizer):
    """The same fake gate for passports."""

    @cached_property
    def _cue_starts(self):
        return lambda text: list(range(len(text)))


PHRASES = [
    "Benutzername: wolle_aus_bochum",
    "user=jbarraclough",
    "Username on the league site is BusmanAndy74",
    "My Steam is xX_NightOwl_Xx",
    "I'm tinkerdad_77 on the Discord",
    "[quote=sparrowhawk]",
    "/home/kwame/projects",
    "u/dev_cansado_sp",
    "passport no. X4829103K",
    "Reisepassnummer: CJ4R7M2N9",
    "pasaporte",
    "USER: Login",
    "Groet, Anja_Rotterdam",
    "Straße",
    "filler words here",
]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(PHRASES), min_size=1, max_size=12), st.sampled_from([" ", ". ", "\n", ", "]))
def test_the_cue_gate_finds_what_a_full_scan_finds(parts, separator):
    text = separator.join(parts)
    for gated, full in ((UsernameRecognizer(), FullScanUsernames()), (PassportRecognizer(), FullScanPassports())):
        assert gated.find(text) == full.find(text)
