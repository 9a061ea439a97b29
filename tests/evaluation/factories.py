"""Hand-made match records for the pure-function tests (no env needed)."""

from __future__ import annotations

from issoku.evaluation.games.records import MatchRecord, match_key, winner_of


def make_record(policies: tuple[str, str], returns: tuple[float, float], seed: int = 0, loadout: str = "default",
                labels: tuple[str, str] = ("", ""), first_seat: int = 0, truncated: bool = False,
                actions: tuple[tuple[str, ...], ...] = (("a",), ("b",)), env_id: str = "toy_v0",
                kinds: tuple[tuple[str, ...], ...] | None = None) -> MatchRecord:
    """A two-seat record with a deterministic key built from its identity fields."""
    key = match_key(env_id, "fp", loadout, {"labels": list(labels)}, policies, ("", ""), seed)
    return MatchRecord(key=key, env_id=env_id, rules_fingerprint="fp", loadout=loadout,
                       loadout_kwargs={"labels": list(labels)}, seat_labels=labels, seed=seed,
                       agents=("player_0", "player_1"), policies=policies, returns=returns,
                       winner=winner_of(returns), first_seat=first_seat, length=sum(map(len, actions)),
                       truncated=truncated, actions=actions,
                       kinds=kinds if kinds is not None else tuple(("",) * len(seat) for seat in actions))
