// "Your turn" (issue 34 item 7, docs/rooms.md): when this seat must act, the tab's title
// and its favicon (a badge) change, for any game; a browser notification and a sound
// play too when the person opted in (each asked on a click: the Notification API's
// permission, a WebAudio context). The choices stay in this browser (localStorage
// "furball.alerts"); nothing is sent anywhere. The room's owner may also give a webhook
// (the server calls it: hub.py, webhook.py): its field is in the same panel.

import { el } from "../dom.js";
import { t } from "../i18n.js";

const KEY = "furball.alerts";
const ICON = (badge) => "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect x="5" y="8" width="22" height="16" rx="3" fill="#4a6b8a"/><path d="M16 4v8M8 16h16" stroke="#fff" ' +
  'stroke-width="3"/>' + (badge ? '<circle cx="24" cy="8" r="7.5" fill="#d22" stroke="#fff" stroke-width="1.5"/>' : "") +
  "</svg>");

const alerts = { mine: null, audio: null, chosen: load() };

/** The page's audio context, made (or resumed) during a click: browsers start sound only
 *  after the person has interacted with the page (after a reload: the first click or tap). */
function wakeAudio() {
  if (!alerts.chosen.sound) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  alerts.audio = alerts.audio || new Audio();
  if (alerts.audio.state === "suspended") alerts.audio.resume();
}

document.addEventListener("pointerdown", wakeAudio, { passive: true });

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { notify: !!saved.notify, sound: !!saved.sound };
  } catch (_) {
    return { notify: false, sound: false };
  }
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(alerts.chosen));
  } catch (_) { /* private browsing: the choice lasts as long as the page */ }
}

function favicon(badge) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = el("link", { rel: "icon" });
    document.head.append(link);
  }
  link.type = "image/svg+xml";
  link.href = ICON(badge);
  link.dataset.badge = badge ? "yes" : "no";
}

function beep() {
  const ctx = alerts.audio;
  if (!ctx) return;
  const now = ctx.currentTime;
  for (const [at, hz] of [[0, 660], [0.18, 880]]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.16);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.17);
  }
}

function notify(title) {
  if (!alerts.chosen.notify || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (!document.hidden && document.hasFocus()) return; // the page in front already says it
  try {
    const n = new Notification(t("furball: your turn"), { body: title, tag: `furball-${location.pathname}` });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (_) { /* some browsers allow notifications from a service worker only */ }
}

/** The tab's title and favicon for this view; the notification and the sound when this
 *  seat has just become one that must act (`mine`: whether it must act now). */
export function signal(title, mine) {
  document.title = mine ? t("▶ Your turn · {title} · furball", { title }) : `${title} · furball`;
  favicon(mine);
  document.body.dataset.yourTurn = mine ? "yes" : "no";
  const was = alerts.mine;
  alerts.mine = mine;
  if (!mine || was !== false) return; // only when it becomes this seat's turn (not when the page opens)
  notify(title);
  if (alerts.chosen.sound) beep();
}

function toggleButton(text, on, onclick, name) {
  const b = el("button", { textContent: on ? t("{switch}: on", { switch: text }) : t("{switch}: off", { switch: text }),
    onclick });
  b.dataset.alert = name;
  b.setAttribute("aria-pressed", on ? "true" : "false");
  return b;
}

/** The "Alerts" panel: the seat's notification and sound switches; the owner's webhook. */
export function renderAlerts(box, { seat, owner, ctx }) {
  const items = [];
  if (seat !== null && seat !== undefined) {
    const can = typeof Notification !== "undefined";
    const notifyOn = alerts.chosen.notify && can && Notification.permission === "granted";
    const n = toggleButton(t("Notify me when it is my turn"), notifyOn, async () => {
      if (notifyOn) {
        alerts.chosen.notify = false;
      } else if (can) {
        const answer = await Notification.requestPermission();
        alerts.chosen.notify = answer === "granted";
        if (answer !== "granted") ctx.say(t("The browser refused notifications for this site (its settings can change that)."));
      }
      save();
      renderAlerts(box, { seat, owner, ctx });
    }, "notify");
    n.disabled = !can;
    if (!can) n.title = t("this browser has no notifications");
    const s = toggleButton(t("Sound"), alerts.chosen.sound, () => {
      alerts.chosen.sound = !alerts.chosen.sound;
      wakeAudio();
      if (alerts.chosen.sound) beep(); // what it will sound like
      save();
      renderAlerts(box, { seat, owner, ctx });
    }, "sound");
    items.push(el("div", { className: "row" }, n, s));
  }
  if (owner) items.push(webhookForm(ctx));
  box.hidden = !items.length;
  box.querySelector(".alerts-body").replaceChildren(...items);
}

function webhookForm(ctx) {
  const input = el("input", { type: "url", maxLength: 500, placeholder: t("https://… (optional)"),
    title: t("the server POSTs who is to act to this URL whenever that changes (never what is hidden)") });
  input.dataset.testid = "webhook";
  const status = el("span", { className: "muted" });
  const set = async (url) => {
    try {
      const answer = await ctx.ownerPost("/webhook", { url });
      input.value = answer.url || "";
      status.textContent = answer.url ? t("set: the server calls it when who is to act changes") : t("no webhook");
    } catch (err) {
      status.textContent = err.message;
    }
  };
  const save = el("button", { textContent: t("Set"), onclick: () => set(input.value.trim() || null) });
  const clear = el("button", { textContent: t("Remove"), onclick: () => set(null) });
  ctx.ownerGet("/webhook").then((answer) => {
    if (answer.url && !input.value) input.value = answer.url;
    status.textContent = answer.url ? t("set") : t("no webhook");
  }).catch(() => {});
  return el("div", { className: "webhook" }, el("label", { textContent: t("Webhook (play over days): ") }, input),
    el("div", { className: "row" }, save, clear, status));
}
