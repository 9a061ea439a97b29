"""The tempo duel's decision kinds, named once (``TempoState.decision_kind()``, the observation's one-hot,
the scripted agents): an action on one's turn (TP-003), a reaction to it (TP-005), a counter-tempo
replacement of one's action in answer to the reaction (TP-006)."""

ACT_KIND = "act"
REACT_KIND = "react"
COUNTER_KIND = "counter"
DECISION_KINDS = (ACT_KIND, REACT_KIND, COUNTER_KIND)
"""In phase order: ``DECISION_KINDS[phase]`` is the kind of the state's phase."""
