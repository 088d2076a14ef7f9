"""Presidio's analyzer, imported without loading transformers' pipelines up front.

`import presidio_analyzer` runs `from transformers import pipeline` (for its TransformersNlpEngine and
Hugging Face recognizers), and that import pulls in transformers' whole pipeline machinery: ~2.5 s of
a 6.5 s CLI call, for engines stealthflow does not use (the `ner-mask` baseline, the only user of
Presidio, runs its spaCy engine). Here Presidio is imported once while `transformers.pipeline`
is a stand-in that imports the real one when first called, so nothing is lost; afterwards the name is
transformers' own again. Import this module before importing from `presidio_analyzer`.
"""

from __future__ import annotations

import transformers


def _pipeline(*args, **kwargs):
    """transformers' `pipeline`, imported when first called."""
    from transformers.pipelines import pipeline

    return pipeline(*args, **kwargs)


if "pipeline" in vars(transformers):  # the pipelines are loaded already: nothing to save
    import presidio_analyzer  # noqa: F401
else:
    transformers.pipeline = _pipeline  # found in the module's namespace, it skips transformers' lazy import
    try:
        import presidio_analyzer  # noqa: F401
    finally:
        del transformers.pipeline  # later look-ups get transformers' own, lazily
