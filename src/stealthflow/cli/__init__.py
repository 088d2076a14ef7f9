"""The `stealthflow` command: a thin layer over the library. Each module registers its commands;
they import what they run inside their functions, so `--help` and argument errors answer before
any model, recognizer or torch is imported."""

import os

from stealthflow.lasting import lasting_objects

with lasting_objects():  # the commands' modules: ~70 000 objects, kept for the process's life
    from stealthflow.cli import (  # noqa: F401  (registers commands)
        anonymize,
        attack,
        attacker,
        batch,
        evaluate,
        generate,
        memory,
        protect,
        proxy,
        tagger,
        train,
        ui,
    )
    from stealthflow.cli.app import app


def main() -> None:
    # transformers draws a "Loading weights" bar on stderr for every model it loads: noise in a
    # command's output (the library's own bars, for long runs, are rich's).
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    app()
