"""The breath engine's kinds, named once.

Three vocabularies, all plain strings (they are written into action names, events and observations, so
their values never change): what a seat is deciding (**decision kinds**, ``BreathState.decision_kind()``
and ``Pending.kind``), what a flat action does (**order kinds**, the first word of an action's name and
``ActionSlot.kind``) and what a technique is (**technique kinds**, ``Technique.kind`` in the content). The
engine, the observation, the content, the zones and the scripted agents compare against these names, never
against a literal; a module's own kinds (Ma and Blade's ``resist``, ``half_step``...) are the module's.
"""

from __future__ import annotations

# -- decision kinds -------------------------------------------------------------------------------------
BREATH = "breath"
"""A fighter's maneuvers in its breath (BR-010)."""
DEFEND = "defend"
"""The reply of an attacked fighter (BR-G03)."""
COUNTER = "counter"
"""The samurai guard stance's counterattack (BR-G14); also the order kind that makes it."""
CORE_DECISIONS = (BREATH, DEFEND, COUNTER)
"""The engine's own decision kinds, in the order of ``ruleset.decision_kinds``."""

# -- order kinds ----------------------------------------------------------------------------------------
ATTACK = "attack"
"""Attack with a technique (``attack:<weapon>.<technique>``, in a team fight ``...:enemyN``)."""
RESERVE = "reserve"
"""Reserve a defense for later in the round."""
STANCE = "stance"
"""Take a stance."""
RELEASE_STANCE = "release_stance"
"""Leave the stance."""
KATA = "kata"
"""Perform a [Kata]."""
END_BREATH = "end_breath"
"""End one's breath."""
STAND = "stand"
"""Get up from the ground."""
USE_RESERVED = "use_reserved"
"""Reply to an attack with a reserved defense."""
IMPROVISE = "improvise"
"""Reply to an attack with an improvised defense."""
TAKE_HIT = "take_hit"
"""Reply to an attack by taking it."""
DECLINE_COUNTER = "decline_counter"
"""Let the counterattack go."""
NOT_MANEUVERS = frozenset((END_BREATH, STAND, RELEASE_STANCE))
"""Order kinds that are no maneuver: a breath whose only legal actions are these ends by itself (no_maneuver)."""

# -- technique kinds ------------------------------------------------------------------------------------
ATTACK_TECHNIQUE = "attack"
"""A technique that attacks (``Technique.kind``)."""
DEFENSE_TECHNIQUE = "defense"
"""A technique that defends."""
