// Steps through a transcript (docs/TRANSCRIPT.md) by the rules of docs/RULES.md and records a
// table state (see table.js) after the deal and after every action. Nothing here touches the page.
// The captions are the sentences of the bot's own round log (bot/presentation/event_words.py), in
// the page's language (words.js): English until a language is loaded, and in Node.

import { SISTER, SUIT_MARK, handValue, isCard, label, rank, shownOrder, suit } from "./cards.js";
import { chips, number, say } from "./words.js";

const POTS = /** @type {const} */ (["game", "flip", "flop"]);
const HAND = 5;
const TONK = HAND + 1;

/** A transcript this page can not play; `message` says what and where, for a person. */
export class ReplayError extends Error {}

/**
 * @typedef {"game" | "flip" | "flop"} Pot
 * @typedef {Record<Pot, number>} Pots
 * @typedef {{owner: string, kind: "run" | "set", cards: string[]}} Spread
 * @typedef {{id: string, name: string, stack: number, hand: string[] | number, value: number | null,
 *   dealer: boolean, toAct: boolean, out: boolean, dead: boolean, paid: Pot[], shown: string[],
 *   won: Pot[], awayLabel?: string}} SeatState
 * @typedef {{round: number, stake: number, pots: Pots, upcard: string | null, flipSuit: string | null,
 *   flopSuit: string | null, stock: number, discard: string[], spreads: Spread[], seats: SeatState[],
 *   caption: string, end: string | null}} TableState
 * @typedef {{label: string, frame: number, kind: string}} Move
 * @typedef {{number: number, title: string, frames: TableState[], moves: Move[], deck: string[],
 *   dealer: string, seatIds: string[], names: Record<string, string>,
 *   result: {stacks: Record<string, number>, pots: Pots}}} PlayedRound `names`: seat id → the name
 *   the page calls it by (its number when no name is known)
 * @typedef {{id: string, stack: number}} SeatIn
 * @typedef {{dealer?: string | null, deck: string[], actions: unknown[][], left_before?: string[]}} RoundIn
 * @typedef {{stake: number, seats: SeatIn[], pots?: Partial<Pots>, rounds: RoundIn[]}} Transcript
 */

/** @param {string} p @param {Record<string, string>} names */
function nameOf(p, names) {
  return names[p] || p;
}

/** @param {string[]} cards */
function cardsText(cards) {
  return cards.map(label).join(" ");
}

/** "hearts ♥": a suit as the bot's round log names it. @param {string} s */
function suitName(s) {
  const english = /** @type {Record<string, string>} */ ({ H: "hearts", D: "diamonds", S: "spades", C: "clubs" })[s];
  return `${say(`suit${s}`, english)} ${SUIT_MARK[s]}`;
}

/** "ann, ben and cat" @param {string[]} names */
function namesText(names) {
  if (names.length <= 1) return names.join("");
  return say("and", "{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/** A sentence naming a pot: one per pot, as a language may inflect the pot's name in each. */
const POT_WORDS = {
  shows: {
    flip: "👀 {name} shows {card} for the flip pot.",
    flop: "👀 {name} shows {card} for the flop pot.",
  },
  wins: {
    game: "💰 {names} wins the game pot ({amount}).",
    flip: "💰 {names} wins the flip pot ({amount}).",
    flop: "💰 {names} wins the flop pot ({amount}).",
  },
  split: {
    game: "💰 {names} split the game pot ({amount}: {shares}).",
    flip: "💰 {names} split the flip pot ({amount}: {shares}).",
    flop: "💰 {names} split the flop pot ({amount}: {shares}).",
  },
  carried: {
    game: "↪️ No one can win the game pot this round: it keeps its {amount} for the next round or the game's end.",
    flip: "↪️ No one can win the flip pot this round: it keeps its {amount} for the next round or the game's end.",
    flop: "↪️ No one can win the flop pot this round: it keeps its {amount} for the next round or the game's end.",
  },
};

/**
 * The sentence `kind` for `pot`, its blanks filled.
 * @param {keyof typeof POT_WORDS} kind @param {string} pot @param {Record<string, string | number>} blanks
 */
function potSays(kind, pot, blanks) {
  const english = /** @type {Record<string, string>} */ (POT_WORDS[kind])[pot];
  return say(kind + pot[0].toUpperCase() + pot.slice(1), english, blanks);
}

/** How a round ended, as the bot's round log opens its end. */
const END_WORDS = /** @type {Record<string, [string, string]>} */ ({
  out: ["endOut", "{who} went out!"],
  tonk: ["endTonk", "🎉 Tonk out! {who} laid down two spreads at once."],
  drop: ["endDrop", "{who} dropped with {value}, and no other hand is as low."],
  caught: ["endCaught", "{who} dropped with {value} but was caught by {catchers} with {low}."],
  stock: ["endStock", "The stock ran out ({who} drew the last card): lowest hand wins."],
  fifty: ["endFifty", "50 at the deal!"],
  forty_nine: ["endFortyNine", "49 at the deal!"],
  everyone_left: ["endEveryoneLeft", "{who} wins the round: everyone else has left it."],
});

/** R6.4: "run", "set" or null. @param {string[]} cards @returns {"run" | "set" | null} */
export function spreadKind(cards) {
  if (cards.length < 3 || new Set(cards).size !== cards.length) return null;
  const ranks = cards.map(rank);
  if (new Set(ranks).size === 1) return "set";
  if (new Set(cards.map(suit)).size !== 1) return null;
  const sorted = [...ranks].sort((a, b) => a - b);
  return sorted[sorted.length - 1] - sorted[0] === sorted.length - 1 ? "run" : null;
}

/** R6.5: whether `card` may be laid off on `spread`. @param {Spread} spread @param {string} card */
function fits(spread, card) {
  const first = spread.cards[0];
  if (spread.kind === "set") return spread.cards.length === 3 && rank(card) === rank(first);
  if (suit(card) !== suit(first)) return false;
  const low = rank(first);
  const high = rank(spread.cards[spread.cards.length - 1]);
  return rank(card) === low - 1 || rank(card) === high + 1;
}

/** The canonical order of a spread's cards: by rank, then suit. @param {string[]} cards */
function normalise(cards) {
  return [...cards].sort((a, b) => rank(a) - rank(b) || (suit(a) < suit(b) ? -1 : suit(a) > suit(b) ? 1 : 0));
}

/**
 * Play every round of a transcript. Throws `ReplayError` (nothing partial) on anything it can't play.
 * @param {Transcript} t checked by `checkTranscript` (codec.js)
 * @param {{names?: Record<string, string>, firstNumber?: number}} [options]
 * @returns {PlayedRound[]}
 */
export function playTranscript(t, options = {}) {
  const stake = t.stake;
  const order = t.seats.map((s) => s.id);
  /** @type {Record<string, string>} a seat with no name known is called by its number */
  const names = { ...Object.fromEntries(order.map((p, i) => [p, say("seat", "seat {number}", { number: i + 1 })])), ...(options.names || {}) };
  const seatIndex = new Map(order.map((p, i) => [p, i]));
  /** @type {Record<string, number>} */
  const stacks = Object.fromEntries(t.seats.map((s) => [s.id, s.stack]));
  /** @type {Pots} */
  const pots = { game: 0, flip: 0, flop: 0, ...(t.pots || {}) };
  let seated = [...order];
  /** @type {string | null} */
  let tableDealer = null;
  let over = false;
  /** @type {PlayedRound[]} */
  const played = [];

  const nextDealer = () => {
    const n = order.length;
    const i = seatIndex.get(/** @type {string} */ (tableDealer)) ?? 0;
    for (let step = 1; step <= n; step++) {
      const p = order[(i + step) % n];
      if (seated.includes(p)) return p;
    }
    throw new ReplayError("nobody is left to deal");
  };

  /** R2.6: winners in seat order from the dealer's left. @param {string[]} ws */
  const fromDealer = (ws) => {
    if (ws.length === 1) return ws;
    const n = order.length;
    const d = tableDealer === null ? n - 1 : /** @type {number} */ (seatIndex.get(tableDealer));
    return [...ws].sort(
      (a, b) => (/** @type {number} */ (seatIndex.get(a)) - d - 1 + 2 * n) % n - (/** @type {number} */ (seatIndex.get(b)) - d - 1 + 2 * n) % n
    );
  };

  /** @param {Pot} pot @param {string[]} ws @returns {Record<string, number>} */
  const pay = (pot, ws) => {
    const ordered = fromDealer(ws);
    const total = pots[pot];
    const share = Math.floor(total / ordered.length);
    const odd = total % ordered.length;
    /** @type {Record<string, number>} */
    const shares = {};
    ordered.forEach((q, i) => {
      shares[q] = share + (i < odd ? 1 : 0);
      stacks[q] += shares[q];
    });
    pots[pot] = 0;
    return shares;
  };

  /** The bot's "💰 ann wins the game pot (12 chips)." @param {Pot} pot @param {string[]} ws */
  const payText = (pot, ws) => {
    const total = pots[pot];
    const shares = pay(pot, ws);
    const who = namesText(Object.keys(shares).map((q) => nameOf(q, names)));
    if (Object.keys(shares).length === 1) return potSays("wins", pot, { names: who, amount: chips(total) });
    const each = Object.entries(shares).map(([q, a]) => `${nameOf(q, names)} ${number(a)}`).join(", ");
    return potSays("split", pot, { names: who, amount: chips(total), shares: each });
  };

  t.rounds.forEach((rd, ri) => {
    const where = say("round", "round {number}", { number: ri + 1 });
    if (over) throw new ReplayError(`${where} comes after the game was over`);
    for (const leaver of rd.left_before || []) {
      if (seated.includes(leaver)) seated = seated.filter((p) => p !== leaver);
    }
    seated = seated.filter((p) => stacks[p] >= stake); // R2.3: less than a stake is out
    if (seated.length < 2) {
      over = true;
      return;
    }
    let dealer = rd.dealer ?? null;
    if (tableDealer === null) {
      if (dealer === null) throw new ReplayError(`${where} names no dealer`);
    } else {
      const expected = nextDealer();
      if (dealer !== null && dealer !== expected) {
        throw new ReplayError(`${where}: the dealer is ${nameOf(dealer, names)}, but R3.1 makes it ${nameOf(expected, names)}`);
      }
      dealer = expected;
    }
    if (!seated.includes(dealer)) {
      tableDealer = dealer;
      dealer = nextDealer();
    }
    tableDealer = dealer;
    const players = [...seated];
    const n = players.length;
    const d = players.indexOf(dealer);
    /** @type {Record<string, Pot[]>} */
    const paid = {};
    for (const p of players) {
      const k = Math.floor(stacks[p] / stake);
      paid[p] = k >= 4 ? ["game", "flip", "flop"] : k === 3 ? ["game", "flip"] : ["game"];
      for (const pot of paid[p]) pots[pot] += stake;
      stacks[p] -= stake * paid[p].length;
    }
    const deck = rd.deck;
    /** @type {Record<string, string[]>} */
    const hands = {};
    players.forEach((p, i) => {
      hands[p] = [];
      for (let c = (i - d - 1 + n) % n; c < HAND * n; c += n) hands[p].push(deck[c]);
    });
    /** @type {Record<string, string[]>} */
    const dealt = Object.fromEntries(players.map((p) => [p, [...hands[p]]]));
    const upcard = deck[HAND * n - 1];
    const stock = deck.slice(HAND * n).reverse(); // top card last
    /** @type {string[]} */
    const discard = [];
    /** @type {Spread[]} */
    const spreads = [];
    const flipSuit = suit(upcard);
    const flopSuit = SISTER[flipSuit];
    /** @type {Set<string>} */
    const dead = new Set();
    /** @type {Set<string>} */
    const shown = new Set();
    /** @type {Set<string>} */
    const hadTurn = new Set();
    /** @type {Record<string, string[]>} */
    const showings = Object.fromEntries(players.map((p) => [p, []]));
    showings[dealer].push(upcard);
    /** @type {Record<Pot, [string, string] | null>} best card shown so far and who showed it */
    const best = { game: null, flip: [upcard, dealer], flop: null };
    /** @type {Record<string, Pot[]>} */
    const won = Object.fromEntries(players.map((p) => [p, []]));
    let turn = (d + 1) % n;
    let phase = "start";
    /** @type {string | null} */
    let taken = null;
    let drawnSize = 0;
    let spreadsThisTurn = 0;
    let layoffsThisTurn = 0;
    let flipflopPaid = false;
    /** @type {string | null} */
    let end = null;
    let revealAll = false;
    /** @type {TableState[]} */
    const frames = [];
    /** @type {Move[]} */
    const moves = [];
    /** @type {string[]} what the current step caused, for its caption */
    let notes = [];

    /** R2.4, R5.2-R5.4: each player's flip and flop card. @returns {Record<string, [string | null, string | null]>} */
    const candidates = () => {
      /** @type {Record<string, [string | null, string | null]>} */
      const out = {};
      for (const p of players) {
        /** @type {string | null} */
        let flip = null;
        /** @type {string | null} */
        let flop = null;
        for (const c of dealt[p]) {
          if (suit(c) === flipSuit && (flip === null || rank(c) < rank(flip))) flip = c;
          else if (suit(c) === flopSuit && (flop === null || rank(c) < rank(flop))) flop = c;
        }
        if (!paid[p].includes("flip") || (flip !== null && rank(flip) > rank(upcard))) flip = null;
        if (!paid[p].includes("flop")) flop = null;
        out[p] = [flip, flop];
      }
      return out;
    };
    const cand = candidates();

    /** R5.3 @param {string} p */
    const show = (p) => {
      if (shown.has(p) || flipflopPaid) return;
      shown.add(p);
      if (dead.has(p)) return;
      const pair = cand[p];
      /** @type {Pot[]} */
      const both = ["flip", "flop"];
      both.forEach((pot, k) => {
        const c = pair[k];
        const b = best[pot];
        if (c !== null && (b === null || rank(c) < rank(b[0]))) {
          best[pot] = [c, p];
          showings[p].push(c);
          notes.push(potSays("shows", pot, { name: nameOf(p, names), card: label(c) }));
        }
      });
    };

    /** R5.4-R5.6 */
    const payFlipFlop = () => {
      for (let i = 1; i <= n; i++) {
        const q = players[(d + i) % n];
        if (!shown.has(q)) show(q);
      }
      flipflopPaid = true;
      /** @type {Pot[]} */
      const both = ["flip", "flop"];
      both.forEach((pot, k) => {
        /** @type {[string, string] | null} */
        let lead = null;
        for (const p of players) {
          const c = cand[p][k];
          if (!dead.has(p) && c !== null && (lead === null || rank(c) < rank(lead[0]))) lead = [c, p];
        }
        if (lead === null) {
          if (pots[pot]) notes.push(potSays("carried", pot, { amount: chips(pots[pot]) }));
          return;
        }
        const b = best[pot];
        if (b === null || b[1] !== lead[1]) {
          showings[lead[1]].push(lead[0]);
          notes.push(potSays("shows", pot, { name: nameOf(lead[1], names), card: label(lead[0]) }));
        }
        won[lead[1]].push(pot);
        notes.push(payText(pot, [lead[1]]));
      });
    };

    const beginTurn = () => {
      const p = players[turn];
      if (!flipflopPaid && !shown.has(p)) show(p);
    };

    const endTurn = () => {
      hadTurn.add(players[turn]);
      phase = "start";
      taken = null;
      drawnSize = spreadsThisTurn = layoffsThisTurn = 0;
      let nxt = turn;
      for (let i = 0; i < n; i++) {
        nxt = (nxt + 1) % n;
        if (!dead.has(players[nxt])) break;
      }
      if (!flipflopPaid && hadTurn.has(players[nxt])) payFlipFlop();
      turn = nxt;
      beginTurn();
    };

    /** R2.5 @param {string} p */
    const sideStake = (p) => {
      const amount = Math.min(stake, stacks[p]);
      stacks[p] -= amount;
      return amount;
    };

    /** The bot's "🏁 ann went out!": how the round ended. @type {string} */
    let ended = "";

    /** R7, R7.6
     * @param {string} reason @param {string[]} winners
     * @param {{toPot?: string[], toPlayer?: string[], ender?: string, said?: string, blanks?: Record<string, string | number>}} [side]
     *   `said`: the end's sentence when it is not the reason's (everyone else left), `blanks` its figures */
    const endRound = (reason, winners, side = {}) => {
      end = reason;
      revealAll = true;
      const [key, english] = END_WORDS[side.said || reason];
      ended = "🏁 " + say(key, english, side.blanks || {});
      notes.push(ended);
      for (const q of side.toPot || []) {
        const a = sideStake(q);
        pots.game += a;
        if (a) notes.push(say("sideStakeIn", "↳ {name} pays a side stake of {amount} into the game pot.", { name: nameOf(q, names), amount: number(a) }));
      }
      for (const q of side.toPlayer || []) {
        const a = sideStake(q);
        stacks[/** @type {string} */ (side.ender)] += a;
        const other = nameOf(/** @type {string} */ (side.ender), names);
        if (a) notes.push(say("sideStakeTo", "↳ {name} pays {other} a side stake of {amount}.", { name: nameOf(q, names), other, amount: number(a) }));
      }
      for (const w of winners) won[w].push("game");
      notes.push(payText("game", winners));
      if (!flipflopPaid) payFlipFlop();
      const staying = players.filter((p) => !dead.has(p) && stacks[p] >= stake);
      const payOutAll = (/** @type {string[]} */ to) => {
        for (const pot of POTS) if (pots[pot]) notes.push(payText(pot, to));
      };
      if (staying.length < 2 && POTS.some((pot) => pots[pot])) {
        payOutAll(staying.length ? staying : players.filter((p) => !dead.has(p)));
      }
      if (staying.length < players.length) {
        for (const p of players) {
          if (dead.has(p) || stacks[p] < stake) seated = seated.filter((q) => q !== p);
        }
      }
      if (seated.length < 2) {
        payOutAll(seated);
        over = true;
        notes.push(say("over", "Game over."));
      }
    };

    /** @param {string} caption @returns {TableState} */
    const frame = (caption) => ({
      round: options.firstNumber === undefined ? ri + 1 : options.firstNumber + ri,
      stake,
      pots: { ...pots },
      upcard,
      flipSuit,
      flopSuit,
      stock: stock.length,
      discard: [...discard],
      spreads: spreads.map((s) => ({ owner: s.owner, kind: s.kind, cards: [...s.cards] })),
      // a stand-in seat (an id starting with "~", added to replay a round of two) is not drawn
      seats: order.filter((p) => !p.startsWith("~")).map((p) => {
        const inRound = players.includes(p);
        return {
          id: p,
          name: nameOf(p, names),
          stack: stacks[p],
          hand: inRound ? shownOrder(hands[p]) : [],
          value: inRound ? handValue(hands[p]) : null,
          dealer: p === dealer,
          toAct: end === null && inRound && players[turn] === p,
          out: !inRound,
          dead: dead.has(p),
          paid: inRound ? [...paid[p]] : [],
          shown: inRound ? [...showings[p]] : [],
          won: inRound ? [...won[p]] : [],
        };
      }),
      caption,
      end: revealAll ? end : null,
    });

    const roundNumber = options.firstNumber === undefined ? ri + 1 : options.firstNumber + ri;
    const dealLines = [
      say("deals", "🃏 Round {number} — {dealer} deals. Upcard {upcard}: flip suit {flip}, flop suit {flop}. Pots: game {game}, flip {flip_pot}, flop {flop_pot}.", {
        number: number(roundNumber),
        dealer: nameOf(dealer, names),
        upcard: label(upcard),
        flip: suitName(flipSuit),
        flop: suitName(flopSuit),
        game: number(pots.game),
        flip_pot: number(pots.flip),
        flop_pot: number(pots.flop),
      }),
    ];
    for (const p of players) { // a short stack pays some pots only, and is told which
      const name = nameOf(p, names);
      if (paid[p].length === 1 && stacks[p] === 0) dealLines.push(say("playsAllIn", "↳ {name} plays for the game pot only (all in).", { name }));
      else if (paid[p].length === 1) dealLines.push(say("playsForGame", "↳ {name} plays for the game pot only.", { name }));
      else if (paid[p].length === 2) dealLines.push(say("playsForGameFlip", "↳ {name} plays for the game and flip pots only.", { name }));
    }
    const dealCaption = dealLines.join(" ");
    // R4: the opening 49 / 50
    const values = Object.fromEntries(players.map((p) => [p, handValue(hands[p])]));
    const fifty = players.filter((p) => values[p] === 50);
    const fortyNine = players.filter((p) => values[p] === 49);
    if (fifty.length) {
      endRound("fifty", fifty, { toPot: players.filter((p) => !fifty.includes(p)) });
    } else if (fortyNine.length) {
      endRound("forty_nine", fortyNine);
    } else {
      beginTurn();
    }
    frames.push(frame([dealCaption, ...notes].join(" · ")));
    moves.push({ label: say("dealMove", "Deal: upcard {card}", { card: label(upcard) }), frame: 0, kind: "deal" });
    if (end !== null) moves.push({ label: ended, frame: 0, kind: "end" });

    rd.actions.forEach((action, ai) => {
      const at = say("move", "{round}, move {number}", { round: where, number: ai + 1 });
      if (end !== null) throw new ReplayError(`${at} comes after the round was over`);
      const p = /** @type {string} */ (action[0]);
      const verb = /** @type {string} */ (action[1]);
      const who = nameOf(p, names);
      const hand = hands[p];
      notes = [];
      /** @param {string} why */
      const refuse = (why) => {
        throw new ReplayError(say("breaks", "{at} ({name}) breaks the rules: {why}", { at, name: `${who} ${verb}`, why }));
      };
      if (!players.includes(p) || dead.has(p)) refuse("that player is not in the round");
      if (verb !== "leave" && players[turn] !== p) refuse(`it is ${nameOf(players[turn], names)}'s turn`);
      /** @param {unknown} c */
      const held = (c) => {
        if (!isCard(c) || !hand.includes(/** @type {string} */ (c))) refuse(`${who} does not hold ${String(c)}`);
        return /** @type {string} */ (c);
      };
      let text = "";
      if (verb === "draw") {
        if (phase !== "start") refuse("a second draw");
        const source = action[2];
        if (source === "stock") {
          const c = /** @type {string} */ (stock.pop());
          hand.push(c);
          text = say("drewCard", "{name} drew {card} from the stock", { name: who, card: label(c) }); // the round is over: every card is open
          if (!stock.length) {
            notes.unshift(text);
            const live = players.filter((q) => !dead.has(q));
            const low = Math.min(...live.map((q) => handValue(hands[q])));
            endRound("stock", live.filter((q) => handValue(hands[q]) === low), { blanks: { who } });
          }
        } else {
          if (!discard.length) refuse("the discard pile is empty");
          const c = /** @type {string} */ (discard.pop());
          hand.push(c);
          taken = c;
          text = say("took", "{name} took {card} from the discard pile", { name: who, card: label(c) });
        }
        phase = "drawn";
        drawnSize = hand.length;
      } else if (verb === "spread") {
        if (phase !== "drawn") refuse("a spread before drawing");
        const raw = /** @type {unknown[]} */ (Array.isArray(action[2]) ? action[2] : []);
        const cards = normalise(raw.map(held));
        const kind = spreadKind(cards);
        if (kind === null) refuse(`${cardsText(cards)} is neither a run nor a set`);
        for (const c of cards) hand.splice(hand.indexOf(c), 1);
        spreads.push({ owner: p, kind: /** @type {"run" | "set"} */ (kind), cards });
        spreadsThisTurn += 1;
        text = say("laidDown", "{name} laid down {cards}", { name: who, cards: cardsText(cards) });
        if (!hand.length) {
          notes.unshift(text);
          if (drawnSize === TONK && spreadsThisTurn === 2 && !layoffsThisTurn) {
            endRound("tonk", [p], { toPlayer: players.filter((q) => q !== p), ender: p, blanks: { who } });
          } else {
            endRound("out", [p], { blanks: { who } });
          }
        }
      } else if (verb === "layoff") {
        if (phase !== "drawn") refuse("a lay-off before drawing");
        const c = held(action[2]);
        const target = /** @type {number} */ (action[3]);
        const spread = spreads[target];
        if (spread === undefined) refuse(`there is no spread number ${target}`);
        if (!fits(spread, c)) refuse(`${label(c)} does not fit ${cardsText(spread.cards)}`);
        hand.splice(hand.indexOf(c), 1);
        if (spread.kind === "run" && rank(c) < rank(spread.cards[0])) spread.cards.unshift(c);
        else spread.cards.push(c);
        layoffsThisTurn += 1;
        text = say("laidOff", "{name} laid {card} off on #{spread}", { name: who, card: label(c), spread: target + 1 });
        if (!hand.length) {
          notes.unshift(text);
          endRound("out", [p], { blanks: { who } });
        }
      } else if (verb === "discard") {
        if (phase !== "drawn") refuse("a discard before drawing");
        const c = held(action[2]);
        if (c === taken && hand.length > 1) refuse(`${label(c)} was just taken from the discard pile`);
        hand.splice(hand.indexOf(c), 1);
        discard.push(c);
        text = say("discarded", "{name} discarded {card}", { name: who, card: label(c) });
        notes.unshift(text);
        if (!hand.length) {
          endRound("out", [p], { blanks: { who } });
        } else {
          endTurn();
        }
      } else if (verb === "drop") {
        if (phase !== "start") refuse("a drop after drawing");
        const vals = Object.fromEntries(players.map((q) => [q, handValue(hands[q])]));
        const mine = vals[p];
        const others = players.filter((q) => q !== p && !dead.has(q));
        const low = Math.min(...others.map((q) => vals[q]));
        text = say("drops", "✋ {name} drops with {value}.", { name: who, value: number(mine) });
        notes.unshift(text);
        if (mine < low) {
          endRound("drop", [p], { blanks: { who, value: number(mine) } });
        } else {
          const catchers = others.filter((q) => vals[q] === low);
          const blanks = { who, value: number(mine), catchers: namesText(catchers.map((q) => nameOf(q, names))), low: number(low) };
          endRound("caught", catchers, { toPot: [p], blanks });
        }
      } else if (verb === "leave") {
        const wasTurn = players[turn] === p;
        dead.add(p);
        text = say("leftRound", "🚪 {name} left the game and forfeits this round.", { name: who });
        notes.unshift(text);
        const live = players.filter((q) => !dead.has(q));
        if (live.length === 1) endRound("out", live, { said: "everyone_left", blanks: { who: nameOf(live[0], names) } });
        else if (wasTurn) endTurn();
      } else {
        throw new ReplayError(`${at}: unknown move ${JSON.stringify(verb)}`);
      }
      if (!notes.length || notes[0] !== text) notes.unshift(text);
      frames.push(frame(notes.join(" · ")));
      moves.push({ label: text, frame: frames.length - 1, kind: verb });
      if (end !== null) moves.push({ label: ended, frame: frames.length - 1, kind: "end" });
    });
    played.push({
      number: options.firstNumber === undefined ? ri + 1 : options.firstNumber + ri,
      title: "",
      frames,
      moves,
      deck,
      dealer,
      seatIds: [...order],
      names,
      result: { stacks: { ...stacks }, pots: { ...pots } },
    });
  });
  return played;
}
