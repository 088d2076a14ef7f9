"""Protect (detect -> policy -> vault -> placeholders) and restore, for one user.

Offsets of the reported spans point into the input text. Every further occurrence of a
masked value in that text is masked too, so the protected text never contains a masked value in
clear. In later texts of the session, a value it holds is masked wherever it appears only when it
is specific in the later text's language (placeholders/common_words.py: an email or a key, a name that is no common
word), so a false alarm on a word ("the", "Grüße") stays in the text it was made in. A text on the model's side
(`protect_many`'s `from_model`: a tool's result) can hold a session's value only because a restore put it there, so in
it every value of the session is masked again, however common. A text the upstream model
may have written to probe what the proxy masks (`protect_many`'s `unknown`: an assistant turn no reply restored to) is
masked as new text, each value found by detection under a bare `<TYPE>` mark: nothing in it depends on the session's
values, so the upstream cannot learn from it whether a value it wrote is one of them.
"""

from __future__ import annotations

import bisect
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

import platformdirs

from stealthflow.config import Settings
from stealthflow.llm.pool import LLMPool
from stealthflow.pipeline.people import FAMILY, GIVEN, People, gender
from stealthflow.placeholders.automaton import GrowingAutomaton
from stealthflow.placeholders.common_words import NAME_TYPE, of_language_words, specific, specific_part
from stealthflow.placeholders.keys import (
    NewKey,
    VaultKeyError,
    VaultKeyInvalid,
    VaultKeys,
    key_candidates,
    key_places,
    load_keys,
)
from stealthflow.placeholders.language import COVERED, OTHERS, UncoveredText, language_file
from stealthflow.placeholders.normalize import Place, decoded, fold, folded, json_values, undone
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.restore import (
    Reference,
    RestoreResult,
    StreamRestorer,
    Withheld,
    escape_pieces,
    restore_text,
)
from stealthflow.placeholders.scope import FORGOTTEN, NOT_IN_REQUEST, RestoreScope
from stealthflow.placeholders.styles import render
from stealthflow.placeholders.types import TYPE_LEVELS, Level, Span
from stealthflow.placeholders.vault import Entry, Vault, VaultMismatch, VaultTampered
from stealthflow.sessions import check_name, chosen_part

log = logging.getLogger("stealthflow.vault")

if TYPE_CHECKING:  # detection imports the recognizers (~0.5 s); restoring needs none of it
    from stealthflow.pipeline.rewrite import RewriteOutcome
    from stealthflow.placeholders.detector import Detector


@dataclass(frozen=True)
class MaskedSpan:
    start: int
    end: int
    type: str
    level: Level
    placeholder: str
    source: str = ""  # the recognizer that found it, "llm", or "known value"
    score: float = 1.0  # its confidence (the PII tagger's: its tokens' mean probability)
    reason: str = ""  # why it was kept, where the source says more than its name (the tagger's filter and rule)

    def to_json(self) -> dict:
        return {
            "start": self.start,
            "end": self.end,
            "type": self.type,
            "level": self.level.name,
            "placeholder": self.placeholder,
            "source": self.source,
            "confidence": round(self.score, 3),
            "reason": self.explanation(),
        }

    def explanation(self) -> str:
        """Why it was masked: its recognizer, and the rule that kept it where there is one."""
        return f"{self.source}: {self.reason}" if self.reason else self.source


@dataclass
class Protected:
    text: str
    spans: list[MaskedSpan]
    warnings: list[str] = field(default_factory=list)
    vault: str = ""  # the id of the vault that issued the placeholders: pass it back to restore
    entries: list[Entry] = field(default_factory=list)  # the vault entry of each span
    rewrite: RewriteOutcome | None = None  # when a rewrite was asked for: `text` is then the rewritten text
    language: str | None = "en"  # the text's language (placeholders/language.py); None: none the recognizers know
    unread: int = 0  # characters of its sentences in no language the recognizers know: only structured IDs looked for
    # each placeholder's value, in memory only (no row, answer or log holds it): a rewrite's cue tagger reads them
    # (`pipeline.rewrite.rewrite_protected`)
    values: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def placeholders(self) -> set[str]:
        return {span.placeholder for span in self.spans}

    @property
    def keys(self) -> frozenset[tuple[str, int | str]]:
        """Every name (by index and by token) of the placeholders in the text (`RestoreScope`)."""
        return frozenset(key for entry in self.entries for key in entry.names())


def default_vault_path() -> Path:
    return Path(platformdirs.user_data_dir("stealthflow")) / "vault.sqlite"


def open_vault(
    config: ProtectConfig, on_new_key: Callable[[str], None] | None = None, new_vault: bool = False
) -> Vault:
    """The user's vault. A key is created only with a new vault: a vault whose key went missing
    is an error, never silently paired with a new key. Likewise a vault file that is gone or is
    not the one this path held (emptied, swapped) is an error unless `new_vault` (a deliberate
    fresh start, or an import of a backup). `on_new_key(where)` hears of a new key."""
    from stealthflow.placeholders import known_vaults

    path = Path(config.vault_path or default_vault_path())
    recorded = known_vaults.recorded_id(path)
    if recorded and not path.exists() and not new_vault:
        raise VaultMismatch(
            f"the vault {path} (id {recorded}) is gone: restore your backup with `stealthflow vault import FILE`, "
            "or start an empty vault on purpose with `stealthflow vault new` (replies protected before will not restore)"
        )
    try:
        keys = load_keys(config.key_source, config.key_file, create=not path.exists())
    except VaultKeyInvalid as exc:
        raise VaultKeyInvalid(f"the vault key is invalid ({exc}); set the key you backed up") from None
    except VaultKeyError as exc:
        if not path.exists():
            raise
        raise VaultKeyError(
            f"the vault {path} exists but its key was not found ({exc}); restore the key you backed up, or move the vault away to start a new one"
        ) from None
    if keys.created_in and on_new_key:
        on_new_key(keys.created_in)
    vault = _open_with_key_or_pending(path, keys, config)
    if recorded and recorded != vault.id and not new_vault:
        vault.close()
        raise VaultMismatch(
            f"{path} is not the vault that was here (id {recorded}, now {vault.id}): it was emptied or replaced. "
            "Restore your backup with `stealthflow vault import FILE`, or accept this one with `stealthflow vault new`"
        )
    known_vaults.remember(path, vault.id, key_places(config.key_source, config.key_file))
    return vault


def _open_with_key_or_pending(path: Path, keys: VaultKeys, config: ProtectConfig) -> Vault:
    """The vault at `path` opened with `keys`, or, when they do not open it, with the key a `vault rotate-key` that
    stopped between its commit and storing the key left pending (`NewKey`), which is then stored as the key (a warning
    says where it was and where it is now)."""

    def reload() -> list[VaultKeys]:
        return key_candidates(config.key_source, config.key_file)

    try:
        return Vault(path, keys, config.hmac_chars, reload_keys=reload)
    except VaultKeyError:
        pending = NewKey.left_pending(config.key_source, config.key_file)
        if pending is None:
            raise
    vault = Vault(path, pending.keys, config.hmac_chars, reload_keys=reload)
    try:
        where = pending.store()
    except (VaultKeyError, OSError) as exc:
        log.warning(
            "the vault key was rotated, but the new key is still only in %s (storing it failed: %s): back it up",
            pending.kept_in,
            exc,
        )
    else:
        log.warning(
            "the vault key was rotated but not stored: the new key, kept in %s, is now in %s", pending.kept_in, where
        )
    return vault


def checked_session(session: str) -> str:
    """`session`, if the part of it its caller chose (a proxy session without a label: all of it) is a name a session
    can have (`check_name`: not empty, printable, short enough), else a `SessionNameError`."""
    check_name(chosen_part(session) or session, SESSION_NAME)
    return session


class PersonalName(ValueError):
    """A name or id that holds a personal value (a session name, a memory owner, an item key), refused: it is kept in
    clear, in the vault and the memory store or by a wrapped store; nothing was stored or read."""

    def __init__(self, what: str):
        super().__init__(
            f"{what} holds a personal value (an e-mail, a phone number, a name...), which would be kept in clear; "
            "nothing was stored or read: use one that is none (a random or internal id)"
        )


SESSION_NAME = 'the session name (a proxy\'s x-stealthflow-session label, a memory user id, a --session or "session")'
CLEAN_NAMES = 4096  # session names remembered as holding no value (`Protector.refuse_values`), at most
# sessions whose values a process keeps decrypted in memory, the least recently used dropped first (read again from the
# vault on their next use): unbounded, a proxy grew by ~65 KB a session of 20 e-mails for every session it ever served
KNOWN_SESSIONS = 1024


class Protector:
    """`recall=False`: each text is protected on its own, without the session's known values (a
    batch job, whose rows go to workers in any order, gives every row the same result that way)."""

    def __init__(self, config: ProtectConfig, vault: Vault, detector: Detector | None = None, recall: bool = True):
        self.config = config
        self.vault = vault
        self.detector = detector
        self.recall = recall
        self._known: OrderedDict[str, SessionValues] = OrderedDict()  # `_known_values`
        self._known_lock = threading.Lock()
        vault.on_forget(self._forget_known)
        self._clean_sessions: set[str] = set()  # session names found to hold no value

    @classmethod
    def from_settings(
        cls, settings: Settings, pool: LLMPool | None = None, vault: Vault | None = None, recall: bool = True
    ) -> "Protector":
        from stealthflow.placeholders.detector import Detector
        from stealthflow.placeholders.extractor import LLMExtractor, warn_if_remote
        from stealthflow.placeholders.recognizers import build_recognizers

        config = settings.protect
        extractor = None
        if config.uses_llm_extractor(settings.model.model, settings.model.is_local()):
            warn_if_remote(settings.model)
            extractor = LLMExtractor((pool or LLMPool()).get(settings.model))
        return cls(
            config,
            vault or open_vault(config),
            Detector(
                build_recognizers(
                    config.recognizers, models=config.tagger, model=config.tagger_model, clauses=config.clause_tagger
                ),
                extractor,
            ),
            recall,
        )

    # -- names ------------------------------------------------------------------------
    def refuse_values(self, names: list[str], what: str, session: str) -> None:
        """`PersonalName` naming `what` (never the value) when the pattern recognizers find a value the policy masks in
        one of `names` (or one of `session`'s known values): names and ids are kept as they are, in the vault's tables,
        the memory store, a wrapped store. The tagger and the LLM extractor are not asked: an id holds no context for
        them, and the tagger refused ordinary labels (`alice`, `t2x-clean2-en-sports`). A name is read URL-decoded too
        (`dana.kerr%40mailbox.org`), and one that spells a person's name as ids do (`marcus.okafor`, `MarcusOkafor`:
        `lexicons.spells_a_name`) is refused with no context to detect it in. A file name read as a host name
        ("rt-notes.md": `domains.file_name`) is none."""
        from stealthflow.pii_tagger.lexicons import spells_a_name
        from stealthflow.placeholders.domains import file_name

        for name in filter(None, names):
            if spells_a_name(name):
                raise PersonalName(what)
            reads = list(dict.fromkeys((name, unquote(name))))  # as written and URL-decoded, in one detection call
            for read, (spans, reading) in zip(
                reads, self._detector().recognized_with_languages(reads, models=False), strict=True
            ):
                spans = [s for s in spans if not (s.type == "URL" and file_name(s.text_in(read)))]  # "rt-notes.md"
                if self._chosen(read, spans, session, reading.guess.language)[0]:
                    raise PersonalName(what)

    def own_session(self, session: str) -> str:
        """`session`, refused (`PersonalName`) when its name holds a personal value: every vault row that names it
        (values, grants, counters, requests, kept replies) keeps it in clear; and (`SessionNameError`) when the part of
        it its caller chose is empty or not printable (`checked_session`, which restores ask too). Only writes ask for
        personal values: a session named so before still restores and can be forgotten."""
        if session not in self._clean_sessions:
            checked_session(session)
            self.refuse_values([chosen_part(session)], SESSION_NAME, session)
            if len(self._clean_sessions) >= CLEAN_NAMES:
                self._clean_sessions.clear()
            self._clean_sessions.add(session)
        return session

    # -- protect ------------------------------------------------------------------------
    def protect(self, text: str, session: str) -> Protected:
        return self.protect_many([text], session)[0]

    def input_digester(self, session: str) -> Callable[[str], str]:
        """The keyed digest of an input text that its protected row records (`Vault.input_digester`)."""
        return self.vault.input_digester(self.config.user, session)

    def protect_many(
        self,
        texts: list[str],
        session: str,
        from_model: Sequence[bool] | None = None,
        unknown: Sequence[bool] | None = None,
        whole: Sequence[str | None] | None = None,
    ) -> list[Protected]:
        """`from_model`: per text, whether it carries what a restore gave out (a tool's result): every value of the
        session is masked again in it, whatever its words (`KnownValues.add_occurrences`
        `every_value`). `unknown`: per text, whether the upstream may have written it to learn what is masked in it (a
        chat's assistant turn that no reply restored to): only what detection finds is masked, under a bare `<TYPE>`
        mark, and nothing is written to the vault (`unknown_author`). `whole`: per text, the type it is one value of by
        its place, whatever detection finds in it (a chat message's `name`: a participant's), or None."""
        found = self._detect(texts, self.own_session(session))
        if whole is not None:
            found = [
                ([_whole_value(text, kind)], reading) if kind and text.strip() else (spans, reading)
                for text, kind, (spans, reading) in zip(texts, whole, found, strict=True)
            ]
        unread = [reading.unread[1] for _, reading in found]
        written = from_model if from_model is not None else [False] * len(texts)
        probes = unknown if unknown is not None else [False] * len(texts)
        return [
            self._unknown_author(text, spans, reading.guess.language, self.detector.warnings_for(reading), chars)
            if probe
            else self._mask(
                text, spans, session, reading.guess.language, self.detector.warnings_for(reading), chars, model
            )
            for text, (spans, reading), chars, model, probe in zip(texts, found, unread, written, probes, strict=True)
        ]

    def _detect(self, texts: list[str], session: str) -> list:
        """Each text's spans and reading (`Detector.detect_many_with_languages`); `UncoveredText` when the policy
        refuses text in no covered language."""
        found = self._detector().detect_many_with_languages(texts, scope=f"{self.config.user}\x00{session}")
        unread = [reading.unread[1] for _, reading in found]
        if self.config.refuse_uncovered and any(unread):
            raise UncoveredText(sum(map(bool, unread)), sum(unread))
        return found

    def _detector(self) -> Detector:
        if self.detector is None:
            raise ValueError("this Protector was built for restoring only (no detector)")
        return self.detector

    def _mask(
        self,
        text: str,
        detected: list[Span],
        session: str,
        language: str | None = "en",
        notes: Sequence[str] = (),
        unread: int = 0,
        from_model: bool = False,
    ) -> Protected:
        """`notes`: what detection could not do for the text (the detector's `warnings_for`), added to its warnings;
        `unread`: its characters in no covered language; `from_model`: the upstream model wrote it (`protect_many`)."""
        chosen, items = self._chosen(text, detected, session, language, from_model)
        # a part linked to its person is a value of the session too, found again in its later texts (`_linked`)
        parts = [
            (span.type, span.text_in(text))
            for span, item in zip(chosen, items, strict=True)
            if item[1] != span.text_in(text)
        ]
        issued = self.vault.issue(self.config.user, session, items + parts)
        entries = issued.entries[: len(items)]
        with self._known_lock:  # what this message granted joins the session's values (unless others granted meanwhile)
            known = self._known.get(session)
            if known is not None and known.mark == issued.before:
                known.add_issued(issued.granted, issued.after)
        spans = []
        for span, entry in zip(chosen, entries, strict=True):
            placeholder = render(self.config.style, entry)
            spans.append(
                MaskedSpan(
                    span.start,
                    span.end,
                    span.type,
                    self.config.level_of(span.type, span.level),
                    placeholder,
                    span.source,
                    span.score,
                    span.reason,
                )
            )
        protected = _marked(text, chosen, [span.placeholder for span in spans])
        warnings = [said] if (said := secret_warning(spans)) else []
        warnings += notes
        values = {}
        for span in spans:
            values.setdefault(span.placeholder, text[span.start : span.end])
        return Protected(
            protected, spans, warnings, self.vault.id, entries, language=language, unread=unread, values=values
        )

    def _unknown_author(
        self, text: str, detected: list[Span], language: str | None, notes: Sequence[str], unread: int
    ) -> Protected:
        """`text` as `redact` masks a value the session does not hold, whatever the session holds: the values detection
        finds (and their repeats) under a bare `<TYPE>` mark, the session's values not looked for, nothing issued. A
        placeholder's number would say whether the vault held the value already, a value masked only because the session
        holds it that it does (rev22 F1)."""
        chosen = _with_repeats(text, [s for s in detected if self.config.masks(s.type, s.level)], language)
        spans = [
            MaskedSpan(s.start, s.end, s.type, self.config.level_of(s.type, s.level), f"<{s.type}>", s.source, s.score)
            for s in chosen
        ]
        return Protected(
            _marked(text, chosen, [span.placeholder for span in spans]),
            spans,
            list(notes),
            self.vault.id,
            language=language,
            unread=unread,
        )

    def _chosen(
        self, text: str, detected: list[Span], session: str, language: str | None, from_model: bool = False
    ) -> tuple[list[Span], list[tuple[str, str]]]:
        """The spans of `text` to mask: those the policy masks, their repeats, and the session's known values (every
        one of them in a text the upstream model wrote); and the (type, value) each is issued as (`_linked`, in a text
        not the model's)."""
        chosen = _with_repeats(text, [s for s in detected if self.config.masks(s.type, s.level)], language)
        held = People()
        if self.recall:
            with self._known_lock:  # protect runs on several threads; the session's values grow in place
                known = self._known_values(session)
                chosen = known.add_occurrences(text, chosen, language, every_value=from_model)
                held = known.people
        items = [(span.type, span.text_in(text)) for span in chosen]
        if from_model:  # the person a guess of the upstream's belongs to is not told: no link in the model's text
            return chosen, items
        here = People()  # this text's persons' names, and which of them a title opens
        for span, (span_type, value) in zip(chosen, items, strict=True):
            if span_type == NAME_TYPE and len(value.split()) > 1:
                here.add([value], titled=_titled(text, span.start))
        return chosen, [
            (span_type, _linked(text, span, value, language, here, held))
            for span, (span_type, value) in zip(chosen, items, strict=True)
        ]

    def redact(self, text: str, session: str) -> str:
        """`text` masked as `protect` masks it, writing nothing: a value the session holds gets its placeholder, any
        other value a bare `<TYPE>` mark. For a search query: it finds the memories holding its values' placeholders,
        and leaves no row, index or request behind."""
        [(spans, reading)] = self._detect([text], self.own_session(session))
        chosen, items = self._chosen(text, spans, session, reading.guess.language)
        held = self.vault.held_entries(self.config.user, session, items)
        marks = [render(self.config.style, e) if e else f"<{s.type}>" for s, e in zip(chosen, held, strict=True)]
        return _marked(text, chosen, marks)

    def _known_values(self, session: str) -> "SessionValues":
        """The session's values already in the vault. Values issued since (by this call or another
        process) are added to it; only a deletion anywhere in the vault makes it read them all
        again (a long session would otherwise decrypt every value it holds on every request). The
        `KNOWN_SESSIONS` sessions used last are kept."""
        mark = self.vault.issued_mark(session)
        sessions = self._known  # `_forget_known` may put a new one in its place meanwhile
        if sessions and next(reversed(sessions.values())).mark[0] != mark[0]:  # a deletion in any process: all go
            sessions.clear()
        known = sessions.get(session)
        if known is None:
            known = sessions[session] = SessionValues(self.vault.session_values(self.config.user, session), mark)
            while len(sessions) > KNOWN_SESSIONS:
                sessions.popitem(last=False)
        elif known.mark != mark:
            known.add_issued(self.vault.session_values(self.config.user, session, after=known.mark[1]), mark)
        sessions.move_to_end(session)
        return known

    def _forget_known(self) -> None:
        """Something was deleted through the vault (a session, a value, a placeholder forgotten): every session's
        values in memory go at once, read again on their next use. The vault calls it under its own lock: it takes
        none (`_known_values` holds on to the one it reads)."""
        self._known = OrderedDict()

    # -- restore ------------------------------------------------------------------------
    def resolver(
        self,
        session: str,
        scope: RestoreScope | None = None,
        secrets_in_urls: bool = False,
        values_in_links: bool = False,
    ):
        """The value behind each placeholder issued to `session` within `scope` (others are `Withheld`); without
        one, the proxy's rules (`placeholders.scope`): no value inside a URL that loads by itself, none inside a link
        unless `values_in_links` (but an e-mail address as a `mailto:` address), and a guarded value (a secret, card,
        IBAN, passport or ID number) not inside a link, markup, JSON or a tool call unless `secrets_in_urls`. A session
        this process protects
        in is answered from its values in memory (brought up to date once, on the first placeholder); any other
        placeholder, or any other session, is looked up in the vault. A `SessionNameError` for a name no session can
        have (`checked_session`)."""
        checked_session(session)
        scope = scope or RestoreScope(None, self.config.guarded_types(), secrets_in_urls, values_in_links)
        cache: dict[Reference, str | None] = {}
        in_memory: list[SessionValues | None] = []  # filled on the first placeholder

        def values() -> SessionValues | None:
            if not in_memory:
                try:
                    with self._known_lock:
                        in_memory.append(self._known_values(session) if session in self._known else None)
                except VaultTampered:  # one tampered row: each placeholder is looked up on its own
                    in_memory.append(None)
            return in_memory[0]

        def resolve(ref: Reference) -> str | Withheld | None:
            key = Reference(ref.type, ref.index, ref.token, "")
            if (withheld := scope.withholds(ref)) is not None:
                if withheld is NOT_IN_REQUEST and value(ref, key) is None:  # the session holds no value behind it
                    forgotten = self.vault.numbered(self.config.user, session, ref.type, ref.index)
                    return FORGOTTEN if forgotten else None  # else never issued: unresolved, not withheld
                return withheld
            return value(ref, key)

        def value(ref: Reference, key: Reference) -> str | None:
            if key not in cache:
                cache[key] = known.value_of(key) if (known := values()) is not None else None
                if cache[key] is None:
                    try:
                        cache[key] = self.vault.lookup(
                            self.config.user, session, ref.type, index=ref.index, token=ref.token
                        )
                    except (VaultTampered, VaultKeyError):  # that placeholder stays and is reported; the others restore
                        cache[key] = None
            return cache[key]

        return resolve

    def restore(
        self,
        text: str,
        session: str,
        vault: str | None = None,
        scope: RestoreScope | None = None,
        secrets_in_urls: bool = False,
        values_in_links: bool = False,
    ) -> RestoreResult:
        """`vault`: the id of the vault that protected `text`, when known (`VaultMismatch` if not this one).
        `scope`, `secrets_in_urls`, `values_in_links`: what is withheld (`resolver`)."""
        self.vault.check_issued_here(vault, "the text")
        return restore_text(text, self.resolver(session, scope, secrets_in_urls, values_in_links))

    def unknown_session(self, session: str, unresolved: Sequence[str]) -> str | None:
        """What to tell the caller when placeholders stayed because the vault holds no value of `session` any more:
        its values were forgotten (`Vault.numbered_before`); None when it holds some, nothing stayed, or the vault
        never knew it (`no_such_session`: an error, not a notice)."""
        if not unresolved or self.vault.has_session(self.config.user, session):
            return None
        stayed = f"{len(set(unresolved))} placeholder(s) stay as they are"
        if self.vault.session_listed(self.config.user, session):  # its values forgotten one by one
            return f"{stayed}: their value(s) were forgotten (deleted from the vault; the session was not)"
        if self.vault.numbered_before(self.config.user, session):
            # deleted by `stealthflow vault forget` or the service's DELETE /sessions/ID alike: no one command named
            return f"the session was deleted, and its values with it: its {stayed}"
        return None

    def no_such_session(self, session: str, unresolved: Sequence[str]) -> str | None:
        """The error when placeholders stayed and the vault never knew `session` (a typo, text from another vault):
        nothing was ever issued to it, listed or numbered for it. None otherwise (a text without placeholders
        restores as it is under any session). Like `unknown_session`'s, it quotes no session name: a service's caller
        sent it."""
        user = self.config.user
        if not unresolved or any(
            known(user, session)
            for known in (self.vault.has_session, self.vault.session_listed, self.vault.numbered_before)
        ):
            return None
        return (
            "no session of that name in the vault: nothing was ever issued to it, so nothing was restored "
            f"({len(set(unresolved))} placeholder(s)); `stealthflow vault list` shows the sessions"
        )

    def stream(
        self,
        session: str,
        scope: RestoreScope | None = None,
        secrets_in_urls: bool = False,
        values_in_links: bool = False,
    ) -> StreamRestorer:
        return StreamRestorer(self.resolver(session, scope, secrets_in_urls, values_in_links))

    def request_scope(
        self, session: str, request_id: str, secrets_in_urls: bool = False, values_in_links: bool = False
    ) -> RestoreScope | None:
        """The scope of a request recorded by `record_request` (None: the session has no such request)."""
        keys = self.vault.request_placeholders(self.config.user, session, request_id)
        guarded = self.config.guarded_types()
        return None if keys is None else RestoreScope(keys, guarded, secrets_in_urls, values_in_links)

    def record_request(self, session: str, protected: Protected) -> str:
        """A request id standing for the placeholders `protected` holds (`request_scope`)."""
        return self.vault.record_request(self.config.user, self.own_session(session), protected.entries)

    def restore_stream(
        self, chunks: Iterable[str], session: str, secrets_in_urls: bool = False, values_in_links: bool = False
    ) -> Iterator[str]:
        return self.stream(session, secrets_in_urls=secrets_in_urls, values_in_links=values_in_links).restore(chunks)

    def start_detection_helpers(self) -> bool:
        """For a server: long texts' pattern recognizers shared with helper processes
        (`protect.detection_helpers`); returns once they are ready (False: detection stays in
        this process until they are)."""
        if self.detector is None:
            return False
        self.detector.start_helpers(self.config.server_detection_helpers())
        return self.detector.helpers is not None and self.detector.helpers.wait_ready()

    def close(self) -> None:
        if self.detector is not None:
            self.detector.close()
        self.vault.close()


PART = "part"  # an automaton's mark of the family name of a name (`name_parts`), where a value's says if it is common
GIVEN_PART = "given part"  # ... of its given name ("Gary" of "Gary Pemberton")
ANY_CASE_PART = "any case part"  # ... of a family name in lower or upper case: the name only after a title ("dr. berg")


class KnownValues:
    """Every value a session already holds, found again wherever it appears in a new text — in
    one pass per tier (Aho-Corasick automata over the values, `GrowingAutomaton`), whatever words surround it. A value
    written in words only is found as a whole word (`whole_words`), unless it is specific and
    `whole_words` is off (`SessionValues`). A value that is not specific (`add`'s `common`) is found
    only in a text the upstream model wrote (`add_occurrences`' `every_value`). The specific words of a person's name
    (`name_parts`) are found too, as whole words, and after a title in a user's text in lower or upper case as well
    ("dr. berg", `_titled`). A specific value is also found however its case and white space are written, and a
    person's name of several words surname first (`_orders`): what record systems print ("DENT, VALERIE", a table's
    "DENT      VALERIE"); in a user's text where so written it is of two words or more or has a digit, and is specific
    (`_any_case_here`: "marcus okafor"), in a text the upstream model wrote (a tool's result among them) always, and
    across neighbouring JSON string values too (`json_values`: `{"first_name": "Valerie", "last_name": "Dent"}`). An
    address's first line is a value of its own (`street_line`). A value found takes in the spans of detection inside it,
    under its own type."""

    MIN_CHARS = 3
    # A longer value is masked where detection finds it, not searched for: a long periodic one ("AKIAAKIA...", a pasted
    # page's run) made every search of a text walk failure links as deep as the value at each character, in quadratic
    # time (rev28 F1); detection finds such a value again wherever it stands, as it found it first.
    MAX_CHARS = 256
    whole_words = True
    given_names = False  # whether a name's given name (`GIVEN_PART`) is looked for alone: in its own text only

    def __init__(self, values: list[tuple[str, str]], mark: tuple[str, int] = ("", 0)):
        # Each built when first searched after an addition: a text's values (`TextValues`) never build the first.
        self._every = GrowingAutomaton()  # every value
        self._specific_values = GrowingAutomaton()  # the specific only: all a text not the model's is searched for
        self._folded = GrowingAutomaton()  # the specific values `fold`ed, in each of their `_orders`: the model's texts
        self._specific: dict[tuple[str, str, str, bool], bool] = {}  # (type, value, language, as name) -> specific
        self.add(values, mark)

    def add(self, values: list[tuple[str, str]], mark: tuple[str, int], common: frozenset[int] = frozenset()) -> None:
        """Take in more values; `mark`: the vault's `issued_mark` the values are now as of; `common`: the positions in
        `values` of those that are not specific (found as whole words, and only with `every_value`)."""
        self.mark = mark
        words = [
            (i in common, *pair) for i, pair in enumerate(values) if self.MIN_CHARS <= len(pair[1]) <= self.MAX_CHARS
        ]
        words += [
            (False, ADDRESS, line)
            for common, span_type, value in words
            if not common
            for line in street_line(span_type, value)
        ]
        for is_common, span_type, value in words:
            if is_common and self._every.get(value, (None,) * 4)[3] is False:
                continue  # the same words as a specific value of another type: found as that
            whole = (self.whole_words or is_common) and _word_like(value)
            self._every.add_word(value, (span_type, value, whole, is_common))
            if not is_common:
                self._specific_values.add_word(value, (span_type, value, whole, is_common))
                for key in map(fold, _orders(span_type, value)):
                    self._folded.add_word(key, (span_type, key, whole, is_common))
        parts = {part for common, span_type, value in words if not common for part in name_parts(span_type, value)}
        for part, kind in parts:
            if kind is GIVEN_PART and not self.given_names:
                continue
            if part not in self._every:  # a value of its own is found as that
                self._every.add_word(part, (NAME_TYPE, part, True, kind))  # a whole word only
                self._specific_values.add_word(part, (NAME_TYPE, part, True, kind))
            for written in {part.lower(), part.upper()} - {part} if kind is PART else ():
                self._specific_values.add_word(written, (NAME_TYPE, written, True, ANY_CASE_PART))

    def add_occurrences(
        self,
        text: str,
        spans: list[Span],
        language: str | None = None,
        reason: str = "a value masked before in this session",
        every_value: bool = False,
    ) -> list[Span]:
        """`spans` (not overlapping) plus every occurrence of a value that overlaps none of them (`reason`: theirs);
        `language`: the text's (its guess), in which a value made of that language's common words is not found;
        `every_value`: the text is the upstream model's, which holds a session's value only where a restore put it, so
        every value is found in it, common or not."""
        automaton = self._every if every_value else self._specific_values
        if not automaton:  # none yet, or (not the model's text) only common values
            return spans
        kept = sorted(spans, key=lambda s: s.start)
        starts, ends = [s.start for s in kept], [s.end for s in kept]
        readings = [(reading, place, automaton) for reading, place in _readings(text, every_value)]
        if self._folded:
            readings.append((*folded(text), self._folded))
            if every_value and (fields := json_values(text)):
                readings.append((*fields, self._folded))
        for reading, place, automaton in readings:
            found = [(last - len(match[1]) + 1, last + 1, *match) for last, match in automaton.iter(reading)]
            # the longest value at a place first: "Alain Morel" whole, not its part "Alain" (`name_parts`)
            for start, end, span_type, value, word_like, kind in sorted(found, key=lambda f: (f[0], -f[1])):
                # first where it goes in the text, the cheapest test: most values found are spans already kept
                begin, stop = (start, end) if place is None else place(start, end)
                if (into := _into(kept, starts, ends, begin, stop, span_type)) is None:
                    continue
                if word_like and not _word_bounded(reading, start, end):
                    continue
                if kind is PART and not (
                    _one_word(reading, start, end)
                    and (
                        self._part_here(reading, start, value, language) or not every_value and _titled(reading, start)
                    )
                ):
                    continue
                if kind is GIVEN_PART and not (
                    _one_word(reading, start, end) and self._part_here(reading, start, value, language, given=True)
                ):
                    continue
                if kind is ANY_CASE_PART and not (_one_word(reading, start, end) and _titled(reading, start)):
                    continue
                if (
                    kind not in (PART, GIVEN_PART, ANY_CASE_PART)
                    and not every_value
                    and not self._specific_here(reading, start, span_type, value, language)
                ):
                    continue
                if place is not None:
                    # as written: the first reading found it (a folded reading's key is no value as written)
                    written = text[begin:stop]
                    if written == value if automaton is not self._folded else written in self._every:
                        continue
                    if (
                        automaton is self._folded
                        and not every_value
                        and not _any_case_here(text, begin, stop, span_type, language)
                    ):
                        continue
                low, high = into
                kept[low:high] = [Span(begin, stop, span_type, TYPE_LEVELS[span_type], "known value", reason=reason)]
                starts[low:high], ends[low:high] = [begin], [stop]
        return kept

    def _specific_here(self, text: str, start: int, span_type: str, value: str, language: str | None) -> bool:
        # read how the occurrence is written only for a value not specific anyway (`as_name` only adds specificity)
        return self._specific_in(span_type, value, language, False) or (
            _written_as_name(text, start, value, language) and self._specific_in(span_type, value, language, True)
        )

    def _part_here(self, text: str, start: int, part: str, language: str | None, given: bool = False) -> bool:
        """Whether the word of a name at `start` (`given`: its given name) is masked again
        (`common_words.specific_part`), however the text came."""
        as_name = language in COVERED and _written_as_name(text, start, part, language)
        key = (GIVEN_PART if given else PART, part, language, as_name)
        if key not in self._specific:
            self._specific[key] = specific_part(part, language, as_name, given)
        return self._specific[key]

    def _specific_in(self, span_type: str, value: str, language: str | None, as_name: bool) -> bool:
        """Whether `value` is found in a text in `language`: always but in the six languages other than English, where
        a value made of the language's common words is not (`specific`; `as_name`: this occurrence is written as a
        name, `_written_as_name`); judged once per value, language and way of writing."""
        if language not in OTHERS:
            return True
        key = (span_type, value, language, as_name)
        if key not in self._specific:
            self._specific[key] = specific(value, span_type, language, as_name)
        return self._specific[key]


class SessionValues(KnownValues):
    """A session's values as the vault issued them: the specific ones found again in new texts, the others
    (`common_words.specific`) only in texts the upstream model wrote (`KnownValues`), all of them looked up by their
    placeholders when a reply is restored. The specific ones are found even glued to other letters: a
    reply can restore a placeholder inside a word (`id<REAL_NAME_1>x` gives `idAnna Bergx`), and the
    history the client sends back must not carry the name out in clear."""

    whole_words = False

    def __init__(self, issued: list[tuple[Entry, str]], mark: tuple[str, int]):
        self._by_placeholder: dict[tuple[str, int | str], str] = {}
        self.people = People()  # the persons' names the session holds, by their parts (`_linked`)
        super().__init__([], mark)
        self.add_issued(issued, mark)

    def add_issued(self, issued: list[tuple[Entry, str]], mark: tuple[str, int]) -> None:
        for entry, value in issued:
            self._by_placeholder[(entry.type, entry.index)] = self._by_placeholder[(entry.type, entry.token)] = value
        self.people.add(value for entry, value in issued if entry.type == NAME_TYPE)
        common = frozenset(i for i, (entry, value) in enumerate(issued) if not specific(value, entry.type))
        self.add([(entry.type, value) for entry, value in issued], mark, common)

    def value_of(self, ref: Reference) -> str | None:
        return self._by_placeholder.get((ref.type, ref.index if ref.index is not None else ref.token or ""))


class TextValues(KnownValues):
    """The values masked in one text, found again in the rest of it: all of them but, in a text in another covered
    language than English, a value whose every word is a common word of that language (`of_language_words`: "Sie",
    which the tagger took once for a name in a formal German e-mail, was masked throughout it, ux21 M1; "Lehrerin").
    English words do not count there, nor in an English text, as they do in a later text (`KnownValues._specific_in`):
    a name found in a text is masked wherever the text repeats it ("Rose", "Berg" are WordNet words), but for one written
    in lowercase that is a common word (`specific` judged strictly, WordNet's words): "little" taken once for a name in
    "I am little late" is not masked in "a little faster"; "jess" is masked again. On pii-heldout-u, v, w, each file in
    one session (benchmarks/pii_registers.py --session, 1 800 texts): no figure changes; judged as a name's (frequent
    words common too), a chat's "jess" was not masked again (REAL_NAME 87 -> 86 of 101 on v's registers).
    A name's given name alone too (`name_parts`: "Later Gary said" after "Gary Pemberton"), where specific by itself: in
    its own text it names the person. Once masked it is a value of the session, found in its later texts as such. Looked
    for in a session's later texts as well, given names spread to other people's and to words: on the languages files
    of pii-heldout-w and -zb, each in one session (benchmarks/pii_registers.py --session), precision 0.907 -> 0.897 and
    0.851 -> 0.844, texts without personal data flagged 25 -> 29 and 41 -> 43 of 180 ("Rosa", "Jan", "Rua" of "Rua
    Augusta"), annotated names found the same. In its own text only, on both files of pii-heldout-zb, -zc, -zd, -u, -v,
    -w so measured (3 600 texts) every span is as before (the tagger finds such given names there, or they are not
    there); benchmarks/pii_session_flags.py (1 969 comments, one session): 55 flagged, as before."""

    given_names = True

    def _specific_in(self, span_type: str, value: str, language: str | None, as_name: bool) -> bool:
        if language not in OTHERS:
            return not value[:1].islower() or specific(value)
        key = (span_type, value, language, as_name)
        if key not in self._specific:
            self._specific[key] = not of_language_words(value, language, as_name)
        return self._specific[key]


def secret_warning(spans: Sequence[MaskedSpan]) -> str | None:
    """What a text's warnings say when a secret (PL4) was masked in it, or None: one sentence, that a command printing a
    summary of its texts can tell apart (`protect` says it once, in its closing paragraph)."""
    secrets = sorted({s.type for s in spans if s.level == Level.PL4})
    if not secrets:
        return None
    return (
        f"a secret ({', '.join(secrets)}) was found and masked; a secret of a shape the detector does not know may"
        " still be in the text: read it before it is sent, and rotate every secret in it that was ever shared"
    )


def name_parts(span_type: str, value: str) -> list[tuple[str, str]]:
    """The family name (`PART`) and the given name (`GIVEN_PART`) of a person's name of several words that opens with a
    given name of the tagger's name lexicon ("Morel" and "Alain" of "Alain Morel", its last and first words), looked
    for alone in later texts and in the rest of its own ("Est-ce que Morel peut ...", ux21 H2), as a word of its own
    (not "Sant" of "Sant'Orsola"); each occurrence is masked when the word is specific there
    (`common_words.specific_part`; a given name more strictly, and in its own text only: `TextValues`). A part found
    alone gets a placeholder of its own, which restores to the part as written: restore gives back exactly the text
    protected, where the person's placeholder would give back the whole name. Measured with benchmarks/pii_session_languages.py, one session per language
    (annotated values re-masked / values re-masked not annotated / texts without personal data flagged only so): on the
    languages file of pii-heldout-w (360 texts, where the rule was chosen) every word of a name spread 4 false alarms
    more ("Rosa o bianco", "Jean Valjean"), the last word only none; on those of pii-heldout-h..r, u, v (4 680 texts,
    held out) 252 / 649 / 335 without parts -> 266 / 681 / 350 with them (the last word of any name: 269 / 699 / 355,
    "Comunidad de Madrid" spread "Madrid"; with the existing rule alone, no family name written as a name: 263 / 694 /
    352)."""
    from stealthflow.pii_tagger.lexicons import given_name  # the tagger's lexicons: when a name is met

    words = value.split() if span_type == NAME_TYPE else []
    if len(words) < 2 or not given_name(words[0]):
        return []
    return [(words[-1].strip(".,;:"), PART), (words[0], GIVEN_PART)]


def street_line(span_type: str, value: str) -> list[str]:
    """The first line of an address written in several ("14 Crane Lane" of "14 Crane Lane, Bristol BS1 4DJ"), looked
    for as a value of its own when it holds a house number and two words or more: it alone says where someone lives
    ("MARCUS OKAFOR, 14 CRANE LANE", ux23 finding 1). It gets a placeholder of its own, which restores to it as written.
    With `_any_case_here`, measured with benchmarks/pii_session_languages.py --english on pii-heldout-u, -v and -w (1 800
    texts, one session a language; not read while writing it): annotated values re-masked 36 -> 39, not annotated 87 ->
    87 (one word alone in any case too: 52 / 90, "SSN" of "ssn", Dutch "lieve" of "Lieve": hence `_ANY_CASE`); on the
    1 969 comments of data/test.jsonl in one session (benchmarks/pii_session_flags.py) the same 43 flagged, span for
    span."""
    line = _LINE_END.split(value, 1)[0].strip() if span_type == ADDRESS else ""
    words = _LETTERS_RUN.findall(line)
    return [line] if line != value.strip() and any(c.isdigit() for c in line) and len(words) >= 2 else []


ADDRESS = "ADDRESS"
_LINE_END, _LETTERS_RUN = re.compile(r"[,\n;]"), re.compile(r"[^\W\d_]{2,}")


def _orders(span_type: str, value: str) -> list[str]:
    """`value` and, for a person's name of several words, its surname first as record systems write it ("Dent
    Valerie", "Dent, Valerie" of "Valerie Dent")."""
    words = value.split() if span_type == NAME_TYPE else []
    if len(words) < 2:
        return [value]
    rest = " ".join(words[:-1])
    return [value, f"{words[-1]} {rest}", f"{words[-1]}, {rest}"]


def _into(
    kept: list[Span], starts: list[int], ends: list[int], start: int, end: int, span_type: str
) -> tuple[int, int] | None:
    """The spans of `kept` (in order, not overlapping; `starts` and `ends` theirs) that a value found at `start`:`end`
    takes the place of, as (low, high), or None when it stays out. It takes in what detection found inside it, under its
    own type ("14 crane lane" the tagger read as a name, "Okafor" of "Marcus Okafor"), but for one span just as long and
    of its type (its reason says more); it stays out of a span that reaches beyond it."""
    low, high = bisect.bisect_right(ends, start), bisect.bisect_left(starts, end)  # the spans it overlaps
    if low < high and (
        kept[low].start < start
        or kept[high - 1].end > end
        or high - low == 1
        and (kept[low].start, kept[low].end, kept[low].type) == (start, end, span_type)
    ):
        return None
    return low, high


def _titled(text: str, start: int) -> bool:
    """Whether a title stands before the word of a name at `start` ("Herrn Kolbe" of "Dietmar Kolbe"): the word is the
    person's name there, common word or not ("Kolbe" is a German noun). Read in the texts not the model's only: in the
    model's, a title the upstream wrote before its guesses would tell which ones are a session's surnames."""
    from stealthflow.placeholders.titles import after_title  # the tagger's lexicons: when a name is met

    return after_title(text, start)


def _written_as_name(text: str, start: int, value: str, language: str) -> bool:
    """Whether the occurrence of `value` at `start` is written as a name: capitalised, after a word of its sentence, in
    a language that capitalises names alone (German capitalises every noun and "Sie": data/languages/<code>.yaml
    `capitalises_nouns`). On the languages files of pii-heldout-{c,d,e,g} (benchmarks/pii_session_languages.py),
    values re-masked that are not annotated: 24 with this reading, 42 reading a capital in German too ("Sie"), 27
    reading one that opens a sentence too ("Elle", "Mia" of "Elle est...", "Mia madre...")."""
    from stealthflow.placeholders.recognizers.sentences import sentence_start  # the tagger's lexicons: when asked

    if not value[:1].isupper() or language_file(language).get("capitalises_nouns", False):
        return False
    return any(char.isalnum() for char in text[sentence_start(text, start) : start])


def _readings(text: str, transforms: bool) -> Iterator[tuple[str, Place | None]]:
    """`text` as written (no place), then decoded where it holds a standard encoding (`normalize.decoded`: a tool's
    `json.dumps` escapes, percent-encoding, HTML references), then (`transforms`: text the model's side wrote) undone
    of the cheap transforms a shell makes (`normalize.undone`: reversed, spaced out, base64), with where in `text`."""
    yield text, None
    if (shadow := decoded(text)) is not None:
        chars, offsets = shadow
        yield chars, lambda start, end: (offsets[start], offsets[end])
    if transforms:
        yield from undone(text)


def _any_case_here(text: str, start: int, end: int, span_type: str, language: str | None) -> bool:
    """Whether a session's value found in a user's text in another case or spacing ("marcus okafor", "14 CRANE LANE" of
    "Marcus Okafor", "14 Crane Lane") is masked there: as a whole word, when it is specific as written (`specific`:
    "kim lee" of "Kim Lee" is made of frequent words written in lowercase, a name's part alone is `name_parts`')."""
    written = text[start:end]
    return (
        _word_bounded(text, start, end) and bool(_ANY_CASE.search(written)) and specific(written, span_type, language)
    )


_ANY_CASE = re.compile(r"\w\W+\w|\d")  # two words or more, or a digit: one word alone in another case may be a word


def _word_like(value: str) -> bool:
    # Words (names) repeat as whole words; a value with digits or symbols (an email, a card, a
    # key) is the value wherever it stands, even glued to other characters.
    return all(c.isalpha() or c.isspace() or c in "'-" for c in value)


def _one_word(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is no piece of a word joined by an apostrophe, a hyphen or a dot ("Sant" of "Sant'Orsola",
    "Jean" of "Saint-Jean"), as common_words reads words."""
    return not (_JOINED_AFTER.match(text, end) or _JOINED_BEFORE.search(text, max(0, start - 2), start))


_JOINED_AFTER, _JOINED_BEFORE = re.compile(r"['’](?!s\b)\w|[.-]\w"), re.compile(r"\w['’.-]$")  # not a possessive's "'s"


def _word_bounded(text: str, start: int, end: int) -> bool:
    return (start == 0 or not text[start - 1].isalnum()) and (end == len(text) or not text[end].isalnum())


def _marked(text: str, spans: Sequence[Span], marks: Sequence[str]) -> str:
    """`text` with each span replaced by its mark, and placeholder look-alikes between them escaped."""
    gaps = escape_pieces(text, _between(spans, len(text)))
    return gaps[0] + "".join(mark + gap for mark, gap in zip(marks, gaps[1:], strict=True))


def _whole_value(text: str, kind: str) -> Span:
    """The whole of `text` (less the spaces around it) as one value of type `kind`, by its place (`protect_many`)."""
    start, end = len(text) - len(text.lstrip()), len(text.rstrip())
    return Span(start, end, kind, TYPE_LEVELS[kind], "place", 1.0, f"a {kind.lower()} by its place in the request")


def _between(spans: Sequence[Span], length: int) -> list[tuple[int, int]]:
    """The (start, end) of the text before, between and after `spans` (in order, not overlapping)."""
    edges = [0, *(edge for span in spans for edge in (span.start, span.end)), length]
    return list(zip(edges[::2], edges[1::2], strict=True))


def _linked(text: str, span: Span, value: str, language: str | None, here: People, held: People) -> str:
    """The value a span of `text` is issued as: for a name of one word that is a part of one person's name of this text
    (`here`) or of the session (`held`), that person's name, so it gets the person's placeholder ("Ngozi", "Frau Nowak"
    of "Ngozi Adeyemi", "Katarzyna Nowak"; `People`); else the value as written. Only where nothing says it may be
    someone else:
    - no other name's word beside it: "Ousmane Diop", of which detection found "Diop" alone, is not "Mamadou Diop"
      (`_beside_a_name`); after an initial, only the given name's ("D. Whitfield", not "G. & P. Hollis" of "Greg Hollis");
    - a family name after a title when the title says the given name's gender ("Frau Nowak"; not "Herr Nowak" nor
      "Dr. Nowak", as often a relative or the doctor), and in the text that names the person in full only when a title
      opens the full name too (a letter's "Frau Esther Gschwend", then "Sehr geehrte Frau Gschwend"; not "Mrs.
      Oyelaran, mother of student Tobi Oyelaran");
    - else where the word is specific there, as a name's part found alone is (`common_words.specific_part`)."""
    if span.type != NAME_TYPE or len(value.split()) != 1 or not (here or held):
        return value
    if (found := held.person(value, here)) is None:
        return value
    name, part = found
    titled = _titled(text, span.start)
    if _beside_a_name(text, span.start, span.end, language, titled):
        return value
    initial = None if titled else _INITIAL_BEFORE.search(text, max(0, span.start - 8), span.start)
    if initial is not None and (part == GIVEN or initial[1].casefold() != name[:1].casefold()):
        return value  # "D. Whitfield" is "Derek Whitfield", "G. & P. Hollis" not "Greg Hollis"
    if part == FAMILY and titled:  # "Frau Nowak" is "Katarzyna Nowak", "Herr Nowak" and "Dr. Nowak" may be another
        from stealthflow.placeholders.titles import title_gender  # the tagger's lexicons: when a name is met

        said = title_gender(text, span.start)
        untitled_here = here.holds(name) and not (
            here.titled(name) or held.holds(name)
        )  # "Mrs. Oyelaran" of "Tobi ..."
        return name if said is not None and said == gender(name) and not untitled_here else value
    as_name = language in COVERED and _written_as_name(text, span.start, value, language)
    return name if specific_part(value, language, as_name, given=part == GIVEN) else value


def _beside_a_name(text: str, start: int, end: int, language: str | None, titled: bool) -> bool:
    """Whether the word at `start`:`end` has a capitalised word that is no common word (`specific`) right before it
    (but a title) or right after it, a blank apart (after it, a comma too: "Hollis, Amara" is no "Teddy Hollis"):
    then it is a piece of a longer name detection cut short, or of a list of names."""
    before = None if titled else _WORD_BEFORE.search(text, max(0, start - 40), start)
    after = _WORD_AFTER.match(text, end)
    return any(
        word is not None and word[1][:1].isupper() and specific(word[1], NAME_TYPE, language)
        for word in (before, after)
    )


_INITIAL_BEFORE = re.compile(r"(?<![\w.])([^\W\d_])\.[ \t]*\Z")  # an initial and its dot: "D. " of "D. Whitfield"
_WORD_BEFORE, _WORD_AFTER = re.compile(r"([^\W\d_][\w'’-]*)[ \t]$"), re.compile(r",?[ \t]([^\W\d_][\w'’-]*)")


def _with_repeats(text: str, spans: list[Span], language: str | None) -> list[Span]:
    """Add every other occurrence of a masked value (e.g. a name the detector saw once) in `text`, in `language`, but
    of one made of that language's common words (`TextValues`)."""
    values = {}
    for span in spans:
        values.setdefault(span.text_in(text), span.type)
    return TextValues([(span_type, value) for value, span_type in values.items()]).add_occurrences(
        text, spans, language, reason="another occurrence of a value found in this text"
    )
