"""Maneuver cards as SE(2) transforms and the dogfight's rules, on plane bases.

Builds on :mod:`geometry`. Cards, decks and bases as data (DF.M1-DF.M4), placement,
paths, a plane's state, and the rules of one moment of a dogfight: tailing (DF.T),
firing (DF.O, DF.A2), collisions (DF.C), altitude and bombs (DF.H, DF.B), plan legality
(DF.M5, DF.B1), and the zones around a plane. A turn is adjudicated by
:mod:`scenarios.dogfight`.
"""
from .altitude import after_card, after_drop, effective_climb_rate, fully_loaded
from .bases import find_base, load_bases, shipped_bases
from .card import Anchor, Arc, ManeuverCard, Straight
from .collision import CollisionCard, CollisionTest, collision_test, may_collide
from .deck import Deck, find_deck, load_deck, shipped_decks
from .fan import Fan, fan
from .firing import FiringRange, Shot, arc_shots, autonomous_fire, shot_at, shots
from .move import MoveResult, move
from .path import PathSamples, arrow_points, path_poses
from .placement import card_motion, card_motions, place, place_batch, place_sequence
from .plan import CARDS_PER_TURN, PlanError, check_plan, plan_problem
from .plane import Engines, PlaneKind, PlaneState, PlaneStatus, Rules, default_rules
from .reasons import Reason
from .tailing import TailCheck, choose_tails, tail_check, tail_options
from .zones import Zones, zones

__all__ = [
    "after_card", "after_drop", "effective_climb_rate", "fully_loaded",
    "find_base", "load_bases", "shipped_bases", "Anchor", "Arc", "ManeuverCard", "Straight",
    "CollisionCard", "CollisionTest", "collision_test", "may_collide",
    "Deck", "find_deck", "load_deck", "shipped_decks", "Fan", "fan",
    "FiringRange", "Shot", "arc_shots", "autonomous_fire", "shot_at", "shots", "MoveResult", "move",
    "PathSamples", "arrow_points", "path_poses",
    "card_motion", "card_motions", "place", "place_batch", "place_sequence",
    "CARDS_PER_TURN", "PlanError", "check_plan", "plan_problem",
    "Engines", "PlaneKind", "PlaneState", "PlaneStatus", "Rules", "default_rules", "Reason",
    "TailCheck", "choose_tails", "tail_check", "tail_options", "Zones", "zones",
]
