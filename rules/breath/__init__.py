"""Energy & Breath (seed 002): the canon economy as a pure, seeded rules engine."""
