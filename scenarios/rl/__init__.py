"""The games in the field's standard APIs, and search bots from its libraries (issue #24).

* :mod:`.spec` — what the adapters need to know of each engine (action codes,
  observation arrays, how hidden information is re-dealt), one module per game
  (:mod:`.canuck`, :mod:`.dogfight`, ..., named by the registry of games,
  :mod:`furball.scenarios.engine.registry`; the games' facts are their ``Game``
  descriptors'); needs nothing beyond the core install;
* :mod:`.openspiel` — every engine as an OpenSpiel game (``furball_canuck`` ...);
* :mod:`.pettingzoo` — every engine as a PettingZoo AEC environment;
* :mod:`.bots` — ``mcts`` and ``ismcts`` players built on OpenSpiel's MCTS and
  information-set MCTS.

OpenSpiel, PettingZoo and Gymnasium come with the ``rl`` extra (``pip install
'furball[rl]'``); without it these modules raise a one-line
:class:`~furball.errors.MissingExtra`. This package sits beside the CLI and the web
server: it imports the engines, and nothing below it imports it. Docs: docs/rl.md.
"""
