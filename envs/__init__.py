"""PettingZoo environments over the rules engines (filled in by the envs issue)."""
