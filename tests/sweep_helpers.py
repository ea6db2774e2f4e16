"""A slow Operation Canuck for the sweep tests (not a test module): the random player,
waiting a little before each decision, so that a sweep lasts long enough to be
interrupted or to lose a worker while it runs. Its games are the random player's games."""
import time
from dataclasses import replace

from furball.scenarios.canuck import CANUCK, RandomPlayer

DELAY_S = 0.002


class SlowRandomPlayer(RandomPlayer):
    name = "slow"

    def choose(self, state):
        time.sleep(DELAY_S)
        return super().choose(state)


def slow_player(seed: int, seat: int) -> SlowRandomPlayer:
    return SlowRandomPlayer(seed)


SLOW_CANUCK = replace(CANUCK, players={"slow": slow_player, "random": CANUCK.players["random"]})
