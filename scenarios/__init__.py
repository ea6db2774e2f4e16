"""The games: one engine package per game, the parts every engine shares, and what
people use them through.

* engines (immutable states, legal actions, per-seat observations; DF.*, CN.*, YT.*,
  WC.*): :mod:`.dogfight` (the Wings of Glory-style dogfight, on :mod:`maneuvers`),
  :mod:`.canuck` (Operation Canuck), :mod:`.yorktown` (1942 USS Yorktown) and
  :mod:`.white_christmas` (1975 White Christmas);
* :mod:`.engine` — what the engines share: the protocol (``GameState``, ``Player``, the
  ``Game`` descriptor with the game's facts), the registry of games
  (:mod:`.engine.registry`, each game's engine, CLI, room view and RL modules by name),
  whole games and Monte Carlo series, summary statistics, sweeps, the search bots;
* :mod:`.cli` — the ``furball`` command; :mod:`.web` — ``furball serve`` (the practice
  table and the game rooms); :mod:`.rl` — the engines as OpenSpiel games and PettingZoo
  environments; ``examples/`` — the shipped dogfight scenario files.

Layers, top to bottom: the CLI, the web server and the RL adapters; :mod:`viz`; the
engines (with :mod:`.engine`); :mod:`maneuvers`; :mod:`geometry`. Nothing imports
upwards, and importing this package imports none of them.
"""
