"""Search-based card play: the double-dummy solver (solve.py) and the PIMC player (pimc.py)."""
