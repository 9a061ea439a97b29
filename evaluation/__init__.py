"""The balance lab: tournaments, ratings, the reference-suite benchmark, studies and their reports (docs/balance.md)."""
