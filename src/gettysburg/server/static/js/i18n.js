// UI strings come from the server's catalogues (en, es, de, it); the choice is remembered.
const KEY = "gettysburg.lang";
const LANGS = ["en", "es", "de", "it"];
let strings = {};
let fallback = {};
let current = "en";

export function language() { return current; }

export async function loadLanguage(lang) {
  if (!LANGS.includes(lang)) lang = "en";
  const get = async (l) => (await fetch(`/api/i18n/${l}`)).json();
  if (!Object.keys(fallback).length) fallback = await get("en");
  strings = lang === "en" ? fallback : await get(lang);
  current = lang;
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  translatePage();
}

export function savedLanguage() {
  const saved = localStorage.getItem(KEY);
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(nav) ? nav : "en";
}

// The rule system of the page (its game's): its own words, served as "<system>:<key>",
// come before the words every system shares, so two systems may say one key differently.
let scope = null;
export function setScope(system) { scope = system || null; }

// t("game.your_move", {seat: "Red"}) -> text with {seat} filled in.
export function t(key, vars = {}) {
  const own = scope === null ? undefined : strings[`${scope}:${key}`] ?? fallback[`${scope}:${key}`];
  const text = own ?? strings[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
}
