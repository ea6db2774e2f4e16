"""Issue #36 item 3: the SQLite store commits the appends that wait together (group
commit), each still acknowledged only once committed, and a taken event number still
fails alone."""
import threading
import time

from furball.scenarios.web.rooms import Event, EventKind, make_spec
from furball.scenarios.web.store import SQLiteStore


def test_waiting_appends_share_a_commit_and_a_taken_number_fails_alone(tmp_path, monkeypatch):
    store = SQLiteStore(tmp_path / "rooms.sqlite3")
    specs = [make_spec({"game": "white-christmas", "seats": [None, None], "seed": k}) for k in range(4)]
    for spec in specs:
        store.create(spec, "owner", ("a", "b"))
    batches = []
    commit = store._commit

    def slow_commit(batch):  # a slow disk: appends pile up behind each commit
        batches.append(len(batch))
        time.sleep(0.02)
        commit(batch)

    monkeypatch.setattr(store, "_commit", slow_commit)
    results: dict[tuple[int, int, int], bool] = {}

    def writer(k: int, copy: int) -> None:
        for n in range(1, 11):  # two writers per room race for every number
            event = Event(n, EventKind.ACTION, 0, 0, f"room {k} event {n} by {copy}", float(n), None)
            results[(k, n, copy)] = store.append(specs[k].id, event)

    threads = [threading.Thread(target=writer, args=(k, copy)) for k in range(4) for copy in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert max(batches) > 1 and sum(batches) == 80
    for k, spec in enumerate(specs):
        events = store.load(spec.id).events
        assert [e.n for e in events] == list(range(1, 11))
        for e in events:  # exactly one writer won each number, and it was told so
            winner = int(e.text.rsplit(" ", 1)[1])
            assert results[(k, e.n, winner)] is True and results[(k, e.n, 1 - winner)] is False
    store.close()
