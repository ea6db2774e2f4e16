"""Operation Canuck (Brian Train, 2023): solitaire engine on the board-graph module (CN.*).

* :mod:`.cards` — the 52-card deck; :mod:`.board` — the map (a board graph with GAR and
  BASE boxes); :mod:`.actions` — the closed vocabularies and the :class:`Action` value;
  :mod:`.state` — the immutable :class:`State` with ``legal_actions()`` and ``apply()``;
  :mod:`.work` — the working copy one action resolves on; :mod:`.operations` — the
  Partisan's options; :mod:`.sweep` — deck draws, Allied Advances and Axis Sweeps;
  :mod:`.players` — random and heuristic players; :mod:`.placement` — the free set-up
  (CN.S3); :mod:`.game` — the game descriptor (options ``map``, ``setup``), whole games
  and statistics.

Rules and every decision where they are silent: ``docs/canuck.md``.
"""
from .actions import Action, ActionKind, Band, EndReason, IllegalAction, Pending, PendingKind, Piece
from .board import CanuckMap, default_map, load_map
from .game import CANUCK, play_game, play_many
from .placement import SetUp, free_placement
from .players import HeuristicPlayer, RandomPlayer
from .state import Score, State, new_game

__all__ = ["Action", "ActionKind", "Band", "EndReason", "IllegalAction", "Pending", "PendingKind", "Piece",
           "CanuckMap", "default_map", "load_map", "CANUCK", "play_game", "play_many", "HeuristicPlayer",
           "RandomPlayer", "Score", "State", "new_game", "SetUp", "free_placement"]
