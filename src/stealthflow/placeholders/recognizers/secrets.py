"""Credentials and secrets (PL4): detect-secrets' regex plugins, a private-key block, long
high-entropy tokens next to a key word, and passwords / one-time codes named in context.

detect-secrets' entropy plugins flag nearly every word of prose, so entropy is applied here
by hand, only to long tokens that sit next to "key", "token", "secret"...
"""

from __future__ import annotations

import math
import re
from functools import cache

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
from detect_secrets.plugins.ip_public import IPPublicDetector

from stealthflow.placeholders.common_words import function_word
from stealthflow.placeholders.domains import URL_AUTHORITY
from stealthflow.placeholders.language import function_word_counts
from stealthflow.placeholders.recognizers.base import ContextRecognizer, Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.gate import fold, required_literals, skipping
from stealthflow.placeholders.recognizers.languages import one_of
from stealthflow.placeholders.recognizers.places import coordinates_at
from stealthflow.placeholders.recognizers.sentences import sentence_around, sentence_start
from stealthflow.placeholders.types import Span
from stealthflow.resources import data_yaml

SECRET_WORDS = "secret_words.yaml"


@cache
def secret_words() -> dict[str, tuple[str, ...]]:
    """The words that name a password, by kind (data/secret_words.yaml)."""
    data = data_yaml(SECRET_WORDS)
    return {kind: tuple(words) for kind, words in data.items()}


def _words(kind: str) -> str:
    return one_of(secret_words()[kind], gap=r"\s+")


def _triggers(*kinds: str) -> tuple[str, ...]:
    """The first word of each phrase of `kinds`, lowercase (a password pattern runs around them, gate.py)."""
    return tuple(sorted({phrase.split()[0] for kind in kinds for phrase in secret_words()[kind]}))


@cache
def _detect_secrets_patterns() -> list[re.Pattern[str]]:
    """Every vendor-token regex of detect-secrets (AWS, GitHub, Slack, Stripe, JWT...), then the
    vendors it does not know (`data/vendor_tokens.yaml`: Hugging Face, Google, OpenAI, Anthropic...)."""
    patterns = []
    for plugin_class in get_mapping_from_secret_type_to_class().values():
        if issubclass(plugin_class, RegexBasedDetector) and plugin_class not in (IPPublicDetector, BasicAuthDetector):
            patterns.extend(plugin_class().denylist)
    patterns.extend(re.compile(regex) for regex in data_yaml("vendor_tokens.yaml").values())
    return patterns


# Every vendor token is one long run of token characters; the ~30 vendor regexes only run
# on windows around such runs (with room for a "key =" before them), not on all the prose.
_LONG_TOKEN = re.compile(r"[^\s\"'`<>()]{16,}")
_WINDOW_BEFORE = 48


def _token_windows(text: str) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    for match in _LONG_TOKEN.finditer(text):
        start, end = max(match.start() - _WINDOW_BEFORE, 0), match.end()
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


@cache
def _vendor_gate():
    """An automaton over the vendor patterns' literal prefixes and key words ("ghp", "AKIA",
    "xox", "eyJ"...): in a window holding none of a pattern's literals it cannot match, so only
    the few patterns without such a literal run everywhere. Returns (automaton, ungated indices)."""
    import ahocorasick

    owners: dict[str, list[int]] = {}
    ungated = []
    for index, pattern in enumerate(_detect_secrets_patterns()):
        literals = required_literals(pattern)
        if literals is None:
            ungated.append(index)
        for literal in literals or ():
            owners.setdefault(literal, []).append(index)
    automaton = ahocorasick.Automaton()
    for literal, indices in owners.items():
        automaton.add_word(literal, tuple(indices))
    automaton.make_automaton()
    return automaton, tuple(ungated)


@register_recognizer
class VendorTokenRecognizer(Recognizer):
    name, type = "vendor_token", "API_KEY"

    def find(self, text: str) -> list[Span]:
        spans = []
        patterns = _detect_secrets_patterns()
        automaton, ungated = _vendor_gate()
        for start, end in _token_windows(text):
            candidates = set(ungated).union(*(indices for _, indices in automaton.iter(fold(text[start:end]))))
            for index in sorted(candidates):  # the patterns' own order, as without the gate
                for match in patterns[index].finditer(text, start, end):
                    spans.append(self.span(*_secret_bounds(match)))
        return spans


@register_recognizer
class UrlPasswordRecognizer(Recognizer):
    """The user and password of a URL (`postgresql://admin:S3cr3t@10.0.3.17:5432`: "admin:S3cr3t"; a password
    alone when there is no user, `redis://:S3cr3t@cache:6379`); the scheme, host and port stay readable. It replaces
    detect-secrets' basic-auth pattern, whose match ran from "://" to the @ and took no password with "&" or "!"."""

    name, type = "url_password", "CREDENTIAL"

    def find(self, text: str) -> list[Span]:
        spans = []
        for authority in URL_AUTHORITY.finditer(text) if "://" in text else ():
            userinfo, at, host = authority[1].rpartition("@")
            user, colon, password = userinfo.partition(":")
            if at and colon and password and host:
                spans.append(
                    self.span(
                        authority.start(1) if user else authority.start(1) + 1, authority.start(1) + len(userinfo)
                    )
                )
        return spans


# A token's characters: a vendor pattern that stops inside them (the JWT pattern's lazy signature
# matches none of it) is grown to the token's end, so no part of the secret stays in clear.
_TOKEN_REST = re.compile(r"[A-Za-z0-9_\-+/=]*")


def _secret_bounds(match: re.Match[str]) -> tuple[int, int]:
    """The secret itself: a long last group when the pattern captures it after a key name
    (`AccountKey=(...)`), else the whole match (GitHub's group is just the `ghp` prefix), to the
    end of the token characters it stops in."""
    groups = [g for g in range(1, (match.re.groups or 0) + 1) if match.group(g)]
    if groups and match.end(groups[-1]) - match.start(groups[-1]) >= 16:
        start, end = match.start(groups[-1]), match.end(groups[-1])
    else:
        start, end = match.start(), match.end()
    return start, _TOKEN_REST.match(match.string, end).end()


@register_recognizer
class PrivateKeyRecognizer(Recognizer):
    """A whole PEM private-key block (detect-secrets only flags its header line)."""

    name, type = "private_key", "PRIVATE_KEY"
    pattern = re.compile(
        r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.DOTALL
    )

    def find(self, text: str) -> list[Span]:
        return [self.span(m.start(), m.end()) for m in self.pattern.finditer(text)]


_ENTROPY = Base64HighEntropyString()
_HEX = re.compile(r"[0-9a-fA-F-]+")


def _random_looking(value: str, min_entropy: float = 3.5) -> bool:
    """Letters and digits mixed, at detect-secrets' Shannon entropy `min_entropy` or more; a value
    shorter than 20 characters also mixes upper and lower case (a random key, not `user_id_2024`)."""
    has_mix = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
    cased = len(value) >= 20 or (any(c.isupper() for c in value) and any(c.islower() for c in value))
    return has_mix and cased and _ENTROPY.calculate_shannon_entropy(value) >= min_entropy


def _random_letters(value: str) -> bool:
    """Letters that look typed at random ("MCqTUfFtpC"), not a word ("Reset", "PowerShell"): mixed case
    beyond CamelCase, near the highest Shannon entropy (detect-secrets) their length allows."""
    value = value.rstrip("!?")
    if len(value) < 8 or _CAMEL_CASE.fullmatch(value) or sum(c.isupper() for c in value) < 2:
        return False
    return _ENTROPY.calculate_shannon_entropy(value) >= 0.85 * math.log2(len(value))


_CAMEL_CASE = re.compile(r"[A-Z]*[a-z]*(?:[A-Z][a-z]{2,})*[A-Z]?")  # "PowerShell", "McDonalds", "HTTPServer"
_TOKEN_VALUE = r"[\"'`]?(?P<value>[A-Za-z0-9][A-Za-z0-9_\-+/=.]{14,200}[A-Za-z0-9_\-+/=])"


@register_recognizer
class KeyedTokenRecognizer(ContextRecognizer):
    """`api key: 9fQx...`, `token sk-proj-...`, `rotate 9fQx...`: a random-looking token after a key
    word or a verb only keys take."""

    name, type = "keyed_token", "API_KEY"
    triggers = (
        "key",
        "secret",
        "token",
        "bearer",
        "auth",
        "rotate",
        "revoke",
        "regenerate",
        "invalidate",
        "sk-",
        "sk_",
        "rk-",
        "rk_",
    )
    pattern = re.compile(
        # after a key word (also inside OPENAI_API_KEY=), or with a well-known secret-key prefix
        r"(?:(?i:(?:\b|(?<=_))(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|token|bearer|auth(?:orization)?|key|rotated?|revoked?|regenerated?|invalidated?)\b"
        r"[^\n\w]{0,12}(?:(?:is|was)\s+)?)"
        r"|(?<![\w-])(?=(?:sk|rk|sk_live|rk_live)[-_]))" + _TOKEN_VALUE
    )

    def accept(self, match: re.Match[str]) -> bool:
        return _random_looking(match["value"])


@register_recognizer
class ExposedTokenRecognizer(ContextRecognizer):
    """`I leaked 7f9KpQ...`, `accidentally committed the token X`: a random-looking token after a verb
    of exposure. These verbs also take commit hashes and ids, so an all-hex value (git SHA, UUID)
    is not taken for a key here."""

    name, type = "exposed_token", "API_KEY"
    triggers = ("leak", "pasted", "committed", "pushed", "exposed", "posted", "published", "shared", "uploaded")
    pattern = re.compile(
        r"(?i:\b(?:leaked|pasted|committed|pushed|exposed|posted|published|shared|uploaded)\s+(?:(?:my|our|the|this|an?|its)\s+)?"
        r"(?:(?:old|new|live|prod(?:uction)?|api|secret|access|private)\s+){0,2}(?:(?:key|token|secret)\s+)?)"
        + _TOKEN_VALUE
    )

    def accept(self, match: re.Match[str]) -> bool:
        return not _HEX.fullmatch(match["value"]) and _random_looking(match["value"])


# Words that follow "password is" in prose about passwords ("the password is stored in...").
_NOT_A_PASSWORD = frozenset((
    "stored", "saved", "kept", "still", "not", "the", "and", "also", "same", "different", "wrong", "incorrect", "correct",
    "expired", "weak", "strong", "required", "needed", "missing", "invalid", "changed", "reset", "written", "hidden",
    "encrypted", "hashed", "empty", "blank", "set", "too", "very", "just", "now", "here", "there", "below", "above", "attached",
    "for", "from", "with", "without", "into", "my", "your", "his", "her", "our", "their", "its", "this", "that", "these",
    "those", "what", "which", "who", "something", "nothing", "anything", "easy", "hard", "long", "short", "simple", "secure",
    "insecure", "forgotten", "lost", "unknown", "yes", "no", "none", "null", "true", "false", "n/a", "tbd", "optional",
    "case-sensitive", "being", "sent", "shown", "visible", "printed", "listed", "included", "mandatory", "under", "behind", "inside",
))  # fmt: skip
# A number followed by one of these is a size or a count ("12 characters", "1000 lines"), not a secret.
_UNIT = (
    r"[\"'”’]?\s*(?:%|characters?|chars?|digits?|letters?|symbols?|words?|lines?|bytes?|[kmg]b|ms|seconds?|secs?|minutes?|mins?|"
    r"hours?|hrs?|days?|weeks?|months?|years?|times|attempts?|tries|people|users|pages?|tests?|errors?|steps?|km|miles?)\b"
)
_NOT_AMOUNT = rf"(?!{_UNIT})"
_CODE_WORD = (
    _words("code_words")
    # "the code to the bike lock is X": the bare word "code" for what it opens
    + rf"|code(?=\s+(?:to|for)\s+(?:the|my|our|your)\s+(?:\w+\s+)?(?:{_words('code_opens')})\b)"
)
# with the abbreviations and misspellings people type ("pswd", "p/w"); in other languages ("Passwort: X"),
# the value holds a digit, as the words of prose that follow are not known ("le mot de passe est trop court")
_PASSWORD_WORD = _words("password_words")
_FOREIGN_PASSWORD_WORD = _words("password_words_other_languages")
_PASSPHRASE_WORD = _words("passphrase_words")
_FOREIGN_CODE_WORD = _words("code_words_other_languages")
_SECRET_WORD = rf"{_PASSWORD_WORD}|{_CODE_WORD}"
# "is" in the languages of the word lists: "Passwort ist X", "il codice del portone è X"
_FOREIGN_IS = _words("value_words")
# A few words of what a password or code in those languages opens, between its word and "is": "el código del portal de
# la abuela es 2815", "mi contraseña del banco es Perro-Azul-77" (ux26 H7: the password was masked as a name).
_WHAT_IT_OPENS = r"(?:\s+[^\W\d_][\w'’-]*){0,5}?"
# The first letters of the password pattern's alternatives: its own words ("password", "pw", "changed", "set", "reset",
# "updated", "my", "the", "our", "your", "wifi") and the word lists'
_OWN_FIRST_LETTERS = set("pcsrumtoyw")
_WORD_KINDS = ("password_words", "password_words_other_languages", "code_words", "code_words_other_languages")
_FIRST_LETTERS = "".join(
    sorted(_OWN_FIRST_LETTERS | {phrase[0] for kind in _WORD_KINDS for phrase in secret_words()[kind]})
)
# No "is" / ":" before the value, so it needs a digit, or a symbol inside it ("password reset", "policy?" are prose)
# Each lookahead reads at most a value's 64 characters (`_PASSWORD_VALUE`): one that ran to the end of the token read
# a long run ("pw=pw=pw=...") again at every place tried, in quadratic time (rev28 F1).
_NOT_A_WORD = r"(?=[^\s(\[{<]{0,64}(?:\d|(?:[^\s\w]|_)\S))"  # (an accented letter is no symbol: "réinitialisé")
_HAS_DIGIT = r"(?=[^\s,;]{0,64}\d)"
# A year, a number with a unit ("2.4GHz", "100Mbps"), a value already masked ("********", "<redacted>", a placeholder "<PASSWORD_1>"),
# keys pressed together ("the key combination Ctrl+Shift+T"), a variable the value is read from ("${POSTGRES_PASSWORD}").
_QUANTITY = r"(?i:\d+(?:[.,]\d+)?(?:[kmg]?hz|[kmg]bps|[kmgt]i?b|g|x|%|ms|s)[!?]?)"
KEYS_PRESSED = r"(?i:ctrl|shift|alt|cmd|command|option|opt|fn|win|super|meta)\+\S+"
_NOT_A_SECRET = re.compile(rf"(?:19|20)\d\d|[*•xX.]+|[<\[{{].*|\$\{{\w+\}}|{_QUANTITY}|{KEYS_PRESSED}")
# "is" as a word: "the password issue" is prose
_ASSIGN = r"(?:'s|’s|\s*(?:(?:is|was)\b:?|=|:|->|=>|→))\s*(?:(?:still|now|currently|just|actually|literally|simply|basically)\s+)?(?!gonna\b|going\s+to\b|been\b)[\"'“‘]?"
_FOR_WHAT = (  # "the password for my bank account is" (no full stop inside), "the password I set is", "the PIN you gave me is"
    r"(?:\s+(?:for|to|on|of|at)\s+(?:[\w@-]+(?:\.\w[\w@-]*)*\s+){0,2}[\w@-]+(?:\.\w[\w@-]*)*"
    r"|\s+(?:that\s+)?(?:i|we|you|he|she|they)\s+(?:\w+\s+)?(?:set|use|used|chose|picked|gave|sent|made)(?:\s+(?:me|us|you|him|her|them))?"
    r"(?:\s+(?:for|on)\s+(?:the|my|our|your)\s+[\w@-]+)?)?"
)
_VALUE_END = (
    r"(?=[\"'”’]?(?:[\s,;)]|[.:](?:\s|$)|$))" + _NOT_AMOUNT
)  # "!" and "?" stay in the value: masking a sentence's "!" costs less than leaking a character
# A code of digit groups, whole, not its first group: "77421-90813", "the booking code is 2231 8890 1120 4455" (a
# reviewer's text; on pii-heldout-c..k no value of groups apart by blanks, and no span changes).
_DIGIT_GROUPS = r"\d{4,5}(?:(?:-\d{4,5}){1,3}|(?: \d{4,5}){1,3})(?![\w-])"
_PASSWORD_VALUE = rf"(?P<value>{_DIGIT_GROUPS}|[^\s\"'”’]{{3,64}}?)" + _VALUE_END


@register_recognizer
class PasswordRecognizer(ContextRecognizer):
    """A password, PIN or door code named before it: "the password for my bank account is X", "pw: X",
    "DB_PASSWORD=X", "log in with password X", "changed my password to X", "what's the password? It's X",
    "the wifi is X", "my password, X, got leaked", "password (X)"."""

    name, type = "password", "PASSWORD"
    triggers = (
        "pass",
        "pin",
        "code",
        "combination",
        "combo",
        "wifi",
        "wi-fi",
        "puk",
        "lockbox",
        "keybox",
        "key safe",
        "keysafe",
        "keypad",  # (each of `code_words` holds one of the words above: tests/test_detection_gaps.py)
        *_triggers("password_words", "password_words_other_languages", "code_words_other_languages"),
    )
    # Each alternative starts with one of `_FIRST_LETTERS`: a lookahead on them lets the regex skip
    # most positions at once (trying every alternative at every position cost ~3x more).
    pattern = re.compile(
        rf"(?i:(?=[{_FIRST_LETTERS}])(?:"
        # a config or environment key: DB_PASSWORD=..., PGPASSWORD: ...
        r"(?:password|passwd|pwd|passphrase)\w*\s*[:=]\s*[\"'“‘]?"
        rf"|\b(?:"
        rf"(?:{_PASSWORD_WORD})\b{_FOR_WHAT}{_ASSIGN}"
        rf"|(?:{_CODE_WORD})\b{_FOR_WHAT}{_ASSIGN}{_HAS_DIGIT}"  # a PIN or door code holds a digit ("my pin is stuck")
        # no "is" / ":": "log in with password X", "username jdoe password X", "what's the password? It's X",
        # "changed my password to X"; the value holds a digit or a symbol, or is random-looking letters
        rf"|(?:(?:{_SECRET_WORD})(?:\s+|\b[^.!?\n]{{0,40}}[?,;:.!]\s*(?:it's|it\s+is|it\s+was|it’s|which\s+is|i\s+(?:typed|entered|put\s+in|tried|used))\s+)"
        r"|pw\s+is\s+|(?:pw|pass)\s*[:=]\s*|passwords\s+are\s+"
        rf"|pass\b{_FOR_WHAT}\s+is\s+(?=[^\s,;]*[A-Za-z])"  # "pass is hunter22" (a bus pass is not letters and digits)
        rf"|(?:changed?|set|reset|updated?)\s+(?:(?:my|the|our|your|his|her|their)\s+)?(?:\w+\s+)?(?:{_SECRET_WORD})\s+(?:to|as)\s+"
        rf"|(?:{_SECRET_WORD})(?:'s|’s)?\s+(?:(?:is|was|has|got|been)\s+){{0,2}}(?:changed|updated|reset|set)\s+(?:to|as)\s+"
        rf"|(?:{_SECRET_WORD})\b{_FOR_WHAT}\s+(?:will|would|should|must|is\s+going\s+to|(?:is\s+)?gonna)\s+be\s+)"
        rf"[\"'“‘(]?(?:{_NOT_A_WORD}|(?P<letters>)(?=[A-Za-z]{{8,64}}[\s\"'”’,;.!?]|[A-Za-z]{{8,64}}$))"
        rf"|wi-?fi\s+is\s+[\"'“‘]?{_NOT_A_WORD}"
        # a password, PIN or door code in those languages, maybe a few words of what it opens between
        rf"|(?:{_FOREIGN_PASSWORD_WORD}|{_FOREIGN_CODE_WORD}){_WHAT_IT_OPENS}\s*(?:[:=]|\s(?:{_FOREIGN_IS})\b:?)\s*"
        rf"[\"'“‘]?{_HAS_DIGIT}"
        rf"|(?:{_PASSWORD_WORD})\s+[-–—]\s+[\"'“‘]?{_NOT_A_WORD}"  # "Password - X" (a list's separator)
        rf"|(?:my|the|our|your)\s+(?:\w+\s+)?(?:{_SECRET_WORD}),\s+{_NOT_A_WORD}(?=\S+,)"  # "my password, X, got leaked"
        r"))"
        r")" + _PASSWORD_VALUE
    )

    def accept(self, match: re.Match[str]) -> bool:
        value = match["value"]
        if match.groupdict().get("letters") is not None:  # letters only, where "is" / ":" did not announce a value
            return _random_letters(value)
        if coordinates_at(match.string, match.start("value")):  # a dropped pin's position: an ADDRESS (places.py)
            return False
        return value.lower().rstrip("!?") not in _NOT_A_PASSWORD and not _NOT_A_SECRET.fullmatch(value)


@register_recognizer
class LoginPasswordRecognizer(PasswordRecognizer):
    """A password after a user name named by a login word (data/secret_words.yaml `login_words`: "login for the
    router: admin / X", "credentials: root:X", "user anna pass X", "wifi: HomeNet / X", "router admin is admin/X") or
    before what it opens ("use X to open the lockbox"). Apart from `password`: its trigger words
    ("user", "use", "account") are common, and each pattern then runs around its own words only."""

    name = "login_password"
    triggers = (*_triggers("login_words"), "use")
    pattern = re.compile(
        # (not a URL's user name: "postgresql://admin:S3cr3t@10.0.3.17:5432/app" names no account before its own)
        rf"(?i:(?=[{''.join(sorted({word[0] for word in triggers}))}])\b(?<![/:@])(?:(?:{_words('login_words')})\b{_FOR_WHAT}(?:\s+(?:is|are|as))?[^\w\n]{{0,3}}\s*"
        r"[A-Za-z][\w.@+-]*\s*(?:/|:|\||\s(?:pass|pw|pwd)\s)\s*(?:(?=[^\s,;]{0,64}[A-Za-z])"
        + _HAS_DIGIT
        + r"|(?=\d[\d-]{3,}))"  # a digit and a letter, or 4+ digits
        rf"|use\s+(?=\S+\s+to\s+(?:open|unlock|disarm|get\s+in)\b)[\"'“‘]?{_NOT_A_WORD}))" + _PASSWORD_VALUE
    )


@register_recognizer
class PasswordNamedAfterRecognizer(ContextRecognizer):
    """A password named after it: "use X as the password" (any word), "X is my password" (a digit or
    symbol in it: "this is my password" is prose)."""

    name, type = "password_named_after", "PASSWORD"
    triggers = ("pass", "pwd", "pin")
    pattern = re.compile(
        # (the first lookahead, a token then "is" / "was" / "as", turns most tokens down at once)
        rf"(?<![^\s\"'“‘(])(?=[^\s\"'“‘]{{3,64}}[\"'”’]?\s+(?i:is|was|as)\s)(?:(?=\S+\s+(?i:as)\s)|{_NOT_A_WORD})"
        rf"(?P<value>[^\s\"'“‘]{{3,64}}?)[\"'”’]?\s+"
        rf"(?i:(?:is|was|as)\s+(?:my|the|our|your|his|her|their)\s+(?:\w+\s+)?(?:{_SECRET_WORD})\b)"
    )

    def accept(self, match: re.Match[str]) -> bool:
        return match["value"].lower() not in _NOT_A_PASSWORD and not _NOT_A_SECRET.fullmatch(match["value"])


# A password word and what gives its value: "is" in the languages of the word lists, or a sign
_NAMED_AS = rf"\s*(?:(?:was|{_FOREIGN_IS})\b:?|=|:|->|=>|→)\s*"
_ANY_PASSWORD_WORD = (
    rf"(?<![^\W\d_])(?:{_PASSWORD_WORD}|{_FOREIGN_PASSWORD_WORD}|{_PASSPHRASE_WORD})\b"  # also DB_PASSWORD
)


@register_recognizer
class QuotedPasswordRecognizer(ContextRecognizer):
    """A password in quotes after its word, all of it up to the closing quote, spaces and all (the
    value of the other patterns ends at a space): "my password is 'hunter 22'", `pw="s3cr3t x"`,
    "Passwort: „mein geheimes Wort“"."""

    name, type = "quoted_password", "PASSWORD"
    triggers = _triggers("password_words", "password_words_other_languages", "passphrase_words")
    pattern = re.compile(
        rf"(?i:{_ANY_PASSWORD_WORD}{_FOR_WHAT}{_NAMED_AS})"
        r"(?:(?P<straight>[\"'`])|(?P<curly>“)|(?P<low>„)|(?P<single>‘)|(?P<angle>«))\s?"
        r"(?P<value>[^\n]{1,128}?)\s?(?(straight)(?P=straight)|(?(curly)”|(?(low)[“”]|(?(single)’|»))))"
    )

    def accept(self, match: re.Match[str]) -> bool:
        value = match["value"]
        return bool(value.strip()) and value.lower() not in _NOT_A_PASSWORD and not _NOT_A_SECRET.fullmatch(value)


# A word of a passphrase: what a clause's punctuation or a quote does not end
_PHRASE_WORD = r"[^\s.,;!?\"'“”‘’„«»()]+"


@register_recognizer
class PassphraseRecognizer(ContextRecognizer):
    """A passphrase or seed phrase of several words after its word, to the end of its clause (at most
    24 words): "my passphrase is correct horse battery staple". Not when it reads as prose about the
    passphrase: its first word one that prose puts there and a function word in it (of English,
    `data/function_words.txt`, or of a covered language: "the passphrase is stored in 1Password",
    "is too long to type")."""

    name, type = "passphrase", "PASSWORD"
    triggers = _triggers("passphrase_words")
    pattern = re.compile(
        rf"(?i:(?<![^\W\d_])(?:{_PASSPHRASE_WORD})\b{_FOR_WHAT}{_ASSIGN})"
        rf"(?P<value>{_PHRASE_WORD}(?:[ \t]+{_PHRASE_WORD}){{1,23}})"
    )

    def accept(self, match: re.Match[str]) -> bool:
        words = match["value"].split()
        prose = any(map(function_word, words)) or any(function_word_counts(match["value"]).values())
        return words[0].lower() not in _NOT_A_PASSWORD or not prose


# "error code 5003", "zip code is 90210": codes that are not secrets.
_PUBLIC_CODES = (
    "zip", "area", "postal", "post", "country", "status", "error", "exit", "return", "response", "http", "dial", "dialling", "sort",
    "tax", "promo", "discount", "coupon", "voucher", "referral", "source", "iso", "product", "item", "sku", "course", "class",
    "station", "airport", "qr", "bar", "color", "colour", "hex", "unicode", "ascii", "char", "character", "diagnosis", "icd",
    "billing", "zone", "region", "language", "currency", "the source", "my source", "your source", "model", "meeting", "lot", "batch", "part",
)  # fmt: skip
# Words that introduce a secret in prose ("the gate code", "login for the router", "the wifi").
_SECRET_CUE = re.compile(
    rf"(?i:\b(?:{_SECRET_WORD}|{_FOREIGN_PASSWORD_WORD}|pass(?:word|code|phrase)?s?|pins?|pw|codes?|combo|wi-?fi|wpa2?|keys?|secrets?|tokens?|bearer|log\s*in|logins?"
    r"|credentials?|creds|user(?:name)?|unlock\w*|open|otp|totp|2fa|mfa|verification|rotated?|revoked?|regenerated?|invalidated?)\b)"
)
# Numbers the words around them name as something public or countable: "error code 503", "the
# build number is 80132", "order 88231", "flight BA 284", "we need 56113 chairs", "Python 3.12".
# A model's guess at a secret gives way to them (a secret word between keeps it: "my phone's
# passcode is 4471"). A word glued to its number names it too ("err429", ux21's report M3).
_OTHER_NUMBER = skipping(
    re.compile(
        r"\b(?i:(?:" + "|".join(_PUBLIC_CODES) + r")\s+codes?|" + _words("other_number_words") + r")(?:\b|(?=\d))"
    )
)
_CUE_BEFORE = 60  # characters: "the wifi password at the cabin is X"
_NAMED_AFTER = re.compile(
    rf"[\"'”’]?\s+(?i:(?:is|was|as)\s+(?:my|the|our|your|his|her|their)\s+(?:\w+\s+)?(?:{_SECRET_CUE.pattern})|to\s+(?:open|unlock|disarm|get\s+in)\b)"
)
_PUBLIC_KIND = re.compile(r"(?i:" + "|".join(_PUBLIC_CODES) + r")")
_LEADING_CUE = re.compile(rf"(?:{_SECRET_CUE.pattern})(?:\s*[:=]\s*|\s+(?:(?:is|was)\s+)?)")
# a count of things ("56113 chairs"), a size ("12 characters") or a rate ("16927 a month": rent, a price)
_COUNTED = re.compile(
    rf"\s+(?!(?:is|was|as|yes|this|plus|its|his|has|does|thanks)\b)[a-z]+s\b|{_UNIT}|\s+(?:a|an|per)\s+(?:month|year|week|day|hour|night)\b"
)
_VERSION = re.compile(r"v?\d+(?:\.\d+)+(?:-(?:rc|beta|alpha|dev)\d*)?")  # "v3.8.1-rc2": a pre-release too
_DATE = re.compile(r"(?:19|20)\d\d[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)\d\d")
# a quantity ("a 2.4GHz", "5GHz", "4 digit"), a ratio or reading ("120/80"), a hex number as code writes it ("0xC000021A")
_AMOUNT_OF = re.compile(rf"(?i:(?:an?\s+)?)(?:{_QUANTITY}|\d+(?:[.,]\d+)?{_UNIT})|\d{{1,4}}/\d{{1,4}}|0x[0-9A-Fa-f]+")
# Capitals and digits, as products, models, courses and bookings are named ("QN90C", "RC-4471", "5012-A", "CS50", "XPS 13 9340"),
# and a year's serial number ("Claim 2023-4471").
_UPPERCASE_CODE = re.compile(r"(?=[^a-z]*[A-Z])(?=\D*\d)[A-Z0-9]+(?:[-/. ][A-Z0-9]+)*|(?:19|20)\d\d-\d{3,5}")
# "code" with only an article or possessive before it says nothing of what the code opens ("the code on the box").
_BARE_CODE = re.compile(r"(?i:codes?)")
_DETERMINER = re.compile(r"(?i:(?:^|\b(?:the|a|an|this|that|my|your|our|their|his|her|its))\W*)$")


def named_as_other_number(text: str, start: int, end: int) -> bool:
    """Whether the words around text[start:end] name it as something other than a secret: a version,
    a date, a quantity or a reading ("5GHz", "120/80"), a count of things after a number, a public
    kind of number earlier in its sentence (or in the value: "platform 53") with no secret word
    between that and the value, or a code in capitals and digits (or a year's serial number) that no
    word but a bare "code" introduces."""
    value = text[start:end]
    if (
        _VERSION.fullmatch(value)
        or _DATE.fullmatch(value)
        or _AMOUNT_OF.fullmatch(value)
        or (value.isdigit() and _COUNTED.match(text, end))
    ):
        return True
    if _UPPERCASE_CODE.fullmatch(value) and not introduced_as_secret(text, start, end, bare_code=False):
        return True
    named = list(_OTHER_NUMBER.finditer(text, sentence_start(text, start), end))
    return bool(named) and _SECRET_CUE.search(text, named[-1].end(), start) is None


def starts_with_other_kind(value: str) -> bool:
    """Whether a value opens with the word naming its kind of number ("Platform 53641", "Invoice 2024-117")."""
    return _OTHER_NUMBER.match(value) is not None


def introduced_as_secret(text: str, start: int, end: int, bare_code: bool = True) -> bool:
    """Whether a secret word comes shortly before text[start:end] ("the door code is X", not "error
    code X") or names it right after ("X is my password", "X to open the lockbox"). `bare_code`:
    whether "the code" alone counts as such a word."""
    if _NAMED_AFTER.match(text, end):
        return True
    for cue in _SECRET_CUE.finditer(text, max(0, start - _CUE_BEFORE), start):
        before = text[max(0, cue.start() - 24) : cue.start()]
        kind = re.search(r"(\w+)\W*$", before)
        if kind and _PUBLIC_KIND.fullmatch(kind[1]):
            continue
        if bare_code or not (_BARE_CODE.fullmatch(cue[0]) and _DETERMINER.search(before)):
            return True
    return False


def secret_word_length(value: str) -> int:
    """How many leading characters of a model's secret span are the word introducing it
    ("password lantern42": the value is "lantern42"), 0 if none."""
    cue = _LEADING_CUE.match(value)
    return cue.end() if cue and cue.end() < len(value) else 0


_NOT_PUBLIC = "".join(f"(?<!{word} code)" for word in _PUBLIC_CODES)  # "code", not "error code"
_OTP_VALUE = (
    rf"(?P<value>{_DIGIT_GROUPS}"
    r"|G-\d{4,8}"  # Google's SMS: "G-448201 is your Google verification code"
    r"|\d{4,8}|\d{3}[ -]\d{3}|\d{2}[ -]\d{2}[ -]\d{2}"
    r"|(?-i:(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{6,8})"  # K7Q2ZP
    r"|(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9]{4,5}(?:-[A-Za-z0-9]{4,5}){1,3}"  # backup codes: 8f3k-29dj
    r")\b"
)


@register_recognizer
class OtpRecognizer(ContextRecognizer):
    name, type = "otp", "OTP"
    triggers = (
        "otp",
        "code",
        "password",
        "pin",
        "passcode",
        "2fa",
        "mfa",
        "totp",
        "verification",
        "confirmation",
        "one-time",
        "one time",
        "texted",
        "messaged",
        "sms",
        "enter",
        "type",
        "input",
        "recovery",
        "backup",
        "sign in",
        "sign-in",
        "log in",
        "log-in",
        "verify",
    )
    pattern = re.compile(
        r"(?i:(?=[abcegilmoprstuv0-9])\b(?:"  # the characters the alternatives start with (see PasswordRecognizer)
        r"(?:otp|totp|2fa|mfa|one[- ]time\s+(?:code|password|pin|passcode)"
        r"|(?:verification|security|confirmation|login|sign[- ]?in|2fa|mfa|sms|auth(?:entication)?|backup|recovery|access|one[- ]time)\s+codes?"
        r"|(?:verification|confirmation|one[- ]time|otp)\s+(?:number|pin|token)|(?:backup|recovery)\s+keys?)\b"
        r"(?:\s+(?:for|to)\s+[\w.@-]+)?[^\w\n]{0,4}(?:\s*(?:is|was|are)\b)?\s*[:=]?\s*"
        # "the code is 552918", "your code: 771203", but not "error code 5003"
        r"|code" + _NOT_PUBLIC + r"\s*(?:is|was|=|:|is:)\s*"
        # "the code from the SMS is X", "the code for the login is X"
        r"|code"
        + _NOT_PUBLIC
        + r"\s+(?:from|for|in)\s+(?:(?:the|my|your|this)\s+)?[\w.@-]+(?:\s+[\w.@-]+)?\s+(?:is|was)\s*:?\s*"
        # "it asked for a code and I put in X", "they sent a code to my phone, X, ..."
        r"|code" + _NOT_PUBLIC + r"\b[^.!?\n]{0,40}\b(?:put\s+in|entered|typed(?:\s+in)?)\s+"
        r"|code" + _NOT_PUBLIC + r"\b[^.!?\n,]{0,40},\s+(?=\d{4,8}\s*(?:,|[.!?]|$))"
        # "the code they texted is X", "the code I got was X", "...a code. It's X"
        r"|(?:code|otp|pin|passcode)\s+(?:(?:that\s+)?(?:they|you|he|she|we|i|it)\s+)?(?:texted|sent|emailed|gave|got|received)(?:\s+(?:me|us|you))?(?:\s+(?:is|was)\s*:?|\s*:)\s*"
        r"|code\b[^.!?\n]{0,60}[.!?:]?\s+(?:it's|it\s+is|it\s+was|it’s)\s+"
        # "I got the code 4417 by SMS", "the code 551234 didn't work"
        r"|code(?:(?<=\bthe code)|(?<=\ba code)|(?<=\bmy code)|(?<=\byour code)|(?<=\bthis code))\s+"
        # "they texted me 906812", "sent me the code 4417"
        r"|(?:texted|messaged|sms'?e?d)\s+(?:me|us)\s+(?:(?:the|a|this)\s+code\s+)?"
        r"|(?:texted|messaged)\s+(?=\d{4,8}\s+(?:to|for)\s)"  # "the bank texted 448123 to confirm the transfer"
        r"|(?:sent|emailed|gave)\s+(?:me|us)\s+(?:the|a|this)\s+code\s+(?:of\s+)?"
        # "enter 334455 when it asks for the code"
        r"|(?:enter(?:ed)?|typed?|input)\s+(?=\d{4,8}\b[^.!?\n]{0,40}\b(?:code|otp|pin|2fa|prompt(?:ed|s)?|verify|log\s*in|sign\s*in)\b)"
        r"|(?:use|sent\s+(?:me|us))\s+(?=\d{4,8}\s+to\s+(?:sign[- ]?in|log[- ]?in|verify)\b)"  # "Use 519302 to sign in", "sent me X to verify"
        # named after it: "482913 is your verification code", "I got 4417 as the code"
        r"|(?<![\w.,:/-])(?=(?:G-)?\d{4,8}\s+(?:is|was|as)\s+(?:your|my|the|our)\s+(?:[A-Z]\w*\s+)?"  # "your Google verification code"
        r"(?:(?:one[- ]time|verification|security|login|sign[- ]?in|2fa|mfa|sms|confirmation|access|auth)\s+)?(?:code|otp|pin|passcode)\b)"
        r"))" + _OTP_VALUE + _NOT_AMOUNT
    )

    def accept(self, match: re.Match[str]) -> bool:
        start = match.start("value")
        return not buys_a_discount(sentence_around(match.string, start, start, _SENTENCE_REACH))


# A shop's or a brand's code, named by what it buys ("for 10% off", "a discount", "free shipping"):
# the one-time codes of a payment at checkout come with none of these ("the bank texted 448123 at checkout").
_DISCOUNT_TALK = skipping(
    re.compile(
        r"\b(?i:discounts?|coupons?|promo(?:tion)?s?|promotional|vouchers?|free\s+(?:shipping|delivery|postage|trial|gift)|redeem\w*)\b"
        r"|(?i:\d+\s?%|[$€£]\s?\d+|\b\d+\s?(?:dollars|euros|pounds|bucks|quid))\s?off\b"
    )
)


def buys_a_discount(sentence: str) -> bool:
    """Whether a code or an amount is a shop's: its sentence says what the code buys ("Use the code
    SUMMER20 at checkout for a discount", "SPRING20 for 20% off"; see _DISCOUNT_TALK)."""
    return _DISCOUNT_TALK.search(sentence) is not None


_SENTENCE_REACH = 200  # characters looked at on each side: a long text without full stops is no one sentence
