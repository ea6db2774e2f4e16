"""Maneuver cards as SE(2) transforms and the dogfight's rules, on plane bases.

Builds on :mod:`geometry`. Cards, decks and bases as data (DF.M1-DF.M4), placement,
paths, a plane's state, and the rules of one moment of a dogfight: tailing (DF.T),
firing (DF.O, DF.A2), collisions (DF.C), altitude and bombs (DF.H, DF.B), plan legality
(DF.M5, DF.B1), and the zones around a plane. The planes on a table as one batch
(:class:`~maneuvers.batch.Planes`) and each rule predicate, written once on it, are in
:mod:`maneuvers.batch`. A turn is adjudicated by
:mod:`scenarios.dogfight`.

* cards and decks: :mod:`.card`, :mod:`.deck`, :mod:`.bases` (data files under
  ``data/``), :mod:`.placement`, :mod:`.move`, :mod:`.path`, :mod:`.fan`;
* a plane: :mod:`.plane` (its state, engines and rules), :mod:`.altitude`,
  :mod:`.damage`, :mod:`.plan` (legal plans);
* the rules of one moment: :mod:`.tailing`, :mod:`.firing`, :mod:`.collision`,
  :mod:`.zones`, :mod:`.margins` (how far each answer is from changing), with their
  batch forms in :mod:`.kernels`; :mod:`.reasons` — why a rule said no, with its rule ID.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from furball._lazy import attach

if TYPE_CHECKING:
    from .altitude import after_card, after_drop, effective_climb_rate, fully_loaded
    from .bases import find_base, load_bases, shipped_bases
    from .batch import Planes, may_fire, may_tail, overlaps
    from .card import Anchor, Arc, ManeuverCard, Straight
    from .collision import CollisionCard, CollisionTest, collision_test, may_collide
    from .deck import Deck, find_deck, load_deck, shipped_decks
    from .fan import Fan, fan
    from .firing import FiringRange, Shot, arc_shots, autonomous_fire, shot_at, shots
    from .move import MoveResult, move
    from .path import PathSamples, arrow_points, path_poses
    from .placement import card_motion, card_motions, place, place_batch, place_sequence
    from .plan import CARDS_PER_TURN, PlanError, card_tree, check_plan, legal_plans, plan_problem
    from .plane import Engines, PlaneKind, PlaneState, PlaneStatus, Rules, default_rules
    from .reasons import Reason
    from .tailing import TailCheck, choose_tails, tail_check, tail_options
    from .zones import Zones, zones

__all__ = [
    "after_card", "after_drop", "effective_climb_rate", "fully_loaded",
    "find_base", "load_bases", "shipped_bases", "Planes", "may_fire", "may_tail", "overlaps", "Anchor", "Arc", "ManeuverCard", "Straight",
    "CollisionCard", "CollisionTest", "collision_test", "may_collide",
    "Deck", "find_deck", "load_deck", "shipped_decks", "Fan", "fan",
    "FiringRange", "Shot", "arc_shots", "autonomous_fire", "shot_at", "shots", "MoveResult", "move",
    "PathSamples", "arrow_points", "path_poses",
    "card_motion", "card_motions", "place", "place_batch", "place_sequence",
    "CARDS_PER_TURN", "PlanError", "card_tree", "check_plan", "legal_plans", "plan_problem",
    "Engines", "PlaneKind", "PlaneState", "PlaneStatus", "Rules", "default_rules", "Reason",
    "TailCheck", "choose_tails", "tail_check", "tail_options", "Zones", "zones",
]

_EXPORTS = {
    'after_card': '.altitude',
    'after_drop': '.altitude',
    'effective_climb_rate': '.altitude',
    'fully_loaded': '.altitude',
    'find_base': '.bases',
    'load_bases': '.bases',
    'shipped_bases': '.bases',
    'Planes': '.batch',
    'may_fire': '.batch',
    'may_tail': '.batch',
    'overlaps': '.batch',
    'Anchor': '.card',
    'Arc': '.card',
    'ManeuverCard': '.card',
    'Straight': '.card',
    'CollisionCard': '.collision',
    'CollisionTest': '.collision',
    'collision_test': '.collision',
    'may_collide': '.collision',
    'Deck': '.deck',
    'find_deck': '.deck',
    'load_deck': '.deck',
    'shipped_decks': '.deck',
    'Fan': '.fan',
    'fan': '.fan',
    'FiringRange': '.firing',
    'Shot': '.firing',
    'arc_shots': '.firing',
    'autonomous_fire': '.firing',
    'shot_at': '.firing',
    'shots': '.firing',
    'MoveResult': '.move',
    'move': '.move',
    'PathSamples': '.path',
    'arrow_points': '.path',
    'path_poses': '.path',
    'card_motion': '.placement',
    'card_motions': '.placement',
    'place': '.placement',
    'place_batch': '.placement',
    'place_sequence': '.placement',
    'CARDS_PER_TURN': '.plan',
    'PlanError': '.plan',
    'card_tree': '.plan',
    'check_plan': '.plan',
    'legal_plans': '.plan',
    'plan_problem': '.plan',
    'Engines': '.plane',
    'PlaneKind': '.plane',
    'PlaneState': '.plane',
    'PlaneStatus': '.plane',
    'Rules': '.plane',
    'default_rules': '.plane',
    'Reason': '.reasons',
    'TailCheck': '.tailing',
    'choose_tails': '.tailing',
    'tail_check': '.tailing',
    'tail_options': '.tailing',
    'Zones': '.zones',
    'zones': '.zones',
}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
