// Rules at hand (docs/rooms.md): every rule ID shown on a page (DF.T2, WC.F4, CN.P6,
// YT.R1 ... in log lines, refusals, notices) becomes a link that shows the rule's text
// (furball's own words, docs/rules, served by GET /api/rules): its `title` on hover,
// and a popover (the browser's Popover API) on a click, a tap or Enter. Text added to
// the page later is linked as it arrives (a MutationObserver); SVG text, form fields and
// buttons are left alone.

import { get } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

const RULE = /\b([A-Z]{2})\.([A-Z]+[0-9]+)([a-z]?)\b/g; // linked only where a rule has that ID
const SKIP = new Set(["SCRIPT", "STYLE", "TEXTAREA", "INPUT", "SELECT", "OPTION", "BUTTON", "TITLE"]);
let rules = null; // id -> {id, section, text}
let pop = null;

/** The rule `id` names (a part such as DF.T1c: its rule), or null. */
export function ruleOf(id) {
  if (!rules) return null;
  const m = /^([A-Z]{2})\.([A-Z]+[0-9]+)[a-z]?$/.exec(id);
  return m ? rules[`${m[1]}.${m[2]}`] || null : null;
}

function showRule(target) {
  const rule = ruleOf(target.dataset.rule);
  if (!rule || !pop) return;
  pop.replaceChildren(el("strong", { textContent: `${rule.id} · ${rule.section}` }),
    el("p", { textContent: rule.text }),
    el("button", { textContent: t("Close"), onclick: () => pop.hidePopover() }));
  pop.dataset.rule = rule.id;
  try {
    pop.showPopover();
  } catch (_) { /* already shown */ }
  const r = target.getBoundingClientRect();
  pop.style.top = `${Math.min(window.innerHeight - 40, r.bottom + 4)}px`;
  pop.style.left = `${Math.max(4, Math.min(window.innerWidth - pop.offsetWidth - 4, r.left))}px`;
}

function skipped(node) {
  for (let p = node.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    if (SKIP.has(p.tagName) || p.namespaceURI !== "http://www.w3.org/1999/xhtml" || p.classList.contains("rule-id") ||
        p.id === "rule-text") return true;
  }
  return false;
}

function linkText(node) {
  const text = node.nodeValue;
  RULE.lastIndex = 0;
  const any = RULE.test(text);
  RULE.lastIndex = 0; // matchAll below starts where the regex stands
  if (!any || skipped(node)) return;
  const parts = [];
  let at = 0;
  for (const m of text.matchAll(RULE)) {
    const rule = ruleOf(m[0]);
    if (!rule) continue;
    parts.push(text.slice(at, m.index));
    const link = el("span", { className: "rule-id", textContent: m[0], title: `${rule.id}: ${rule.text}`, tabIndex: 0 });
    link.setAttribute("role", "button");
    link.dataset.rule = m[0];
    parts.push(link);
    at = m.index + m[0].length;
  }
  if (!parts.length) return;
  parts.push(text.slice(at));
  node.replaceWith(...parts.filter((p) => p !== ""));
}

/** Link every rule ID under `root` (an element or text node). */
export function linkRules(root) {
  if (!rules || !root) return;
  if (root.nodeType === 3) {
    linkText(root);
    return;
  }
  if (root.nodeType !== 1 || root.namespaceURI !== "http://www.w3.org/1999/xhtml") return; // SVG: left alone
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  while (walker.nextNode()) found.push(walker.currentNode);
  found.forEach(linkText);
}

/** Load the rules once and keep every rule ID on the page linked from now on. */
export async function startRules() {
  try {
    rules = (await get("/api/rules")).rules;
  } catch (_) {
    return; // no rules: the IDs stay plain text
  }
  pop = el("div", { id: "rule-text", className: "rule-text" });
  pop.setAttribute("popover", "auto");
  pop.dataset.testid = "rule-text";
  document.body.append(pop);
  document.addEventListener("click", (e) => {
    const target = e.target.closest && e.target.closest(".rule-id");
    if (target) showRule(target);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.classList && e.target.classList.contains("rule-id")) showRule(e.target);
  });
  linkRules(document.body);
  new MutationObserver((mutations) => {
    for (const m of mutations) {
      if (m.type === "characterData") linkRules(m.target);
      else m.addedNodes.forEach(linkRules);
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  document.body.dataset.rules = "ready";
}
