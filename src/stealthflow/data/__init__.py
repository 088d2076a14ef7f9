"""Labelled profiles and user input, loaded into one typed model."""

from stealthflow.data.attributes import ATTRIBUTES, OPTIONS, Attribute
from stealthflow.data.loader import (
    DataError,
    load_input,
    load_labelled,
    load_profiles,
    post_profiles,
    profile_from_text,
)
from stealthflow.data.schema import AttributeLabel, Comment, Profile

__all__ = [
    "ATTRIBUTES",
    "OPTIONS",
    "Attribute",
    "AttributeLabel",
    "Comment",
    "DataError",
    "Profile",
    "load_input",
    "load_labelled",
    "load_profiles",
    "post_profiles",
    "profile_from_text",
]
