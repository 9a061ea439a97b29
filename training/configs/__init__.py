"""Shipped training configs (TOML), found by name: ``issoku train --config reference_breath_duel``."""
