"""Who the other sides are in a search's playouts: by default the scripted agent, or a known field of opponents.

A search plays its playouts with the ruleset's best scripted agent on every seat
(:mod:`~issoku.agents.search.playouts`): a model of a competent opponent in general. Against a known field (a
hunt's Nash mixture, a shipped agent to exploit) it can do better: the other sides' moves in its playouts are
the field's own, one member drawn by its weight for each sampled world, so the search is a best response to
that field. An approximate one: its own moves past the tree are still the scripted agent's, and the field is
met only as far as the playouts reach.

The member is drawn with the world (:meth:`ModelledOpponents.redraw`), so every root action of one round of
sequential halving meets the same opponent on the same dice, and the statistics average over the mixture as
they do over the dice. A member that searches the state itself is played by the scripted agent in the
playouts: a search inside every playout step would cost a search per decision of every playout.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from issoku.agents.policy import Policy
from issoku.agents.search.playouts import Chooser, scripted_chooser
from issoku.rules.kernel.protocol import GameState

OpponentBuilder = Callable[[int, Any], Policy | None]
"""``build(seed, ruleset)``: a fresh policy of one field member for the ruleset being searched, or None where the
member is played by the scripted playout agent (a member that searches the state itself)."""


@dataclass(frozen=True)
class OpponentField:
    """The opponents a search plans against: builders of the field's members and their weights (a mixture)."""

    builders: tuple[OpponentBuilder, ...]
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if not self.builders or len(self.builders) != len(self.weights):
            raise ValueError(f"an opponent field needs one weight per member, not {len(self.weights)} weights for "
                             f"{len(self.builders)} members")
        if any(weight < 0 for weight in self.weights) or sum(self.weights) <= 0:
            raise ValueError(f"an opponent field's weights must be >= 0 with a positive sum, not {self.weights}")

    def build(self, seed: int, ruleset: Any) -> FieldPolicies:
        """Each member's policy for ``ruleset``, seeded from ``seed`` (one seed a member), with its weight."""
        return FieldPolicies(tuple(build(seed + index, ruleset) for index, build in enumerate(self.builders)),
                             self.weights)


@dataclass(frozen=True)
class FieldPolicies:
    """An :class:`OpponentField` built for one game: each member's policy (None: the scripted playout agent)."""

    members: tuple[Policy | None, ...]
    weights: tuple[float, ...]


class ModelledOpponents:
    """A playout chooser: the searching seat's side plays ``own``; every other side plays the field member drawn for
    the current world (:meth:`redraw`), each member a policy reading its seat's observation and mask."""

    def __init__(self, own: Chooser, field: FieldPolicies, teams: Sequence[int], seat: int,
                 uniform: Callable[[], float]) -> None:
        self._own = own
        self._members = [own if member is None else scripted_chooser(member) for member in field.members]
        total = float(sum(field.weights))
        self._cumulative = [value / total for value in itertools.accumulate(field.weights)]
        self._allies = {other for other, team in enumerate(teams) if team == teams[seat]}
        self._uniform = uniform
        self._member = self._members[0]

    def redraw(self) -> None:
        """Draw the member the other sides play in the next world (one uniform number, whatever the world holds)."""
        index = bisect.bisect_right(self._cumulative, self._uniform())
        self._member = self._members[min(index, len(self._members) - 1)]

    def __call__(self, world: GameState, seat: int) -> int:
        return self._own(world, seat) if seat in self._allies else self._member(world, seat)
