"""What a filter says of a span it keeps, in a text not read as English, although its word lists show nothing of its
label around it (no work talk near an employer, no medical word near a condition): the label's context model for such
spans decides (pii_tagger/context_model.py, `ContextModel.reads`). In English the word lists still decide."""

CONTEXT_DECIDES = "no word of its word lists; its context model decides"
