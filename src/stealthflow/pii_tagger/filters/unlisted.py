"""What a filter says of a span it keeps although its word lists show nothing of its label around it (no work talk
near an employer, no medical word near a condition). In a text not read as English (`CONTEXT_DECIDES`): the label's
context model for such spans decides (pii_tagger/context_model.py, `ContextModel.reads`). An English EMPLOYER span
(`GATES_DECIDE`): the gates that read every employer span decide, its verifier and its reader, which was trained on
such spans too and keeps them from a threshold of their own (reader.py `gates_decide_threshold`;
benchmarks/results/pii_english_gates_decide.md). A FINANCE span in any language that holds an amount but whose word
lists show no money or no owner in it: the same, its verifier and its language's reader (filters/finance.py;
benchmarks/results/pii_finance_gates_decide.md, pii_finance_gates_decide_languages.md). An English HEALTH span: the
word lists still decide."""

CONTEXT_DECIDES = "no word of its word lists; its context model decides"
GATES_DECIDE = "no word of its word lists; its gates decide"
