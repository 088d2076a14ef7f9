"""The adversarial loop: anonymize → attack → utility per round, as a LangGraph graph per profile.

Modules: `config` (settings), `state` (typed graph state), `nodes` (the steps), `graph`
(wiring), `runner` (batches, resume, trajectories, insight updates), `trajectory` (the line
schema), `summary` (per-round table and plot), `methods` (the `aa` and `stealth`
anonymization methods). Import from the modules.
"""
