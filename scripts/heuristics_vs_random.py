"""Write how the scripted heuristics fare against random-legal play to docs/results/heuristics_vs_random.md.

A scripted agent that does not clearly beat random play is no yardstick, so docs/envs.md points here for each
heuristic's figure. Every row is an ``issoku head-to-head`` (seeded duels, seats swapped on each seed, Wilson
95 % intervals) of one agent against ``random``; scripted agents are deterministic given their seeds, so a rerun
writes the same rows. Run from the repository root:

    python scripts/heuristics_vs_random.py              # 500 duels a row (200 for team fights), a few minutes
    python scripts/heuristics_vs_random.py --duels 40 --out -
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from issoku.evaluation.strength.head_to_head import head_to_head
from results_file import write_results

OUT = Path("docs/results/heuristics_vs_random.md")
TEMPO_3V3 = {"sides": [["fencer", "knight", "brawler"], ["spearman", "archer", "knife_fighter"]]}
TEMPO_1V3 = {"sides": [["spearman"], ["archer", "crossbowman", "brawler"]]}
ROWS: tuple[tuple[str, str, dict[str, Any], bool], ...] = (
    ("ma_heuristic", "breath_duel_v0", {}, False),
    ("ma_heuristic", "breath_duel_v0", {"kind": "hatashiai"}, False),
    ("breath_heuristic", "breath_duel_v0", {}, False),
    ("breath_heuristic", "breath_duel_v0", {"ma": False}, False),
    ("encounter_heuristic", "encounter_duel_v0", {}, False),
    ("encounter_heuristic", "encounter_duel_v0", {"fighters": ["yari_guard", "tonfa_monk"]}, False),
    ("tempo_focus_fire", "tempo_skirmish_v0", {}, True),
    ("tempo_focus_fire", "tempo_skirmish_v0", TEMPO_3V3, True),
    ("tempo_focus_fire", "tempo_skirmish_v0", TEMPO_1V3, True),
)
"""(agent, env, env options, a team fight): each measured against ``random``."""


def percent(rate: Any) -> str:
    """``93.8 % [91.3, 95.6]``: a rate with its interval."""
    return f"{rate.value:.1%} [{rate.low * 100:.1f}, {rate.high * 100:.1f}]"


def table(duels: int) -> str:
    """The Markdown table, one row per measured agent and env (team fights play ``duels * 2 // 5``)."""
    rows = ["| agent vs random | env (options) | duels | won / drawn / lost | win rate [95 % interval] | "
            "as seat (side) 0 / 1 |", "|---|---|---|---|---|---|"]
    for agent, env, kwargs, team in ROWS:
        count = max(2, duels * 2 // 5) if team else duels
        result = head_to_head(agent, "random", count, env=env, env_kwargs=kwargs)
        options = f"`{json.dumps(kwargs)}`" if kwargs else "defaults"
        seats = " / ".join(f"{tally.win_rate(0.95).value:.1%}" for tally in result.by_seat)
        total = result.total
        rows.append(f"| `{agent}` | `{env}` {options} | {count} | {total.wins} / {total.draws} / {total.losses} | "
                    f"{percent(total.win_rate(0.95))} | {seats} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_results(argv, __doc__, "heuristics_vs_random.py", OUT, "duels", 500, 2,
                  "Seeded duels a row (default 500; team rows 2/5 of it).", table)


if __name__ == "__main__":
    main()
