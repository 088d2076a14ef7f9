"""The one error a student's word-piece table raises when it cannot be had (embedding_source.py): its package is not
installed, or its files cannot be read. Its own module so that the recognizer catches it without importing the table's
module (English-only use never imports the multilingual one)."""

from __future__ import annotations


class TableUnavailable(RuntimeError):
    """A student's word pieces or embedding table cannot be had: not installed, or its files unreadable."""
