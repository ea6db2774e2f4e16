"""The numbers of the game (``data/rules.toml``) and the time model (``data/time.toml``).

:class:`Rules` holds fuel costs, skill dice, landing / search / Shōhō patterns, bombs,
and the expansions' numbers (YT.K2, YT.S1–S2, YT.A1–A10, YT.X1,
YT.E1). :class:`TimeModel` is the pluggable clock (YT.S4, YT.E2): seconds per throw,
action, choice, coordination and Japanese phase, plus the timer minutes. Both loaders
reject unknown fields and report one located line.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, replace
from functools import lru_cache

from furball.errors import InputError
from furball.geometry.datafile import PROVENANCES, Table, load_toml
from furball.i18n import N_, msg

from .actions import Difficulty, Expansion, Weather
from .shipped import DATA, shipped

__all__ = ["Rules", "TimeModel", "load_rules", "parse_rules", "default_rules", "load_time", "parse_time",
           "default_time", "check_expansions", "RULES_PATH", "TIME_PATH"]

RULES_PATH, TIME_PATH = DATA / "rules.toml", DATA / "time.toml"
BIG = 1000
"""Largest count or cost accepted from a file (anything bigger is a typo)."""
MAX_MINUTES, MIN_TURN_SECONDS = 180, 5
"""A timer of more than 3 hours, or a Japanese phase under 5 seconds, is refused: the
game is played in 25-35 minutes, and every turn must take time so that games end fast."""


def _sources(top: Table) -> tuple[tuple[str, str], ...]:
    if "sources" not in top:
        return ()
    st = top.table("sources")
    return tuple((k, st.string(k, choices=PROVENANCES)) for k in st.keys())


def _ints(t: Table, key: str, minimum: int = 0) -> tuple[int, ...]:
    values = t.list(key)
    if not values or len(values) > BIG or not all(isinstance(v, int) and not isinstance(v, bool)
                                                  and minimum <= v <= BIG for v in values):
        raise t.error(key, msg("a non-empty list of integers {least}-{most}", least=minimum, most=BIG), values)
    return tuple(values)


@dataclass(frozen=True)
class Rules:
    """The rules' numbers (see ``data/rules.toml`` for which are official).

    Fuel: ``fuel_max``, ``fuel_on_red`` (set-up), the costs ``take_off_approach``,
    ``take_off_red``, ``move_adjacent``, ``move_double``, ``move_return``,
    ``action_die`` (Search/Attack), ``cannot_perform`` (YT.A10). Skill: ``skill_dice``
    (dice by points), ``flip_after``, ``hurt``, ``search_skill``. Landing:
    ``landing_auto_fuel``, ``landing_safe``, ``landing_unhurt`` (set sizes). Search:
    ``search_levels`` (levels by best set size), ``located`` (level that locates the
    Shōhō), ``search_bonus`` (dice by level), ``other_plane_dice``. Attack:
    ``same_location_dice``, ``cap_penalty``, ``bomb_penalty``. Shōhō: ``shoho_hits``
    (hits by set size), ``perfect``, ``shoho_skill_per_hit``, ``shoho_hits_to_sink``;
    ``yorktown_hits_to_sink``; ``bomb_tokens``; tank: ``tank_fuel``, ``tank_at_most``; weather:
    ``weather_tiles`` ((tile, count) pairs), ``weather_placed``, ``weather_flip``.
    """

    fuel_max: int
    fuel_on_red: int
    take_off_approach: int
    take_off_red: int
    move_adjacent: int
    move_double: int
    move_return: int
    action_die: int
    cannot_perform: int
    skill_dice: tuple[int, ...]
    flip_after: int
    hurt: int
    search_skill: int
    landing_auto_fuel: int
    landing_safe: int
    landing_unhurt: int
    search_levels: tuple[int, ...]
    located: int
    search_bonus: tuple[int, ...]
    other_plane_dice: int
    same_location_dice: int
    cap_penalty: int
    bomb_penalty: int
    shoho_hits: tuple[int, ...]
    perfect: int
    shoho_skill_per_hit: int
    shoho_hits_to_sink: int
    yorktown_hits_to_sink: int
    bomb_tokens: int
    tank_fuel: int
    tank_at_most: int
    weather_tiles: tuple[tuple[Weather, int], ...]
    weather_placed: int
    weather_flip: int
    provenance: str = "reconstruction"
    notes: str = ""
    sources: tuple[tuple[str, str], ...] = ()

    @property
    def max_points(self) -> int:
        """The most skill points the card counts (YT.X1)."""
        return len(self.skill_dice) - 1

    def dice_for(self, points: int) -> int:
        """Skill dice at ``points`` (YT.X1)."""
        return self.skill_dice[min(max(points, 0), self.max_points)]

    def levels(self, best: int) -> int:
        """Search levels gained by a best set of ``best`` equal results (YT.A1)."""
        return self.search_levels[min(best, len(self.search_levels) - 1)]

    def hits(self, size: int) -> int:
        """Hits on the Shōhō from a set of ``size`` equal results (YT.A7)."""
        return self.shoho_hits[min(size, len(self.shoho_hits) - 1)]


def parse_rules(data: dict, source: str) -> Rules:
    """Check parsed ``rules.toml`` data. Raises :class:`InputError` (one located line)."""
    top = Table(data, source).only(("provenance", "notes", "sources", "fuel", "skill", "landing", "search",
                                    "attack", "shoho", "yorktown", "bombs", "tank", "weather"))

    def section(name, fields):
        return top.table(name).only(fields)

    fuel = section("fuel", ("max", "start_on_red_island", "take_off_to_approach", "take_off_to_red",
                            "move_adjacent", "move_double", "move_return", "action_die", "cannot_perform"))
    fmax = fuel.integer("max", minimum=1, maximum=BIG)

    def cost(key):
        return fuel.integer(key, minimum=0, maximum=fmax)

    skill = section("skill", ("dice", "flip_after", "hurt", "search_success"))
    landing = section("landing", ("automatic_fuel", "safe", "unhurt"))
    search = section("search", ("levels", "located", "bonus", "other_plane_dice"))
    attack = section("attack", ("same_location_dice", "cap_penalty", "bomb_penalty"))
    shoho = section("shoho", ("hits", "perfect", "skill_per_hit", "hits_to_sink"))
    york = section("yorktown", ("hits_to_sink",))
    bombs = section("bombs", ("tokens",))
    tank = section("tank", ("fuel", "at_most"))
    weather = section("weather", tuple(w.name.lower() for w in Weather) + ("placed", "flip"))
    tiles = tuple((w, weather.integer(w.name.lower(), minimum=0, maximum=BIG)) for w in Weather)
    placed = weather.integer("placed", minimum=0, maximum=BIG)
    if placed > sum(n for _, n in tiles):
        raise weather.error("placed", msg("at most the {count} tiles", count=sum(n for _, n in tiles)), placed)
    bonus = _ints(search, "bonus")
    if len(bonus) != 8:
        raise search.error("bonus", N_("8 integers, one per search level 0-7"), list(bonus))
    unhurt = landing.integer("unhurt", minimum=2, maximum=BIG)
    safe = landing.integer("safe", minimum=2, maximum=BIG)
    if unhurt >= safe:
        raise landing.error("unhurt", msg("fewer equal results than a safe landing ({safe})", safe=safe), unhurt)
    hits_to_sink = shoho.integer("hits_to_sink", minimum=1, maximum=BIG)
    return Rules(
        fuel_max=fmax, fuel_on_red=fuel.integer("start_on_red_island", minimum=0, maximum=fmax),
        take_off_approach=cost("take_off_to_approach"), take_off_red=cost("take_off_to_red"),
        move_adjacent=cost("move_adjacent"), move_double=cost("move_double"), move_return=cost("move_return"),
        action_die=cost("action_die"), cannot_perform=cost("cannot_perform"),
        skill_dice=_ints(skill, "dice"), flip_after=skill.integer("flip_after", minimum=0, maximum=BIG),
        hurt=skill.integer("hurt", minimum=0, maximum=BIG),
        search_skill=skill.integer("search_success", minimum=0, maximum=BIG),
        landing_auto_fuel=landing.integer("automatic_fuel", minimum=0, maximum=BIG), landing_safe=safe,
        landing_unhurt=unhurt, search_levels=_ints(search, "levels"),
        located=search.integer("located", minimum=0, maximum=7), search_bonus=bonus,
        other_plane_dice=search.integer("other_plane_dice", minimum=0, maximum=BIG),
        same_location_dice=attack.integer("same_location_dice", minimum=0, maximum=BIG),
        cap_penalty=attack.integer("cap_penalty", minimum=0, maximum=BIG),
        bomb_penalty=attack.integer("bomb_penalty", minimum=0, maximum=BIG),
        shoho_hits=_ints(shoho, "hits"), perfect=shoho.integer("perfect", minimum=2, maximum=BIG),
        shoho_skill_per_hit=shoho.integer("skill_per_hit", minimum=0, maximum=BIG), shoho_hits_to_sink=hits_to_sink,
        yorktown_hits_to_sink=york.integer("hits_to_sink", minimum=1, maximum=BIG),
        bomb_tokens=bombs.integer("tokens", minimum=0, maximum=BIG),
        tank_fuel=tank.integer("fuel", minimum=0, maximum=fmax), tank_at_most=tank.integer("at_most", minimum=0,
                                                                                        maximum=fmax),
        weather_tiles=tiles, weather_placed=placed, weather_flip=weather.integer("flip", minimum=2, maximum=BIG),
        provenance=top.provenance(), notes=top.string("notes", "", nonempty=False), sources=_sources(top),
    )


def load_rules(path: str | pathlib.Path) -> Rules:
    """Load and check a rules file. Raises :class:`InputError`."""
    return parse_rules(load_toml(path), str(path))


@lru_cache(maxsize=1)
def default_rules() -> Rules:
    """The shipped ``scenarios/yorktown/data/rules.toml``."""
    return shipped("rules.toml", parse_rules)


@dataclass(frozen=True)
class TimeModel:
    """The clock of a simulated game, in whole seconds (YT.S4, YT.E2).

    ``minutes``: timer minutes per :class:`Difficulty`; ``per_missing_player`` and
    ``per_novice``: minutes added; ``throw``, ``action``, ``choice``, ``coordination``,
    ``coordination_per_extra_player``, ``japanese_phase``, ``novice_extra``: seconds
    spent at the table (the defaults are the shipped ``data/time.toml``; each figure is
    derived in ``docs/yorktown.md``). Pluggable: pass another to ``new_game(time=...)``
    or give a file with ``--time``.
    """

    minutes: tuple[tuple[Difficulty, int], ...] = ((Difficulty.EASY, 35), (Difficulty.NORMAL, 30),
                                                   (Difficulty.HARD, 25))
    per_missing_player: int = 1
    per_novice: int = 2
    throw: int = 6
    action: int = 25
    choice: int = 5
    coordination: int = 120
    coordination_per_extra_player: int = 0
    japanese_phase: int = 45
    novice_extra: int = 10
    provenance: str = "reconstruction"
    notes: str = ""
    sources: tuple[tuple[str, str], ...] = ()

    def limit(self, difficulty: Difficulty | str, players: int, novices: int) -> int:
        """The timer in seconds: the difficulty's minutes, +``per_missing_player`` per
        player below 4, +``per_novice`` per novice (YT.S4)."""
        minutes = dict(self.minutes)[Difficulty(difficulty)]
        return 60 * (minutes + self.per_missing_player * max(0, 4 - players) + self.per_novice * novices)

    def choosing(self, seat: int, novice: bool) -> int:
        """Seconds one plane's disc adds to the clock (YT.R5): players put their discs
        down at the same time, so the table waits for seat 0, who flies the most planes
        (``choice`` per plane of seat 0, nothing for the others' planes); a novice's
        plane adds ``novice_extra`` whoever flies it."""
        return (self.choice if seat == 0 else 0) + (self.novice_extra if novice else 0)

    def talk(self, players: int) -> int:
        """Seconds of coordination before the crews choose (YT.R5)."""
        return self.coordination + self.coordination_per_extra_player * max(0, players - 1)

    def real_time(self) -> TimeModel:
        """The same timer (YT.S4: its minutes, the minutes added per missing player and
        per novice) with no simulated seconds at the table: for a game whose clock is read
        from a real one (:meth:`~.state.State.at_clock`, a game room), where the time
        people take is the time that passes."""
        return replace(self, throw=0, action=0, choice=0, coordination=0, coordination_per_extra_player=0,
                       japanese_phase=0, novice_extra=0,
                       notes=(self.notes + " " if self.notes else "") + "real time: no simulated seconds")


def parse_time(data: dict, source: str) -> TimeModel:
    """Check parsed ``time.toml`` data. Raises :class:`InputError` (one located line)."""
    top = Table(data, source).only(("provenance", "notes", "sources", "timer", "seconds"))
    timer = top.table("timer").only(tuple(d.value for d in Difficulty) + ("per_missing_player", "per_novice"))
    sec = top.table("seconds").only(("throw", "action", "choice", "coordination", "coordination_per_extra_player",
                                     "japanese_phase", "novice_extra"))
    minutes = tuple((d, timer.integer(d.value, minimum=1, maximum=MAX_MINUTES)) for d in Difficulty)
    s = {k: sec.integer(k, minimum=0, maximum=3600) for k in ("throw", "action", "choice", "coordination",
                                                               "coordination_per_extra_player", "novice_extra")}
    jp = sec.integer("japanese_phase", minimum=MIN_TURN_SECONDS, maximum=3600)  # every turn takes time: games end
    return TimeModel(minutes=minutes, per_missing_player=timer.integer("per_missing_player", minimum=0, maximum=60),
                     per_novice=timer.integer("per_novice", minimum=0, maximum=60), japanese_phase=jp, **s,
                     provenance=top.provenance(), notes=top.string("notes", "", nonempty=False),
                     sources=_sources(top))


def load_time(path: str | pathlib.Path) -> TimeModel:
    """Load and check a time-model file. Raises :class:`InputError`."""
    return parse_time(load_toml(path), str(path))


@lru_cache(maxsize=1)
def default_time() -> TimeModel:
    """The shipped ``scenarios/yorktown/data/time.toml``."""
    return shipped("time.toml", parse_time)


def check_expansions(text: str) -> frozenset:
    """``"expert,tank"`` -> the set of :class:`~.actions.Expansion` (``"none"`` or ``""``:
    none, e.g. as a sweep's grid value). Raises :class:`InputError` for an unknown name or
    an empty one between commas."""
    out: set[Expansion] = set()
    if not str(text).strip() or str(text).strip().lower() == "none":
        return frozenset()
    for word in (w.strip().lower() for w in str(text).split(",")):
        if not word:
            raise InputError(msg("--expansions {value}: expected names separated by single commas ({names})",
                                 value=repr(text[:40]), names=", ".join(Expansion)))
        if word not in tuple(Expansion):
            raise InputError(msg("--expansions {value}: expected a comma-separated list of {names} (or none), got "
                                 "{word}", value=repr(text[:40]), names=", ".join(Expansion), word=repr(word[:20])))
        out.add(Expansion(word))
    return frozenset(out)
