"""Write how often uniformly random play decides a fight, per env, to docs/results/random_play_outcomes.md.

A learner's first episodes are close to random play, and every env pays +1/-1 only for a decided fight: where
random play mostly runs to the round limit (a draw, 0 to every agent), the first rollouts carry almost no reward
signal. This measures that share for every registered env with its defaults, so the docs can say where to expect
it (docs/envs.md, "Sparse rewards"). Run from the repository root:

    python scripts/random_play_outcomes.py              # 200 fights per env, about a minute on one core
    python scripts/random_play_outcomes.py --fights 1000 --out -
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from issoku.envs.registry import env_ids, make_env
from results_file import write_results

OUT = Path("docs/results/random_play_outcomes.md")


def outcomes(env_id: str, fights: int) -> tuple[int, int, float]:
    """``(decided, at the round limit, mean decisions)`` over ``fights`` seeded fights of uniformly random play."""
    rng = np.random.default_rng(0)
    decided = limited = decisions = 0
    for seed in range(fights):
        env = make_env(env_id)
        env.reset(seed=seed)
        state = env.unwrapped.game_state
        while state.current_seat() is not None:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            decisions += 1
        decided += any(state.returns())
        limited += bool(state.is_truncated())
    return decided, limited, decisions / fights


def table(fights: int) -> str:
    """The Markdown table, one row per env."""
    rows = ["| env (defaults) | fights | decided (someone won) | drawn at the round limit | mean decisions |",
            "|---|---|---|---|---|"]
    for env_id in env_ids():
        decided, limited, mean = outcomes(env_id, fights)
        rows.append(f"| `{env_id}` | {fights} | {decided / fights:.0%} | {limited / fights:.0%} | {mean:.0f} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_results(argv, __doc__, "random_play_outcomes.py", OUT, "fights", 200, 1,
                  "Seeded fights per env (default 200).", table)


if __name__ == "__main__":
    main()
