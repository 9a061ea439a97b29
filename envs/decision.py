"""The decision an env's fight waits for, kept up to date after every move: whose it is, its action mask and legal
set, the seats still standing, and the two ``infos`` entries that change (the adapter's per-step upkeep).

A module of its own, free of gymnasium and PettingZoo, so that the opt-in compiled build compiles it (``setup.py``'s
``COMPILED``): it runs on every env step, and compiled it reads its own fields directly where interpreted code looks
each one up. No value a user hands the env reaches it: the env checks and converts actions itself (compiled code
would refuse a numpy integer that Python accepts), and only the rules' state and the env's own values come here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from issoku.rules.kernel.protocol import GameState

_MASKS: dict[int, dict[tuple[int, ...], np.ndarray]] = {}
"""Masks by action count, then by legal tuple (a lookup by the legal tuple alone: no key tuple to build per step)."""
_MASKS_LIMIT = 65_536
_DECISIONS: dict[int, dict[tuple[int, ...], tuple[np.ndarray, frozenset[int]]]] = {}
"""The env's per-step memo: by action count, then legal tuple, its mask and its set (a step checks its action
against the set: a hash instead of a scan of the list; bounded as ``_MASKS``)."""


def legal_mask(legal: Sequence[int], num_actions: int) -> np.ndarray:
    """The read-only int8 mask of ``legal``, shared: a fight repeats the same few legal sets, and
    building an array costs more than finding it. The memo holds immutable arrays only; it stops
    growing at ``_MASKS_LIMIT`` entries per action count (a few MB at most)."""
    masks = _MASKS.get(num_actions)
    if masks is None:
        masks = _MASKS[num_actions] = {}
    key = tuple(legal)
    mask = masks.get(key)
    if mask is None:
        mask = np.zeros(num_actions, dtype=np.int8)
        mask[list(key)] = 1
        mask.flags.writeable = False  # handed out in observations and infos; legality is checked against it
        if len(masks) < _MASKS_LIMIT:
            masks[key] = mask
    return mask


class Decision:
    """One env's decision in progress: ``seat`` (−1 when nobody decides) and its ``agent``, ``mask`` and ``legal``
    set; :meth:`start` at a reset, :meth:`advance` after each legal move, :meth:`close` when the fight ends."""

    def __init__(self, agents: Sequence[str], decision_kinds: Sequence[str], num_actions: int) -> None:
        self.agents: tuple[str, ...] = tuple(agents)
        self.kind_index: dict[str, int] = {kind: index for index, kind in enumerate(decision_kinds)}
        self.num_actions = num_actions
        self.memo: dict[tuple[int, ...], tuple[np.ndarray, frozenset[int]]] = _DECISIONS.setdefault(num_actions, {})
        """Legal tuple -> (its mask, its set), for this action count."""
        no_mask = np.zeros(num_actions, dtype=np.int8)
        no_mask.flags.writeable = False  # shared by every waiting agent, so nobody may write to it
        self.no_mask = no_mask
        self.seat = -1
        self.agent = ""
        self.mask = no_mask
        self.legal: frozenset[int] = frozenset()
        """The legal actions of the decision (the mask's ones): the env's ``step`` checks an action against them."""
        self.infos: dict[str, dict[str, int]] = {}
        self.standing: list[tuple[int, str]] = []
        """The seats (with their agents) the rules have not eliminated: the ones a move is asked about."""

    def start(self, state: GameState, infos: dict[str, dict[str, int]]) -> None:
        """A new fight ``state`` with its fresh ``infos``: every seat standing, then its first decision."""
        self.infos = infos
        self.standing = list(enumerate(self.agents))
        self.seat = -1
        seat = state.current_seat()
        assert seat is not None, "a fight starts with a decision"
        self._point_at(state, seat)

    def advance(self, state: GameState) -> bool:
        """After a legal move on ``state``: its next decision and the seats the move eliminated (each stays, never
        selected, until the fight's result pays it); False, and nothing changed, once the fight is over."""
        seat = state.current_seat()
        if seat is None:  # over (the protocol's None)
            return False
        self._point_at(state, seat)
        for other, agent in self.standing:
            if state.is_eliminated(other):
                self.infos[agent]["eliminated"] = 1
                self.standing = [standing for standing in self.standing if standing[0] != other]
        return True

    def close(self) -> None:
        """The fight is over: nobody decides any more."""
        if self.seat >= 0:
            self.infos[self.agents[self.seat]]["decision_kind"] = -1
        self.seat = -1
        self.mask = self.no_mask
        self.legal = frozenset()

    def _point_at(self, state: GameState, seat: int) -> None:
        """``seat`` decides in ``state``: fetch its mask once, update the ``decision_kind`` entries that change (the
        previous decider's, unless it decides again, and the new one's)."""
        key = tuple(state.legal_actions())
        known = self.memo.get(key)
        if known is None:
            known = (legal_mask(key, self.num_actions), frozenset(key))
            if len(self.memo) < _MASKS_LIMIT:
                self.memo[key] = known
        self.mask, self.legal = known
        infos = self.infos
        previous = self.seat
        if previous >= 0 and previous != seat:  # a seat often decides several times in a row
            infos[self.agents[previous]]["decision_kind"] = -1
        self.seat = seat
        agent = self.agents[seat]
        self.agent = agent
        infos[agent]["decision_kind"] = self.kind_index[state.decision_kind()]
