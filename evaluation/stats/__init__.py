"""Statistics over match records: pairwise games between sides, ratings, balance measures with intervals, the
meta-game, sequential tests, paired differences between rules versions and the power of a study."""
