"""Every furball engine as a PettingZoo AEC environment, written once over the engine
protocol::

    from furball.scenarios.rl.pettingzoo import env
    e = env("white_christmas", players=3)
    e.reset(seed=7)                               # the game of `furball play ... --seed 7`
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* **Agents** ``player_0`` .. ``player_{n-1}``, one per seat; the agent to act is the
  engine's ``current_player()`` (turns need not alternate).
* **Actions**: ``Discrete(num_actions)``, the game's canonical action ids
  (:class:`~.spec.ActionCodec`, described in each game's module: :mod:`.canuck`,
  :mod:`.dogfight` ...).
* **Observations**: ``{"observation": float32 array of shape (size,), "action_mask":
  int8 array of shape (num_actions,)}``; the array is the game's encoder
  (:class:`~.spec.Encoder`; every piece's shape and meaning in the game's module and in
  :meth:`FurballEnv.observation_pieces`), made from what that seat may see only; the
  mask marks the legal ids of the seat to act (all 0 for the others).
* **Rewards**: 0 until the game is over, then each seat's engine return; every agent
  is terminated at the end (no truncation: every game ends).
* **Seeds**: ``reset(seed=S)`` plays the engine's game of seed ``S``; ``reset()`` without
  a seed draws one from the environment's generator (seeded by the last seed given).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from furball.errors import InputError
from furball.extras import require

from .spec import EngineSpec, spec

require("rl", "the PettingZoo environments", "pettingzoo")
import gymnasium  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

__all__ = ["FurballEnv", "env"]


class FurballEnv(AECEnv):
    """A furball game as an AEC environment (module docstring). ``game``: a short name
    (``furball_canuck``) or the engine's (``canuck``); ``params``: the game's OpenSpiel
    parameters (the OpenSpiel game's docs). Raises :class:`~furball.errors.InputError`."""

    metadata = {"name": "furball_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **params: Any):
        super().__init__()
        self.spec: EngineSpec = spec(game)
        own = self.spec.params(params)
        self.options = self.spec.options(own)
        probe = self.spec.game().new_game(0, **self.options)
        if probe.is_terminal():
            raise InputError(f"{self.spec.short_name}: this game is over before anyone decides (check its options)")
        self.codec = self.spec.codec(own, probe)
        self.encoder = self.spec.encoder(own, probe)
        seats = len(probe.returns())
        self.metadata = {**self.metadata, "name": f"{self.spec.short_name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        obs = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, self.encoder.high, (self.encoder.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.size,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self.state = None
        self._rng = np.random.default_rng()

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def observation_pieces(self) -> list[tuple[str, tuple[int, ...], float, str]]:
        """``(name, shape, high, meaning)`` of each part of the observation array."""
        return self.encoder.describe()

    # -- the game -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: of ``seed`` (the engine's seed), else of a seed drawn from the
        environment's generator. ``options`` is not used (the game's are set when the
        environment is made)."""
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
            game_seed = int(seed)
        else:
            game_seed = int(self._rng.integers(2**63))
        self.state = self.spec.game().new_game(game_seed, **self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.state.current_player()
        if seat is None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.codec.size, np.int8)
        if self.state.current_player() == seat:
            mask[[self.codec.encode(self.state, a) for a in self.state.legal_actions()]] = 1
        return {"observation": self.encoder.encode(self.state, seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.state
        self.state = state.apply(self.codec.decode(state, int(action)))
        self._clear_rewards()
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = float(r)
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The seat to act's view as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        seat = self.state.current_player()
        return self.state.observation_string(0 if seat is None else seat)

    def close(self) -> None:
        self.state = None


def env(game: str, render_mode: str | None = None, **params: Any) -> FurballEnv:
    """The AEC environment of a furball game (:class:`FurballEnv`)."""
    return FurballEnv(game, render_mode=render_mode, **params)
