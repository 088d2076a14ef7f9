"""The wiring: one graph per profile, attack_original → (anonymize → attack → utility) × N."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from stealthflow.workflow.nodes import Steps
from stealthflow.workflow.state import ProfileState


def build_graph(steps: Steps, checkpointer=None):
    graph = StateGraph(ProfileState)
    graph.add_node("attack_original", steps.attack_original)
    graph.add_node("anonymize", steps.anonymize)
    graph.add_node("attack", steps.attack)
    graph.add_node("utility", steps.utility)
    graph.add_edge(START, "attack_original")
    graph.add_conditional_edges("attack_original", steps.next_step, {"anonymize": "anonymize", "end": END})
    graph.add_edge("anonymize", "attack")
    graph.add_edge("attack", "utility")
    graph.add_conditional_edges("utility", steps.next_step, {"anonymize": "anonymize", "end": END})
    return graph.compile(checkpointer=checkpointer)


def recursion_limit(rounds: int) -> int:
    """Steps one profile needs: 1 + 3 per round, plus slack."""
    return 3 * rounds + 5
