"""Tools for a designer changing the rules: what a variant changed (``--variant``), which number moves the balance
(``levers``), the smallest patch that meets targets (``autobalance``), the edit to try, mistyped values, the combo
tables and restricted play."""
