"""Anonymization methods by name; single-rewrite methods live here, loop methods in `workflow`."""

from stealthflow.anonymize.methods import Anonymized, Method, build_method, method_names, register_method
from stealthflow.anonymize.output import Rewrite, parse_rewrite
from stealthflow.anonymize.standard import StandardAnonymizer, standard_messages

__all__ = [
    "Anonymized",
    "Method",
    "Rewrite",
    "StandardAnonymizer",
    "build_method",
    "method_names",
    "parse_rewrite",
    "register_method",
    "standard_messages",
]
