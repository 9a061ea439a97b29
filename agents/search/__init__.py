"""Agents that look ahead on the rules engines themselves: one-step look-ahead and information-set MCTS."""

from issoku.agents.search.agents import MCTS, NotWatchingError, OneStepLookahead, StateSearcher, mcts_large, mcts_small
from issoku.agents.search.mcts import SearchBudget

__all__ = ["MCTS", "NotWatchingError", "OneStepLookahead", "SearchBudget", "StateSearcher", "mcts_large",
           "mcts_small"]
