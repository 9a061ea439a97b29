"""``python -m issoku`` runs the command line."""

from issoku.cli import main

main()
