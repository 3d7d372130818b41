// The replay page: loads rounds (link or files), steps through them, verifies the deal.

import { label } from "./cards.js";
import { fromFragment, parseRounds, toFragment } from "./codec.js";
import { ReplayError, playTranscript } from "./rules.js";
import { drawTable } from "./table.js";
import { verifyDeal } from "./verify.js";
import { chooseLanguage, number, say, spoken, useLanguage } from "./words.js";

/**
 * @typedef {{played: import("./rules.js").PlayedRound, reveal: import("./verify.js").Reveal | null,
 *   roundId: number | null}} Loaded
 * @typedef {{kind: "none"} | {kind: "noCrypto"} | {kind: "failed", error: string}
 *   | {kind: "checked", verdict: Awaited<ReturnType<typeof verifyDeal>>}} Checked what Verify found
 */

const STEP_MS = 900;

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

const ui = {
  intro: byId("intro"),
  error: byId("error"),
  viewer: byId("viewer"),
  table: byId("table"),
  moves: byId("moves"),
  title: byId("round-title"),
  step: byId("step"),
  play: /** @type {HTMLButtonElement} */ (byId("play")),
  verify: /** @type {HTMLButtonElement} */ (byId("verify")),
  verdict: byId("verdict"),
  files: /** @type {HTMLInputElement} */ (byId("files")),
  drop: byId("drop"),
  prevRound: /** @type {HTMLButtonElement} */ (byId("prev-round")),
  nextRound: /** @type {HTMLButtonElement} */ (byId("next-round")),
  share: /** @type {HTMLButtonElement} */ (byId("share")),
  shared: byId("shared"),
  language: /** @type {HTMLSelectElement} */ (byId("language")),
};

/**
 * Every fixed text of index.html: where (an element's id), what of it (its text, title or aria-label)
 * and its word; its English is index.html's own.
 * @type {[string, "text" | "title" | "aria-label", string][]}
 */
const FIXED = [
  ["page-title", "text", "pageTitle"],
  ["language", "aria-label", "language"],
  ["tagline", "text", "tagline"],
  ["pick-files", "text", "pickFiles"],
  ["prev-round", "text", "previousRound"],
  ["prev-round", "title", "previousRoundKey"],
  ["next-round", "text", "nextRound"],
  ["next-round", "title", "nextRoundKey"],
  ["share", "text", "share"],
  ["share", "title", "shareTitle"],
  ["steps", "aria-label", "stepThrough"],
  ["first", "title", "firstStep"],
  ["back", "text", "back"],
  ["back", "title", "backKey"],
  ["play", "title", "playKey"],
  ["forward", "text", "forward"],
  ["forward", "title", "forwardKey"],
  ["last", "title", "lastStep"],
  ["verify", "text", "verify"],
  ["moves-title", "text", "moves"],
  ["how-checked", "text", "howChecked"],
];

/** @param {HTMLElement} e @param {string} what */
const read = (e, what) => (what === "text" ? e.textContent || "" : e.getAttribute(what) || "").trim().replace(/\s+/g, " ");
const ENGLISH = FIXED.map(([id, what]) => read(byId(id), what));
const OPEN_ROUND = read(byId("open-round"), "text").replace("Watch the replay", "{watch}").replace("/flipflop round", "{command}");

/** The page's fixed texts in its language; `<html lang>` follows (a screen reader reads in it). */
function speakPage() {
  document.documentElement.lang = spoken();
  document.title = say("pageTitle", ENGLISH[0]);
  FIXED.forEach(([id, what, key], i) => {
    const e = byId(id);
    if (what === "text") e.textContent = say(key, ENGLISH[i]);
    else e.setAttribute(what, say(key, ENGLISH[i]));
  });
  // "Open a round: follow a **Watch the replay** link …": the button's name bold, the command as code
  const open = byId("open-round");
  open.replaceChildren();
  for (const part of say("openRound", OPEN_ROUND).split(/(\{watch\}|\{command\})/)) {
    if (part === "{watch}") open.append(Object.assign(document.createElement("strong"), { textContent: say("watch", "Watch the replay") }));
    else if (part === "{command}") open.append(Object.assign(document.createElement("code"), { textContent: "/flipflop round" }));
    else open.append(part);
  }
  ui.language.value = spoken();
}

/** @type {import("./codec.js").Envelope[]} what is open, as read: "Link to these rounds" links it */
let opened = [];

/** @type {Loaded[]} */
let rounds = [];
let current = 0;
let frame = 0;
/** @type {number | null} */
let timer = null;
/** @type {Checked | null} what Verify found for the round shown (null: not clicked), said in `showVerdict` */
let checked = null;
/** @type {{copied: boolean, count: number} | null} what "Link to these rounds" did, said in `showShared` */
let sharedNote = null;
/** Opens again what the page last tried to open: a switch of language says its message again. */
let reopen = openHash;

/** @param {import("./codec.js").Envelope[]} envelopes @returns {Loaded[]} */
function load(envelopes) {
  /** @type {Loaded[]} */
  const out = [];
  for (const env of envelopes) {
    const played = playTranscript(env, { names: env.names || {}, firstNumber: env.number });
    const single = played.length === 1;
    for (const p of played) {
      out.push({ played: p, reveal: single && env.reveal ? env.reveal : null, roundId: single ? env.round_id ?? null : null });
    }
  }
  if (envelopes.length > 1) out.sort((a, b) => a.played.number - b.played.number || (a.roundId ?? 0) - (b.roundId ?? 0));
  return out;
}

/** Show a message instead of a table: nothing half-drawn stays on the page. @param {string} message */
function fail(message) {
  stop();
  rounds = [];
  ui.viewer.hidden = true;
  ui.table.replaceChildren();
  ui.moves.replaceChildren();
  ui.error.textContent = message;
  ui.error.hidden = false;
  ui.intro.hidden = false;
}

/** @param {() => Promise<import("./codec.js").Envelope[] | null>} read */
async function open(read) {
  try {
    const envelopes = await read();
    if (envelopes === null) return;
    const loaded = load(envelopes);
    rounds = loaded;
    opened = envelopes;
    sharedNote = null;
    ui.shared.hidden = true;
    ui.error.hidden = true;
    ui.intro.hidden = true;
    ui.viewer.hidden = false;
    showRound(0);
  } catch (e) {
    fail(e instanceof ReplayError ? e.message : say("notOpened", "This round could not be opened: {error}", { error: e instanceof Error ? e.message : String(e) }));
  }
}

/** @param {number} index */
function showRound(index, at = 0) {
  stop();
  current = Math.max(0, Math.min(index, rounds.length - 1));
  const r = rounds[current];
  const id = r.roundId !== null ? ` · #${r.roundId}` : "";
  const of = say("roundIndex", "({index} of {count})", { index: number(current + 1), count: number(rounds.length) });
  ui.title.textContent = say("roundTitle", "Round {number}", { number: number(r.played.number) }) + id + (rounds.length > 1 ? ` ${of}` : "");
  ui.prevRound.disabled = current === 0;
  ui.nextRound.disabled = current === rounds.length - 1;
  ui.prevRound.hidden = ui.nextRound.hidden = rounds.length < 2;
  checked = null;
  showVerdict();
  ui.moves.replaceChildren();
  r.played.moves.forEach((m, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.label;
    b.dataset.frame = String(m.frame);
    b.dataset.kind = m.kind;
    b.dataset.index = String(i);
    b.addEventListener("click", () => {
      stop();
      go(m.frame);
    });
    li.append(b);
    ui.moves.append(li);
  });
  go(at);
}

/** @param {number} f */
function go(f) {
  const r = rounds[current].played;
  frame = Math.max(0, Math.min(f, r.frames.length - 1));
  drawTable(ui.table, r.frames[frame], say);
  ui.table.dataset.frame = String(frame);
  ui.table.dataset.last = String(frame === r.frames.length - 1);
  ui.step.textContent = say("step", "step {number} of {count}", { number: number(frame + 1), count: number(r.frames.length) });
  for (const b of ui.moves.querySelectorAll("button")) {
    const here = Number(/** @type {HTMLElement} */ (b).dataset.frame) === frame && /** @type {HTMLElement} */ (b).dataset.kind !== "end";
    b.classList.toggle("current", here);
    if (here) b.scrollIntoView({ block: "nearest" });
  }
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  ui.play.textContent = say("play", "▶ Play");
  ui.play.setAttribute("aria-pressed", "false");
}

function togglePlay() {
  if (timer !== null) {
    stop();
    return;
  }
  const r = rounds[current].played;
  if (frame === r.frames.length - 1) go(0);
  ui.play.textContent = say("pause", "⏸ Pause");
  ui.play.setAttribute("aria-pressed", "true");
  timer = window.setInterval(() => {
    if (frame >= rounds[current].played.frames.length - 1) stop();
    else go(frame + 1);
  }, STEP_MS);
}

/** @param {string} text @param {string} [className] */
function line(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  ui.verdict.append(p);
}

/** @param {string} a @param {string} b */
function firstDifference(a, b) {
  const x = a.split(" ");
  const y = b.split(" ");
  const i = x.findIndex((c, k) => c !== y[k]);
  return i;
}

async function verify() {
  const r = rounds[current];
  if (r.reveal === null || !globalThis.crypto || !globalThis.crypto.subtle) {
    checked = { kind: r.reveal === null ? "none" : "noCrypto" };
    showVerdict();
    return;
  }
  const [here, from] = [current, opened];
  ui.verify.disabled = true;
  /** @type {Checked} */
  let found;
  try {
    const seats = r.played.seatIds;
    const first = r.reveal.round === 1 ? { seats: seats.length, dealerSeat: seats.indexOf(r.played.dealer) } : null;
    found = { kind: "checked", verdict: await verifyDeal(r.reveal, r.played.deck, first) };
  } catch (e) {
    found = { kind: "failed", error: e instanceof Error ? e.message : String(e) };
  } finally {
    ui.verify.disabled = false;
  }
  if (current !== here || opened !== from) return; // another round is shown now
  checked = found;
  showVerdict();
}

/** What Verify found for the round shown, in the page's language now (nothing before it is clicked). */
function showVerdict() {
  ui.verdict.replaceChildren();
  ui.verdict.removeAttribute("data-ok");
  if (checked === null) return;
  const r = rounds[current];
  if (checked.kind === "none") {
    ui.verdict.dataset.ok = "none";
    line(say("noSeeds", "This round carries no seeds to check: it was dealt before the bot published its shuffles, or it was saved without them."));
    return;
  }
  if (checked.kind !== "checked" || r.reveal === null) {
    const error = checked.kind === "failed" ? checked.error
      : say("noCrypto", "this browser has no Web Crypto (crypto.subtle): open the page over https or from localhost");
    ui.verdict.dataset.ok = "error";
    line(say("checkFailed", "The check could not run: {error}", { error }), "bad");
    return;
  }
  const { verdict } = checked;
  const rv = r.reveal;
  const seats = r.played.seatIds;
  ui.verdict.dataset.ok = String(verdict.ok);
  line(verdict.ok ? say("checksOut", "✔ This deal checks out") : say("doesNotCheckOut", "✘ This deal does NOT check out"), verdict.ok ? "ok" : "bad");
  const name = (/** @type {number} */ seat) => r.played.names[seats[seat]] || seats[seat];
  for (const c of verdict.checks) {
    if (c.what === "seed") line(say("badSeed", "✘ the server seed is not 64 hex digits: {seed}", { seed: c.found }), "bad");
    if (c.what === "commitment") {
      line(c.ok ? say("commitmentOk", "✔ commitment: SHA-256(server seed) = {found}, the commitment published before the round", { found: c.found })
        : say("commitmentBad", "✘ commitment: SHA-256(server seed) is {found}, but the published commitment is {expected}: this is not the seed the bot committed to", { found: c.found, expected: c.expected }), c.ok ? "ok" : "bad");
    }
    if (c.what === "deck") {
      if (c.ok) line(say("deckOk", "✔ deck: server seed + client seed + round number give exactly the deck dealt"), "ok");
      else {
        const i = firstDifference(c.found, c.expected);
        const got = c.found.split(" ");
        const dealt = c.expected.split(" ");
        line(say("deckBad", "✘ deck: the seeds give another deck; the first difference is card {number}: the seeds give {found}, the round dealt {dealt}", { number: number(i + 1), found: label(got[i]), dealt: label(dealt[i]) }), "bad");
        line(say("deckGiven", "the seeds give: {cards}", { cards: got.map(label).join(" ") }), "detail");
      }
    }
    if (c.what === "dealer") {
      // {index} counts from 0 as FAIRNESS.md does; a name may be "seat {number}", counted from 1
      const seat = { index: c.found, name: name(Number(c.found)), dealer: name(Number(c.expected)) };
      line(c.ok ? say("dealerOk", "✔ first dealer: the seeds draw {index} (0 is the first player who joined), that is {name}, who dealt", seat)
        : say("dealerBad", "✘ first dealer: the seeds draw {index} (0 is the first player who joined), that is {name}, but {dealer} dealt", seat), c.ok ? "ok" : "bad");
    }
  }
  const seeds = { seed: rv.server_seed, commitment: rv.commitment, client: rv.client_seed, number: number(rv.round) };
  line(say("seeds", "server seed {seed} · commitment {commitment} · client seed “{client}” · round {number}", seeds), "detail");
}

async function share() {
  const hash = await toFragment(opened.length === 1 ? opened[0] : opened);
  history.replaceState(null, "", location.pathname + location.search + hash);
  const link = location.href;
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    copied = false; // no clipboard (an http page, a refused permission): the address bar has it
  }
  sharedNote = { copied, count: link.length };
  showShared();
}

/** What "Link to these rounds" did, in the page's language now: the figures of the link it made. */
function showShared() {
  ui.shared.hidden = sharedNote === null;
  if (sharedNote === null) return;
  const count = { count: number(sharedNote.count) };
  ui.shared.textContent = sharedNote.copied
    ? say("copied", "Copied: the address bar now links to these rounds ({count} characters).", count)
    : say("shared", "The address bar now links to these rounds ({count} characters).", count);
}

/** @param {FileList | File[]} files */
function openFiles(files) {
  const list = Array.from(files);
  if (!list.length) return;
  reopen = () => openFiles(list);
  history.replaceState(null, "", location.pathname + location.search);
  open(async () => {
    /** @type {import("./codec.js").Envelope[]} */
    const all = [];
    for (const f of list) all.push(...parseRounds(await f.text(), f.name));
    return all;
  });
}

function openHash() {
  reopen = openHash;
  if (location.hash === "#file") {
    fail(say("tooLong", "This round is too long for a link. Open the JSON file that {command} attaches: drop it here or pick it below.", { command: "/flipflop round" }));
    ui.error.classList.add("info");
    return;
  }
  ui.error.classList.remove("info");
  open(() => fromFragment(location.hash));
}

byId("first").addEventListener("click", () => { stop(); go(0); });
byId("back").addEventListener("click", () => { stop(); go(frame - 1); });
byId("forward").addEventListener("click", () => { stop(); go(frame + 1); });
byId("last").addEventListener("click", () => { stop(); go(Infinity); });
ui.play.addEventListener("click", togglePlay);
ui.verify.addEventListener("click", verify);
ui.share.addEventListener("click", share);
ui.prevRound.addEventListener("click", () => showRound(current - 1));
ui.nextRound.addEventListener("click", () => showRound(current + 1));
ui.files.addEventListener("change", () => ui.files.files && openFiles(ui.files.files));
for (const target of [document.body]) {
  target.addEventListener("dragover", (e) => { e.preventDefault(); ui.drop.classList.add("over"); });
  target.addEventListener("dragleave", () => ui.drop.classList.remove("over"));
  target.addEventListener("drop", (e) => {
    e.preventDefault();
    ui.drop.classList.remove("over");
    if (e.dataTransfer) openFiles(e.dataTransfer.files);
  });
}
document.addEventListener("keydown", (e) => {
  if (!rounds.length || e.target instanceof HTMLInputElement) return;
  const keys = /** @type {Record<string, () => void>} */ ({
    ArrowLeft: () => { stop(); go(frame - 1); },
    ArrowRight: () => { stop(); go(frame + 1); },
    Home: () => { stop(); go(0); },
    End: () => { stop(); go(Infinity); },
    " ": togglePlay,
    PageUp: () => showRound(current - 1),
    PageDown: () => showRound(current + 1),
  });
  const act = keys[e.key];
  if (act) {
    e.preventDefault();
    act();
  }
});
window.addEventListener("hashchange", openHash);

/**
 * Speak `lang` (the picker's, or the link's): the page's words, and everything shown said again in
 * them at once: the round open, its unnamed seats, what Verify found, the note of a link made.
 * @param {string} lang
 */
async function speak(lang) {
  await useLanguage(lang);
  speakPage();
  if (!rounds.length) {
    if (!ui.error.hidden) reopen(); // what the link or the files could not open, said again
    return;
  }
  const [at, step, found] = [current, frame, checked];
  rounds = load(opened); // the moves, captions and seats called by number are worded as the round is played
  showRound(at, step);
  checked = found;
  showVerdict();
  showShared();
}

ui.language.addEventListener("change", async () => {
  const lang = ui.language.value;
  const address = new URL(location.href);
  address.searchParams.set("lang", lang); // a link copied now opens in this language; the round stays
  history.replaceState(null, "", address.pathname + address.search + address.hash);
  await speak(lang);
});

const offered = Array.from(ui.language.options, (o) => o.value);
const lang = chooseLanguage(offered, new URLSearchParams(location.search).get("lang"), navigator.languages || [navigator.language]);
useLanguage(lang).then(() => {
  speakPage();
  openHash();
});
