"""Self-play training scripts (filled in by the training issue)."""
