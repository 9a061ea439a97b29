"""Shipped play styles (TOML data): per-decision reward bonuses by action name, read by issoku.training.shaping."""
