// The server's JSON API (docs/serve.md). Every failure becomes an Error whose message is
// the server's one line (or a network problem in words).

import { loadedLang, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  const type = response.headers.get("content-type") || "";
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    if (type.includes("json")) {
      try {
        message = (await response.json()).error || message;
      } catch (_) { /* keep the status line */ }
    }
    throw new ApiError(message, response.status);
  }
  return type.includes("json") ? response.json() : response.text();
}

async function send(path, options) {
  let response;
  try {  // the reader's language (the switch's, else the browser's): the server's refusals read in it
    const chosen = loadedLang();
    response = await fetch(path, chosen ? { ...options, headers: { "Accept-Language": chosen, ...(options.headers || {}) } }
      : options);
  } catch (err) {
    throw new ApiError(t("the server cannot be reached ({problem}); is furball serve still running?",
      { problem: err.message }), 0);
  }
  return answer(response);
}

/** GET a JSON resource. */
export const get = (path) => send(path, { method: "GET" });

/** POST a JSON body; the answer is JSON (or text, for /api/save). `token`: a room
 *  credential, sent as `Authorization: Bearer` (never in the address). */
export const post = (path, body, token = null) => {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return send(path, { method: "POST", headers, body: JSON.stringify(body) });
};

/** DELETE a resource with a room credential (`Authorization: Bearer`). */
export const remove = (path, token) =>
  send(path, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });

/** POST raw bytes (an uploaded file). */
export const upload = (path, bytes) =>
  send(path, { method: "POST", headers: { "Content-Type": "application/toml" }, body: bytes });
