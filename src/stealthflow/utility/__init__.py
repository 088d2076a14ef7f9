"""How much of the original an anonymized text keeps: lexical scores and an LLM judge."""

from stealthflow.utility.judge import JudgedUtility, UtilityJudge, parse_judgement
from stealthflow.utility.metrics import LexicalUtility, lexical_utility

__all__ = ["JudgedUtility", "LexicalUtility", "UtilityJudge", "lexical_utility", "parse_judgement"]
