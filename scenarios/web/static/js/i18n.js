// The page in its reader's language (docs/i18n.md): the catalog comes from the server
// (/api/i18n: the browser's Accept-Language, or the language chosen with the switch and
// remembered in localStorage); t(id, values) writes a message (its English id where the
// catalog has no entry), number() a number the locale's way, and every element marked
// data-i18n shows its text translated (and each attribute marked data-i18n-title,
// data-i18n-placeholder or data-i18n-aria-label: that attribute's text, or the id the
// marker's value gives). <html lang> says the language.

const KEY = "furball.lang";
const ATTRIBUTES = ["title", "placeholder", "aria-label"];  // translated where marked data-i18n-<name>
const state = { lang: "en", messages: {}, languages: ["en", "es"], loaded: false };

/** The language the reader chose with the switch (null: none yet, the browser's). */
function chosen() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

/** Fetch the catalog and translate the marked elements; resolves to the language. */
export async function loadLanguage() {
  const asked = chosen();
  try {
    const response = await fetch(`/api/i18n${asked ? `?lang=${encodeURIComponent(asked)}` : ""}`);
    if (response.ok) Object.assign(state, await response.json());
  } catch { /* offline: English */ }
  state.loaded = true;
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    if (!node.dataset.i18n) node.dataset.i18n = node.textContent.trim().replace(/\s+/g, " ");
    node.textContent = t(node.dataset.i18n);
  }
  for (const attr of ATTRIBUTES) {  // title="..." data-i18n-title: the attribute's text translated
    for (const node of document.querySelectorAll(`[data-i18n-${attr}]`)) {
      const key = `data-i18n-${attr}`;
      if (!node.getAttribute(key)) node.setAttribute(key, (node.getAttribute(attr) || "").trim().replace(/\s+/g, " "));
      node.setAttribute(attr, t(node.getAttribute(key)));
    }
  }
  return state.lang;
}

/** The language loaded by loadLanguage() ("en", "es"), null before it: what a page's
 *  requests send as Accept-Language (js/api.js), so the server's refusals read in it. */
export function loadedLang() {
  return state.loaded ? state.lang : null;
}

/** The reader's language ("en", "es"). */
export function lang() {
  return state.lang;
}

/** Message `id` (its English text, {name} fields) in the reader's language, fields filled. */
export function t(id, values = {}) {
  const text = state.messages[id] || id;
  return text.replace(/\{(\w+)\}/g, (field, name) => (name in values ? String(values[name]) : field));
}

/** `x` written the locale's way (decimal comma in Spanish), at most `digits` decimals. */
export function number(x, digits = 1) {
  return new Intl.NumberFormat(state.lang, { maximumFractionDigits: digits }).format(x);
}

/** `x` with exactly `digits` decimals, the locale's way: toFixed() per locale ("12.50" in
 *  English, "12,50" in Spanish; no grouping of thousands, as toFixed). */
export function fixed(x, digits = 1) {
  return new Intl.NumberFormat(state.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits,
    useGrouping: false }).format(x);
}

/** A visible language switch: a <select> that remembers the choice and reloads the page. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.id = "language";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", "Language / Idioma");
  for (const code of state.languages) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = { en: "English", es: "Español" }[code] || code;
    select.append(option);
  }
  select.value = state.lang;
  select.addEventListener("change", () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* private mode: this page only */ }
    location.reload();
  });
  return select;
}
