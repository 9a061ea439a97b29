"""The balance lab (docs/balance.md), one subpackage per job: ``games`` (playing and storing them), ``stats``
(ratings and measures over match records), ``reports`` (the balance report), ``design`` (tools for a designer
changing the rules) and ``strength`` (how strong agents are, ladders, the hunt for dominant strategies)."""
