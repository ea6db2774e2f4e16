"""The one way to build a game state (scenarios.engine.frozen), and the habits it stands
for, checked over the engines' source: no writes into an instance's __dict__, no
``global``, no unbounded module-level caches."""
import ast
import dataclasses
import pathlib
import pickle
import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from furball.scenarios.engine.frozen import (
    Draft,
    FrozenState,
    FrozenValue,
    derived_names,
    field_names,
    fields_of,
    step_rng,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINES = ("canuck", "yorktown", "white_christmas", "dogfight", "engine")


@dataclass(frozen=True, init=False)
class Toy(FrozenState):
    pile: tuple[int, ...]
    score: int
    note: str = "none"

    @cached_property
    def total(self) -> int:
        return sum(self.pile) + self.score


class ToyDraft(Draft):
    LISTS = ("pile",)


@dataclass(frozen=True, init=False)
class Chip(FrozenValue):
    colour: str
    size: int = 1

    @cached_property
    def area(self) -> int:
        return self.size * self.size


def toy(**kw) -> Toy:
    return Toy(**{"seed": 7, "step": 1, "pile": (3, 1, 2), "score": 0, **kw})


def test_a_state_is_built_by_name_with_every_field_and_refuses_mistakes():
    s = toy()
    assert s.note == "none" and s.log_entries == () and s.logging is True
    with pytest.raises(TypeError, match="missing fields \\['score'\\]"):
        Toy(seed=1, step=1, pile=())
    with pytest.raises(TypeError, match="unknown fields \\['colour'\\]"):
        toy(colour="red")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.score = 3


def test_evolve_carries_every_field_and_no_derived_answer():
    s = toy(note="kept")
    assert s.total == 6 and "total" in vars(s)
    t = s.replace(score=10)
    assert (t.seed, t.step, t.pile, t.note, t.score) == (7, 1, (3, 1, 2), "kept", 10)
    assert "total" not in vars(t) and t.total == 16
    with pytest.raises(TypeError, match="unknown fields"):
        s.replace(colour="red")
    assert field_names(Toy) == {"seed", "step", "pile", "score", "note", "log_entries", "logging"}
    assert "total" in derived_names(Toy) and "events" in derived_names(Toy)


def test_states_compare_hash_and_pickle_by_their_fields():
    s, t = toy(), toy()
    assert s == t and hash(s) == hash(t) and s != toy(score=1)
    assert s.replace(log_entries=(("x", ()),)) == s  # the log is not part of the position
    assert s.total == 6  # computed and kept by s; a derived answer is not pickled
    back = pickle.loads(pickle.dumps(s))
    assert back == s and "total" not in vars(back)


def test_a_small_value_is_built_by_name_and_evolves_like_a_state():
    c = Chip(colour="red")
    assert (c.colour, c.size, c.area) == ("red", 1, 1) and "area" in vars(c)
    d = c.replace(size=3)
    assert (d.colour, d.size, d.area) == ("red", 3, 9) and c.size == 1
    assert fields_of(c) == {"colour": "red", "size": 1}            # derived answers left out
    assert c == Chip(colour="red", size=1) and hash(c) == hash(Chip(colour="red")) and c != d
    assert pickle.loads(pickle.dumps(d)) == d
    with pytest.raises(TypeError, match="missing fields \\['colour'\\]"):
        Chip(size=2)
    with pytest.raises(TypeError, match="unknown fields \\['shape'\\]"):
        c.replace(shape="round")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.size = 2


def test_a_draft_reads_through_copies_lists_and_freezes_one_step_later():
    s = toy()
    d = ToyDraft(s)
    d.pile.append(9)
    d.score += 5
    d.log("scored {}", 5)
    assert s.pile == (3, 1, 2) and s.score == 0  # the state is untouched
    t = d.freeze()
    assert (t.step, t.pile, t.score, t.note) == (2, (3, 1, 2, 9), 5, "none")
    assert t.events == ("scored 5",)
    quiet = ToyDraft(s.without_log())
    quiet.log("never {}", 1)
    assert quiet.freeze().events == ()


def test_a_draft_attribute_that_is_no_field_is_refused_at_freeze():
    d = ToyDraft(toy())
    d.colour = "red"
    with pytest.raises(TypeError, match="colour"):
        d.freeze()


@given(st.integers(0, 2**63 - 1), st.integers(0, 10**6))
def test_step_rng_is_numpys_generator_keyed_by_seed_and_step(seed, step):
    assert step_rng(seed, step).integers(1000, size=8).tolist() == \
        np.random.default_rng([seed, step]).integers(1000, size=8).tolist()


def test_the_draft_draws_from_the_step_generator():
    d = ToyDraft(toy(step=4))
    expected = np.random.default_rng([7, 4])
    assert [d.pick(10) for _ in range(5)] == [int(expected.integers(10)) for _ in range(5)]


# -- the habits, over the engines' source ---------------------------------------------
def _sources(engine: str):
    return sorted((ROOT / "scenarios" / engine).rglob("*.py"))


def _dict_writes(path: pathlib.Path) -> list[str]:
    """Writes into an instance's ``__dict__`` (``x.__dict__[k] = v``, ``.update``,
    ``vars(x).update`` ...), ``__dict__`` set wholesale, ``object.__setattr__`` outside a
    ``__post_init__`` (where a frozen dataclass normalises its own fields), and
    ``global`` statements."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    post_init = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "__post_init__"
                 for n in ast.walk(f)}

    def is_dict(node) -> bool:
        return ((isinstance(node, ast.Attribute) and node.attr == "__dict__")
                or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars"))

    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Global):
            text = "global " + ", ".join(node.names)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) and is_dict(node.value):
            text = ast.unparse(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("update", "setdefault", "pop", "clear", "popitem") and is_dict(node.func.value) or ast.unparse(node.func) == "object.__setattr__" and id(node) not in post_init:
                text = ast.unparse(node)
        if isinstance(node, ast.Call) and any(isinstance(a, ast.Constant) and a.value == "__dict__"
                                              for a in node.args):
            text = ast.unparse(node)
        if text:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:80]}")
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_no_engine_writes_into_an_instance_dict_or_uses_global(engine):
    assert [hit for path in _sources(engine) for hit in _dict_writes(path)] == []


def _unbounded_caches(path: pathlib.Path) -> list[str]:
    """Module-level caches that can grow without bound: ``lru_cache(maxsize=None)``,
    ``functools.cache``, and module-level dicts filled from functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        for deco in getattr(node, "decorator_list", []):
            text = ast.unparse(deco)
            if text in ("cache", "functools.cache") or re.search(r"lru_cache\((maxsize\s*=\s*)?None", text):
                out.append(f"{path.name}:{node.lineno}: @{text}")
    module_dicts = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    if isinstance(t, ast.Name) and isinstance(node.value, ast.Dict) and not node.value.keys}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for sub in ast.walk(node):
                if (isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Store)
                        and isinstance(sub.value, ast.Name) and sub.value.id in module_dicts):
                    out.append(f"{path.name}:{sub.lineno}: {sub.value.id}[...] = ...")
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_no_engine_keeps_an_unbounded_module_level_cache(engine):
    assert [hit for path in _sources(engine) for hit in _unbounded_caches(path)] == []


@pytest.mark.parametrize("engine", ["canuck", "yorktown", "white_christmas", "dogfight"])
def test_every_card_game_state_is_built_the_one_way(engine):
    import importlib

    state = importlib.import_module(f"furball.scenarios.{engine}.state").State
    assert issubclass(state, FrozenState) and state.__init__ is FrozenState.__init__
