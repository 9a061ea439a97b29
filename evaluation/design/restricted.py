"""Restricted play (Jaffe et al., 2012): how much does a policy lose when one maneuver or combo is taken away?

A maneuver the strong policy cannot do without is load-bearing; one whose removal costs nothing is
dead weight; a single maneuver whose removal costs far more than any other may be a degenerate
crutch. The battery is generated from the rules data: every action of the env's action table
(``ruleset.action_names``) that the policy actually plays in the stored games, most used first, each
masked out in turn, then its most used two-action combos (the second action masked right after the
first). Each restricted policy plays the unrestricted one with seats swapped; the **win-rate drop**
is ½ minus the restricted policy's score (draws ½), with a Wilson interval.

Here the restricted policy is the same policy with the action masked (when the mask leaves nothing,
the restriction yields: a forced move stays legal). Any two-seat env with action names
(``env.unwrapped.action_names``) works. For a scripted policy that is its best play
without the maneuver; a learned policy would ideally be fine-tuned under the restriction first (a
training job per restriction; not done here). The games are an ordinary tournament (one job per
batch, the process pool, the match store, resumable), with restricted policies named
``"<policy> -<action>"`` or ``"<policy> -<a>><b>"`` so the report tells them apart.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from issoku.agents.batched import Batchable, Decision, begin
from issoku.evaluation.stats.metrics import CompositionSpec, ngrams
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.games.tournament import Loadout, PolicySpec, Tournament
from issoku.common.outcomes import Proportion, wilson

MARK = " -"
"""Separates a base policy's name from its restriction; registered names never hold a space."""
COMBO = ">"
"""Joins the two actions of a restricted combo."""


def restriction_name(base: str, banned: Sequence[str]) -> str:
    """``"ma_heuristic -attack:uchigatana.thrust"`` or, for a combo, ``"ma_heuristic -a>b"``."""
    return f"{base}{MARK}{COMBO.join(banned)}"


def split_restriction(policy: str) -> tuple[str, tuple[str, ...]] | None:
    """``(base, banned)`` of a restricted policy's name; None for an ordinary policy."""
    base, mark, banned = policy.partition(MARK)
    return (base, tuple(banned.split(COMBO))) if mark else None


class _RestrictedPolicy:
    """The base policy with ``banned`` masked out (a combo: its second action, right after its first)."""

    def __init__(self, base: Any, banned: Sequence[int]) -> None:
        self._base = base
        self._banned = tuple(banned)
        self._last: int | None = None

    def _mask(self, action_mask: np.ndarray) -> np.ndarray:
        """The mask the base policy sees: the banned action out (unless that leaves nothing)."""
        if len(self._banned) == 1 or self._last == self._banned[0]:
            mask = action_mask.copy()
            mask[self._banned[-1]] = 0
            if mask.any():
                return mask
        return action_mask

    def _played(self, action: int) -> int:
        self._last = int(action)
        return self._last

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self._played(self._base(observation, self._mask(action_mask)))


class _RestrictedBatchable(_RestrictedPolicy):
    """A restricted learned policy: its decisions join the base network's batches (:mod:`issoku.agents.batched`)."""

    def begin(self, observation: np.ndarray, action_mask: np.ndarray) -> Decision | None:
        """The base policy's batched decision under the restricted mask."""
        decision = begin(self._base, observation, self._mask(action_mask))
        if decision is None:
            return None
        return decision._replace(finish=lambda row, alone: self._played(decision.finish(row, alone)))


@dataclass(frozen=True)
class Restricted:
    """A picklable policy factory: ``base`` (a :class:`PolicySpec` factory) with actions ``banned`` masked out.

    ``banned`` holds action numbers: one (never played) or two (the second never right after the first).
    """

    base: Any
    banned: tuple[int, ...]

    def __call__(self, seed: int | None = None, ruleset: Any = None) -> _RestrictedPolicy:
        if "ruleset" in inspect.signature(self.base).parameters:
            base = self.base(seed=seed, ruleset=ruleset)
        else:
            base = self.base(seed=seed)
        return (_RestrictedBatchable if isinstance(base, Batchable) else _RestrictedPolicy)(base, self.banned)


def battery(records: Iterable[MatchRecord], policy: str, action_names: Sequence[str], maneuvers: int = 8,
            combos: int = 2, spec: CompositionSpec | None = None, replies: int = 0) -> list[tuple[str, ...]]:
    """The restrictions to test: the ``maneuvers`` actions of the action table ``policy`` plays in most games,
    then its ``combos`` most used pairs of consecutive actions (each counted once per game), then, for every
    decision kind it met that none of those touches (a defence, a reply, a counter, a resist...), the ``replies``
    most used actions of that kind: the battery covers every kind of decision, not only the main one.

    With ``spec`` the maneuvers and combos are those of a composition (decisions of its kind); its closers are
    never restricted.
    """
    known = set(action_names) - set(spec.closing if spec else ())
    singles: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    for record in records:
        for seat, name in enumerate(record.policies):
            if name == policy:
                played = [(action, kind) for action, kind in zip(record.actions[seat], record.kinds[seat])
                          if action in known]
                actions = [action for action, kind in played if spec is None or kind == spec.kind]
                singles.update(set(actions))
                pairs.update({(first, second) for first, second in ngrams(actions, 2)})
                for action, kind in set(played):
                    by_kind.setdefault(kind, Counter())[action] += 1
    # Ties go by name, never by set order (which PYTHONHASHSEED changes from run to run).
    chosen: list[tuple[str, ...]] = [(name,) for name in _most_used(singles)[:maneuvers]]
    chosen += [pair for pair in _most_used(pairs) if pair[0] != pair[1]][:combos]
    for kind in sorted(by_kind):  # a kind no restriction touches yet gets its own
        if replies and not any((name,) in chosen for name in by_kind[kind]):
            chosen += [(name,) for name in _most_used(by_kind[kind])[:replies]]
    return chosen


def _most_used(counts: Counter) -> list:
    """The counted items, most counted first, ties in their sort order."""
    return sorted(counts, key=lambda item: (-counts[item], item))


def restricted_tournament(base: PolicySpec, restrictions: Sequence[tuple[str, ...]], action_names: Sequence[str],
                          env_factory: Any, loadout: Loadout | Sequence[Loadout], games: int, base_seed: int = 0,
                          tuned: Mapping[tuple[str, ...], PolicySpec] | None = None) -> Tournament:
    """Each restricted policy (action names ``restrictions``) against the unrestricted ``base``, seats swapped,
    in ``loadout`` (one, or several: every restriction in each).

    ``tuned`` gives, per restriction, the policy fine-tuned under it (:mod:`issoku.training.finetune`)
    to play restricted instead of ``base`` itself.
    """
    number = {name: i for i, name in enumerate(action_names)}
    tuned = tuned or {}
    restricted = tuple(PolicySpec(restriction_name(base.name, banned),
                                  Restricted(tuned.get(banned, base).factory, tuple(number[name] for name in banned)),
                                  tuned.get(banned, base).fingerprint) for banned in restrictions)
    loadouts = (loadout,) if isinstance(loadout, Loadout) else tuple(loadout)
    return Tournament(env_factory, (base,) + restricted, loadouts, games_per_pair=games, base_seed=base_seed,
                      pairings=tuple((spec.name, base.name) for spec in restricted))


@dataclass(frozen=True)
class RestrictionResult:
    """One restriction's games against the unrestricted policy."""

    base: str
    banned: tuple[str, ...]
    score: Proportion
    """The restricted policy's score (draws ½)."""

    @property
    def drop(self) -> float:
        """Win-rate drop: ½ − the restricted score (positive: the restriction hurts)."""
        return 0.5 - self.score.value

    @property
    def drop_interval(self) -> tuple[float, float]:
        return 0.5 - self.score.high, 0.5 - self.score.low


def restriction_results(records: Iterable[MatchRecord], confidence: float = 0.95) -> list[RestrictionResult]:
    """Every restricted policy's score against its own base in ``records``, biggest drop first."""
    totals: dict[tuple[str, tuple[str, ...]], list[float]] = {}
    for record in records:
        for seat, name in enumerate(record.policies):
            parsed = split_restriction(name)
            if parsed is not None and record.policies[1 - seat] == parsed[0]:
                totals.setdefault(parsed, []).append(record.score(seat))
    results = [RestrictionResult(base, banned, wilson(sum(scores), len(scores), confidence))
               for (base, banned), scores in totals.items()]
    return sorted(results, key=lambda r: (-r.drop, r.banned))


def is_restricted(record: MatchRecord) -> bool:
    """Whether a restricted policy played this game (such games stay out of the ordinary measures)."""
    return any(split_restriction(name) is not None for name in record.policies)


def battery_coverage(ordinary: Sequence[MatchRecord], restricted: Sequence[MatchRecord]) -> list[str]:
    """What the restricted-play battery in ``restricted`` covered of what its base policy played in ``ordinary``:
    per base policy, the decision kinds and loadouts it played that no restriction touched, and how many of its
    actions were masked out. One sentence per base policy."""
    results = restriction_results(restricted)
    lines = []
    for base in sorted({r.base for r in results}):
        played_kinds: dict[str, set[str]] = {}
        played_loadouts: set[str] = set()
        for record in ordinary:
            for seat, name in enumerate(record.policies):
                if name == base:
                    played_loadouts.add(record.loadout)
                    for action, kind in zip(record.actions[seat], record.kinds[seat]):
                        played_kinds.setdefault(kind, set()).add(action)
        banned = {action for r in results if r.base == base for action in r.banned}
        covered_kinds = sorted(kind for kind, actions in played_kinds.items() if actions & banned)
        missed_kinds = sorted(set(played_kinds) - set(covered_kinds))
        covered_loadouts = sorted({record.loadout for record in restricted
                                   if any((split_restriction(p) or ("",))[0] == base for p in record.policies)})
        missed_loadouts = sorted(played_loadouts - set(covered_loadouts))
        actions = set().union(*played_kinds.values()) if played_kinds else set()
        kinds = ", ".join(f"`{k}`" if k else "(unnamed)" for k in covered_kinds) or "none"
        lines.append(
            f"{base}: the battery masked out {len(banned & actions)} of the {len(actions)} actions it played; "
            f"decision kinds covered: {kinds}; not covered: "
            + (", ".join(f"`{k}`" if k else "(unnamed)" for k in missed_kinds) or "none")
            + f". Loadouts covered: {', '.join(covered_loadouts) or 'none'}; not covered: "
            + (f"{len(missed_loadouts)} where it played but no restriction did (another study's, or beyond the "
               f"battery's `loadouts` budget): {listing(missed_loadouts)}" if missed_loadouts else "none") + ".")
    return lines


def listing(items: Sequence[str], most: int = 6) -> str:
    """The first ``most`` items, then how many more."""
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")
