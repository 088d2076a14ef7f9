"""Protect text before it leaves the device and restore the reply: placeholders for explicit
PII (with an optional rewrite against implicit-attribute inference), then hydration."""

from stealthflow.pipeline.api import default_protector, protect, restore, restore_stream
from stealthflow.pipeline.protector import MaskedSpan, Protected, Protector, open_vault
from stealthflow.pipeline.rewrite import RewriteOutcome, build_rewriter, check_rewrite, rewrite_protected

__all__ = [
    "MaskedSpan",
    "Protected",
    "Protector",
    "RewriteOutcome",
    "build_rewriter",
    "check_rewrite",
    "default_protector",
    "open_vault",
    "protect",
    "restore",
    "restore_stream",
    "rewrite_protected",
]
