"""Conformance of every env and config, beyond PettingZoo's API test: random legal play checking the invariants at
every decision (:mod:`~issoku.envs.conformance.fuzz`), and golden playthrough files that show any change of
behaviour as a diff (:mod:`~issoku.envs.conformance.playthroughs`). The tests run both; each is also a command
(``python -m issoku.envs.conformance.fuzz``, ``python -m issoku.envs.conformance.playthroughs --update``)."""
