"""1942 USS Yorktown (Looping Games): the cooperative real-time dice game (YT.*).

* :mod:`.board` — the archipelago as a checked board graph and its cached queries;
  :mod:`.deck` — the Japanese deck, plane types and the Yorktown's defence patterns;
  :mod:`.tables` — the rules' numbers and the time model; :mod:`.rolls` — the
  continuous roll thrown decision by decision; :mod:`.dice` — its standard policy and
  exact Markov chain (the players' arithmetic); :mod:`.actions` — the vocabularies and
  :class:`Action`; :mod:`.state` — the immutable :class:`State`; :mod:`.work`,
  :mod:`.japanese`, :mod:`.crews` — how a turn resolves; :mod:`.players` — random and
  heuristic players; :mod:`.game` — the :data:`YORKTOWN` descriptor.

Rules and every decision where they are silent: ``docs/rules/yorktown.md``,
``docs/yorktown.md``.
"""
from .actions import Action, Card, Difficulty, EndReason, Expansion, Kind, Phase, PlaneType, Target
from .board import Archipelago, check_map, default_map, load_map
from .deck import JapaneseDeck, default_deck, load_deck
from .dice import RollChain, RollPolicy, continuous_roll, p_success
from .game import YORKTOWN, summary
from .players import HeuristicPlayer, RandomPlayer
from .state import State, new_game
from .tables import TimeModel, default_rules, default_time, load_time

__all__ = ["Action", "Card", "Difficulty", "EndReason", "Expansion", "Kind", "Phase", "PlaneType", "Target",
           "Archipelago", "check_map", "default_map", "load_map", "JapaneseDeck", "default_deck", "load_deck",
           "RollChain", "RollPolicy", "continuous_roll", "p_success", "YORKTOWN", "summary", "HeuristicPlayer",
           "RandomPlayer", "State", "new_game", "TimeModel", "default_rules", "default_time", "load_time"]
