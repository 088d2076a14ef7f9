"""Protect text before it leaves the device and restore the reply: placeholders for explicit
PII (with an optional rewrite against implicit-attribute inference), then hydration."""

from stealthflow.lazy import lazy_exports

_EXPORTS = {
    "api": ("default_protector", "protect", "restore", "restore_stream"),
    "protector": ("MaskedSpan", "Protected", "Protector", "open_vault"),
    "rewrite": ("RewriteOutcome", "build_rewriter", "check_rewrite", "rewrite_protected"),
}
__getattr__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(name for names in _EXPORTS.values() for name in names)
