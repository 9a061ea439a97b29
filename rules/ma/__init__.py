"""Ma and Blade (000): the 1:1 duel variant on the breath engine.

Pure pieces, each with one job: the shared distance ladder (``ladder``), ideal ranges (``reach``), the
half-step and its contest (``halfstep``), tsubazeriai (``tsubazeriai``), the guard track (``guard``),
hit locations (``locations``), sparring points (``sparring``), terrain (``terrain``), and the
validated content data (``content``). Gap decisions live in ``docs/rules/ma.md``.
"""
