"""The game rooms' HTTP handlers (docs/rooms.md): the lobby and room pages, the games,
creating and deleting a room, acting, the owner's controls (its webhook included), a seat's long
calculations, chat, take-backs and rematches, as
:data:`router`.

Every handler is a thin layer over the server's :class:`~.hub.Hub`
(``request.app.state.hub``); a seat's or the owner's key travels in ``Authorization:
Bearer KEY``. Long calculations are :class:`~.jobs.Jobs` (``state.jobs``) run in the
server's :class:`~.pool.WorkPool` (``state.heavy``).
"""
from __future__ import annotations

import dataclasses

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route, Router

from .endpoint import STATIC, _bearer, _object, _only, _status, endpoint, reader_lang
from .hub import NotFound
from .limits import client_key
from .record import record_name, record_text
from .rooms import games_json, seat_names
from .rule_texts import rule_text, rule_texts

__all__ = ["router"]


async def lobby(request: Request):
    return FileResponse(str(STATIC / "lobby.html"), media_type="text/html")


async def room_page(request: Request):
    return FileResponse(str(STATIC / "room.html"), media_type="text/html")


async def get_games(request: Request):
    return {"games": games_json(reader_lang(request))}


async def post_seats(request: Request):
    data = await _object(request)
    names = await request.app.state.quick.run(seat_names, data)
    return {"seats": len(names), "names": list(names)}


async def post_analysis(request: Request):
    state = request.app.state
    room, seat, fn, args = await state.hub.analysis(request.path_params["room"], _bearer(request),
                                                    await _object(request))
    heavy = state.heavy
    job = state.jobs.start(room, seat, lambda progress: heavy.run(fn, *args, progress=progress), _status)
    return JSONResponse(job.as_json(), status_code=202)


async def post_clock(request: Request):
    data = await _object(request)
    _only(data, ("paused",))
    hub = request.app.state.hub
    return {"version": await hub.clock(request.path_params["room"], _bearer(request), data.get("paused"))}


async def post_why(request: Request):
    data = await _object(request)
    _only(data, ("targets",))
    hub = request.app.state.hub
    return {"reason": await hub.why(request.path_params["room"], _bearer(request), data.get("targets"),
                                    reader_lang(request))}


async def get_analysis(request: Request):
    hub = request.app.state.hub
    live = await hub.live(request.path_params["room"])
    seat = hub.role(live, _bearer(request)).seat
    return request.app.state.jobs.get(request.path_params["job"], live.room.spec.id, seat).as_json()


async def post_rooms(request: Request):
    creator = client_key(request.client.host if request.client else None)
    made = await request.app.state.hub.create(await _object(request), creator)
    return JSONResponse(made, status_code=201)


async def delete_room(request: Request):
    await request.app.state.hub.delete(request.path_params["room"], _bearer(request))
    return {"deleted": request.path_params["room"]}


async def get_room(request: Request):
    hub = request.app.state.hub
    return hub.summary(await hub.live(request.path_params["room"]))


async def post_act(request: Request):
    data = await _object(request)
    _only(data, ("version", "action"))
    hub = request.app.state.hub
    version = await hub.act(request.path_params["room"], _bearer(request), data.get("version"),
                            data.get("action"))
    return {"version": version}


async def get_record(request: Request):
    """The room's game record (docs/formats.md) as the key's viewer may have it: a
    seat's, the spectators' (no key), or every seat's once the game is over; made in the
    server's pool (it replays the whole game)."""
    state = request.app.state
    live = await state.hub.live(request.path_params["room"])
    seat = state.hub.role(live, _bearer(request)).seat
    room = live.room
    spec = dataclasses.replace(room.spec, options=dict(room.spec.options))  # plain values for a worker
    text = await state.heavy.run(record_text, spec, room.events, seat)
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{record_name(room, seat)}"',
                             "Cache-Control": "no-store"})


async def get_rules(request: Request):
    """Every rule's text by ID, in the reader's language (docs/rules, shipped as
    ``static/rules.json``; docs/rules/es as ``static/rules.es.json``)."""
    return {"rules": rule_texts(reader_lang(request).value)}


async def get_rule(request: Request):
    """One rule's text (``DF.T2``; a part such as ``DF.T1c`` gives its rule's)."""
    found = rule_text(request.path_params["rule"], reader_lang(request).value)
    if found is None:
        raise NotFound("no such rule: expected an ID such as DF.T2, WC.F4, CN.P6 or YT.R1")
    return found


async def post_seat(request: Request):
    data = await _object(request)
    _only(data, ("bot",))
    seat = request.path_params["seat"]
    hub = request.app.state.hub
    version = await hub.control(request.path_params["room"], _bearer(request), seat, data.get("bot"))
    return {"version": version}


async def post_webhook(request: Request):
    data = await _object(request)
    _only(data, ("url",))
    room = request.path_params["room"]
    link = f"{str(request.base_url).rstrip('/')}/rooms/{room}"  # the spectator link: never a seat's token
    return {"url": await request.app.state.hub.set_webhook(room, _bearer(request), data.get("url"), link)}


async def get_webhook(request: Request):
    return {"url": await request.app.state.hub.webhook(request.path_params["room"], _bearer(request))}


async def post_chat(request: Request):
    data = await _object(request)
    _only(data, ("text",))
    hub = request.app.state.hub
    return {"n": await hub.chat(request.path_params["room"], _bearer(request), data.get("text"))}


async def post_take_back(request: Request):
    data = await _object(request)
    _only(data, ("what",))
    hub = request.app.state.hub
    return {"version": await hub.take_back(request.path_params["room"], _bearer(request), data.get("what"))}


async def post_rematch(request: Request):
    data = await _object(request)
    _only(data, ())
    creator = client_key(request.client.host if request.client else None)
    room = await request.app.state.hub.rematch(request.path_params["room"], _bearer(request), creator)
    return {"room": room}


router = Router(routes=[
    Route("/rooms", lobby),
    Route("/rooms/{room}", room_page),
    Route("/api/games", endpoint(get_games)),
    Route("/api/games/seats", endpoint(post_seats), methods=["POST"]),
    Route("/api/rooms", endpoint(post_rooms), methods=["POST"]),
    Route("/api/rooms/{room}", endpoint(get_room)),
    Route("/api/rooms/{room}", endpoint(delete_room), methods=["DELETE"]),
    Route("/api/rooms/{room}/act", endpoint(post_act), methods=["POST"]),
    Route("/api/rooms/{room}/seats/{seat:int}", endpoint(post_seat), methods=["POST"]),
    Route("/api/rooms/{room}/analysis", endpoint(post_analysis), methods=["POST"]),
    Route("/api/rooms/{room}/why", endpoint(post_why), methods=["POST"]),
    Route("/api/rooms/{room}/clock", endpoint(post_clock), methods=["POST"]),
    Route("/api/rooms/{room}/webhook", endpoint(post_webhook), methods=["POST"]),
    Route("/api/rooms/{room}/webhook", endpoint(get_webhook)),
    Route("/api/rooms/{room}/chat", endpoint(post_chat), methods=["POST"]),
    Route("/api/rooms/{room}/take-back", endpoint(post_take_back), methods=["POST"]),
    Route("/api/rooms/{room}/rematch", endpoint(post_rematch), methods=["POST"]),
    Route("/api/rooms/{room}/analysis/{job}", endpoint(get_analysis)),
    Route("/api/rooms/{room}/record", endpoint(get_record)),
    Route("/api/rules", endpoint(get_rules)),
    Route("/api/rules/{rule}", endpoint(get_rule)),
])
"""The rooms' routes (the pages ``/rooms...`` and ``/api/games...``, ``/api/rooms...``)."""
