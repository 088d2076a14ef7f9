"""Wrappers that keep memory frameworks' stores redacted (LangGraph stores, mem0)."""
