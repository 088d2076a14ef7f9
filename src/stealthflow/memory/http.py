"""POST /memory/append|pack|hydrate|forget on the local service (covered by its token and Host checks).

/memory/pack answers a `request` id; /memory/hydrate takes it and restores only the placeholders that pack sent, and
answers as /restore does: {text, restored, unresolved, withheld, notice}."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from stealthflow.integrations import strings_in
from stealthflow.memory.store import MIN_SCORE, MemoryStore
from stealthflow.placeholders.scope import json_switch, result_json, withheld_notice
from stealthflow.string_cost import TooManyStrings, check_strings


class AppendRequest(BaseModel):
    user: str = Field(min_length=1)
    text: str = Field(min_length=1)
    metadata: dict | None = None


class PackRequest(BaseModel):
    user: str = Field(min_length=1)
    query: str
    budget_tokens: int = Field(400, gt=0)
    purpose: str | None = None
    min_score: float = Field(MIN_SCORE, ge=-1.0, le=1.0)  # the relevance floor (`MemoryStore.pack`)


class HydrateRequest(BaseModel):
    user: str = Field(min_length=1)
    text: str
    request: str  # the "request" /memory/pack answered: only its placeholders restore ("": a pack that sent none)
    secrets_in_urls: bool = False
    values_in_links: bool = False


class ForgetRequest(BaseModel):
    user: str = Field(min_length=1)
    id: int | None = None
    all: bool = False


def memory_router(store: MemoryStore) -> APIRouter:
    router = APIRouter(prefix="/memory", tags=["memory"])

    @router.post("/append")
    def append(request: AppendRequest) -> dict:
        try:  # before anything is protected: a metadata of many short strings (F5)
            check_strings([request.text, *strings_in(request.metadata or {})])
        except TooManyStrings as exc:
            raise HTTPException(413, str(exc)) from None
        try:
            item = store.append(request.user, request.text, request.metadata)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        return {"id": item.id, "text": item.text, **({"warnings": item.warnings} if item.warnings else {})}

    @router.post("/pack")
    def pack(request: PackRequest) -> dict:
        return store.pack(
            request.user, request.query, request.budget_tokens, request.purpose, request.min_score
        ).to_json()

    @router.post("/hydrate")
    def hydrate(request: HydrateRequest) -> dict:
        try:
            result = store.restore(
                request.user, request.text, request.request, request.secrets_in_urls, request.values_in_links
            )
        except KeyError:
            raise HTTPException(404, "no pack of that id for that user (unknown, expired or forgotten)") from None
        notices = [
            withheld_notice(result.withheld, json_switch) if result.withheld else None,
            store.unresolved_notice(request.user, result.unresolved),
        ]
        return {**result_json(result), "notice": " ".join(filter(None, notices)) or None}

    @router.post("/forget")
    def forget(request: ForgetRequest) -> dict:
        try:
            return {"forgotten": store.forget(request.user, request.id, all=request.all)}
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        except KeyError:
            raise HTTPException(404, "no memory of that id for that user") from None

    return router
