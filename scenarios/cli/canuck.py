"""`furball play canuck`: one game with its log, many games with statistics, or a game
played by a person in the terminal.

    furball play canuck --seed 7                       # one game, readable log
    furball play canuck --seed 7 --json                # the same as JSON
    furball play canuck --games 1000 --player random   # bands, mean VP (95% CI), length
    furball play canuck --interactive [--seed 7]       # you are the Partisan
    furball play canuck --map my_map.toml ...          # your own map (same format)

Bad input is one line on stderr and exit status 2 (raised as ``InputError``).
"""
from __future__ import annotations

import json
import sys
from typing import TextIO

from geometry.errors import InputError

from scenarios.canuck.board import CanuckMap, default_map, load_map
from scenarios.canuck.cards import labels
from scenarios.canuck.game import play_game, play_many
from scenarios.canuck.players import PLAYERS
from scenarios.canuck.state import END_REASONS, OP_NAMES, State, new_game

__all__ = ["add_arguments", "run", "interactive", "render"]


def add_arguments(p) -> None:
    p.add_argument("--seed", type=int, default=None, help="random seed (default 0); with --games, "
                   "game i uses seed SEED+i")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="play N games and print the result table")
    p.add_argument("--player", default=None, help="who plays: heuristic (default) or random")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--interactive", action="store_true", help="play the Partisan yourself in the terminal")
    p.add_argument("--map", metavar="FILE", default=None, help="a Canuck map file (TOML); default: the "
                   "shipped reconstruction")


def _check(args) -> tuple[int, str, CanuckMap]:
    seed = 0 if args.seed is None else args.seed
    if seed < 0:
        raise InputError(f"--seed {seed}: expected an integer >= 0")
    if args.games is not None and args.games < 1:
        raise InputError(f"--games {args.games}: expected an integer >= 1")
    player = args.player or "heuristic"
    if player not in PLAYERS:
        raise InputError(f"--player {player!r}: expected one of {', '.join(PLAYERS)}")
    if args.interactive and (args.games is not None or args.json or args.player is not None):
        raise InputError("--interactive: cannot be combined with --games, --json or --player")
    board = load_map(args.map) if args.map else default_map()
    return seed, player, board


def run(args, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the command from parsed ``args``. Raises :class:`InputError` on bad input."""
    seed, player, board = _check(args)
    out = stdout or sys.stdout
    if args.interactive:
        return interactive(seed, board, stdin or sys.stdin, out)
    if args.games is None:
        record = play_game(seed, player, board)
        if args.json:
            print(json.dumps(record.to_json(), indent=1, ensure_ascii=False), file=out)
        else:
            print("\n".join(record.log_lines()), file=out)
        return 0
    from tqdm import tqdm

    def progress(seeds):
        return tqdm(seeds, desc=f"canuck {player}", unit="game", file=sys.stderr, mininterval=0.5,
                    leave=False)

    summary = play_many(args.games, seed, player, board, progress)
    if args.json:
        print(json.dumps(summary.to_json(), indent=1), file=out)
    else:
        print(summary.table(), file=out)
    return 0


def render(s: State) -> str:
    """The map, the Reserve, the piles and the score, as text."""
    board = s.board
    width = max(len(a) for a in board.areas)
    lines = [f"{'area':<{width}}  {'boxes':<9} {'garrison':>8}  {'L':>2} {'G':>2} {'B':>2}  adjacent"]
    for i, name in enumerate(board.areas):
        gar = str(s.garrison[i]) if s.garrison[i] else ("-" if i in board.gar else "")
        near = ", ".join(board.areas[j] for j in board.near[i])
        lines.append(f"{name:<{width}}  {board.boxes(i):<9} {gar:>8}  {s.leaders[i]:>2} {s.groups[i]:>2} "
                     f"{s.bases[i]:>2}  {near}")
    score = s.score()
    lines.append(f"Reserve: {labels(s.reserve)}")
    lines.append(f"draw deck {len(s.deck)} | Partisan discard {len(s.partisan_discard)} | Axis deck "
                 f"{len(s.axis_deck)} | Axis discard {len(s.axis_discard)} | removed {len(s.removed)}")
    lines.append(f"unused Groups {s.unused_groups}, unused Bases {s.unused_bases}, Leaders lost {s.lost_leaders} | "
                 f"red face cards {s.red_faces}/6 | VP {s.vp} (+Alba {score.alba} now) | "
                 f"Alba liberated once: {'yes' if s.alba_liberated_once else 'no'}")
    p = s.pending
    if p is not None:
        if p.kind in ("participants", "cards"):
            if p.area >= 0:
                lines.append(f"declaring {OP_NAMES[p.op]} against {board.areas[p.area]}: "
                             f"{p.groups}G {p.leaders}L, cards {labels(p.cards)}")
            else:
                lines.append(f"declaring {OP_NAMES[p.op]}: cards {labels(p.cards)}")
        elif p.kind == "sweep":
            lines.append(f"Axis Sweep by the garrison in {board.areas[p.garrison]} against "
                         f"{board.areas[p.area]}: choose Reserve cards (chosen: {labels(p.cards)})")
        else:
            lines.append({"train": f"Train succeeded: place up to {p.left} more Group(s)",
                          "move": "Move succeeded: move Groups and Leaders",
                          "base": "Build Base succeeded: choose a BASE box"}[p.kind])
    return "\n".join(lines)


def interactive(seed: int, board: CanuckMap, stdin: TextIO, out: TextIO) -> int:
    """Play in the terminal: show the state and numbered legal options, read a number
    from ``stdin``; ``q``/``quit`` or end of input stops cleanly (exit status 0)."""
    state = new_game(seed, board)
    print("\n".join(state.events), file=out)
    while not state.over:
        print("", file=out)
        print(render(state), file=out)
        actions = state.legal_actions()
        for i, a in enumerate(actions, 1):
            print(f"  {i:>3}. {state.describe(a)}", file=out)
        while True:
            print(f"choose 1-{len(actions)} (q to quit): ", end="", file=out, flush=True)
            line = stdin.readline()
            if not line:
                print("\nend of input: game left unfinished", file=out)
                return 0
            text = line.strip().lower()
            if text in ("q", "quit", "exit"):
                print("\ngame left unfinished", file=out)
                return 0
            if text.isdigit() and 1 <= int(text) <= len(actions):
                break
            print(f"please type a number from 1 to {len(actions)}, or q", file=out)
        action = actions[int(text) - 1]
        said = state.describe(action)
        state = state.apply(action)
        print(f"\n> {said}", file=out)
        print("\n".join(state.events), file=out)
    score = state.score()
    print(f"game over after {state.options} options: {END_REASONS.get(score.reason, score.reason)}", file=out)
    print(f"VP: operations {score.operations} + Alba {score.alba} = {score.total}: {score.band.upper()}", file=out)
    return 0

