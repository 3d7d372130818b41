// The replay page's words in its reader's language: `words/<lang>.json` beside the page, made from the
// bot's catalogs (bot/presentation/replay_words.py: the same messages the bot says in Discord). Until a
// file is loaded (and in Node, where the rules run in tests) every word is its English.

import { fill } from "./table.js";

/** @typedef {string | Record<string, string>} Word a text, or a text per plural category (Intl.PluralRules) */

/** @type {Record<string, Word>} */
let words = {};
let language = "en";

/**
 * A word in the page's language, its `{blanks}` filled; its English where the language has none.
 * @param {string} key @param {string} english @param {Record<string, string | number>} [blanks]
 */
export function say(key, english, blanks = {}) {
  const word = words[key];
  return fill(typeof word === "string" && word ? word : english, blanks);
}

/** A whole number as the page's language writes it ("1,200", "1 200"). @param {number} n */
export function number(n) {
  return new Intl.NumberFormat(language).format(n);
}

/** A chip amount with its noun in the language's plural form ("1 chip", "5 фішак"). @param {number} n */
export function chips(n) {
  const forms = words.chipCount;
  const category = new Intl.PluralRules(language).select(Math.abs(n));
  const text = typeof forms === "object" && (forms[category] || forms.other);
  return fill(text || (Math.abs(n) === 1 ? "{count} chip" : "{count} chips"), { count: number(n) });
}

/** The language the page speaks now (its code). */
export function spoken() {
  return language;
}

/**
 * Which of `offered` to speak: the link's `?lang=`, else the browser's first language we have, else English.
 * @param {string[]} offered @param {string | null} asked @param {readonly string[]} browser
 */
export function chooseLanguage(offered, asked, browser) {
  /** @param {string} code */
  const ours = (code) => {
    const base = code.toLowerCase().split(/[-_]/)[0];
    const found = base === "tl" ? "fil" : base; // Tagalog: Filipino, as Discord says it
    return offered.includes(found) ? found : null;
  };
  if (asked && ours(asked)) return /** @type {string} */ (ours(asked));
  for (const code of browser) {
    const found = ours(code);
    if (found) return found;
  }
  return "en";
}

/**
 * Speak `lang` from now on: its words file, read from beside the page (English if it can't be read).
 * @param {string} lang @returns {Promise<boolean>} whether the file was read
 */
export async function useLanguage(lang) {
  try {
    const answer = await fetch(new URL(`../words/${lang}.json`, import.meta.url));
    if (!answer.ok) throw new Error(String(answer.status));
    setWords(/** @type {Record<string, Word>} */ (await answer.json()));
    return true;
  } catch {
    setWords({});
    return false;
  }
}

/** Speak these words (a words file's contents; `{}`: English) from now on. @param {Record<string, Word>} given */
export function setWords(given) {
  words = given;
  language = typeof given.lang === "string" ? given.lang : "en";
}
