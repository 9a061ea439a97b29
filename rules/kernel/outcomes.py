"""How far ahead each side is in an unfinished fight: the one reading the search and the env's opt-in
round-limit reward share.

A fight's result is its returns (+1, −1, 0 for a draw). An undecided fight, a search's playout cut short or a
fight stopped by the round limit, still holds a lead: what each side has left of what it can lose, the
``health_fractions`` hook of a state (Wounds, Health, as its rules count them).
"""

from __future__ import annotations

from issoku.rules.kernel.protocol import GameState


def health_leads(state: GameState) -> tuple[float, ...]:
    """Each seat's side's mean share of health left less the mean of the other sides', in [-1, 1] (0 for every
    seat where the ruleset has no ``health_fractions`` hook, or where only one side is left)."""
    fractions = getattr(state, "health_fractions", None)
    teams = state.ruleset.seat_teams
    if fractions is None:
        return (0.0,) * len(teams)
    shares = fractions()
    totals: dict[int, list[float]] = {}
    for share, team in zip(shares, teams):
        totals.setdefault(team, []).append(share)
    if len(totals) < 2:
        return (0.0,) * len(teams)
    mean = {team: sum(values) / len(values) for team, values in totals.items()}
    others = len(mean) - 1
    everyone = sum(mean.values())
    return tuple(mean[team] - (everyone - mean[team]) / others for team in teams)
