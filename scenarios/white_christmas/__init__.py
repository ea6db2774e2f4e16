"""1975 White Christmas (Albert Reyes, Looping Games): 2-4 players or solo against
Captain Chambers, on the board-graph module (WC.*).

* :mod:`.components` - the card sets, read from ``data/*.toml`` (reconstructions where the
  rules do not print them); :mod:`.table` - the table as a board graph;
* :mod:`.actions` - the decisions; :mod:`.values` - public and private values;
  :mod:`.state` - the immutable :class:`State` and the per-seat :class:`Observation`;
* :mod:`.options` - what a side could do; :mod:`.work` - the working copy an action
  resolves on; :mod:`.turns` - legal actions and their effects; :mod:`.flow` - rounds,
  phases, staircases, sightings and the end; :mod:`.chambers` - the solo automaton;
* :mod:`.setup` - :func:`new_game`; :mod:`.players` - random and heuristic bots;
  :mod:`.game` - the :data:`WHITE_CHRISTMAS` game descriptor.

Rules and every decision where they are silent: ``docs/rules/white_christmas.md`` and
``docs/white_christmas.md``.
"""
from .actions import Action, ActionKind, Ask, IllegalAction, Pending, Phase
from .components import Components, Extra, Icon, Model, Person, load_components, shipped_components
from .setup import new_game
from .state import Observation, State

__all__ = ["Action", "ActionKind", "Ask", "IllegalAction", "Pending", "Phase", "Components", "Extra", "Icon",
           "Model", "Person", "load_components", "shipped_components", "new_game", "Observation", "State"]
