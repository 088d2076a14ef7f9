"""spacy_import.import_spacy: spaCy without torch and without its command line, in a fresh interpreter;
the command line and `spacy.info` still there when asked for, and the parse the same."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from stealthflow.spacy_import import import_spacy
spacy = import_spacy()
print('torch' in sys.modules, any(m.startswith('spacy.cli') for m in sys.modules), hasattr(spacy, 'cli'))
print(any(type(f).__name__ == '_LeanSpacy' for f in sys.meta_path))
doc = spacy.blank('en')('Twelve years as an ER nurse in Leeds.')
print(len(doc))
import spacy.cli
print(callable(spacy.cli.setup_cli), spacy.info()['spacy_version'] == spacy.__version__)
"""


def test_spacy_is_imported_without_torch_or_its_command_line_which_still_loads_when_asked():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split("\n")[:4] == ["False False False", "False", "9", "True True"], out.stdout + out.stderr
