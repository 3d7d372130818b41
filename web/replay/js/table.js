// Draws one table state. It knows nothing of transcripts: give it a `TableState` (rules.js) and it
// draws it, so the same code can draw a live table from the bot's public view (hands as counts).

import { SUIT_MARK, SUIT_NAME, cardFace, label } from "./cards.js";

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * `text` with its `{blanks}` filled (a blank with no value stays as it is).
 * @param {string} text @param {Record<string, string | number>} [blanks]
 */
export function fill(text, blanks = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in blanks ? String(blanks[name]) : whole));
}

/**
 * The table's small print in English: the live page passes its member's words instead, the replay page its reader's.
 * @param {string} _key @param {string} english @param {Record<string, string | number>} [blanks]
 */
function english(_key, english, blanks = {}) {
  return fill(english, blanks);
}

/**
 * A pot's short name ("game", "flip", "flop") in the page's words.
 * @param {string} pot @param {typeof english} say @returns {string}
 */
function potName(pot, say) {
  const key = { game: "potGame", flip: "potFlip", flop: "potFlop" }[pot];
  return key ? say(key, pot) : pot;
}

/**
 * Draw `state` into `root`, replacing what was there.
 * @param {HTMLElement} root
 * @param {import("./rules.js").TableState} state
 * @param {(key: string, english: string, blanks?: Record<string, string | number>) => string} [say]
 *   the words (by key, with their English), for a page in the member's language
 */
export function drawTable(root, state, say = english) {
  root.replaceChildren();
  root.classList.add("table");

  const pots = el("div", "pots");
  for (const pot of /** @type {const} */ (["game", "flip", "flop"])) {
    const box = el("div", `pot pot-${pot}`);
    box.dataset.pot = pot;
    const suitOf = pot === "flip" ? state.flipSuit : pot === "flop" ? state.flopSuit : null;
    box.append(el("span", "pot-name", potName(pot, say) + (suitOf ? " " + SUIT_MARK[suitOf] : "")));
    const amount = el("span", "pot-amount", String(state.pots[pot]));
    amount.dataset.amount = String(state.pots[pot]);
    box.append(amount);
    if (suitOf) box.title = say("suitTitle", "{pot} suit: {suit}", { pot: potName(pot, say), suit: say(`suit${suitOf}`, SUIT_NAME[suitOf]) });
    pots.append(box);
  }
  root.append(pots);

  const middle = el("div", "middle");
  const stock = el("div", "pile stock");
  const back = { back: say("faceDown", "a face-down card") };
  stock.append(state.stock ? cardFace(null, back) : el("span", "empty", "—"), el("span", "pile-name", say("stock", "stock {count}", { count: state.stock })));
  stock.dataset.count = String(state.stock);
  const discard = el("div", "pile discard");
  const top = state.discard[state.discard.length - 1];
  discard.append(top ? cardFace(top) : el("span", "empty", "—"), el("span", "pile-name", say("discardPile", "discard {count}", { count: state.discard.length })));
  const up = el("div", "pile upcard");
  // the upcard stays in the dealer's hand (R3.3); shown here as the card that set the flip suit
  up.append(state.upcard ? cardFace(state.upcard) : el("span", "empty", "—"), el("span", "pile-name", say("upcard", "upcard (dealt)")));
  middle.append(stock, discard, up);
  root.append(middle);

  const spreads = el("div", "spreads");
  state.spreads.forEach((s, i) => {
    const box = el("div", "spread");
    const owner = state.seats.find((q) => q.id === s.owner);
    box.append(el("span", "spread-name", `#${i + 1}: ${owner ? owner.name : s.owner}`)); // as Discord numbers them
    const row = el("span", "cards");
    for (const c of s.cards) row.append(cardFace(c, { small: true }));
    box.append(row);
    spreads.append(box);
  });
  if (!state.spreads.length) spreads.append(el("span", "empty", say("noSpreads", "no spreads yet")));
  root.append(spreads);

  const seats = el("div", "seats");
  for (const seat of state.seats) {
    const box = el("section", "seat");
    box.dataset.seat = seat.id;
    if (seat.toAct) box.classList.add("to-act");
    if (seat.out) box.classList.add("out");
    if (seat.dead) box.classList.add("dead");
    const head = el("div", "seat-head");
    head.append(el("span", "seat-name", seat.name));
    if (seat.dealer) head.append(el("span", "badge dealer", say("dealer", "dealer")));
    if (seat.toAct) head.append(el("span", "badge turn", say("toAct", "to act")));
    if (seat.dead) head.append(el("span", "badge", say("left", "left")));
    if (seat.out) head.append(el("span", "badge", say("out", "out")));
    if (seat.awayLabel) head.append(el("span", "badge away", `💤 ${seat.awayLabel}`)); // the live page's, worded by the bot
    for (const pot of seat.won) head.append(el("span", `badge won won-${pot}`, say("won", "won {pot}", { pot: potName(pot, say) })));
    const chips = el("span", "stack", say("chips", "{count} chips", { count: seat.stack }));
    chips.dataset.stack = String(seat.stack);
    head.append(chips);
    box.append(head);
    if (!seat.out) {
      const hand = el("div", "hand");
      if (typeof seat.hand === "number") {
        for (let i = 0; i < seat.hand; i++) hand.append(cardFace(null, back));
      } else {
        for (const c of seat.hand) hand.append(cardFace(c, c === state.upcard && seat.dealer ? { mark: say("upcardMark", "upcard") } : {}));
      }
      box.append(hand);
      const facts = [];
      if (seat.value !== null) facts.push(say("handValue", "hand {value}", { value: seat.value }));
      facts.push(say("playsFor", "plays for {pots}", { pots: seat.paid.map((p) => potName(p, say)).join(", ") }));
      if (seat.shown.length) facts.push(say("showed", "showed {cards}", { cards: seat.shown.map(label).join(" ") }));
      box.append(el("div", "facts", facts.join(" · ")));
    }
    seats.append(box);
  }
  root.append(seats);

  const caption = el("p", "caption", state.caption);
  caption.setAttribute("aria-live", "polite");
  root.append(caption);
}
