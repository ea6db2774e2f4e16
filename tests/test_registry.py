"""The registry of games (issue 37.2): every entry loads — its engine, CLI, room view and
RL modules, and the game's facts on its descriptor — and no other module (Python or the
pages' JavaScript) holds a list of the games."""
import ast
import pathlib
import re

import pytest

from furball.scenarios.engine import Game, GameInfo, Information, Utility, registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
NAMES = registry.names()
GAMES_JS = ROOT / "scenarios" / "web" / "static" / "js" / "rooms" / "games"


@pytest.mark.parametrize("entry", registry.GAMES, ids=NAMES)
def test_every_entry_loads_with_the_facts_on_its_descriptor(entry):
    game = registry.load_game(entry.name)
    assert isinstance(game, Game) and game.name == entry.name and game.title == entry.title
    assert registry.entry(entry.short_name) is entry and entry.available
    assert entry.cli_module().GAME is game
    room = entry.room_module()
    settable = {o.name for o in game.options} | {o.name for o in getattr(room, "ROOM_OWN", ())}
    assert callable(room.view) and set(room.ROOM_OPTIONS) <= settable
    assert room.PAGE is None or (GAMES_JS / f"{room.PAGE}.js").is_file()
    spec = entry.rl_module().SPEC
    assert spec.short_name == entry.short_name and spec.game() is game
    first = game.new_game(0, **spec.options(spec.params()))
    info = game.game_info(first)
    assert isinstance(info, GameInfo) and isinstance(info.utility, Utility) and info.max_length >= 1
    assert info.min_utility <= min(first.returns()) <= max(first.returns()) <= info.max_utility
    assert isinstance(game.information, Information)
    assert game.min_players <= len(first.returns()) <= game.max_players


def test_an_unknown_game_is_one_line_listing_the_games():
    from furball.errors import InputError

    with pytest.raises(InputError, match="game 'chess': expected one of white-christmas, yorktown, canuck, dogfight"):
        registry.load_game("chess")


def _game_named(text: str) -> str | None:
    """The game a string names: a game's name, its package (``white_christmas``) or
    OpenSpiel short name, alone or as a part of a module path."""
    for part in re.split(r"[.:/]", text):
        name = part.removeprefix("furball_").replace("_", "-")
        if name in NAMES:
            return name
    return None


def _python_lists(path: pathlib.Path) -> list[str]:
    """The literal tuples, lists, sets and dicts of ``path`` naming two games or more."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            items = [*node.keys, *node.values] if isinstance(node, ast.Dict) else node.elts
            named = {_game_named(n.value) for n in items if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            if len(named - {None}) >= 2:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _js_lists(path: pathlib.Path) -> list[str]:
    """A script naming two games or more, as strings or object keys."""
    text = path.read_text(encoding="utf-8")
    words = "|".join(map(re.escape, NAMES))
    named = set(re.findall(rf"[\"'`]({words})[\"'`]", text)) | set(re.findall(rf"^\s*({words})\s*:", text, re.M))
    return [str(path.relative_to(ROOT))] if len(named) >= 2 else []


def test_no_module_but_the_registry_names_the_games():
    """Adding a game is one registry entry plus its own modules: a literal list of games
    anywhere else (the CLI's titles, the rooms' table, the adapters' modules, the pages'
    renderers) would be one more place to edit."""
    registry_file = ROOT / "scenarios" / "engine" / "registry.py"
    found = []
    for package in ("geometry", "maneuvers", "scenarios", "viz", "furball"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path != registry_file:
                found += _python_lists(path)
    for path in sorted((ROOT / "scenarios" / "web" / "static").rglob("*.js")):
        found += _js_lists(path)
    assert found == []


def test_the_check_finds_a_list_of_games(tmp_path):
    """The check above can fail: the tables it replaced are found."""
    table = tmp_path / "old.py"
    table.write_text('GAMES = {"canuck": "Operation Canuck", "white-christmas": "1975 White Christmas"}\n'
                     'MODULES = {"furball_canuck": ".canuck", "furball_yorktown": ".yorktown"}\n')
    script = tmp_path / "old.js"
    script.write_text('const RENDERERS = {\n  dogfight: () => 1,\n  "white-christmas": () => 2,\n};\n')
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert _python_lists(table) == ["old.py:1", "old.py:2"] and _js_lists(script) == ["old.js"]
    finally:
        ROOT = saved


@pytest.mark.parametrize("name", registry.names())
def test_is_simultaneous_agrees_with_isinstance_for_every_games_states(name):
    """``is_simultaneous`` answers once per class what ``isinstance`` against the runtime
    protocol answers each call (the rooms ask it per move and viewer), along a game."""
    from furball.scenarios.engine.protocol import SimultaneousState, is_simultaneous, seat_actions
    from furball.scenarios.web.rooms import Room, make_spec

    state = Room.new(make_spec({"game": name, "seed": 3})).state
    for _ in range(30):
        assert is_simultaneous(state) == isinstance(state, SimultaneousState)
        if state.is_terminal():
            break
        seat = state.current_player()
        state = state.apply(seat_actions(state, seat)[0])
    assert is_simultaneous(object()) is False
