"""issoku's speed and memory benchmark, run from the repository root: ``python -m benchmarks``.

One run measures, side by side on one machine (noisy machines hurt every row alike, so the ratios are
what to read): random-legal AEC play of every issoku env next to PettingZoo's ``connect_four_v3`` and
``tictactoe_v3`` (:mod:`benchmarks.env_speed`), rules-engine playouts without an env
(:mod:`benchmarks.engine_speed`), MaskablePPO training throughput on the self-play wrappers
(:mod:`benchmarks.ppo_speed`) and peak memory per env instance (:mod:`benchmarks.memory`). The command
(:mod:`benchmarks.__main__`) prints a table and writes every sample to JSON. Not part of the installed
package: it benchmarks the package from outside, as a user would.
"""
