"""Ratings, tournaments and balance reports (filled in by the balance-lab issue)."""
