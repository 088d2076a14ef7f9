"""Explicit PII, stage by stage (import the module you need; detection compiles the
recognizers' patterns and loads their word lists, so nothing heavy is imported here):

- `types`: privacy levels PL1-PL4, span types, canonical values
- `recognizers`: one small class per kind of identifier + registry
- `extractor`: the MemPrivacy-style LLM extractor
- `detector`: runs both and merges overlapping spans
- `policy`: `ProtectConfig`, which levels/types are masked
- `keys`, `vault`: the encrypted local vault
- `styles`, `restore`: placeholder styles; exact, drift-tolerant and streaming restoration
"""
