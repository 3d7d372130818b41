// Reading a round: from a link's #fragment (deflate-raw + base64url, decoded here in the browser,
// so the data never reaches a server) or from the JSON file `/flipflop round` attaches.
// Every check happens before anything is drawn: bad input is one clear message, never half a table.

import { isCard } from "./cards.js";
import { ReplayError } from "./rules.js";
import { say } from "./words.js";

/** The newest replay format this page reads (the `version` key the bot writes; absent means 1). */
export const VERSION = 1;
const VERBS = ["drop", "draw", "spread", "layoff", "discard", "leave"];

/**
 * A round as the bot hands it out: a transcript (docs/TRANSCRIPT.md) of one round, or of a whole
 * game, plus what the page shows beside it.
 * @typedef {import("./rules.js").Transcript & {version?: number, reveal?: import("./verify.js").Reveal,
 *   names?: Record<string, string>, number?: number, round_id?: number}} Envelope
 */

/** @param {unknown} v @returns {v is Record<string, unknown>} */
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** @param {unknown} v @param {number} low */
function isWhole(v, low) {
  return typeof v === "number" && Number.isInteger(v) && v >= low;
}

/**
 * Check that `data` is a transcript this page can play; throw `ReplayError` saying what is wrong.
 * @param {unknown} data
 * @param {string} source "the link" or a file name, for the message
 * @returns {Envelope}
 */
export function checkEnvelope(data, source) {
  const bad = (/** @type {string} */ why) => new ReplayError(say("notARound", "{source} is not a Flip Flop round: {why}", { source, why }));
  if (!isObject(data)) throw bad("it is not a JSON object with stake, seats and rounds");
  const version = data.version === undefined ? 1 : data.version;
  if (!isWhole(version, 1)) throw bad(`its version ${JSON.stringify(version)} is not a whole number`);
  if (/** @type {number} */ (version) > VERSION) {
    throw new ReplayError(say("newer", "{source} was written in replay format {version}, newer than this page (it reads format {page} and older): open it with a newer copy of the replay page", { source, version: String(version), page: VERSION }));
  }
  for (const key of ["stake", "seats", "rounds"]) if (!(key in data)) throw bad(`"${key}" is missing (was the file cut short or edited?)`);
  if (!isWhole(data.stake, 1)) throw bad("the stake is not a whole number of chips");
  if (!Array.isArray(data.seats) || data.seats.length < 2 || data.seats.length > 5) throw bad("it needs 2 to 5 seats");
  /** @type {string[]} */
  const ids = [];
  data.seats.forEach((s, i) => {
    if (!isObject(s) || typeof s.id !== "string" || !isWhole(s.stack, 0)) throw bad(`seat ${i + 1} needs an id and a stack of chips`);
    if (ids.includes(s.id)) throw bad(`seat ${s.id} sits twice`);
    ids.push(s.id);
  });
  if (data.pots !== undefined && data.pots !== null) {
    if (!isObject(data.pots)) throw bad("the pots are not an object");
    for (const [k, v] of Object.entries(data.pots)) {
      if (!["game", "flip", "flop"].includes(k) || !isWhole(v, 0)) throw bad(`the pot ${JSON.stringify(k)} is not a pot with chips`);
    }
  }
  if (!Array.isArray(data.rounds) || data.rounds.length === 0) throw bad("it has no rounds");
  data.rounds.forEach((rd, ri) => {
    const where = `round ${ri + 1}`;
    if (!isObject(rd) || !Array.isArray(rd.deck) || !Array.isArray(rd.actions)) throw bad(`${where} needs a deck and actions`);
    if (ri === 0 && typeof rd.dealer !== "string") throw bad("the first round names no dealer");
    if (rd.dealer !== undefined && rd.dealer !== null && !ids.includes(/** @type {string} */ (rd.dealer))) {
      throw bad(`${where}'s dealer ${JSON.stringify(rd.dealer)} is not seated`);
    }
    rd.deck.forEach((c, i) => {
      if (!isCard(c)) throw bad(`unknown card code ${JSON.stringify(c)} (card ${i + 1} of ${where}'s deck); cards are written like AS, TD, 7H`);
    });
    if (rd.deck.length !== 52 || new Set(rd.deck).size !== 52) throw bad(`${where}'s deck is not the 52 cards once each (was the file edited?)`);
    rd.actions.forEach((a, ai) => {
      const at = `${where}, move ${ai + 1}`;
      if (!Array.isArray(a) || a.length < 2) throw bad(`${at} is not [player, verb, ...]`);
      if (!ids.includes(a[0])) throw bad(`${at} is played by ${JSON.stringify(a[0])}, who is not seated`);
      if (!VERBS.includes(a[1])) throw bad(`${at} has the unknown verb ${JSON.stringify(a[1])}`);
      const cards = a[1] === "spread" ? (Array.isArray(a[2]) ? a[2] : [null]) : a[1] === "layoff" || a[1] === "discard" ? [a[2]] : [];
      for (const c of cards) if (!isCard(c)) throw bad(`unknown card code ${JSON.stringify(c)} in ${at}`);
      if (a[1] === "draw" && a[2] !== "stock" && a[2] !== "discard") throw bad(`${at} draws from ${JSON.stringify(a[2])}`);
      if (a[1] === "layoff" && !isWhole(a[3], 0)) throw bad(`${at} names no spread`);
    });
    if (rd.left_before !== undefined && !(Array.isArray(rd.left_before) && rd.left_before.every((p) => ids.includes(p)))) {
      throw bad(`${where}'s left_before names someone not seated`);
    }
  });
  if (data.reveal !== undefined && data.reveal !== null) {
    const r = data.reveal;
    if (!isObject(r) || typeof r.server_seed !== "string" || typeof r.commitment !== "string" || typeof r.client_seed !== "string" || !isWhole(r.round, 1)) {
      throw bad("its seeds (reveal) need server_seed, commitment, client_seed and round");
    }
  }
  if (data.names !== undefined && !isObject(data.names)) throw bad("names is not an object");
  return /** @type {Envelope} */ (data);
}

/** @param {string} text base64url without padding @returns {Uint8Array | null} */
function base64url(text) {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null;
  try {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - (text.length % 4)) % 4);
    return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

const VERB_CODES = [["draw", "stock"], ["draw", "discard"], ["drop"], ["leave"], ["discard"], ["spread"], ["layoff"]];
const CODES = Array.from("CDHS").flatMap((s) => Array.from("A23456789TJQK", (r) => r + s));

/**
 * A round in the bot's compact binary link form (bot/presentation/replay_link.py `packed`), as a JSON envelope.
 * @param {Uint8Array} bytes
 * @returns {unknown} checked by `checkEnvelope` like any file
 */
export function unpack(bytes) {
  let at = 0;
  const byte = () => {
    if (at >= bytes.length) throw new RangeError("the data ends too soon");
    return bytes[at++];
  };
  const bigVarint = () => {
    let n = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = byte();
      n |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return n;
      if (shift > 70n) throw new RangeError("a number is too long");
    }
  };
  const deckOf = () => {
    // the deck's Lehmer code (bot/presentation/replay_link.py `_deck_number`): 29 bytes, big-endian
    let n = 0n;
    for (let i = 0; i < 29; i++) n = (n << 8n) | BigInt(byte());
    const digits = new Array(52);
    for (let k = 51; k >= 0; k--) {
      const radix = BigInt(52 - k);
      digits[k] = Number(n % radix);
      n /= radix;
    }
    if (n !== 0n) throw new RangeError("its deck is not an order of the 52 cards");
    const left = [...CODES];
    return digits.map((d) => left.splice(d, 1)[0]);
  };
  const varint = () => {
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      const b = byte();
      n += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return n;
      if (shift > 42) throw new RangeError("a number is too long");
    }
  };
  const card = () => {
    const i = byte();
    return i < 52 ? CODES[i] : `#${i}`;
  };
  const hex = (/** @type {number} */ n) => Array.from({ length: n }, () => byte().toString(16).padStart(2, "0")).join("");
  const text = () => {
    const n = varint();
    if (at + n > bytes.length) throw new RangeError("the data ends too soon");
    const s = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(at, at + n));
    at += n;
    return s;
  };
  const version = byte();
  if (version > VERSION) return { version };
  const stake = varint();
  const n = byte();
  if (n < 2 || n > 5) throw new RangeError("a round has 2 to 5 seats");
  const ids = Array.from({ length: n }, (_, i) => String(i + 1));
  const seats = ids.map((id) => ({ id, stack: varint() }));
  const pots = { game: varint(), flip: varint(), flop: varint() };
  const number = varint();
  const roundId = varint();
  const dealer = ids[byte()];
  const deck = deckOf();
  const left = Array.from({ length: byte() }, () => ids[byte()]);
  const actions = Array.from({ length: varint() }, () => {
    const b = byte();
    const code = VERB_CODES[b & 7];
    const who = ids[b >> 3];
    if (code === undefined || who === undefined) throw new RangeError("an action's code is unknown");
    /** @type {unknown[]} */
    const a = [who, ...code];
    if (code[0] === "discard") a.push(card());
    if (code[0] === "spread") a.push(Array.from({ length: byte() }, card));
    if (code[0] === "layoff") a.push(card(), varint());
    return a;
  });
  /** @type {Record<string, unknown>} */
  const out = { version, stake, seats, pots, number, rounds: [{ dealer, deck, actions, ...(left.length ? { left_before: left } : {}) }] };
  if (roundId) out.round_id = roundId;
  if (byte() === 1) {
    const serverSeed = hex(32);
    const commitment = hex(32);
    const round = varint();
    let clientSeed;
    if (byte() === 1) {
      // each id as a zigzag difference from the one before (bot/presentation/replay_link.py `_client_seed`)
      let previous = 0n;
      const parts = Array.from({ length: varint() }, () => {
        const z = bigVarint();
        previous += z & 1n ? -((z + 1n) >> 1n) : z >> 1n;
        return previous.toString();
      });
      clientSeed = parts.join("-") + text();
    } else {
      clientSeed = text();
    }
    out.reveal = { round, server_seed: serverSeed, commitment, client_seed: clientSeed };
  }
  // an unnamed seat (an empty name) is left out: the page calls it by its number, in the language it speaks then
  out.names = Object.fromEntries(ids.map((id) => [id, text()]).filter(([, name]) => name));
  if (at !== bytes.length) throw new RangeError("there is data after the round");
  return out;
}

/**
 * The rounds carried by a link's fragment: `#b=…` (the bot's binary form, base64url) or
 * `#r=…` (JSON, deflate-raw, then base64url).
 * @param {string} hash location.hash
 * @returns {Promise<Envelope[] | null>} null when the link carries no round
 */
export async function fromFragment(hash) {
  const m = /^#?([rb])=(.*)$/s.exec(hash);
  if (!m) return null;
  const damaged = (/** @type {string} */ why) =>
    new ReplayError(say("damaged", "This link is damaged ({why}). Was it cut short when it was copied? Open the round's JSON file instead.", { why }));
  const bytes = base64url(m[2].trim());
  if (bytes === null) throw damaged("its data is not base64url");
  if (m[1] === "b") {
    let data;
    try {
      data = unpack(bytes);
    } catch (e) {
      throw damaged(e instanceof Error ? e.message : "its data does not unpack");
    }
    return [checkEnvelope(data, say("theLink", "The link"))];
  }
  let json;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    json = await new Response(stream).text();
  } catch {
    throw damaged("its data does not unpack");
  }
  return parseRounds(json, say("theLink", "The link"));
}

/**
 * One file's rounds: a JSON object (a round or a game) or a JSON array of them.
 * @param {string} text
 * @param {string} source
 * @returns {Envelope[]}
 */
export function parseRounds(text, source) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ReplayError(say("notJson", "{source} is not JSON (was it cut short or edited?)", { source }));
  }
  const list = Array.isArray(data) ? data : [data];
  if (!list.length) throw new ReplayError(say("noRound", "{source} holds no round", { source }));
  return list.map((d) => checkEnvelope(d, source));
}

/**
 * A fragment for rounds (the page's own links; the bot builds the same in Python).
 * @param {unknown} data
 * @returns {Promise<string>}
 */
export async function toFragment(data) {
  const stream = new Blob([JSON.stringify(data)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return "#r=" + btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
