"""Search bots from OpenSpiel: ``mcts`` (determinised) and ``ismcts`` (information sets).

Every game offers them (:mod:`furball.scenarios.engine.search` names them in the
game's bot list; spelling ``KIND[:BUDGET][:ROLLOUT]``, e.g. ``ismcts:200`` or
``mcts:0.5s:random``):

* ``mcts`` — *determinised* MCTS: the budget is split over :data:`WORLDS` worlds, each a
  resample of the position for the deciding seat (:meth:`~.openspiel.FurballState.resample`:
  everything the seat cannot see re-dealt, a new seed for every future draw); OpenSpiel's
  ``MCTSBot`` searches each world as if it were the real one, and the bot plays the
  action with the most root visits over all worlds (ties: the lowest action id);
* ``ismcts`` — OpenSpiel's ``ISMCTSBot``: one tree over the seats' information states,
  a new resampled world for every simulation (so the search cannot exploit a world's
  fixed future), the most visited action.

Leaves are valued by playing the position out to the end with a bot of the game on the
engine itself (:class:`RolloutEvaluator`; default the game's heuristic, where it has
one: :attr:`~.spec.EngineSpec.rollout`), every seat played by that bot. The UCT
constant is :data:`UCT_C` times the game's return scale
(:attr:`~.spec.EngineSpec.return_scale`).

A search bot decides through ``choose_in(state, seat)`` (the engine protocol's
:func:`~furball.scenarios.engine.decide`): it reads the state only through the game's
resampling. Its randomness comes from ``default_rng([seed, seat, 24])``; with a budget in
simulations a game is reproducible from its seed, with a budget in seconds it is not.
"""
from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

import numpy as np

from furball.errors import IllegalAction, InputError
from furball.extras import require

from ..engine.protocol import decide
from ..engine.search import parse_search
from .openspiel import FurballGame, FurballState
from .spec import EngineSpec, spec

require("rl", "the search bots", "pyspiel")
from open_spiel.python.algorithms import ismcts as _ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts as _mcts  # noqa: E402

__all__ = ["SearchPlayer", "RolloutEvaluator", "search_player", "WORLDS", "UCT_C", "DEFAULT_SIMULATIONS"]

WORLDS = 8
"""Worlds a determinised ``mcts`` decision searches (fewer when the budget is smaller)."""
UCT_C = 2.0
"""The UCT exploration constant, per unit of the game's return scale."""
DEFAULT_SIMULATIONS = 100
"""Simulations per decision when the name gives no budget."""
GUIDE = 0.5
"""The prior probability the search gives the rollout bot's own choice (:meth:`RolloutEvaluator.prior`)."""
_STREAM = 24


class RolloutEvaluator(_mcts.Evaluator):
    """Values a leaf by playing it out on the engine: every seat played by bot ``rollout``
    of the engine's game (seeded ``seed``), the log off, up to ``max_length`` decisions
    (then the engine's provisional returns). Priors are uniform."""

    def __init__(self, engine_game, rollout: str, seed: int, seats: int, max_length: int = 100_000):
        self.bots = [engine_game.player(rollout, seed, seat) for seat in range(seats)]
        self.max_length = max_length
        self.rng = np.random.default_rng([seed, _STREAM])

    def evaluate(self, state: FurballState) -> np.ndarray:
        """The returns at the end of one play-out from ``state``. A bot that was built
        for its own games may not know what to do in a position the search made (the
        Canuck heuristic finishes the card choice it planned itself): an action the
        engine refuses is replaced by a uniformly random legal one."""
        s = state.engine.without_log()
        bots = self.bots
        for _ in range(self.max_length):
            seat = s.current_player()
            if seat is None:
                break
            try:
                s = s.apply(decide(bots[seat], s, seat))
            except IllegalAction:
                legal = s.legal_actions()
                s = s.apply(legal[int(self.rng.integers(len(legal)))])
        return np.asarray(s.returns(), dtype=float)

    def prior(self, state: FurballState) -> list[tuple[int, float]]:
        """:data:`GUIDE` on the rollout bot's own choice, the rest spread evenly over every
        legal action (so the search tries the bot's move first and keeps to it unless
        another proves better)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        engine = state.engine
        seat = engine.current_player()
        try:
            choice = state.get_game().codec.encode(engine, decide(self.bots[seat], engine, seat))
        except IllegalAction:
            choice = None
        rest = (1.0 - GUIDE) / len(legal) if choice in legal else 1.0 / len(legal)
        return [(a, rest + (GUIDE if a == choice else 0.0)) for a in legal]


class _TimedMCTS(_mcts.MCTSBot):
    """OpenSpiel's MCTS, stopped by a clock instead of a simulation count when given
    ``seconds``."""

    seconds: float | None = None

    def mcts_search(self, state):
        if self.seconds is None:
            return super().mcts_search(state)
        deadline = time.perf_counter() + self.seconds
        self.max_simulations = 1
        root = super().mcts_search(state)
        while time.perf_counter() < deadline:
            root = self._continue(root, state)
        return root

    def _continue(self, root, state):
        visit_path, working_state = self._apply_tree_policy(root, state)
        if working_state.is_terminal():
            returns = working_state.returns()
        else:
            returns = self.evaluator.evaluate(working_state)
        for node in visit_path:
            node.total_reward += returns[node.player] if node.player >= 0 else 0.0
            node.explore_count += 1
        return root


class _TimedISMCTS(_ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS, with the unexplored actions of a node tried in the order of
    their prior (the rollout bot's choice first; OpenSpiel's tries them in random order),
    and stopped by a clock instead of a simulation count when given ``seconds``."""

    seconds: float | None = None

    def check_expand(self, node, legal_actions):
        waiting = [a for a in legal_actions if a not in node.child_info]
        if not waiting:
            return _ismcts.pyspiel.INVALID_ACTION
        return max(waiting, key=lambda a: (node.prior_map.get(a, 0.0), -a))

    def run_search(self, state):
        if self.seconds is None:
            return super().run_search(state)
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        while True:
            self.run_simulation(self.sample_root_state(state))
            if time.perf_counter() >= deadline:
                break
        return self.get_final_policy(state, self._root_node)


class SearchPlayer:
    """An ``mcts`` or ``ismcts`` bot of one engine for one seat (module docstring):
    ``kind``, ``simulations`` or ``seconds`` per decision, the ``rollout`` bot's name."""

    def __init__(self, spec_: EngineSpec, name: str, kind: str, simulations: int | None, seconds: float | None,
                 rollout: str, seed: int, seat: int):
        self.spec, self.name, self.kind = spec_, name, kind
        self.simulations, self.seconds, self.rollout = simulations, seconds, rollout
        self.seed, self.seat = int(seed), int(seat)
        self.rng = np.random.default_rng([self.seed, self.seat, _STREAM])

    def choose(self, observation: Any) -> Hashable:
        """Only for games whose observation is a state (Operation Canuck's: the position
        with the draw deck face down, so the search sees no deck order):
        :meth:`choose_in`. Raises :class:`InputError` otherwise."""
        if hasattr(observation, "apply") and hasattr(observation, "legal_actions"):
            return self.choose_in(observation, self.seat)
        raise InputError(f"the {self.name} bot searches from the game state: let the game's runner give it "
                         "(furball play, furball sweep, engine.decide)")

    def choose_in(self, state: Any, seat: int) -> Hashable:
        """The action of ``seat`` in engine state ``state``, searched (module docstring).
        A state with an ``as_searched()`` gives the position the adapters model (the
        dogfight's chasers ordered by the policy, DF.T2), or ``None`` for a decision they
        do not model, which the rollout bot makes."""
        as_searched = getattr(state, "as_searched", None)
        if as_searched is not None:
            searched = as_searched()
            if searched is None:
                return decide(self.spec.game().player(self.rollout, int(self.rng.integers(2**31)), seat), state, seat)
            state = searched
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = FurballGame.around_state(self.spec.short_name, state)
        root = game.state_from(state)
        evaluator = RolloutEvaluator(self.spec.game(), self.rollout, int(self.rng.integers(2**31)),
                                     game.num_players())
        uct_c = UCT_C * self.spec.return_scale
        if self.kind == "ismcts":
            action_id = self._ismcts(game, root, evaluator, uct_c)
        else:
            action_id = self._mcts(game, root, evaluator, uct_c, seat)
        return game.codec.decode(state, action_id)

    def _random_state(self) -> np.random.RandomState:
        return np.random.RandomState(int(self.rng.integers(2**31)))

    def _ismcts(self, game: FurballGame, root: FurballState, evaluator, uct_c: float) -> int:
        bot = _TimedISMCTS(game, evaluator, uct_c, self.simulations or 1, random_state=self._random_state(),
                           final_policy_type=_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                           child_selection_policy=_ismcts.ChildSelectionPolicy.PUCT)
        bot.seconds = self.seconds
        rng = np.random.default_rng(int(self.rng.integers(2**63)))
        bot.set_resampler(lambda state, player: state.resample(player, rng))
        bot.run_search(root)
        return _most_visited({a: c.visits for a, c in bot._root_node.child_info.items()}, bot._root_node.prior_map)

    def _mcts(self, game: FurballGame, root: FurballState, evaluator, uct_c: float, seat: int) -> int:
        worlds = WORLDS if self.simulations is None else max(1, min(WORLDS, self.simulations // 8))
        visits: dict[int, int] = {}
        prior: dict[int, float] = {}
        for w in range(worlds):
            if self.simulations is None:
                sims = 1
            else:
                sims = self.simulations // worlds + (w < self.simulations % worlds)
            bot = _TimedMCTS(game, uct_c, max(1, sims), evaluator, solve=False, random_state=self._random_state(),
                             child_selection_fn=_mcts.SearchNode.puct_value)
            bot.seconds = None if self.seconds is None else self.seconds / worlds
            world = root.resample(seat, self.rng)
            for child in bot.mcts_search(world).children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
                prior[child.action] = child.prior
        return _most_visited(visits, prior)


def _most_visited(visits: dict[int, int], prior: dict[int, float]) -> int:
    """The action visited most; ties: the higher prior (the rollout bot's choice), then the
    lower id."""
    return max(visits, key=lambda a: (visits[a], prior.get(a, 0.0), -a))


def search_player(game: str, name: str, seed: int, seat: int) -> SearchPlayer:
    """The search bot ``name`` (``KIND[:BUDGET][:ROLLOUT]``) of engine ``game`` (its
    engine name, e.g. ``"canuck"``) for ``seat``. Raises :class:`InputError` for a bad
    spelling or a rollout bot the game does not have."""
    spec_ = spec(game)
    parts = parse_search(name, DEFAULT_SIMULATIONS)
    if parts is None:
        raise InputError(f"--player {name[:40]!r}: expected mcts or ismcts")
    rollout = parts.rollout or spec_.rollout
    own = spec_.game().players
    if rollout not in own or rollout.split(":")[0] in ("mcts", "ismcts"):
        raise InputError(f"--player {name[:40]!r}: rollout bot {rollout[:20]!r}: expected one of "
                         f"{', '.join(n for n in own if n not in ('mcts', 'ismcts'))}")
    return SearchPlayer(spec_, name, parts.kind, parts.simulations, parts.seconds, rollout, seed, seat)
