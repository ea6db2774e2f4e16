// The rooms this browser created or joined, kept in localStorage ("furball.rooms"):
// each {room, title, game, owner?, seats: [{label, token?}], at}. Tokens are keys to
// seats: they stay in this browser and are never sent anywhere but this server.

const KEY = "furball.rooms";
const MOST = 50;

export function savedRooms() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (_) {
    return [];
  }
}

/** Add or merge what we know of a room (newest first, at most 50 kept). */
export function remember(entry) {
  const list = savedRooms();
  const old = list.find((r) => r.room === entry.room);
  const merged = { ...(old || {}), ...entry, at: Date.now() };
  if (old && old.seats && entry.seats) {
    merged.seats = entry.seats.map((s, i) => ({ ...(old.seats[i] || {}), ...s }));
  }
  const rest = list.filter((r) => r.room !== entry.room);
  try {
    localStorage.setItem(KEY, JSON.stringify([merged, ...rest].slice(0, MOST)));
  } catch (_) { /* storage full or disabled: the links still work */ }
}

export function forget(room) {
  try {
    localStorage.setItem(KEY, JSON.stringify(savedRooms().filter((r) => r.room !== room)));
  } catch (_) { /* nothing kept */ }
}

/** The page link of a room for a seat token and/or the owner token (a fragment: never sent to a server). */
export function roomLink(room, { seat = null, owner = null } = {}) {
  const parts = [];
  if (seat) parts.push(`seat=${encodeURIComponent(seat)}`);
  if (owner) parts.push(`owner=${encodeURIComponent(owner)}`);
  return `${location.origin}/rooms/${encodeURIComponent(room)}${parts.length ? `#${parts.join("&")}` : ""}`;
}
