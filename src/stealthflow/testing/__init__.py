"""Stand-ins for remote services (a mock OpenAI-compatible server), used by tests and benchmarks."""
