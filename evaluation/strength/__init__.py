"""How strong agents are and what they exploit: head-to-head duels, a checkpoint's seeded duels, the reference
suite benchmark, difficulty and skill ladders, play styles, per-loadout learned fields, and the PSRO hunt for
dominant strategies."""
