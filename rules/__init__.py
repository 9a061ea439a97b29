"""Pure, seeded, deterministic rules engines.

Nothing under ``issoku.rules`` imports gymnasium, pettingzoo or torch (``tests/test_layers.py``
holds this): an engine is a state machine with legal actions, ``apply``, chance through one seeded
``numpy.random.Generator`` and a structured event log, usable without any RL library.
"""
