"""The simulation lab: play many games between agents (``simulate``), store one row per
game (``store``), and turn the rows into plots and a summary (``report``)."""
