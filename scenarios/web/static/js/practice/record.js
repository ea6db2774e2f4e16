// The practice page opens a game record (a room's whole dogfight, downloaded from its
// page; docs/formats.md) and steps through every turn it holds: each turn's replay as the
// record's viewer saw it (js/replay.js), drawn on the record's own table, one turn after
// another ("Next turn"). The table being edited is left as it was.

import { MAX_RECORD_BYTES, readRecord, turnReplays } from "../record.js";
import { ensureKits, say } from "./page.js";
import { openReplayOf } from "./turn.js";
import { number, t } from "../i18n.js";

/** Open the record in `file` (a File from the page's file input). */
export async function openRecordFile(file) {
  if (file.size > MAX_RECORD_BYTES) { // refused before it is read
    say(t("{file}: expected a game record of at most {size} MiB", { file: file.name, size: number(MAX_RECORD_BYTES / 2 ** 20) }));
    return;
  }
  try {
    const record = readRecord(await file.text());
    if (record.game !== "dogfight") throw new Error(t("a {game} game: the table replays dogfights only", { game: record.game }));
    const viewer = record.viewers[0];
    const turns = turnReplays(viewer);
    if (!turns.length) throw new Error(t("no turn was flown in this game yet"));
    const last = viewer.steps[viewer.steps.length - 1].view.view.public;
    const planes = Object.fromEntries(last.planes.map((p) => [p.name, p]));
    await ensureKits({ plane: last.planes });
    openReplayOf({ record, viewer, turns, at: 0, planes, table: { width_mm: last.width_mm, height_mm: last.height_mm },
      name: file.name });
    say(`${file.name}: ${record.title}, ` + t("{n} turns", { n: turns.length }) +
      (record.whole ? t(" (the whole game)") : t(" as {viewer} saw it", { viewer: viewer.label })), true);
  } catch (err) {
    say(`${file.name}: ${err.message}`);
  }
}
