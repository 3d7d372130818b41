-- 3: history, stats and ratings (every round kept, so it can be checked and replayed)
-- The seed revealed when a round ended (JSON), NULL for rounds dealt without one.
ALTER TABLE rounds ADD COLUMN reveal TEXT;
-- What each seat's round came to, derived from the round's transcript in the transaction that
-- recorded it (bot.history). One row per seat dealt in; a computer level may hold two seats.
-- Clustered by member so that a member's stats read one contiguous range.
-- won_* is NULL unless the seat won that pot (a pot may be won for 0 chips).
CREATE TABLE round_seats (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    seat     TEXT NOT NULL,
    opening  INTEGER NOT NULL CHECK (opening IN (0, 1)),
    net      INTEGER NOT NULL,
    won_game INTEGER CHECK (won_game >= 0),
    won_flip INTEGER CHECK (won_flip >= 0),
    won_flop INTEGER CHECK (won_flop >= 0),
    best_pot INTEGER CHECK (best_pot >= 0),
    way      TEXT CHECK (way IN ('out', 'tonk', 'drop', 'caught', 'stock', 'fifty', 'forty_nine')),
    dropped  INTEGER NOT NULL CHECK (dropped IN (0, 1)),
    caught   INTEGER NOT NULL CHECK (caught IN (0, 1)),
    PRIMARY KEY (guild_id, user_id, round_id, seat)
) WITHOUT ROWID;
CREATE UNIQUE INDEX round_seats_by_round ON round_seats (round_id, seat);
CREATE TRIGGER round_seats_are_append_only_u BEFORE UPDATE ON round_seats
    BEGIN SELECT RAISE(ABORT, 'round seats are append-only'); END;
CREATE TRIGGER round_seats_are_append_only_d BEFORE DELETE ON round_seats
    BEGIN SELECT RAISE(ABORT, 'round seats are append-only'); END;
-- One OpenSkill rating per (server, member); computers have fixed negative pseudo ids.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL CHECK (sigma > 0),
    ordinal    REAL NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX ratings_by_ordinal ON ratings (guild_id, ordinal DESC, user_id);
