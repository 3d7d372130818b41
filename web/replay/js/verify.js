// Checks a Flip Flop deal in the browser (or Node 20+), written from docs/FAIRNESS.md alone.
// It shares no code with the bot: a third, independent verifier beside docs/verify_deal.py and
// docs/verify_deal.js. Only the Web Crypto API (crypto.subtle) is used, so it runs anywhere.

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";
const TWO_32 = 2 ** 32;

/** @returns {SubtleCrypto} */
function subtle() {
  const c = globalThis.crypto;
  if (!c || !c.subtle) {
    throw new Error("this browser has no Web Crypto (crypto.subtle): open the page over https or from localhost");
  }
  return c.subtle;
}

/**
 * The bytes of a hex text, or null when it is not exactly 64 hex digits.
 * @param {string} hex
 * @returns {Uint8Array | null}
 */
export function seedBytes(hex) {
  if (typeof hex !== "string" || !/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * @param {ArrayBuffer} buffer
 * @returns {string}
 */
function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Step 2: SHA-256 of the 32 raw seed bytes (not of the hex text), as 64 lowercase hex digits.
 * @param {Uint8Array} seed
 * @returns {Promise<string>}
 */
export async function commitmentOf(seed) {
  return toHex(await subtle().digest("SHA-256", seed));
}

/**
 * An endless source of 4-byte big-endian integers from HMAC-SHA256(seed, prefix + counter).
 * @param {Uint8Array} seed
 * @param {string} prefix the message before the counter, e.g. "client:1:" or "client:1:dealer:"
 * @returns {Promise<() => Promise<number>>}
 */
async function integers(seed, prefix) {
  const key = await subtle().importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const text = new TextEncoder();
  let counter = 0;
  /** @type {DataView | null} */
  let block = null;
  let offset = 32;
  return async () => {
    if (offset === 32) {
      block = new DataView(await subtle().sign("HMAC", key, text.encode(prefix + String(counter))));
      counter += 1;
      offset = 0;
    }
    const x = /** @type {DataView} */ (block).getUint32(offset, false);
    offset += 4;
    return x;
  };
}

/**
 * Steps 4-7: the 52 card codes in dealing order (position 0 is dealt first).
 * @param {Uint8Array} seed
 * @param {string} clientSeed
 * @param {number} round
 * @returns {Promise<string[]>}
 */
export async function dealingOrder(seed, clientSeed, round) {
  const deck = [];
  for (const suit of SUITS) for (const rank of RANKS) deck.push(rank + suit);
  const next = await integers(seed, `${clientSeed}:${round}:`);
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = TWO_32 - (TWO_32 % n);
    let x = await next();
    while (x >= limit) x = await next();
    const j = x % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * "The first dealer": the seat (0 = first to join) that deals round 1.
 * @param {Uint8Array} seed
 * @param {string} clientSeed
 * @param {number} round
 * @param {number} seats
 * @returns {Promise<number>}
 */
export async function firstDealer(seed, clientSeed, round, seats) {
  const limit = TWO_32 - (TWO_32 % seats);
  const next = await integers(seed, `${clientSeed}:${round}:dealer:`);
  for (;;) {
    const x = await next();
    if (x < limit) return x % seats;
  }
}

/**
 * @typedef {{server_seed: string, commitment: string, client_seed: string, round: number}} Reveal
 * @typedef {{what: "commitment" | "deck" | "dealer" | "seed", ok: boolean, expected: string, found: string}} Check
 * @typedef {{ok: boolean, checks: Check[], deck: string[] | null}} Verdict
 */

/**
 * Every check of a revealed round: the commitment, the dealt deck and, for round 1, the first dealer.
 * @param {Reveal} reveal the seeds as the bot published them
 * @param {string[]} dealt the deck of the transcript, top card first
 * @param {{seats: number, dealerSeat: number} | null} first for a table's round 1: how many sat, who dealt
 * @returns {Promise<Verdict>}
 */
export async function verifyDeal(reveal, dealt, first) {
  const seed = seedBytes(reveal.server_seed);
  if (seed === null) {
    return {
      ok: false,
      deck: null,
      checks: [{ what: "seed", ok: false, expected: "64 hex digits", found: String(reveal.server_seed) }],
    };
  }
  /** @type {Check[]} */
  const checks = [];
  const commitment = await commitmentOf(seed);
  const published = String(reveal.commitment).trim().toLowerCase();
  checks.push({ what: "commitment", ok: commitment === published, expected: published, found: commitment });
  const deck = await dealingOrder(seed, reveal.client_seed, reveal.round);
  checks.push({ what: "deck", ok: deck.join(" ") === dealt.join(" "), expected: dealt.join(" "), found: deck.join(" ") });
  if (first !== null && reveal.round === 1) {
    const seat = await firstDealer(seed, reveal.client_seed, reveal.round, first.seats);
    checks.push({ what: "dealer", ok: seat === first.dealerSeat, expected: String(first.dealerSeat), found: String(seat) });
  }
  return { ok: checks.every((c) => c.ok), checks, deck };
}
