"""Issue #22: hidden information stays hidden in the rooms, over whole games.

Two proofs, for 1975 White Christmas (hands, radar token values, sealed bids, special
orders, inspected staircases; WC.F2, WC.F4), Yorktown (expert tiles, the Japanese deck)
and the dogfight's reveals (DF.T2: the target's card shown to its chaser alone, the
chaser's order, other sides' locked plans, the damage piles):

1. **Non-interference**: at every position of whole games, what a seat receives
   (:meth:`Room.view`: its JSON, its text, its legal actions) is unchanged when every
   value that seat may not see is changed: other seats' hands, token values, bids,
   special orders and inspected staircases are dealt again from the same pools together
   with the face-down decks. So nothing of them is in it.
2. **Over the wire**: every message the server sends one seat during whole games (the
   other seats played by bots) is one of those views, its log carries no other seat's
   action text, and the seed appears only once the game is over.
"""
import dataclasses
import json

import numpy as np
import pytest
from starlette.testclient import TestClient
from test_dogfight_tail_choice import TRIO

from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.record import _seen, game_record, read_record
from furball.scenarios.web.rooms import Room, make_spec


def _deal(rng, pool, sizes):
    """``pool`` shuffled and cut into pieces of ``sizes``."""
    pool = list(pool)
    rng.shuffle(pool)
    out, at = [], 0
    for n in sizes:
        out.append(tuple(pool[at:at + n]))
        at += n
    return out


def _wc_hidden_from(state, seat, rng):
    """The position with everything ``seat`` may not see dealt again (WC.F2, WC.F4)."""
    priv = list(state.private)
    others = [j for j in range(len(priv)) if j != seat]
    deck, *hands = _deal(rng, list(state.deck) + [c for j in others for c in priv[j].hand],
                         [len(state.deck)] + [len(priv[j].hand) for j in others])
    supply, *tokens = _deal(rng, list(state.radar_supply) + [v for j in others for v in priv[j].radar + priv[j].bid],
                            [len(state.radar_supply)] + [n for j in others for n in (len(priv[j].radar),
                                                                                        len(priv[j].bid))])
    orders_deck, *orders = _deal(rng, list(state.orders_deck) + [o for j in others for o in priv[j].orders],
                                 [len(state.orders_deck)] + [len(priv[j].orders) for j in others])
    down, stairs_deck = _deal(rng, list(state.stairs_down) + list(state.stairs_deck),
                              [len(state.stairs_down), len(state.stairs_deck)])
    (sightings,) = _deal(rng, state.sightings, [len(state.sightings)])
    for i, j in enumerate(others):
        inspected = tuple((k, down[k]) for k, _ in priv[j].inspected) if down else priv[j].inspected
        priv[j] = dataclasses.replace(priv[j], hand=hands[i], radar=tokens[2 * i], bid=tokens[2 * i + 1],
                                      orders=orders[i], inspected=inspected)
    return dataclasses.replace(state, private=tuple(priv), deck=deck, radar_supply=supply, orders_deck=orders_deck,
                               stairs_down=down, stairs_deck=stairs_deck, sightings=sightings)


def _yt_hidden_from(state, seat, rng):
    """The Yorktown position with the Japanese deck reshuffled and the unused expert tiles
    of other seats' planes dealt again."""
    seat_of = state.setup.seat_of
    others = [p for p in range(len(state.tile)) if seat_of[p] != seat and state.tile[p] is not None]
    tiles = list(state.tile)
    for p, t in zip(others, _deal(rng, [tiles[p] for p in others], [1] * len(others))):
        tiles[p] = t[0]
    (deck,) = _deal(rng, state.deck, [len(state.deck)])
    return dataclasses.replace(state, tile=tuple(tiles), deck=deck)


def _df_hidden_from(state, seat, rng):
    """The dogfight position with what ``seat`` may not see changed (DF.T2, DF.T3): other
    sides' locked plans (another legal plan) and their tail choices (an enemy drawn among
    those each may tail), the orders other seats' chasers chose this turn,
    the card a target shows another seat's chaser and that chaser's remaining cards, and
    the damage piles' order."""
    from furball.maneuvers.plan import legal_plans

    mine, side = set(state.seats[seat]), state.seat_sides[seat]
    sides = {p.name: p.side for p in state.table.planes}
    locked = []
    for name, cards in state.locked:
        if sides[name] != side:
            plans = [p for p in legal_plans(state.table.plane(name), state.table.rules) if p != cards]
            cards = plans[int(rng.integers(len(plans)))]
        locked.append((name, cards))
    tails = tuple((n, t) for n, t in state.chosen_tails if sides[n] == side)  # DF.T3: other sides' choices
    for name, _ in locked:
        options = state.tails.get(name, ())
        if sides[name] != side and len(options) > 1:
            tails += ((name, options[int(rng.integers(len(options)))]),)
    reorders = tuple((c, order if c in mine else order[::-1]) for c, order in state.reorders)
    pending = state.pending
    if pending is not None and pending.chaser.name not in mine:
        cards = [c.id for c in pending.target.deck.cards if c.id != pending.shown]
        pending = dataclasses.replace(pending, shown=cards[int(rng.integers(len(cards)))],
                                      remaining=pending.remaining[::-1])
    table = state.table.replace(piles=tuple((letter, tuple(rng.permutation(pile).tolist()))
                                            for letter, pile in state.table.piles))
    return state.replace(locked=tuple(locked), reorders=reorders, pending=pending, table=table, chosen_tails=tails)


HIDE = {"white-christmas": _wc_hidden_from, "yorktown": _yt_hidden_from, "dogfight": _df_hidden_from}


def _what_seat_gets(room, seat):
    return json.dumps(room.view(seat), sort_keys=True)


def _whole_game(spec):
    """Every position of a game whose seats are all played by their bots."""
    room = Room.new(spec)
    rooms = [room]
    while not room.terminal:
        room, _ = room.bot_event()
        rooms.append(room)
    return rooms


@pytest.mark.parametrize("game, options, seed", [
    ("white-christmas", {"players": 2}, 1), ("white-christmas", {"players": 3}, 2),
    ("white-christmas", {"players": 4}, 3), ("white-christmas", {"solo": True}, 4),
    ("yorktown", {"players": 2, "expansions": "expert"}, 5), ("yorktown", {"players": 4, "expansions": "expert"}, 6),
    ("dogfight", {"scenario": "duel", "swap_start": True, "turn_limit": 3}, 7),
    ("dogfight", {"scenario": TRIO, "turn_limit": 3}, 10)])  # the Camel may tail two enemies (DF.T3)
@pytest.mark.slow
def test_a_seats_view_does_not_depend_on_what_it_may_not_see(game, options, seed):
    spec = make_spec({"game": game, "options": options, "seed": seed})
    bot = "random" if game == "dogfight" else "heuristic"
    bots = dataclasses.replace(spec, controllers=(bot,) * len(spec.controllers))
    rng = np.random.default_rng(seed)
    checked = reveals = 0
    for room in _whole_game(bots)[::1 if game == "dogfight" else 3]:  # every DF.T2 reveal of the game
        reveals += getattr(room.state, "pending", None) is not None
        for seat in range(room.seats):
            other = dataclasses.replace(room, state=HIDE[game](room.state, seat, rng))
            assert _what_seat_gets(other, seat) == _what_seat_gets(room, seat), (room.version, seat)
            checked += 1
        public = [room.view(s)["view"]["public"] for s in range(room.seats)] + [room.view(None)["view"]["public"]]
        assert all(p == public[0] for p in public)  # the public half is the same for everyone
    assert checked > 20 or (game == "dogfight" and checked > 10 and reveals >= 2)


def test_DF_T2_the_perturbation_reaches_the_card_shown_to_the_chaser():
    """The dogfight proof above can fail: the card a target shows is in its chaser's view."""
    spec = make_spec({"game": "dogfight", "options": {"scenario": "duel", "swap_start": True}, "seed": 7})
    bots = dataclasses.replace(spec, controllers=("random", "random"))
    room = next(r for r in _whole_game(bots) if r.state.pending is not None)
    chaser = room.state.current_player()
    state = room.state.replace(pending=dataclasses.replace(room.state.pending, shown="A13"
                                                           if room.state.pending.shown != "A13" else "A12"))
    other = dataclasses.replace(room, state=state)
    assert other.view(chaser)["view"]["private"]["reorder"] != room.view(chaser)["view"]["private"]["reorder"]
    target = 1 - chaser
    assert _what_seat_gets(dataclasses.replace(room, state=_df_hidden_from(room.state, target, np.random.default_rng(1))),
                           target) == _what_seat_gets(room, target)


def test_the_perturbation_reaches_what_a_seat_may_not_see():
    """The proof above can fail: another seat's hand and tokens do change, and a view
    built from the whole state would show it."""
    spec = make_spec({"game": "white-christmas", "options": {"players": 3}, "seed": 8})
    bots = dataclasses.replace(spec, controllers=("heuristic",) * 3)
    room = next(r for r in _whole_game(bots) if r.state.private[1].hand and r.state.private[1].radar)
    other = dataclasses.replace(room, state=_wc_hidden_from(room.state, 0, np.random.default_rng(1)))
    assert other.view(1)["view"]["private"] != room.view(1)["view"]["private"]
    assert _what_seat_gets(other, 0) == _what_seat_gets(room, 0)


@pytest.mark.parametrize("players, seat, seed", [(2, 0, 987654321000011), (3, 1, 987654321000012),
                                                 (4, 3, 987654321000013)])
@pytest.mark.slow
def test_every_message_to_one_seat_during_whole_games(players, seat, seed):
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",),
                     options=ServerOptions(bot_delay_s=0.0, ws_rate=1e6, ws_burst=1e6))
    rng = np.random.default_rng(seed)
    seats = ["heuristic"] * players
    seats[seat] = None
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "white-christmas", "options": {"players": players},
                                               "seed": seed, "seats": seats}).json()
        token = made["seats"][seat]["token"]
        messages = []
        with client.websocket_connect(f"/api/rooms/{made['room']}/ws") as ws:
            ws.send_json({"type": "hello", "token": token})
            while True:
                m = ws.receive_json()
                messages.append(m)
                if m["type"] != "update":
                    continue
                v = m["view"]
                if v["terminal"]:
                    break
                if "legal" in v:  # this seat plays at random among its legal actions
                    ws.send_json({"type": "act", "version": v["version"], "action": int(rng.integers(len(v["legal"])))})
        stored = app.state.store.load(made["room"])
    # the positions the game went through, rebuilt from the store
    room = Room.new(stored.spec)
    views = [json.dumps(room.view(seat), sort_keys=True)]
    for e in stored.events:
        room = room.apply(e)
        views.append(json.dumps(room.view(seat), sort_keys=True))
    assert room.terminal
    at = 0
    log = []
    for m in messages:
        assert m["type"] in ("update", "ack"), m
        if m["type"] == "ack":
            continue
        got = json.dumps(m["view"], sort_keys=True)
        at = views.index(got, at)  # every message is the view of a position, in the game's order
        assert m["log_from"] == len(log)
        log += m["log"]
        if not m["view"]["terminal"]:
            assert str(stored.spec.seed) not in json.dumps(m)
    assert log == [line.as_json() for line in room.log_for(seat)]
    assert all(line["action"] is None for line in log if line["seat"] != seat)
    assert sum(1 for line in log if line["action"]) == sum(1 for e in stored.events if e.seat == seat)
    # and each of those views is blind to the other seats' secrets (the non-interference above)
    rng = np.random.default_rng(seed)
    room = Room.new(stored.spec)
    for e in stored.events[::7]:
        room = Room.replay(stored.spec, stored.events[:e.n])
        other = dataclasses.replace(room, state=_wc_hidden_from(room.state, seat, rng))
        assert _what_seat_gets(other, seat) == _what_seat_gets(room, seat)


def _pieces(view):
    """Every piece id a seat's page can click: the table's shapes and the panels' items."""
    v = view["view"]
    ids = {s["id"] for s in v["public"]["board"]["shapes"] if s.get("id")}
    for p in v["public"]["panels"] + ((v["private"] or {}).get("panels") or []):
        ids |= {i["id"] for i in p["items"] if i["id"]}
    return ids


@pytest.mark.slow
@pytest.mark.parametrize("options, seed", [({"players": 3}, 21), ({"players": 4}, 22), ({"solo": True}, 23)])
def test_WC_F2_F4_a_seat_playing_its_page_sees_no_other_seats_hand_radar_values_or_bid(options, seed):
    """White Christmas with every seat a person's page (choosing as the heuristic bot
    would): at every third position of a whole game, what each seat receives — its
    table, panels, its own hand, radar tokens and bid, and for the seat to act its
    legal actions' texts and the pieces they sit on (``choices``) — is unchanged when
    the other seats' hands, radar values, bids, orders and inspected staircases are
    dealt again; the public half is the same for every seat; and every piece an action
    sits on is on that seat's page (WC.F2, WC.F4)."""
    spec = make_spec({"game": "white-christmas", "options": options, "seed": seed})
    spec = dataclasses.replace(spec, controllers=(None,) * len(spec.controllers))
    room = Room.new(spec)
    rng = np.random.default_rng(seed)
    positions = choices = 0
    while not room.terminal:
        seat = room.to_act
        if room.version % 3 == 0:
            for s in range(room.seats):
                other = dataclasses.replace(room, state=_wc_hidden_from(room.state, s, rng))
                assert _what_seat_gets(other, s) == _what_seat_gets(room, s), (room.version, s)
            public = [room.view(s)["view"]["public"] for s in range(room.seats)] + [room.view(None)["view"]["public"]]
            assert all(p == public[0] for p in public)
            positions += 1
        mine = room.view(seat)
        pieces = _pieces(mine)
        for a in mine["choices"]["actions"]:
            assert set(a["targets"]) <= pieces, (room.version, a["targets"])
            choices += bool(a["targets"])
        player = room.game.player("heuristic", seed + room.version, seat)
        chosen = player.choose(room.state.observation(seat))
        room, _ = room.act(seat, list(room.state.legal_actions()).index(chosen), room.view_version(seat))
    assert positions > 20 and choices > 100


# ------------------------------------------------------------------------------ refusals (issue #35 item 1)
def _refusals(room, seat):
    """What ``seat`` is answered, at this position, for a battery of wrong acts: stale
    versions (one behind, one ahead, far off, the set-up's), versions of the wrong type,
    actions out of range or of the wrong type, and an act out of its turn; asking to take
    back its last action, accepting or refusing a take-back; and, on a card
    game's page, why clicks on some of its pieces do nothing (the engine's reason, with
    its rule). Each answer is the refusal's class and text (or ``accepted``)."""
    from furball.errors import IllegalAction
    mine = room.view_version(seat)
    tries = [(mine - 1, 0), (mine + 1, 0), (mine + 10**6, 0), (0, 0), (2**64, 0), ("1", 0), (None, 0),
             (True, 0), (mine, -1), (mine, 10**6), (mine, "0"), (mine, None), (mine, 0)]
    out = []
    for version, action in tries:
        try:
            room.act(seat, action, version, now=0.0)
        except IllegalAction as exc:
            out.append(f"{type(exc).__name__}: {exc}")
        else:
            out.append("accepted")
    for word in ("ask", "accept", "refuse"):  # take-backs (issue 34 item 11): asked or answered out of place
        try:
            room.take_back_event(seat, word, now=0.0)
        except IllegalAction as exc:
            out.append(f"take-back {word}: {type(exc).__name__}: {exc}")
        else:
            out.append(f"take-back {word}: accepted")
    view = room.view(seat)
    if view["view"]["public"].get("board"):  # a card game's page: why do these clicks do nothing (the engine's reason)
        pieces = sorted(_pieces(view))
        out += [f"why {p}: {room.why(seat, [p])}" for p in pieces[::max(1, len(pieces) // 5)]]
    return out


def _what_seat_knows(room, seat):
    """Everything ``seat`` has received at this position but the version it is given: its
    view and its log (a refusal may depend on these, on nothing else)."""
    view = room.view(seat)
    version = view.pop("version", None)
    return json.dumps([view, [line.as_json() for line in room.log_for(seat)]], sort_keys=True), version


def _check_refusals(room, seen):
    """Every seat's refusals (and the version it is given) at ``room`` are a function of
    what it knows: the same knowledge in ``seen`` (shared across games) gave the same."""
    for seat in range(room.seats):
        knows, version = _what_seat_knows(room, seat)
        got = (version, _refusals(room, seat))
        assert seen.setdefault((seat, knows), got) == got, (room.version, seat, got, seen[(seat, knows)])


def _pick(room, rng, wild):
    """The heuristic bot's choice for the seat to act, or, when ``wild`` says so, one at
    random among its legal actions (so two games part at hidden choices)."""
    seat = room.to_act
    legal = list(room.state.legal_actions())
    if wild(room):
        return int(rng.integers(len(legal)))
    bot = room.game.player("heuristic", int(rng.integers(2**31)), seat)
    return legal.index(bot.choose(room.state.observation(seat)))


def _bidding(room):
    from furball.scenarios.white_christmas.actions import ActionKind
    return any(a.kind == ActionKind.BID for a in room.state.legal_actions())


def test_WC_F4_a_refusal_does_not_count_another_seats_secret_radar_tokens():
    """While P1 puts radar tokens into its sealed bid one by one, P2 sees nothing move
    (WC.F4): its stale, out-of-turn and malformed acts are answered the same words after
    each token, and no answer carries the room's event number."""
    spec = make_spec({"game": "white-christmas", "options": {"players": 2}, "seed": 11})
    room = Room.new(dataclasses.replace(spec, controllers=(None, None)))
    rng = np.random.default_rng(11)
    while not (_bidding(room) and len(room.state.private[room.to_act].radar) >= 2):
        room, _ = room.act(room.to_act, _pick(room, rng, lambda r: False), room.view_version(room.to_act))
    bidder = room.to_act
    other = 1 - bidder
    before = _refusals(room, other), _what_seat_knows(room, other)
    tokens = 0
    from furball.scenarios.white_christmas.actions import ActionKind
    while (bids := [i for i, a in enumerate(room.state.legal_actions()) if a.kind == ActionKind.BID]):
        room, _ = room.act(bidder, bids[0], room.view_version(bidder))
        tokens += 1
        assert (_refusals(room, other), _what_seat_knows(room, other)) == before, tokens
        assert not any(f" {room.version}" in text for text in before[0])
    assert tokens >= 2


@pytest.mark.slow
def test_WC_F2_F4_every_refusal_of_whole_games_is_a_function_of_the_seats_view(players=2, seed=31):
    """Three whole White Christmas games from one seed, parting at the seats' hidden
    choices (bids and the rest, chosen at random in two of them): at every position, for
    every seat, a battery of wrong acts (stale, out of turn, malformed) gets answers, and
    a version, that depend only on what that seat has received (its view and its log),
    across all three games. The room's event number, which counts other seats' secret
    tokens, would break it."""
    spec = make_spec({"game": "white-christmas", "options": {"players": players}, "seed": seed})
    spec = dataclasses.replace(spec, controllers=(None,) * players)
    seen: dict = {}
    parted = 0
    for world, wild in enumerate((lambda r: False, _bidding, lambda r: r.version % 5 == 0)):
        rng = np.random.default_rng(seed + world)
        room = Room.new(spec)
        while not room.terminal:
            _check_refusals(room, seen)
            room, _ = room.act(room.to_act, _pick(room, rng, wild), room.view_version(room.to_act))
        _check_refusals(room, seen)
        parted += room.version
    assert len(seen) < parted * players  # the games met at positions a seat could not tell apart


@pytest.mark.parametrize("game, options, seed", [
    ("yorktown", {"players": 2, "expansions": "expert", "clock": "simulated"}, 41), ("canuck", {}, 42),
    ("dogfight", {"scenario": "duel", "turn_limit": 2}, 43)])
def test_every_refusal_of_other_room_games_is_a_function_of_the_seats_view(game, options, seed):
    """As above for the other room games (a whole game, or two dogfight turns, every seat
    a person choosing as the random bot would): every seat's refusals and version at
    every position depend only on its view and log."""
    spec = make_spec({"game": game, "options": options, "seed": seed})
    room = Room.new(dataclasses.replace(spec, controllers=(None,) * len(spec.controllers)))
    rng = np.random.default_rng(seed)
    seen: dict = {}
    while not room.terminal:
        _check_refusals(room, seen)
        room, _ = room.act(room.to_act, _pick(room, rng, lambda r: True), room.view_version(room.to_act))
    _check_refusals(room, seen)


def test_WC_F4_over_http_refusals_and_acknowledgements_carry_the_seats_own_version():
    """The same over the wire: while P1 bids tokens one by one through HTTP, P2's stale and
    out-of-turn acts get the same answers (status and line) after each token, and every
    acknowledgement gives the acting seat its own view's version, never the room's event
    number."""
    from furball.scenarios.white_christmas.actions import ActionKind
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    rng = np.random.default_rng(12)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "white-christmas", "options": {"players": 2}, "seed": 12,
                                               "seats": [None, None]}).json()
        rid, keys = made["room"], [s["token"] for s in made["seats"]]
        live = client.portal.call(app.state.hub.live, rid)

        def act(seat, version, action):
            r = client.post(f"/api/rooms/{rid}/act", json={"version": version, "action": action},
                            headers={"Authorization": f"Bearer {keys[seat]}"})
            return r.status_code, r.json()

        def probes(seat):
            mine = live.room.view_version(seat)
            return [act(seat, v, 0) for v in (mine - 1, mine + 1, mine)]

        bidding = False
        while not bidding:
            room = live.room
            seat = room.to_act
            bidding = _bidding(room) and len(room.state.private[seat].radar) >= 2
            if bidding:
                break
            status, answer = act(seat, room.view(seat)["version"], _pick(room, rng, lambda r: False))
            assert status == 200 and answer == {"version": live.room.view_version(seat)}
        bidder, other = seat, 1 - seat
        before = probes(other)
        assert [s for s, _ in before] == [409, 409, 409]
        tokens = 0
        while (bids := [i for i, a in enumerate(live.room.state.legal_actions()) if a.kind == ActionKind.BID]):
            status, answer = act(bidder, live.room.view_version(bidder), bids[0])
            tokens += 1
            assert status == 200 and answer == {"version": live.room.view_version(bidder)} != {
                "version": live.room.version}
            assert probes(other) == before, tokens
    assert tokens >= 2


def test_DF_M1_a_take_back_tells_no_seat_of_another_sides_hidden_change():
    """Four seats (one per plane, two sides): SPAD's seat locks, Fokker's locks, then
    changes its plan (hidden from the other side). SPAD's seat asks to take back its lock
    and the three others accept. At every step, what the SPAD and Nieuport seats know
    (views, logs, refusals) is the same as in the game where Fokker never changed its plan;
    accepted, the room is back at the set-up in both games."""
    spec = make_spec({"game": "dogfight", "options": {"scenario": "furball", "seats": "planes"}, "seed": 51})
    seen: dict = {}

    def game(change):
        room = Room.new(spec)
        rooms = []
        for seat, k in ((0, 0), (1, 0)) + (((1, 1),) if change else ()):
            room, _ = room.act(seat, k, room.view_version(seat), now=0.0)
        rooms.append(room)
        room, _ = room.take_back_event(0, "ask", now=0.0)
        rooms.append(room)
        for seat in (1, 2, 3):
            room, _ = room.take_back_event(seat, "accept", now=0.0)
            rooms.append(room)
        return rooms

    changed, plain = game(True), game(False)
    assert changed[0].state != plain[0].state and changed[-1].state == plain[-1].state == Room.new(spec).state
    for a, b in zip(changed, plain):
        for seat in (0, 2):  # the Allies' seats
            assert _what_seat_knows(a, seat) == _what_seat_knows(b, seat)
        for room in (a, b):
            for seat in (0, 2):
                knows, version = _what_seat_knows(room, seat)
                got = (version, _refusals(room, seat))
                assert seen.setdefault((seat, knows), got) == got


def test_WC_F4_chat_carries_no_event_number_nor_time_and_moves_no_version():
    """While P1 puts radar tokens into its sealed bid one by one (WC.F4), P2 chats: each
    chat line P2 and the spectators receive is numbered in the chat's own sequence and
    carries no time, P2's acts and take-back requests are answered the same words after
    each token, and its version never moves."""
    from furball.scenarios.white_christmas.actions import ActionKind
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    rng = np.random.default_rng(12)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "white-christmas", "options": {"players": 2}, "seed": 12,
                                               "seats": [None, None]}).json()
        rid, keys = made["room"], [s["token"] for s in made["seats"]]
        live = client.portal.call(app.state.hub.live, rid)

        def post(seat, path, body):
            r = client.post(f"/api/rooms/{rid}/{path}", json=body, headers={"Authorization": f"Bearer {keys[seat]}"})
            return r.status_code, r.json()

        while not (_bidding(live.room) and len(live.room.state.private[live.room.to_act].radar) >= 2):
            room = live.room
            assert post(room.to_act, "act", {"version": room.view_version(room.to_act),
                                             "action": _pick(room, rng, lambda r: False)})[0] == 200
        bidder = live.room.to_act
        other = 1 - bidder
        mine = live.room.view_version(other)

        def probes():
            return [post(other, "act", {"version": mine, "action": 0}), post(other, "take-back", {"what": "ask"}),
                    post(other, "take-back", {"what": "accept"})]

        before = probes()
        with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
            ws.send_json({"type": "hello", "token": None})
            tokens = 0
            while (bids := [i for i, a in enumerate(live.room.state.legal_actions()) if a.kind == ActionKind.BID]):
                assert post(bidder, "act", {"version": live.room.view_version(bidder), "action": bids[0]})[0] == 200
                tokens += 1
                assert post(other, "chat", {"text": f"token {tokens}?"}) == (200, {"n": tokens})
                while (m := ws.receive_json())["type"] != "chat":
                    pass
                assert m == {"type": "chat", "chat_from": tokens - 1, "chat": [
                    {"n": tokens, "seat": other, "label": f"P{other + 1}", "text": f"token {tokens}?"}]}
                assert probes() == before and live.room.view_version(other) == mine
    assert tokens >= 2


# ------------------------------------------------------------------------------ game records (issue 34 item 9)
def _bot_room(game, options, seed, events):
    """A room of ``game`` whose seats are played by a quick bot, after ``events`` events
    (or at its end)."""
    spec = make_spec({"game": game, "options": options, "seed": seed})
    players = Room.new(spec).game.players
    bot = next(b for b in ("heuristic", "random") if b in players)
    room = Room.new(dataclasses.replace(spec, controllers=(bot,) * len(spec.controllers)))
    while not room.terminal and room.version < events:
        room, _ = room.bot_event()
    return room


@pytest.mark.parametrize("game, options, seed, seat, events", [
    ("white-christmas", {"players": 3}, 987654321000021, 1, 40),
    ("yorktown", {"players": 2, "expansions": "expert"}, 987654321000022, 0, 30),
    ("dogfight", {}, 987654321000023, 1, 3)])
def test_WC_F4_a_seats_game_record_holds_only_what_that_seat_saw(game, options, seed, seat, events):
    """A running game's record for one seat: its steps are, in order, the views and log
    lines the seat received (whose secrecy the tests above prove), with no other seat's
    action texts, no event times, no event numbers and no seed."""
    room = _bot_room(game, options, seed, events)
    assert not room.terminal
    record = game_record(room, seat)
    assert [v.seat for v in record.viewers] == [seat] and not record.whole and record.seed is None
    text = json.dumps(record.as_json())
    assert str(seed) not in text and '"n"' not in text
    assert not any(repr(e.at) in text for e in room.events)  # no event's time
    positions = [Room.new(room.spec)]
    for e in room.events:
        positions.append(positions[-1].apply(e))
    seen = [(len(r.log_for(seat)), _seen(r.view(seat))) for r in positions]
    at, log = 0, []
    for step in record.viewers[0].steps:
        log += step.log
        at = next(i for i in range(at, len(positions)) if seen[i] == (len(log), step.view))
    assert at == len(positions) - 1  # the last step is the seat's view now
    assert [line.as_json() for line in log] == [line.as_json() for line in room.log_for(seat)]
    assert all(line.action is None for line in log if line.seat != seat)
    back = read_record(text)
    assert [s.view for s in back.viewers[0].steps] == [s.view for s in record.viewers[0].steps]


def test_a_spectators_game_record_is_the_public_half_and_a_finished_game_shows_every_seat():
    room = _bot_room("white-christmas", {"players": 2}, 987654321000024, 25)
    spectator = game_record(room, None)
    assert [v.seat for v in spectator.viewers] == [None]
    assert all(s.view["view"]["private"] is None and "text" not in s.view for s in spectator.viewers[0].steps)
    assert all(line.action is None for s in spectator.viewers[0].steps for line in s.log)
    done = _bot_room("dogfight", {}, 987654321000025, 10**6)
    assert done.terminal
    for asking in (None, 0, 1):
        whole = game_record(done, asking)
        assert whole.whole and whole.seed == done.spec.seed and [v.seat for v in whole.viewers] == [0, 1]
        for v in whole.viewers:
            assert v.steps[-1].view["view"] == done.view(v.seat)["view"]
