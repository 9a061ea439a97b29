"""A tempo fighter that never walks into a free counter-attack: it edges in by Combat Moves, then feints.

Why it exists: in the tempo duel a fighter who waits out of reach answers every Move or Combat Move that would end in
its reach with a Counter-Attack (TP-036, TP-G08), a free strike, and passing costs it nothing (its AP comes back at
the end of each turn, TP-009). A fighter who closes in plainly pays that strike; one who waits as well draws at the
round limit. The one way in without it is a Combat Move's critical success (TP-024, TP-G11: it surges to distance 1),
which the Counter-Attack's reach test does not foresee: it judges a Combat Move by where a success would end, one
square nearer. So this fighter edges in by Combat Moves while a success still leaves it outside the opponent's reach,
steps back out with a Move when one more square would enter it, and once in reach of either side fights as
:class:`~issoku.agents.tempo_scripted.FeintCounter`. Against itself it decides its duels (the first critical starts
the fight), where fighters that wait draw them all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from issoku.agents import tempo_state_view
from issoku.agents.tempo_scripted import _DEFAULT_MAX_DISTANCE, _PROFILE_REACH, FeintCounter, View
from issoku.rules.tempo.actions import TECHNIQUES
from issoku.rules.tempo.kinds import ACT_KIND
from issoku.rules.tempo.observation import PROFILE_SCALE, SPEC
from issoku.rules.tempo.ruleset import TempoConfig
from issoku.rules.tempo.state import TempoState

_AP = TempoConfig.ap_per_round  # the observation scales AP by the round's AP
_COMBAT_MOVE_AP = TECHNIQUES["combat_move"].cost or 0
_MOVE_AP = TECHNIQUES["move"].cost or 0


class CombatApproach(FeintCounter):
    """Out of reach: Combat Moves in while a success stays out of the opponent's reach, a Move back out when the
    next square would enter it, a pass when the AP for that is lacking; in reach: the feint-counter fighter."""

    _reach = _opponent_reach = 1

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self._reach, self._opponent_reach = (round(float(observation[SPEC.slice(side)][_PROFILE_REACH])
                                                   * PROFILE_SCALE["reach"])
                                             for side in ("self_profile", "opponent_profile"))
        return super().__call__(observation, action_mask)

    def choose(self, state: TempoState, seat: int) -> int:
        """The move :meth:`__call__` makes from ``seat``'s observation of ``state``, read from the state (a search's
        playouts take this route, :mod:`~issoku.agents.scripted_from_state`): the reaches from the two loadouts."""
        self._reach, self._opponent_reach = state.loadout(seat).weapon.reach, state.loadout(1 - seat).weapon.reach
        return tempo_state_view.choose(self, state, seat)

    def preferences(self, view: View) -> Sequence[str]:
        distance = round(view.distance * _DEFAULT_MAX_DISTANCE)
        if (view.decision != ACT_KIND or view.status != "on_guard" or view.disarmed or view.weapon_kind == "ranged"
                or distance <= max(self._reach, self._opponent_reach)):
            return super().preferences(view)
        ap = round(view.ap * _AP)
        if distance - 1 > self._opponent_reach:
            return ["proactive:combat_move:close"] if ap >= _COMBAT_MOVE_AP else ["pass"]
        return ["proactive:move:open"] if ap >= _MOVE_AP + _COMBAT_MOVE_AP else ["pass"]
