"""The `stealthflow` command: a thin layer over the library. Each module registers its commands."""

from stealthflow.cli import anonymize, attack, attacker, evaluate, generate, memory, protect, proxy, tagger, train, ui  # noqa: F401  (registers commands)
from stealthflow.cli.app import app


def main() -> None:
    app()
