"""The work of a batch job's actors, on pandas batches (Ray Data's `map_batches` with a callable
class: each actor builds its models and its vault shard once, then takes batch after batch).

A batch keeps every column it came with; the text column is replaced by the protected text, and
two columns are added: `stealthflow` (JSON: session, vault, input, spans, language[, rewrite][, warnings],
as `protect -i` writes them) and `stealthflow_error` (why the row failed; its text is then
dropped, never passed on unprotected). A batch that raises is done again row by row, so one bad
row costs only itself.
"""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from stealthflow.data import DataError
from stealthflow.pipeline.records import has_lone_surrogate, protected_row, refused_ids
from stealthflow.placeholders.keys import VaultKeyError
from stealthflow.placeholders.vault import VaultTampered

if TYPE_CHECKING:
    import pandas as pd

    from stealthflow.config import Settings

META, ERROR, ID = "stealthflow", "stealthflow_error", "_id"  # ID: a batch job's row id column
log = logging.getLogger("stealthflow.batch")
T = TypeVar("T")
R = TypeVar("R")
_OWN_ERRORS = (DataError, VaultKeyError, VaultTampered)  # their messages never hold a text


class Failed(str):
    """A row's reason for failing (in place of its result)."""


def each_alone(run: Callable[[list[T]], list[R]], items: Sequence[T]) -> list[R | Failed]:
    """`run(items)`; when it raises, `run([item])` for each item, a failure's reason in its place."""
    if not items:
        return []
    try:
        return run(list(items))
    except Exception:
        return [_alone(run, item) for item in items]


def _alone(run: Callable[[list[T]], list[R]], item: T) -> R | Failed:
    try:
        return run([item])[0]
    except _OWN_ERRORS as exc:
        return Failed(f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a library's message may quote the text: the type, and where it was raised in the log
        log.error("a row failed with %s at\n%s", type(exc).__name__, "".join(traceback.format_tb(exc.__traceback__)))
        return Failed(f"{type(exc).__name__} (the worker's log has the traceback)")


def strings(column: pd.Series) -> list[str | None]:
    """A column's strings, None for anything else (pandas and Arrow give a missing value as NaN or None)."""
    return [value if isinstance(value, str) else None for value in column.tolist()]


def no_text(column: str) -> str:
    return f"no string {column!r} field"


def lone_surrogate(column: str) -> str:
    """Why a row whose `column` holds a lone surrogate fails (never its value)."""
    return f"its {column!r} field holds a lone surrogate (invalid Unicode)"


def set_threads(threads: int) -> None:
    import torch

    torch.set_num_threads(threads)


class Detect:
    """Detection and placeholders, into this actor's vault shard (`batch.shards`); each row on its
    own (`Protector(recall=False)`), so a row's result does not depend on the worker or the order."""

    def __init__(
        self,
        settings: Settings,
        session: str,
        shards: str,
        vault_id: str,
        key_check: str,
        text_column: str,
        threads: int = 1,
    ):
        from stealthflow.batch.shards import open_shard
        from stealthflow.pipeline.protector import Protector

        set_threads(threads)
        self.session, self.vault_id, self.text_column = session, vault_id, text_column
        shard = open_shard(settings.protect, Path(shards), vault_id, key_check)
        self.protector = Protector.from_settings(settings, vault=shard, recall=False)

    def __call__(self, batch: pd.DataFrame) -> pd.DataFrame:
        texts = batch[self.text_column].tolist()
        errors = strings(batch[ERROR]) if ERROR in batch else [None] * len(texts)
        for at, text in enumerate(texts):
            if errors[at] is None and not isinstance(text, str):
                errors[at] = no_text(self.text_column)
            elif errors[at] is None and has_lone_surrogate(text):
                errors[at] = lone_surrogate(self.text_column)
        ids = batch[ID].tolist() if ID in batch else None  # a batch job's rows: ids that hold a value are refused
        if ids is not None:
            for at, why in enumerate(refused_ids(self.protector.detector, [str(id) for id in ids])):
                if why:
                    errors[at], ids[at] = errors[at] or why, None  # nor is the id named in the manifest
        todo = [at for at, error in enumerate(errors) if error is None]
        results = each_alone(lambda ats: self.protector.protect_many([texts[at] for at in ats], self.session), todo)
        metas: list[str | None] = [None] * len(texts)
        out = [None] * len(texts)
        digest = self.protector.input_digester(self.session)
        for at, result in zip(todo, results, strict=True):
            if isinstance(result, Failed):
                errors[at] = str(result)
                continue
            row = protected_row("", self.session, self.vault_id, result, digest(texts[at]))
            out[at] = row.pop("text")
            del row["id"]
            metas[at] = json.dumps(row, ensure_ascii=False)
        return batch.assign(**{self.text_column: out, META: metas, ERROR: errors}, **({ID: ids} if ids else {}))

    def __del__(self) -> None:
        protector = getattr(self, "protector", None)
        if protector is not None:
            protector.close()


class Rewrite:
    """The rewrite against attribute inference (`protect --rewrite NAME`) of protected rows: the
    model loaded once per actor; a rejected rewrite keeps the placeholder text, as `protect` does."""

    def __init__(self, settings: Settings, rewrite: str, text_column: str, threads: int = 1):
        from stealthflow.llm.pool import LLMPool
        from stealthflow.pipeline.rewrite import build_rewriter

        set_threads(threads)
        self.rewrite, self.text_column = rewrite, text_column
        self.method = build_rewriter(rewrite, settings, LLMPool())

    def __call__(self, batch: pd.DataFrame) -> pd.DataFrame:
        from stealthflow.pipeline.rewrite import rewrite_protected

        texts, metas, errors = strings(batch[self.text_column]), strings(batch[META]), strings(batch[ERROR])
        todo = [at for at, error in enumerate(errors) if error is None]
        items = [(str(at), texts[at], {span["placeholder"] for span in json.loads(metas[at])["spans"]}) for at in todo]
        results = each_alone(lambda chunk: rewrite_protected(self.method, chunk), items)
        for at, result in zip(todo, results, strict=True):
            if isinstance(result, Failed):
                texts[at], metas[at], errors[at] = None, None, str(result)
                continue
            meta = json.loads(metas[at])
            texts[at], meta["rewrite"] = result.text, result.to_json(self.rewrite)
            metas[at] = json.dumps(meta, ensure_ascii=False)
        return batch.assign(**{self.text_column: texts, META: metas, ERROR: errors})
