"""spaCy, imported without what a parse does not use (as `presidio_import` does for Presidio).

`import spacy` costs a cold CLI ~3 s of CPU, most of it for nothing here: thinc imports torch when it
is installed (~2 s, for layers an `en_core_web_sm` pipeline does not have), and spaCy's `__init__`
imports its whole command line (`spacy.cli`: its typer app, weasel, the download machinery; ~0.3 s)
only to re-export `spacy.info`. While spaCy is first imported, the importing thread (no other) is
refused torch, and `spacy.cli` is a stand-in whose `info` imports the real one when called; the
stand-in is then dropped, so a later `import spacy.cli` gets spaCy's own. Once spaCy (or thinc) is
imported, nothing is left to save and it is imported as it is. What stays: thinc, first imported
without torch, keeps `thinc.compat.has_torch` False for the process (no spaCy pipeline used here has
torch layers).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
from types import ModuleType

STAND_INS = ("spacy.cli", "spacy.cli.info")


def import_spacy() -> ModuleType:
    if "spacy" in sys.modules or "thinc" in sys.modules:
        import spacy

        return spacy
    finder = _LeanSpacy(threading.get_ident())
    sys.meta_path.insert(0, finder)
    try:
        import spacy
    finally:
        sys.meta_path.remove(finder)
        for module in finder.served:
            if sys.modules.get(module.__name__) is module:
                del sys.modules[module.__name__]
    if any(getattr(spacy, "cli", None) is module for module in finder.served):
        del spacy.cli  # `import spacy.cli` later loads spaCy's own
    return spacy


def info(*args, **kwargs):
    """spaCy's `spacy.info`, imported when first called."""
    from spacy.cli.info import info as spacy_info

    return spacy_info(*args, **kwargs)


class _LeanSpacy(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """For one thread: refuses `torch`, and serves the stand-ins of `STAND_INS`."""

    def __init__(self, thread: int):
        self.thread = thread
        self.served: list[ModuleType] = []

    def find_spec(self, name, path=None, target=None):
        if threading.get_ident() != self.thread:
            return None
        if name.partition(".")[0] == "torch":
            raise ModuleNotFoundError("torch is not imported for spaCy's parse", name=name)
        if name in STAND_INS:
            return importlib.machinery.ModuleSpec(name, self, is_package=name == "spacy.cli")
        return None

    def create_module(self, spec):
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        self.served.append(module)
        if module.__name__ == "spacy.cli.info":
            module.info = info
