"""The dogfight, as Python values: build a table, give orders, adjudicate a turn::

    from furball.scenarios.dogfight import Table, PlaneState, Orders, adjudicate
    table = Table(width_mm=900, height_mm=900, planes=[
        PlaneState("Camel", side="Allies", deck="A", base=None, pose=(250, 420, 0), altitude=2),
        PlaneState("Albatros", side="Central Powers", deck="A", base=None, pose=(400, 440, 10), altitude=2),
    ])
    result = adjudicate(table, {"Camel": ["A1", "A3", "A4"], "Albatros": ["A4", "A6", "A14"]}, seed=1)
    result.after          # the next Table; result.maneuvers, result.shots, result.events ...

``analyze(table, "Camel")`` ranks every legal plan of a plane against every plan of
its enemies (:mod:`.analysis`, docs/analyze.md). Scenario files only convert to and from these values (:mod:`.scenario`); the JSON
report is :func:`turn_json`. Rules: DF.* (docs/rules/dogfight.md); every decision where
they are silent: docs/dogfight.md.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from furball._lazy import attach

if TYPE_CHECKING:
    from furball.maneuvers.plane import Engines, PlaneKind, PlaneState, PlaneStatus, Rules, default_rules

    from .analysis import PlanReport, ScoreWeights, analyze, best_plan, load_enemy_weights
    from .policy import ReorderPolicy
    from .report import plane_json, turn_json, turn_text
    from .scenario import Scenario, load_scenario, parse_scenario, scenario_toml
    from .table import MAX_PLANES, MIN_TABLE_MM, Orders, Table
    from .turn import Maneuver, Move, Reveal, TurnResult, adjudicate

__all__ = ["Engines", "PlaneKind", "PlaneState", "PlaneStatus", "Rules", "default_rules", "ReorderPolicy",
           "plane_json", "turn_json", "turn_text", "Scenario", "load_scenario", "parse_scenario", "scenario_toml",
           "MAX_PLANES", "MIN_TABLE_MM", "Orders", "Table", "Maneuver", "Move", "Reveal", "TurnResult",
           "adjudicate", "PlanReport", "ScoreWeights", "analyze", "best_plan", "load_enemy_weights"]

_EXPORTS = {
    'Engines': 'furball.maneuvers.plane',
    'PlaneKind': 'furball.maneuvers.plane',
    'PlaneState': 'furball.maneuvers.plane',
    'PlaneStatus': 'furball.maneuvers.plane',
    'Rules': 'furball.maneuvers.plane',
    'default_rules': 'furball.maneuvers.plane',
    'PlanReport': '.analysis',
    'ScoreWeights': '.analysis',
    'analyze': '.analysis',
    'best_plan': '.analysis',
    'load_enemy_weights': '.analysis',
    'ReorderPolicy': '.policy',
    'plane_json': '.report',
    'turn_json': '.report',
    'turn_text': '.report',
    'Scenario': '.scenario',
    'load_scenario': '.scenario',
    'parse_scenario': '.scenario',
    'scenario_toml': '.scenario',
    'MAX_PLANES': '.table',
    'MIN_TABLE_MM': '.table',
    'Orders': '.table',
    'Table': '.table',
    'Maneuver': '.turn',
    'Move': '.turn',
    'Reveal': '.turn',
    'TurnResult': '.turn',
    'adjudicate': '.turn',
}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
