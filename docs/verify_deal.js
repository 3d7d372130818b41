#!/usr/bin/env node
// Check a Flip Flop deal in JavaScript (Node 18+), written from docs/FAIRNESS.md alone.
//   node verify_deal.js SERVER_SEED_HEX COMMITMENT_HEX CLIENT_SEED ROUND ["AC 2C ... dealt deck" [SEATS]]
// Prints whether the commitment matches, the deck in dealing order and, if given, whether the
// dealt deck is that one; with SEATS (a first round: how many sat) also the first dealer's seat.
// Give "" as the deck to ask only for the dealer. Exit status: 0 all good, 1 a mismatch, 2 malformed input.
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

function firstDealer(seed, clientSeed, round, seats) {
  const limit = 2 ** 32 - (2 ** 32 % seats);
  for (let counter = 0; ; counter++) {
    const block = crypto.createHmac("sha256", seed).update(`${clientSeed}:${round}:dealer:${counter}`, "utf8").digest();
    for (let offset = 0; offset < 32; offset += 4) {
      const x = block.readUInt32BE(offset);
      if (x < limit) return x % seats;
    }
  }
}

function main(argv) {
  const [seedHex, commitmentHex, clientSeed, roundText, dealt, seatsText] = argv;
  const round = Number(roundText);
  const seats = seatsText === undefined ? undefined : Number(seatsText);
  if (seats !== undefined && (!Number.isInteger(seats) || seats < 1 || seats > 52)) {
    console.error("malformed: the number of seats must be 1 or more");
    return 2;
  }
  if (!/^[0-9a-fA-F]{64}$/.test(seedHex || "") || !Number.isInteger(round) || round < 1 || clientSeed === undefined) {
    console.error("usage: node verify_deal.js SERVER_SEED_HEX COMMITMENT_HEX CLIENT_SEED ROUND [DECK] [SEATS]");
    return 2;
  }
  const commitment = (commitmentHex || "").trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(commitment)) {
    console.error("malformed: the commitment must be 64 hex digits");
    return 2;
  }
  const codes = dealt === undefined || dealt === "" ? null : dealt.toUpperCase().split(/[\s,]+/).filter(Boolean);
  if (codes !== null) {
    const cards = new Set([..."CDHS"].flatMap((suit) => [..."A23456789TJQK"].map((rank) => rank + suit)));
    const strange = codes.find((code) => !cards.has(code));
    if (strange !== undefined) {
      console.error(`malformed: '${strange}' is not a card code (write them like AC, TD, KS)`);
      return 2;
    }
    if (codes.length !== 52 || new Set(codes).size !== 52) {
      console.error(`malformed: a deck has 52 different cards; got ${codes.length}, ${new Set(codes).size} different`);
      return 2;
    }
  }
  const seed = Buffer.from(seedHex, "hex");
  let good = true;
  if (crypto.createHash("sha256").update(seed).digest("hex") === commitment) {
    console.log("commitment OK");
  } else {
    console.log("commitment WRONG: this seed was not the one committed to");
    good = false;
  }
  const deck = dealingOrder(seed, clientSeed, round);
  console.log("deck: " + deck.join(" "));
  if (codes !== null) {
    if (codes.join(" ") === deck.join(" ")) {
      console.log("dealt deck OK");
    } else {
      console.log("dealt deck WRONG: it is not the deck these seeds give");
      good = false;
    }
  }
  if (seats !== undefined) {
    console.log(`first dealer: seat ${firstDealer(seed, clientSeed, round, seats)} (seat 0 is the first player who joined)`);
  }
  return good ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
