// The replay page: loads rounds (link or files), steps through them, verifies the deal.

import { label } from "./cards.js";
import { fromFragment, parseRounds, toFragment } from "./codec.js";
import { ReplayError, playTranscript } from "./rules.js";
import { drawTable } from "./table.js";
import { verifyDeal } from "./verify.js";

/**
 * @typedef {{played: import("./rules.js").PlayedRound, reveal: import("./verify.js").Reveal | null,
 *   names: Record<string, string>, roundId: number | null}} Loaded
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
};

/** @type {import("./codec.js").Envelope[]} what is open, as read: "Link to these rounds" links it */
let opened = [];

/** @type {Loaded[]} */
let rounds = [];
let current = 0;
let frame = 0;
/** @type {number | null} */
let timer = null;

/** @param {import("./codec.js").Envelope[]} envelopes @returns {Loaded[]} */
function load(envelopes) {
  /** @type {Loaded[]} */
  const out = [];
  for (const env of envelopes) {
    const names = env.names || {};
    const played = playTranscript(env, { names, firstNumber: env.number });
    const single = played.length === 1;
    for (const p of played) {
      out.push({ played: p, reveal: single && env.reveal ? env.reveal : null, names, roundId: single ? env.round_id ?? null : null });
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
    ui.shared.hidden = true;
    ui.error.hidden = true;
    ui.intro.hidden = true;
    ui.viewer.hidden = false;
    showRound(0);
  } catch (e) {
    fail(e instanceof ReplayError ? e.message : `This round could not be opened: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** @param {number} index */
function showRound(index) {
  stop();
  current = Math.max(0, Math.min(index, rounds.length - 1));
  const r = rounds[current];
  const id = r.roundId !== null ? ` · #${r.roundId}` : "";
  ui.title.textContent = `Round ${r.played.number}${id}` + (rounds.length > 1 ? ` (${current + 1} of ${rounds.length})` : "");
  ui.prevRound.disabled = current === 0;
  ui.nextRound.disabled = current === rounds.length - 1;
  ui.prevRound.hidden = ui.nextRound.hidden = rounds.length < 2;
  ui.verdict.replaceChildren();
  ui.verdict.removeAttribute("data-ok");
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
  go(0);
}

/** @param {number} f */
function go(f) {
  const r = rounds[current].played;
  frame = Math.max(0, Math.min(f, r.frames.length - 1));
  drawTable(ui.table, r.frames[frame]);
  ui.table.dataset.frame = String(frame);
  ui.table.dataset.last = String(frame === r.frames.length - 1);
  ui.step.textContent = `step ${frame + 1} of ${r.frames.length}`;
  for (const b of ui.moves.querySelectorAll("button")) {
    const here = Number(/** @type {HTMLElement} */ (b).dataset.frame) === frame && /** @type {HTMLElement} */ (b).dataset.kind !== "end";
    b.classList.toggle("current", here);
    if (here) b.scrollIntoView({ block: "nearest" });
  }
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  ui.play.textContent = "▶ Play";
  ui.play.setAttribute("aria-pressed", "false");
}

function togglePlay() {
  if (timer !== null) {
    stop();
    return;
  }
  const r = rounds[current].played;
  if (frame === r.frames.length - 1) go(0);
  ui.play.textContent = "⏸ Pause";
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
  ui.verdict.replaceChildren();
  if (r.reveal === null) {
    ui.verdict.dataset.ok = "none";
    line("This round carries no seeds to check: it was dealt before the bot published its shuffles, or it was saved without them.");
    return;
  }
  ui.verify.disabled = true;
  try {
    const rv = r.reveal;
    const seats = r.played.seatIds;
    const first = rv.round === 1 ? { seats: seats.length, dealerSeat: seats.indexOf(r.played.dealer) } : null;
    const verdict = await verifyDeal(rv, r.played.deck, first);
    ui.verdict.dataset.ok = String(verdict.ok);
    line(verdict.ok ? "✔ This deal checks out" : "✘ This deal does NOT check out", verdict.ok ? "ok" : "bad");
    const name = (/** @type {number} */ seat) => r.names[seats[seat]] || seats[seat] || `seat ${seat}`;
    for (const c of verdict.checks) {
      if (c.what === "seed") line(`✘ the server seed is not 64 hex digits: ${c.found}`, "bad");
      if (c.what === "commitment") {
        line(c.ok ? `✔ commitment: SHA-256(server seed) = ${c.found}, the commitment published before the round`
          : `✘ commitment: SHA-256(server seed) is ${c.found}, but the published commitment is ${c.expected}: this is not the seed the bot committed to`, c.ok ? "ok" : "bad");
      }
      if (c.what === "deck") {
        if (c.ok) line("✔ deck: server seed + client seed + round number give exactly the deck dealt", "ok");
        else {
          const i = firstDifference(c.found, c.expected);
          const got = c.found.split(" ");
          const dealt = c.expected.split(" ");
          line(`✘ deck: the seeds give another deck; the first difference is card ${i + 1}: the seeds give ${label(got[i])}, the round dealt ${label(dealt[i])}`, "bad");
          line(`the seeds give: ${got.map(label).join(" ")}`, "detail");
        }
      }
      if (c.what === "dealer") {
        line(c.ok ? `✔ first dealer: the seeds choose seat ${c.found} (${name(Number(c.found))}), who dealt`
          : `✘ first dealer: the seeds choose seat ${c.found} (${name(Number(c.found))}), but ${name(Number(c.expected))} dealt`, c.ok ? "ok" : "bad");
      }
    }
    line(`server seed ${rv.server_seed} · commitment ${rv.commitment} · client seed “${rv.client_seed}” · round ${rv.round}`, "detail");
  } catch (e) {
    ui.verdict.dataset.ok = "error";
    line(`The check could not run: ${e instanceof Error ? e.message : String(e)}`, "bad");
  } finally {
    ui.verify.disabled = false;
  }
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
  ui.shared.textContent = `${copied ? "Copied: the" : "The"} address bar now links to these rounds (${link.length} characters).`;
  ui.shared.hidden = false;
}

/** @param {FileList | File[]} files */
function openFiles(files) {
  const list = Array.from(files);
  if (!list.length) return;
  history.replaceState(null, "", location.pathname + location.search);
  open(async () => {
    /** @type {import("./codec.js").Envelope[]} */
    const all = [];
    for (const f of list) all.push(...parseRounds(await f.text(), f.name));
    return all;
  });
}

function openHash() {
  if (location.hash === "#file") {
    fail("This round is too long for a link. Open the JSON file that /flipflop round attaches: drop it here or pick it below.");
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
openHash();
