"""`python -m stealthflow ...` runs the same CLI as the `stealthflow` command."""

from stealthflow.cli import main

main()
