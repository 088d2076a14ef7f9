"""Evaluation: the AgentStealth table (Anonymity, Progress, utility) with CIs, plots and baselines.

`runner.run_evaluation` produces the per-profile records; `report.write_report` turns them
into tables and plots. Metric definitions live in `metrics`.
"""
