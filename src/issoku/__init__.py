"""issoku (一足一刀): a reinforcement-learning lab for tabletop combat rules.

The layers import one way: ``issoku.rules`` (pure engines) -> ``issoku.envs`` (PettingZoo /
Gymnasium adapters) -> ``issoku.agents`` -> ``issoku.training`` / ``issoku.evaluation``.
"""

__version__ = "0.1.0"
