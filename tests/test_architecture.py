"""The shape of the code and the docs (issue #9): layers, no import cycles, public
names exported, every doc link inside the repository."""
import ast
import importlib
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("geometry", "maneuvers", "scenarios", "viz", "capture")
ENGINES = ("scenarios.dogfight", "scenarios.canuck", "scenarios.yorktown", "scenarios.white_christmas",
           "scenarios.engine")
LAYER = {"geometry": 0, "maneuvers": 1, "engines": 2, "viz": 3, "capture": 3, "cli": 4}


def _modules():
    mods = {}
    for pkg in PACKAGES:
        for f in (ROOT / pkg).rglob("*.py"):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = f
    return mods


def _imports(mod: str, path: pathlib.Path, known) -> set[str]:
    """Every module ``mod`` imports, function-level imports included (``TYPE_CHECKING``
    blocks left out: they never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for sub in node.body for n in ast.walk(sub)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            base = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
            if node.level > 1:
                base = base[:len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else [])) if node.level else (node.module or "")
            names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]
        for name in names:
            if name.startswith("furball."):  # installed under one name, folders at the root
                name = name[len("furball."):]
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != mod and not mod.startswith(name + "."):
                out.add(name)
    return out


def _layer(mod: str) -> int:
    top = mod.split(".")[0]
    if top in ("geometry", "maneuvers", "viz", "capture"):
        return LAYER[top]
    if any(mod == e or mod.startswith(e + ".") for e in ENGINES):
        return LAYER["engines"]
    return LAYER["cli"]  # scenarios.cli and the scenarios package itself


GRAPH = {m: _imports(m, f, _modules()) for m, f in _modules().items()}


def test_code_imports_its_own_packages_only_under_the_furball_name():
    """Installed, the folders are ``furball.geometry`` ...: a bare ``import geometry``
    would work in the repository and fail on a user's machine."""
    bare = re.compile(r"^\s*(from|import) (geometry|maneuvers|scenarios|viz|capture)\b", re.M)
    files = [f for pkg in (*PACKAGES, "tests", "benchmarks", "tools", "furball") for f in (ROOT / pkg).rglob("*.py")]
    assert [str(f.relative_to(ROOT)) for f in files if bare.search(f.read_text(encoding="utf-8"))] == []


def test_every_folder_with_an_init_is_an_installed_package():
    """pyproject.toml lists the packages by hand (the folders map to ``furball.*``)."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"furball"} | {"furball." + ".".join(f.parent.relative_to(ROOT).parts)
                           for pkg in PACKAGES for f in (ROOT / pkg).rglob("__init__.py")}
    assert listed == found


def test_layers_only_import_downwards():
    """CLI -> viz/capture -> game engines -> maneuvers -> geometry; never upwards."""
    upward = [(m, t) for m, targets in GRAPH.items() for t in targets
              if _layer(t) > _layer(m) and not (m == "scenarios" or t == "scenarios")]
    assert upward == []


def test_no_import_cycles_even_through_function_level_imports():
    index, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            strong(v)
    assert cycles == []


@pytest.mark.parametrize("package", ["geometry", "maneuvers", "scenarios.dogfight", "scenarios.canuck",
                                     "scenarios.yorktown", "scenarios.white_christmas", "scenarios.engine"])
def test_public_names_are_exported_and_exist(package):
    module = importlib.import_module(f"furball.{package}")
    assert module.__all__ and all(hasattr(module, name) for name in module.__all__)


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_doc_link_resolves_inside_the_repository():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for doc in docs:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text, f"{doc.name} sends the reader outside the repository"
        for target in LINK.findall(text):
            if target.startswith(("http://", "https://", "#", "mailto:")):
                broken.append((doc.name, target))  # docs stand alone: no external links
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            if not path.exists() or ROOT not in path.parents and path != ROOT:
                broken.append((doc.name, target))
    assert broken == []


# -- issue 37.1: each dogfight rule computed in one home ------------------------------------------
RULE_HOME = "maneuvers/batch.py"
"""The one home of the dogfight's rule predicates (:mod:`maneuvers.batch`)."""

PREDICATES = {
    # rule: (its functions in the home, the characteristic computations no other module may make)
    "DF.O1 overlap": (("bases_overlap", "overlaps"),
                      {"calls": {"overlap_depth", "rectangles_overlap"}, "methods": {"overlaps"}}),
    "DF.T1 (a)-(c), DF.T5 tail ruler": (("ruler_test", "RulerTest", "may_tail", "tails_rows"),
                                         {"calls": {"ruler_edges", "exit_edge", "entry_edge"}}),
    "DF.T1 (d), DF.O3 blocked ruler or line of fire": (("lines_blocked", "tail_blockers", "fire_blockers"),
                                                       {"calls": {"segment_enters", "enters_interior"}}),
    "DF.T3, DF.T6, DF.T7 who may tail": (("tail_fixed",), {"compared": {"MULTI"}}),
    "DF.O2 may fire (sides, status, altitude, apart)": (("fire_fixed", "may_fire", "shot_codes_rows"),
                                                        {"compared": {"fire_altitude_difference"}}),
}
"""Every DF rule predicate, its functions in :data:`RULE_HOME`, and what computing it
looks like: a call of the geometry that decides it (a kernel or a scalar predicate of
:mod:`geometry`), a ``.overlaps(...)`` method call, or a comparison reading a name
(``Engines.MULTI``, ``rules.fire_altitude_difference``)."""

GRID_FORMS = {
    "maneuvers/kernels.py": "the firing positions of one plane's poses on another's (plan analysis): "
                            "segments_blocked and overlap_grid on pose grids",
}
"""Modules allowed a rule's kernel form on pose grids (named calls above are not used
there: the grid kernels have their own names). The compiled loops of the plan analysis
(``scenarios/dogfight/_analysis_compiled.apply_rules``) apply DF.O2 to its pose grids
with the number the analysis passes them; tests/test_analyze.py checks their answers
against the referee's."""

NOT_RULES = {
    ("DF.T3, DF.T6, DF.T7 who may tail", "scenarios/web/views/dogfight.py"):
        "the drawing: a multi-engine plane is drawn as a bomber",
}
"""Modules reading a rule's inputs for something other than the rule, and what for."""

RULE_SCOPE = ("maneuvers", "scenarios/dogfight", "scenarios/web", "scenarios/rl", "viz")
"""Where the dogfight's rules are used: every module there is checked (``geometry`` is
the layer below, whose primitives the home calls)."""


def _computations(path: pathlib.Path, look: dict) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in look.get("calls", ()) or (isinstance(f, ast.Attribute) and name in look.get("methods", ())):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:70]}")
        elif isinstance(node, ast.Compare):
            names = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
            if names & look.get("compared", set()):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:70]}")
    return found


@pytest.mark.parametrize("rule", sorted(PREDICATES))
def test_DF_every_rule_predicate_is_computed_in_its_one_home_only(rule):
    """Issue 37.1: each rule predicate (overlap DF.O1, the tail DF.T1/T3/T5-T7, blocking
    DF.T1d/DF.O3, may fire DF.O2) is computed in maneuvers/batch.py alone; the scalar
    API, the turn, the analysis, the zones and the margins call it there."""
    names, look = PREDICATES[rule]
    home = importlib.import_module("furball.maneuvers.batch")
    assert all(hasattr(home, n) for n in names), rule
    assert _computations(ROOT / RULE_HOME, look), f"{rule}: {RULE_HOME} no longer computes it"
    elsewhere = [hit for scope in RULE_SCOPE for path in sorted((ROOT / scope).rglob("*.py"))
                 if path.relative_to(ROOT).as_posix() not in (RULE_HOME, *GRID_FORMS)
                 and (rule, path.relative_to(ROOT).as_posix()) not in NOT_RULES
                 for hit in _computations(path, look)]
    assert elsewhere == [], f"{rule} computed outside {RULE_HOME}"


def test_DF_no_module_imports_the_rule_homes_private_helpers():
    """The rules' home is used through its public functions only."""
    hits = []
    for scope in (*RULE_SCOPE, "tests", "benchmarks"):
        for path in sorted((ROOT / scope).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.ImportFrom) and (node.module or "").endswith("batch")
                        and any(a.name.startswith("_") for a in node.names)):
                    hits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hits == []
