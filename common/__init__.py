"""What training, evaluation and the commands share, below them in the layer order (rules -> common -> envs ->
agents -> training / evaluation): where the lab's jobs run (:mod:`~issoku.common.backend`, with its worker pools
:mod:`~issoku.common.workers`), how duels and games are counted (:mod:`~issoku.common.outcomes`: win/draw tallies
and Wilson intervals) and the one bad-input policy of every command (:mod:`~issoku.common.inputs`).

Here so that evaluation runs its jobs and counts its games without importing training; it imports only the rules
layer, and no RL library at module level."""
