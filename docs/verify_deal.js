#!/usr/bin/env node
// Check a Flip Flop deal in JavaScript (Node 18+), written from docs/FAIRNESS.md alone.
//   node verify_deal.js SERVER_SEED_HEX COMMITMENT_HEX CLIENT_SEED ROUND ["AC 2C ... dealt deck"]
// Prints whether the commitment matches, the deck in dealing order and, if given, whether the
// dealt deck is that one. Exit status: 0 all good, 1 a mismatch, 2 malformed input.
"use strict";
const crypto = require("node:crypto");

function dealingOrder(seed, clientSeed, round) {
  const deck = [];
  for (const suit of "CDHS") for (const rank of "A23456789TJQK") deck.push(rank + suit);
  let counter = 0;
  let block = Buffer.alloc(0);
  let offset = 0;
  const nextInteger = () => {
    if (offset === block.length) {
      block = crypto.createHmac("sha256", seed).update(`${clientSeed}:${round}:${counter}`, "utf8").digest();
      counter += 1;
      offset = 0;
    }
    const x = block.readUInt32BE(offset);
    offset += 4;
    return x;
  };
  for (let i = 51; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let x = nextInteger();
    while (x >= limit) x = nextInteger();
    const j = x % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function main(argv) {
  const [seedHex, commitmentHex, clientSeed, roundText, dealt] = argv;
  const round = Number(roundText);
  if (!/^[0-9a-fA-F]{64}$/.test(seedHex || "") || !Number.isInteger(round) || round < 1 || clientSeed === undefined) {
    console.error("usage: node verify_deal.js SERVER_SEED_HEX COMMITMENT_HEX CLIENT_SEED ROUND [DECK]");
    return 2;
  }
  const seed = Buffer.from(seedHex, "hex");
  let good = true;
  if (crypto.createHash("sha256").update(seed).digest("hex") === (commitmentHex || "").trim().toLowerCase()) {
    console.log("commitment OK");
  } else {
    console.log("commitment WRONG: this seed was not the one committed to");
    good = false;
  }
  const deck = dealingOrder(seed, clientSeed, round);
  console.log("deck: " + deck.join(" "));
  if (dealt !== undefined) {
    if (dealt.toUpperCase().split(/\s+/).filter(Boolean).join(" ") === deck.join(" ")) {
      console.log("dealt deck OK");
    } else {
      console.log("dealt deck WRONG: it is not the deck these seeds give");
      good = false;
    }
  }
  return good ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
