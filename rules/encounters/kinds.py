"""The encounter duel's decision kinds, named once (``EncounterState.decision_kind()``, the observation's
one-hot, the scripted agents): the opening stance, Void Points at the round's start, an action, a free
extra attack, an Endure reply off-turn, letting a grapple go."""

STANCE_KIND = "stance"
ROUND_START_KIND = "round_start"
ACT_KIND = "act"
EXTRA_ATTACK_KIND = "extra_attack"
ENDURE_KIND = "endure"
NEVERMIND_KIND = "nevermind"
DECISION_KINDS = (STANCE_KIND, ROUND_START_KIND, ACT_KIND, EXTRA_ATTACK_KIND, ENDURE_KIND, NEVERMIND_KIND)
"""In phase order: ``DECISION_KINDS[phase]`` is the kind of the state's phase (and the observation's one-hot)."""
