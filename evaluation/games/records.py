"""The match record: everything the balance lab knows about one finished game.

Every analysis in :mod:`issoku.evaluation` is a pure function over these records, so a rating, a
matchup matrix or a report can be recomputed from the store at any time without replaying a game.

A record is keyed by :func:`match_key`, a digest of everything that determines the game (env id,
rules fingerprint, loadout, the policy at each seat, seed). Playing the same key twice gives the same
game, which is what lets an interrupted tournament skip what it has already stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the same value always gives the same text (and digest)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


DATA_KEYWORDS = ("variant", "data", "terrain")
"""Env keywords that choose rules data: :data:`issoku.envs.content.CONTENT_KEYWORDS`, which every issoku env takes
(a test holds the two equal). Spelt here so that reading a store does not import every env."""


def match_key(env_id: str, rules_fingerprint: str, loadout: str, loadout_kwargs: Mapping[str, Any],
              policies: Sequence[str], policy_fingerprints: Sequence[str], seed: int) -> str:
    """The identity of a game: a hex digest of everything that determines how it plays out.

    The data keywords (:data:`DATA_KEYWORDS`) are left out: they are paths, and every ruleset's fingerprint is a
    digest of the bytes they load, so the same rules under another folder (a lever written into a second
    ``--out``, ``issoku autobalance``'s own lever folders) is the same game, and two contents never share one.
    Keywords that name no data keep the keys they had.
    """
    kwargs = {name: value for name, value in loadout_kwargs.items() if name not in DATA_KEYWORDS}
    payload = canonical_json({
        "env": env_id, "rules": rules_fingerprint, "loadout": loadout, "kwargs": kwargs,
        "policies": list(policies), "policy_fingerprints": list(policy_fingerprints), "seed": int(seed),
    })
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One finished game. Per-seat tuples are in the env's ``possible_agents`` order.

    ``winner`` is the seat with the strictly highest return, ``None`` for a draw (including a
    truncated game with equal returns). ``first_seat`` is the seat that made the first decision (the
    first mover, which a seeded ruleset may draw). ``actions`` holds each seat's decisions as action
    names, in order; ``kinds`` the decision kind of each (named from the env's ``infos[agent]["decision_kind"]``,
    "" where the env names none); ``length`` counts decisions of both seats.
    """

    key: str
    env_id: str
    rules_fingerprint: str
    loadout: str
    loadout_kwargs: Mapping[str, Any]
    seat_labels: tuple[str, ...]
    seed: int
    agents: tuple[str, ...]
    policies: tuple[str, ...]
    returns: tuple[float, ...]
    winner: int | None
    first_seat: int | None
    length: int
    truncated: bool
    actions: tuple[tuple[str, ...], ...]
    kinds: tuple[tuple[str, ...], ...]

    @property
    def num_seats(self) -> int:
        """How many seats played."""
        return len(self.agents)

    def label(self, seat: int) -> str:
        """The seat's loadout label (the fighter it fields), ``""`` where the record labels it not at all: a
        record built through the API without ``seat_labels`` reads as unlabelled rather than raising."""
        return self.seat_labels[seat] if seat < len(self.seat_labels) else ""

    def score(self, seat: int) -> float:
        """The seat's result as a score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == seat else 0.0


def canonical_order(record: MatchRecord) -> tuple:
    """A record's place in the order every analysis reads (:meth:`~issoku.evaluation.games.store.MatchStore.records`).

    Built from what identifies the scheduled game (env, rules, loadout, keywords, seed, the seats' policy *names*
    and labels), then its outcome, never from the key: the key holds the policies' code fingerprints, so a change
    to an agent's code that keeps its decisions would otherwise reorder the games, and with them the report's
    bootstrap intervals and its ties. Games equal up to the key are interchangeable; the key only settles them.
    """
    return (record.env_id, record.rules_fingerprint, record.loadout, canonical_json(dict(record.loadout_kwargs)),
            record.seed, record.policies, record.seat_labels, record.agents,
            -1 if record.winner is None else record.winner, -1 if record.first_seat is None else record.first_seat,
            record.length, record.truncated, record.returns, record.actions, record.kinds, record.key)


def winner_of(returns: Sequence[float]) -> int | None:
    """The seat with the strictly highest return, or ``None`` when the best return is shared (a draw)."""
    best = max(returns)
    leaders = [seat for seat, value in enumerate(returns) if value == best]
    return leaders[0] if len(leaders) == 1 else None
