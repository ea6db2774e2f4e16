// The practice page opens a game record (a room's whole dogfight, downloaded from its
// page; docs/formats.md) and steps through every turn it holds: each turn's replay as the
// record's viewer saw it (js/replay.js), drawn on the record's own table, one turn after
// another ("Next turn"). The table being edited is left as it was.

import { MAX_RECORD_BYTES, readRecord, turnReplays } from "../record.js";
import { ensureKits, say } from "./page.js";
import { openReplayOf } from "./turn.js";

/** Open the record in `file` (a File from the page's file input). */
export async function openRecordFile(file) {
  if (file.size > MAX_RECORD_BYTES) { // refused before it is read
    say(`${file.name}: expected a game record of at most ${MAX_RECORD_BYTES / 2 ** 20} MiB`);
    return;
  }
  try {
    const record = readRecord(await file.text());
    if (record.game !== "dogfight") throw new Error(`a ${record.game} game: the table replays dogfights only`);
    const viewer = record.viewers[0];
    const turns = turnReplays(viewer);
    if (!turns.length) throw new Error("no turn was flown in this game yet");
    const last = viewer.steps[viewer.steps.length - 1].view.view.public;
    const planes = Object.fromEntries(last.planes.map((p) => [p.name, p]));
    await ensureKits({ plane: last.planes });
    openReplayOf({ record, viewer, turns, at: 0, planes, table: { width_mm: last.width_mm, height_mm: last.height_mm },
      name: file.name });
    say(`${file.name}: ${record.title}, ${turns.length} turns` +
      `${record.whole ? " (the whole game)" : ` as ${viewer.label} saw it`}`, true);
  } catch (err) {
    say(`${file.name}: ${err.message}`);
  }
}
