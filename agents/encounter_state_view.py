"""The scripted encounter fighters' view read straight from an encounter duel's state, for a search's playouts.

A search plays its playouts with a scripted fighter (:mod:`issoku.agents.search.playouts`), thousands of moves a
decision; encoding each observation only to decode it again (:func:`issoku.agents.encounter_scripted.read`) cost
a third of a simulation. :func:`read_state` builds the same :class:`~issoku.agents.encounter_scripted.View` from
the state: exactly what the observation shows, each number capped at its observation scale, the weapon skill that
of the weapon in hand. It lives apart from the fighters so that their code, and with it the reference suites'
calibration (:func:`issoku.evaluation.games.policies.code_fingerprint`), stays as it was;
``tests/encounters/test_encounter_agents.py`` holds both ways to the same views and the same choices.
"""

from __future__ import annotations

import numpy as np

from issoku.agents.encounter_scripted import EncounterScripted, View, first_legal
from issoku.envs.adapter import legal_mask
from issoku.rules.encounters.actions import ACTION_NAMES
from issoku.rules.encounters.kinds import DECISION_KINDS
from issoku.rules.encounters.observation import FLAGS
from issoku.rules.encounters.state import EncounterState
from issoku.rules.encounters.wounds import RANK_NAMES

_PASS = ACTION_NAMES.index("pass")
_ATN_SCALE = 80
_DAMAGE_SCALE = 80.0
"""The observation's scales of the opponent's ATN and of pending damage."""


def read_state(state: EncounterState, seat: int) -> View:
    """:func:`~issoku.agents.encounter_scripted.read` of ``seat``'s observation of ``state``, read from the state."""
    me, foe = state.fighters[seat], state.fighters[1 - seat]
    rules = state.ruleset
    sheet = rules.sheets[seat]
    weapon = sheet.weapon if me.weapon_state == "ready" else rules.catalog.weapons["unarmed"]
    agility = sheet.traits["agility"]
    pending = state.pending
    damage = pending["rolled"] - pending["reduction"] if pending is not None else 0
    flags = {"prone": me.prone, "grappled": bool(state.grapple), "in_control": state.controller == seat,
             **{f"weapon_{where}": me.weapon_state == where for where in ("ready", "held", "ground")},
             "boost_armed": me.boost_armed, "void_stance_charged": me.began_in_void and not me.void_bonus_used,
             "deflect": me.deflect, "maintain": me.maintain, "free_move_used": "free_move" in me.free_used,
             "extra_attack_used": me.extra_attack_done, "stunned": me.stun_tn is not None,
             "weapon_grapple_started": state.weapon_grapple == seat, "disarm_free_raise": me.disarm_free_raise > 0}
    return View(
        decision=state.decision_kind() if state.current_seat() == seat else DECISION_KINDS[0],
        stance=me.stance,
        rank=RANK_NAMES.index(me.rank().name),
        opponent_rank=RANK_NAMES.index(foe.rank().name),
        opponent_stance=foe.stance,
        opponent_atn=min(max(state.atn(1 - seat), 0), _ATN_SCALE),
        flags={name: bool(flags[name]) for name in FLAGS},
        attack_pool=(sheet.skill(weapon.skill) + agility, agility),
        pending_damage=float(np.float32(min(damage, _DAMAGE_SCALE) / _DAMAGE_SCALE)) if damage > 0 else 0.0,
    )


def choose(agent: EncounterScripted, state: EncounterState, seat: int) -> int:
    """The action ``agent`` picks given ``seat``'s observation and mask of ``state`` (whose decision it is): its
    first preference the state allows, else ``pass``, as :meth:`EncounterScripted.__call__` picks."""
    mask = legal_mask(state.legal_actions(), len(ACTION_NAMES))
    choice = first_legal(mask, agent.preferences(read_state(state, seat), mask))
    return choice if choice is not None else _PASS
