"""Maneuver cards as SE(2) transforms: cards, decks and bases as data, placement, paths.

Builds on :mod:`geometry`; knows the dogfight's movement rules DF.M1-DF.M4.
"""
from .bases import find_base, load_bases, shipped_bases
from .card import Arc, ManeuverCard, Straight
from .deck import Deck, find_deck, load_deck, shipped_decks
from .path import PathSamples, arrow_points, path_poses
from .placement import card_motion, card_motions, place, place_batch, place_sequence

__all__ = [
    "Arc", "ManeuverCard", "Straight", "Deck", "find_deck", "load_deck", "shipped_decks",
    "find_base", "load_bases", "shipped_bases", "PathSamples", "arrow_points", "path_poses",
    "card_motion", "card_motions", "place", "place_batch", "place_sequence",
]
