"""The PII tagger: a token-classification model that finds names, addresses, employers, health,
income and secrets by their context, and the rules that shape and filter its spans.

Detection (`recognizer.py`, `model.py`) imports nothing of `training/`, which builds the data and
trains or fine-tunes the models. The span tagger (`model.py`) also serves the local anonymizer's cue tagger.
"""
