"""Span taggers on the offline MiniLM encoder: token classification (BIO) with offsets mapped
back to the text. Used by the cue tagger of the local anonymizer (which phrases give the author
away) and by the PII span tagger."""

from stealthflow.tagging.model import SpanTagger, TaggedSpan
from stealthflow.tagging.train import TaggerTrainConfig, train_tagger

__all__ = ["SpanTagger", "TaggedSpan", "TaggerTrainConfig", "train_tagger"]
