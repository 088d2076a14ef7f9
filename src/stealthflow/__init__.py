"""stealthflow: protect text before it leaves your device."""

__version__ = "0.1.0"
