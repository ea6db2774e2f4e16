"""Hidden information (WC.F2 Inspect, WC.F4 sealed bids, hands, radar values, special
orders): each seat's observation holds only what it may see, bots decide from it alone,
and the log says only what everyone may know."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from white_christmas_helpers import COMP, Icon, fresh, private, radar, until

from furball.scenarios.white_christmas import actions as A
from furball.scenarios.white_christmas.actions import Phase
from furball.scenarios.white_christmas.players import HeuristicPlayer, RandomPlayer


def reshuffle_hidden(s, seat, rng):
    """``s`` with everything ``seat`` cannot see changed: the other sides' hands (other
    cards, same counts), radar values and special orders; the deck order, the face-down
    staircases and the hidden piles' orders."""
    free = [c for c in s.deck]
    others = [i for i in range(len(s.sides)) if i != seat]
    for i in others:
        mine = s.private[i]
        pool = free + list(mine.hand)
        rng.shuffle(pool)
        new_hand, free = tuple(sorted(pool[:len(mine.hand)])), pool[len(mine.hand):]
        tokens = list(mine.radar) + list(s.radar_supply)
        rng.shuffle(tokens)
        new_radar = tuple(sorted(tokens[:len(mine.radar)]))
        supply = list(s.radar_supply) + list(mine.radar)
        for v in new_radar:
            supply.remove(v)
        s = replace(s, radar_supply=tuple(sorted(supply)))
        s = private(s, i, hand=new_hand, radar=new_radar)
    rng.shuffle(free)
    down = list(s.stairs_down)
    rng.shuffle(down)
    inspected = {k for k, _ in s.private[seat].inspected}
    down = [s.stairs_down[k] if k in inspected else d for k, d in enumerate(down)]
    if len(set(down)) != len(down):
        down = list(s.stairs_down)
    orders = list(s.orders_deck)
    rng.shuffle(orders)
    return replace(s, deck=tuple(free), stairs_down=tuple(down), orders_deck=tuple(orders),
                   sightings=tuple(reversed(s.sightings)))


def decision_points(seed, players):
    """A few states of a heuristic game, one per phase and question kind."""
    s = fresh(seed, players)
    out, seen = [], set()
    bot = HeuristicPlayer(seed)
    while not s.is_terminal() and len(out) < 12:
        key = (s.board.phase, s.board.pending[0].ask if s.board.pending else None, s.board.round)
        if key not in seen:
            seen.add(key)
            out.append(s)
        s = s.apply(bot.choose(s.observation(s.current_player())))
    return out


@settings(max_examples=12)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.randoms(use_true_random=False))
def test_a_bots_decision_does_not_change_when_another_players_hidden_cards_change(seed, players, rng):
    """The observation of the seat to decide is identical when the others' hands, radar
    values and the hidden decks change; so is every bot's decision and the terminal view."""
    changed = 0
    for s in decision_points(seed, players):
        seat = s.current_player()
        other = reshuffle_hidden(s, seat, rng)
        changed += other.private != s.private
        assert other.observation(seat) == s.observation(seat)
        assert other.observation_string(seat) == s.observation_string(seat)
        for make in (HeuristicPlayer, RandomPlayer):
            assert make(seed, seat).choose(other.observation(seat)) == make(seed, seat).choose(s.observation(seat))
    assert changed >= 3                          # the others' hidden cards did change


def test_the_observation_holds_only_the_seats_own_private_values():
    s = until(fresh(41, 3), lambda t: t.board.phase == Phase.PLAY)
    for seat in range(3):
        obs = s.observation(seat)
        assert obs.own == s.private[seat] and obs.seat == seat
        assert not hasattr(obs, "private") and not hasattr(obs, "deck")
        assert [x.hand for x in obs.sides] == [len(m.hand) for m in s.private]
        assert (obs.legal == s.legal_actions()) == (seat == s.current_player())
        if seat != s.current_player():
            assert obs.legal == ()


def test_the_terminal_view_shows_own_hand_and_tokens_but_only_counts_of_others():
    s = until(fresh(42, 2), lambda t: t.board.phase == Phase.PLAY)
    s = private(s, 1, radar=(6,))
    s = replace(s, sides=(s.sides[0], replace(s.sides[1], radar=1)))
    mine, theirs = s.observation_string(0), s.observation_string(1)
    assert "Your radar tokens: 6" in theirs and "Your radar tokens: 6" not in mine
    assert "radar 1" in mine            # P2's count is public
    for c in s.private[0].hand:
        assert COMP.cards[c].name in mine


def test_sealed_bids_show_counts_only_until_revealed():
    """WC.F4: the others see how many tokens a player bid, never their values, until all
    have bid and the bids are revealed together."""
    s = until(fresh(43, 2), lambda t: t.board.phase == Phase.SIGHTING)
    first, second = s.board.order
    s = radar(radar(s, first, [2, 6]), second, [3])
    s = s.apply(A.bid(6))
    assert s.observation(second).sides[first].bid is None and s.observation(first).own.bid == (6,)
    s = s.apply(A.SEAL)
    obs = s.observation(second)
    assert obs.sides[first].bid == 1 and obs.sides[first].radar == 2 and 6 not in obs.own.radar + obs.own.bid
    assert "6" not in "\n".join(s.events)
    s = s.apply(A.SEAL)
    assert any("bids revealed" in e and "6" in e for e in s.events)


def test_the_log_says_only_what_everyone_may_know():
    """A radar token is logged without its value; an inspection names the staircase, not
    what it shows."""
    s = fresh(44, 2)
    s2 = s.apply(A.take(Icon.RADAR))
    assert len(s2.private[0].radar) == 1
    assert [e for e in s2.events if "radar token" in e] == ["  P1 takes a radar token (1 held)"]   # no value
    s3 = s.apply(A.take(Icon.INSPECT, 0))
    seen = COMP.staircases[s3.private[0].inspected[0][1]].people
    assert any("looks at the staircase" in e for e in s3.events)
    assert not any(any(p in e for p in seen) for e in s3.events if "looks at" in e)


@pytest.mark.parametrize("players", [2, 4])
def test_public_counts_match_the_private_values(players):
    s = until(fresh(45, players), lambda t: t.board.phase == Phase.SIGHTING)
    for x, m in zip(s.sides, s.private):
        assert x.hand == len(m.hand) and x.radar == len(m.radar) + len(m.bid) and x.orders == len(m.orders)
