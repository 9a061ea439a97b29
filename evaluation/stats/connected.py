"""Connected designs: which sides can be put on one rating scale, because they met.

A Bradley–Terry fit puts every side it is given on one scale, and its prior of virtual draws gives a rating even
to two sides that never played each other, nor any common opponent: the weapon grid and the casters' grid of the
breath duel, rated together, would call the unarmed fighter stronger than the ronin on no game at all. So the
report rates sides only within a **connected component** of the graph whose edges are the pairs that met; for
loadouts, also only within one field of agents (:func:`~issoku.evaluation.reports.fields.loadout_grids`): a weapon played
by the Ma heuristic and the same weapon played by tree search are two measurements, not one side.
"""

from __future__ import annotations

from scipy.sparse.csgraph import connected_components

from issoku.evaluation.stats.pairings import Games


def met_components(games: Games) -> list[tuple[str, ...]]:
    """The names of ``games`` split into groups that met, directly or through common opponents: largest group
    first, names sorted within a group (ties broken by the first name)."""
    if not games.names:
        return []
    _, played = games.matrices()
    _, component = connected_components(played > 0, directed=False)
    groups: dict[int, list[str]] = {}
    for name, group in zip(games.names, component):
        groups.setdefault(int(group), []).append(name)
    return sorted((tuple(sorted(names)) for names in groups.values()), key=lambda names: (-len(names), names))
