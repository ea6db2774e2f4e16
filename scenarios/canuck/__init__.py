"""Operation Canuck (Brian Train, 2023): solitaire engine on the board-graph module (CN.*).

* :mod:`.cards` — the 52-card deck; :mod:`.board` — the map (a board graph with GAR and
  BASE boxes); :mod:`.state` — the immutable :class:`State` with ``legal_actions()`` and
  ``apply()``; :mod:`.operations` — the Partisan's options; :mod:`.sweep` — deck draws,
  Allied Advances and Axis Sweeps; :mod:`.players` — random and heuristic players;
  :mod:`.game` — whole games and statistics; :mod:`.cli` — ``furball play canuck``.

Rules: ``../shared/specs/canuck.md``; decisions where the rules are silent:
``docs/canuck.md``.
"""
from .board import CanuckMap, default_map, load_map
from .game import play_game, play_many
from .state import Action, IllegalAction, State, new_game

__all__ = ["CanuckMap", "default_map", "load_map", "play_game", "play_many", "Action", "IllegalAction",
           "State", "new_game"]
