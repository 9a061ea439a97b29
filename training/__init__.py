"""Self-play training (MaskablePPO), its configs and checkpoints, and fine-tuning under a restriction (docs/training.md)."""
