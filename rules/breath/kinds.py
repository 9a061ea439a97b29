"""The breath engine's kinds, named once.

Three vocabularies, all plain strings (they are written into action names, events and observations, so
their values never change): what a seat is deciding (**decision kinds**, ``BreathState.decision_kind()``
and ``Pending.kind``), what a flat action does (**order kinds**, the first word of an action's name and
``ActionSlot.kind``) and what a technique is (**technique kinds**, ``Technique.kind`` in the content). The
engine, the observation, the content, the zones and the scripted agents compare against these names, never
against a literal; a module's own kinds (Ma and Blade's ``resist``, ``half_step``...) are the module's. The names
are Final: compiled code reads a Final string as a constant, any other module global by a dict lookup.
"""

from __future__ import annotations

from typing import Final

# -- decision kinds -------------------------------------------------------------------------------------
BREATH: Final = "breath"
"""A fighter's maneuvers in its breath (BR-010)."""
DEFEND: Final = "defend"
"""The reply of an attacked fighter (BR-G03)."""
COUNTER: Final = "counter"
"""The samurai guard stance's counterattack (BR-G14); also the order kind that makes it."""
CORE_DECISIONS = (BREATH, DEFEND, COUNTER)
"""The engine's own decision kinds, in the order of ``ruleset.decision_kinds``."""

# -- order kinds ----------------------------------------------------------------------------------------
ATTACK: Final = "attack"
"""Attack with a technique (``attack:<weapon>.<technique>``, in a team fight ``...:enemyN``)."""
RESERVE: Final = "reserve"
"""Reserve a defense for later in the round."""
STANCE: Final = "stance"
"""Take a stance."""
RELEASE_STANCE: Final = "release_stance"
"""Leave the stance."""
KATA: Final = "kata"
"""Perform a [Kata]."""
END_BREATH: Final = "end_breath"
"""End one's breath."""
STAND: Final = "stand"
"""Get up from the ground."""
USE_RESERVED: Final = "use_reserved"
"""Reply to an attack with a reserved defense."""
IMPROVISE: Final = "improvise"
"""Reply to an attack with an improvised defense."""
TAKE_HIT: Final = "take_hit"
"""Reply to an attack by taking it."""
DECLINE_COUNTER: Final = "decline_counter"
"""Let the counterattack go."""
NOT_MANEUVERS = frozenset((END_BREATH, STAND, RELEASE_STANCE))
"""Order kinds that are no maneuver: a breath whose only legal actions are these ends by itself (no_maneuver)."""

# -- technique kinds ------------------------------------------------------------------------------------
ATTACK_TECHNIQUE: Final = "attack"
"""A technique that attacks (``Technique.kind``)."""
DEFENSE_TECHNIQUE: Final = "defense"
"""A technique that defends."""
