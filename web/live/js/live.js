// The live table: signs in (a one-time link, or a Discord Activity), follows the table over a
// WebSocket and draws each state with the replay page's renderer; a player plays their hand here.

import { cardFace, label } from "../../replay/js/cards.js";
import { drawTable, fill } from "../../replay/js/table.js";

/**
 * @typedef {{id: string, status: string, seq: number, practice: boolean, tournament?: boolean, stake: number, now: number,
 *   deadline: number | null, nextRound: number | null, moves: string[], lobby: string[], last: string,
 *   toAct?: string | null, over?: boolean, version: number}} Info
 * @typedef {{seat: string, seq: number, hand: string[], value: number, canAct: boolean,
 *   phase: string | null, drawn: string | null, legal: [string, string | null][], away: boolean, gone?: boolean,
 *   finished?: boolean}} You
 * @typedef {{type: "state", info: Info, table: import("../../replay/js/rules.js").TableState | null,
 *   you: You | null}} State
 * @typedef {{type: "answer", id: number | null, ok: boolean, message?: string}} Answer
 * @typedef {{type: "refused", message: string, code: string, words?: Record<string, string>}} Refused
 * @typedef {{type: "hello", table: string, you: string, words?: Record<string, string>}} Hello
 */

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}
/** @param {string} id @returns {HTMLButtonElement} */
function button(id) {
  return /** @type {HTMLButtonElement} */ (document.getElementById(id));
}

const ui = {
  who: byId("who"),
  error: byId("error"),
  behind: byId("behind"),
  signin: byId("signin"),
  live: byId("live"),
  title: byId("title"),
  clock: byId("clock"),
  turn: byId("turn"),
  table: byId("table"),
  mine: byId("mine"),
  hand: byId("hand"),
  answer: byId("answer"),
  hint: byId("hint"),
  layoffs: byId("layoffs"),
  lobby: byId("lobby"),
  log: byId("log"),
  draw: button("draw"),
  take: button("take"),
  drop: button("drop"),
  spread: button("spread"),
  discard: button("discard"),
  back: button("back"),
  away: byId("away"),
  moves: byId("moves-bar"),
  mineTitle: byId("mine-title"),
  logTitle: byId("log-title"),
};

const SESSION = "flipflop-live-session";
/** @type {State | null} */
let state = null;
let receivedAt = 0;
/** @type {Set<string>} */
let selected = new Set();
/** @type {WebSocket | null} */
let socket = null;
let retry = 0;
let asked = 0;
let closedForGood = false;
let answeredAt = -1;
let myTurn = false;
/** @type {Record<string, string>} The page's words in the member's language (the hello's); English where missing. */
let words = {};

/**
 * A word of the page in the member's language, its `{blanks}` filled.
 * @param {string} key @param {string} english @param {Record<string, string | number>} [blanks]
 */
function say(key, english, blanks = {}) {
  return fill(words[key] || english, blanks);
}

/**
 * The page's words (the hello's, or a refusal's): every fixed label and name on the page in them.
 * @param {Record<string, string> | undefined} given
 */
function speak(given) {
  words = given || {};
  if (words.lang) document.documentElement.lang = words.lang;
  document.title = say("pageTitle", "Flip Flop live table");
  byId("game-name").textContent = say("gameName", "Flip Flop");
  byId("live-tag").textContent = say("liveTag", "live");
  byId("signin-text").textContent = say("signIn", byId("signin-text").textContent || "");
  ui.hand.setAttribute("aria-label", say("yourCards", "Your cards: press a card to select it"));
  byId("moves-bar").setAttribute("aria-label", say("yourMoves", "Your moves"));
  ui.table.setAttribute("aria-label", say("theTable", "The table"));
  ui.behind.textContent = say("reconnecting", ui.behind.textContent || "");
  ui.mineTitle.textContent = say("yourHand", "Your hand");
  ui.logTitle.textContent = say("lastMoves", "Last moves");
  ui.draw.textContent = say("draw", "Draw from stock");
  ui.drop.textContent = say("drop", "Drop");
  ui.back.textContent = say("back", "I'm back");
  ui.away.textContent = say("away", ui.away.textContent || "");
}

/** Discord's markdown (bold, code) and command mentions, as plain text. @param {string} text */
function plain(text) {
  return text.replace(/\*\*/g, "").replace(/`/g, "").replace(/<\/([^:>]+):\d+>/g, "/$1");
}

/** @param {string} message */
function fail(message) {
  ui.error.textContent = plain(message);
  ui.error.hidden = false;
}

/** A session from the link in the address (used once, then taken out of the address). */
async function signIn() {
  const link = location.hash.slice(1);
  if (link) {
    history.replaceState(null, "", location.pathname);
    const reply = await fetch("/live/api/signin", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ link }),
    });
    const body = /** @type {{session?: string, error?: string}} */ (await reply.json());
    if (!reply.ok || !body.session) {
      sessionStorage.removeItem(SESSION);
      fail(body.error || "This link does not sign you in.");
      ui.who.textContent = say("notSignedIn", "Not signed in");
      return null;
    }
    sessionStorage.setItem(SESSION, body.session);
    return body.session;
  }
  return sessionStorage.getItem(SESSION);
}

/** @param {string} session */
function connect(session) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/live/ws`);
  socket = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", session })));
  ws.addEventListener("message", (event) => {
    const message = /** @type {State | Answer | Refused | Hello} */ (JSON.parse(String(event.data)));
    if (message.type === "state") {
      retry = 0;
      ui.behind.hidden = true;
      if (state && message.info.seq !== state.info.seq && answeredAt !== message.info.seq) {
        ui.answer.textContent = ""; // a refusal is about the turn it answered, not a later one
      }
      state = message;
      receivedAt = Date.now() / 1000;
      draw();
    } else if (message.type === "answer") {
      ui.answer.textContent = message.ok ? "" : plain(message.message || "");
      answeredAt = state ? state.info.seq : -1;
      document.body.dataset.waiting = "";
    } else if (message.type === "refused") {
      closedForGood = true;
      sessionStorage.removeItem(SESSION);
      speak(message.words); // the reader's words (the browser's language), with the refusal
      fail(message.message);
      ui.who.textContent = say("notSignedIn", "Not signed in");
    } else if (message.type === "hello") {
      speak(message.words);
      ui.who.textContent = say("signedIn", "Signed in");
    }
  });
  ws.addEventListener("close", () => {
    socket = null;
    if (closedForGood) return;
    ui.behind.hidden = false; // the table shown is as of the last state received
    retry = Math.min(retry + 1, 6);
    setTimeout(() => connect(session), 250 * 2 ** retry);
  });
}

/** @param {string} op @param {string | null} value */
function send(op, value) {
  if (!socket || !state || !state.you) return;
  asked += 1;
  document.body.dataset.waiting = "1";
  ui.answer.textContent = "";
  socket.send(JSON.stringify({ type: "move", id: asked, seq: state.you.seq, op, value }));
}

/** @param {string} op @param {string | null} [value] */
function legal(op, value) {
  if (!state || !state.you) return false;
  return state.you.legal.some(([o, v]) => o === op && (value === undefined || v === value));
}

/** The selection as the codec writes cards: canonical order is the engine's business. */
function chosen() {
  const hand = state && state.you ? state.you.hand : [];
  return hand.filter((c) => selected.has(c));
}

function drawHand() {
  const you = state && state.you;
  const gone = Boolean(you && you.gone && !state?.info.over); // left the game, or out of chips
  ui.mine.hidden = !you || gone;
  if (state && !you && state.info.status !== "closed") ui.who.textContent = say("watching", "Signed in · watching (hands stay hidden)");
  else if (gone) ui.who.textContent = say("gone", "You're out of this game now: you can still watch the table.");
  else if (you) ui.who.textContent = say("signedIn", "Signed in"); // seated since (a lobby, then the deal)
  if (!you || gone) return;
  if (you.finished) {
    // the game is over (or the table closed): the hand's last cards and why, no moves, as Discord's hand
    ui.moves.hidden = true;
    ui.away.hidden = true;
    ui.layoffs.replaceChildren();
    selected = new Set();
    ui.hand.setAttribute("aria-label", say("yourHand", "Your hand"));
    ui.hand.replaceChildren(...you.hand.map((code) => cardFace(code)));
    ui.hint.textContent = state && state.info.tournament
      ? say("tournamentHandFinished", "🏁 This table's round is over: your stack went back to the tournament, whose message shows the standings.")
      : say("handFinished", "🏁 The game is over; this hand is finished.");
    return;
  }
  ui.moves.hidden = false;
  ui.hand.setAttribute("aria-label", say("yourCards", "Your cards: press a card to select it"));
  ui.away.hidden = !you.away;
  ui.back.hidden = !you.away;
  selected = new Set([...selected].filter((c) => you.hand.includes(c)));
  ui.hand.replaceChildren();
  for (const code of you.hand) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.card = code;
    b.setAttribute("aria-pressed", selected.has(code) ? "true" : "false");
    b.setAttribute("aria-label", code === you.drawn ? say("justDrawn", "{card} (just drawn)", { card: label(code) }) : label(code));
    b.append(cardFace(code, code === you.drawn ? { mark: say("newMark", "new") } : {}));
    b.addEventListener("click", () => {
      if (selected.has(code)) selected.delete(code);
      else selected.add(code);
      drawHand();
      /** @type {HTMLElement | null} */ (ui.hand.querySelector(`[data-card="${code}"]`))?.focus();
    });
    b.addEventListener("dblclick", () => {
      if (legal("discard", code)) send("discard", code);
    });
    ui.hand.append(b);
  }
  const picked = chosen();
  ui.draw.disabled = !legal("stock");
  ui.take.disabled = !legal("take");
  const top = state && state.table ? state.table.discard[state.table.discard.length - 1] : null;
  ui.take.textContent = top ? say("take", "Take {card}", { card: label(top) }) : say("takeDiscard", "Take the discard");
  ui.drop.disabled = !legal("drop");
  ui.drop.textContent = say("dropValue", "Drop ({value})", { value: String(you.value) }); // as Discord's
  const spreadValue = picked.join(".");
  ui.spread.disabled = !(picked.length >= 3 && you.legal.some(([o, v]) => o === "spread" && v && sameCards(v, picked)));
  ui.discard.disabled = !(picked.length === 1 && legal("discard", picked[0]));
  ui.discard.textContent = picked.length === 1 ? say("discard", "Discard {card}", { card: label(picked[0]) }) : say("discardSelected", "Discard selected");
  ui.spread.textContent = picked.length >= 3 ? say("spread", "Lay down {cards}", { cards: picked.map(label).join(" ") }) : say("spreadSelected", "Lay down selected");
  // a greyed move says why, where the cards picked are the reason
  const canDiscard = you.legal.some(([o]) => o === "discard"); // drawn: spreads may be laid now
  if (picked.length >= 3 && ui.spread.disabled && canDiscard) {
    ui.hint.textContent = say("notASpread", "Those cards are not a run (3 or more in a row of one suit) or a set (3 or 4 of one rank).");
  } else if (picked.length === 1 && ui.discard.disabled && canDiscard) {
    ui.hint.textContent = say("notThatDiscard", "You can't discard the card you took from the discard pile this turn.");
  } else if (picked.length === 0 && canDiscard) {
    // drawn, nothing picked: every move is greyed until a card is, so the page says what comes next
    ui.hint.textContent = say("pickToDiscard", "👆 Pick a card, then Discard it; or pick three or more that make a run or a set, then Lay down.");
  } else {
    ui.hint.textContent = "";
  }
  ui.spread.onclick = () => {
    const match = you.legal.find(([o, v]) => o === "spread" && v && sameCards(v, picked));
    send("spread", match ? match[1] : spreadValue);
  };
  ui.layoffs.replaceChildren();
  if (picked.length === 1) {
    for (const [op, value] of you.legal) {
      if (op !== "layoff" || !value || !value.startsWith(picked[0] + "@")) continue;
      const target = value.split("@")[1];
      const b = document.createElement("button");
      b.type = "button";
      const spread = `#${Number(target) + 1}`; // numbered as the table and Discord number them
      b.textContent = say("layoff", "Lay {card} off on spread {spread}", { card: label(picked[0]), spread });
      b.addEventListener("click", () => send("layoff", value));
      ui.layoffs.append(b);
    }
  }
  for (const [op, value] of you.legal) {
    if (op !== "tonk" || !value) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = say("tonk", "Tonk out: {cards}", { cards: value.split("|").map((s) => s.split(".").map(label).join(" ")).join(" + ") });
    b.addEventListener("click", () => send("tonk", value));
    ui.layoffs.append(b);
  }
}

/** @param {string} value @param {string[]} cards */
function sameCards(value, cards) {
  const mine = value.split(".");
  return mine.length === cards.length && cards.every((c) => mine.includes(c));
}

function draw() {
  if (!state) return;
  ui.live.hidden = false;
  ui.signin.hidden = true;
  const info = state.info;
  ui.title.textContent = info.practice
    ? say("practiceTitle", "Practice table {id} · stake {stake}", { id: info.id, stake: info.stake })
    : say("title", "Table {id} · stake {stake}", { id: info.id, stake: info.stake });
  if (state.table) ui.title.textContent += " · " + say("round", "round {number}", { number: state.table.round });
  document.body.dataset.version = String(info.version);
  document.body.dataset.status = info.status;
  if (state.table) {
    drawTable(ui.table, state.table, say);
    ui.table.hidden = false;
  } else {
    ui.table.replaceChildren();
    ui.table.hidden = true;
  }
  ui.lobby.hidden = info.status !== "lobby";
  ui.lobby.textContent = info.status === "lobby"
    ? say("lobby", "Lobby: {names}. The game starts when the host clicks Start in Discord.", { names: info.lobby.join(", ") })
    : "";
  // a tournament table's game is its one round: the tournament is not over with it
  if (info.over && info.tournament) ui.turn.textContent = say("tournamentOver", "This table's round is over: its stacks went back to the tournament.");
  else if (info.over) ui.turn.textContent = say("over", "Game over.");
  else if (info.status === "closed") ui.turn.textContent = say("closed", "This table has closed.");
  else if (state.you && state.you.canAct) ui.turn.textContent = say("yourTurn", "Your turn.");
  else ui.turn.textContent = info.toAct ? say("toActLine", "{name} to act.", { name: info.toAct }) : "";
  ui.log.replaceChildren();
  for (const line of info.moves) {
    const li = document.createElement("li");
    li.textContent = plain(line);
    ui.log.append(li);
  }
  drawHand();
  tick();
  const nowMine = Boolean(state.you && state.you.canAct);
  if (nowMine && !myTurn) {
    // your turn: your hand and its moves come into view (on a phone they sit below the table)
    const box = ui.mine.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) ui.mine.scrollIntoView({ block: "nearest" });
  }
  myTurn = nowMine;
}

/** The turn's countdown, on the server's clock (its offset from this one kept at each state). */
function tick() {
  const info = state && state.info;
  const at = info && (info.deadline ?? info.nextRound);
  if (!info || at === null || at === undefined || info.status !== "playing") {
    ui.clock.textContent = "";
    return;
  }
  const now = info.now + (Date.now() / 1000 - receivedAt);
  const left = Math.max(0, Math.round(at - now));
  ui.clock.textContent = info.deadline !== null
    ? say("clock", "⏱ {seconds} s", { seconds: left })
    : say("nextRound", "next round in {seconds} s", { seconds: left });
  ui.clock.classList.toggle("low", left <= 10);
}

ui.draw.addEventListener("click", () => send("stock", null));
ui.take.addEventListener("click", () => send("take", null));
ui.drop.addEventListener("click", () => send("drop", null));
ui.back.addEventListener("click", () => send("back", null));
ui.discard.addEventListener("click", () => {
  const picked = chosen();
  if (picked.length === 1) send("discard", picked[0]);
});
setInterval(tick, 1000);

/**
 * The page as a Discord Activity: the Embedded App SDK's OAuth2 code, traded by the bot itself for
 * who this is and where the Activity runs (the page sends no id of its own). `?mock=1` (the
 * playground) uses the SDK's own mock, whose `authorize` answers with the code in `mock_code`.
 * @param {URLSearchParams} params
 * @returns {Promise<string | null>}
 */
async function activitySignIn(params) {
  const config = /** @type {{activity: string | null}} */ (await (await fetch("/live/api/config")).json());
  if (!config.activity) {
    fail("This bot has no Activity set up (docs/ACTIVITY.md).");
    return null;
  }
  const sdkModule = await import("../vendor/discord-sdk.js");
  /** @type {{ready(): Promise<void>, instanceId: string,
   *   commands: {authorize(args: object): Promise<{code: string}>}}} */
  let sdk;
  if (params.get("mock")) {
    const mock = new sdkModule.DiscordSDKMock(config.activity, null, null, null);
    mock.instanceId = params.get("instance_id") || "";
    const code = params.get("mock_code") || "";
    mock._updateCommandMocks({ authorize: async () => ({ code }) });
    sdk = mock;
  } else {
    sdk = new sdkModule.DiscordSDK(config.activity);
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.activity,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const reply = await fetch("/live/api/activity", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance: sdk.instanceId }),
  });
  const body = /** @type {{session?: string, error?: string}} */ (await reply.json());
  if (!reply.ok || !body.session) {
    fail(body.error || "Discord did not sign you in.");
    ui.who.textContent = "Not signed in";
    return null;
  }
  sessionStorage.setItem(SESSION, body.session);
  return body.session;
}

async function main() {
  const params = new URLSearchParams(location.search);
  const inActivity = Boolean(params.get("instance_id") && params.get("frame_id"));
  const session = inActivity ? await activitySignIn(params) : await signIn();
  if (!session) {
    ui.signin.hidden = false;
    if (ui.error.hidden) ui.who.textContent = "Not signed in";
    return;
  }
  connect(session);
}

main().catch((e) => fail(String(e)));
