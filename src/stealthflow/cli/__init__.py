"""The `stealthflow` command: a thin layer over the library. Each module registers its commands."""

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
    app()
