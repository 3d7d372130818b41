// Card codes (R1.5) and how a card looks. `cardFace` is the one place a face is drawn:
// swap its body for an <img> of the bot's card PNGs and every card on the page follows.

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
export const SUIT_MARK = /** @type {Record<string, string>} */ ({ C: "♣", D: "♦", H: "♥", S: "♠" });
export const SISTER = /** @type {Record<string, string>} */ ({ H: "D", D: "H", S: "C", C: "S" });
export const SUIT_NAME = /** @type {Record<string, string>} */ ({ C: "clubs", D: "diamonds", H: "hearts", S: "spades" });

/** @param {unknown} code @returns {boolean} */
export function isCard(code) {
  return typeof code === "string" && code.length === 2 && RANKS.includes(code[0]) && SUITS.includes(code[1]);
}

/** R1.2: ace 1 … king 13. @param {string} code */
export function rank(code) {
  return RANKS.indexOf(code[0]) + 1;
}

/** @param {string} code */
export function suit(code) {
  return code[1];
}

/** R1.3: ace 1, two to ten face value, J Q K 10. @param {string} code */
export function value(code) {
  return Math.min(rank(code), 10);
}

/** @param {string[]} cards */
export function handValue(cards) {
  return cards.reduce((sum, c) => sum + value(c), 0);
}

/** A hand in the order the bot shows it (its Discord hand, the live page): by suit, then rank. @param {string[]} cards */
export function shownOrder(cards) {
  return [...cards].sort((a, b) => SUITS.indexOf(suit(a)) - SUITS.indexOf(suit(b)) || rank(a) - rank(b));
}

/** How a person reads a card: "10♥", "A♠". @param {string} code */
export function label(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUIT_MARK[code[1]];
}

/** @param {string} code */
export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

/**
 * One card as an element: big rank and big suit, red or black; `null` draws its back.
 * @param {string | null} code
 * @param {{small?: boolean, mark?: string, back?: string}} [options] `mark` adds a word under it ("upcard",
 *   "new"); `back` names a face-down card for a screen reader (the page's language; English by default)
 * @returns {HTMLElement}
 */
export function cardFace(code, options = {}) {
  const el = document.createElement("span");
  el.className = "card" + (options.small ? " small" : "");
  if (code === null) {
    el.classList.add("back");
    el.setAttribute("aria-label", options.back || "a face-down card");
    return el;
  }
  el.classList.add(isRed(code) ? "red" : "black");
  el.dataset.card = code;
  el.setAttribute("aria-label", label(code));
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = code[0] === "T" ? "10" : code[0];
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = SUIT_MARK[code[1]];
  el.append(r, s);
  if (options.mark) {
    const m = document.createElement("span");
    m.className = "mark";
    m.textContent = options.mark;
    el.append(m);
  }
  return el;
}
