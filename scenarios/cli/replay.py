"""`furball replay FILE`: a game record (a room's whole game, downloaded from its page;
docs/formats.md, "Game record") printed turn by turn: each viewer's steps with the
actions and log lines that came with them (``--seat P1``: one viewer's), or as JSON
(``--json``: the same without the views). A file that is not a game record of a version
this furball reads is refused in one line (exit status 2)."""
from __future__ import annotations

import json
from pathlib import Path

from furball.errors import InputError


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "replay", help=line,
        description="Print a game record (a room's whole game, from its page's Download record) turn by turn.")
    p.add_argument("file", help="the game record (JSON, docs/formats.md)")
    p.add_argument("--seat", default=None, help="only what this viewer saw (P1, P2 ... or spectator)")
    p.add_argument("--json", action="store_true", help="print the steps as JSON (without the views)")
    p.set_defaults(func=run)


def run(args) -> int:
    from furball.scenarios.web.record import MAX_RECORD_BYTES, read_record, record_lines

    path = Path(args.file)
    if not path.is_file():
        raise InputError(f"{args.file}: {'expected a game record file, got a folder' if path.is_dir() else 'no such file'}")
    if path.stat().st_size > MAX_RECORD_BYTES:  # refused before reading it
        raise InputError(f"{args.file}: expected a game record of at most {MAX_RECORD_BYTES // 2**20} MiB, "
                         f"got {path.stat().st_size / 2**20:.0f} MiB")
    record = read_record(path.read_bytes(), args.file)
    if args.json:
        viewers = record.viewers if args.seat is None else (record.viewer(args.seat),)
        head = {k: v for k, v in record.as_json().items() if k != "viewers"}
        head["viewers"] = [{"seat": v.seat, "label": v.label,
                            "steps": [{"step": s.step, "log": [line.as_json() for line in s.log]} for s in v.steps]}
                           for v in viewers]
        print(json.dumps(head, ensure_ascii=False, indent=1))
        return 0
    print("\n".join(record_lines(record, args.seat)))
    return 0


__all__ = ["register", "run"]
