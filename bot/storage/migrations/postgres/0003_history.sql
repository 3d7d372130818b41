-- 3: history, stats and ratings (every round kept, so it can be checked and replayed)
-- The seed revealed when a round ended (JSON), NULL for rounds dealt without one.
ALTER TABLE rounds ADD COLUMN reveal TEXT;
-- What each seat's round came to, derived from the round's transcript in the transaction that
-- recorded it (bot.history). One row per seat dealt in; a computer level may hold two seats.
-- The member index carries every column stats reads, so stats is an index-only scan.
-- won_* is NULL unless the seat won that pot (a pot may be won for 0 chips).
CREATE TABLE round_seats (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    round_id BIGINT NOT NULL REFERENCES rounds (id),
    seat     TEXT NOT NULL,
    opening  SMALLINT NOT NULL CHECK (opening IN (0, 1)),
    net      BIGINT NOT NULL,
    won_game BIGINT CHECK (won_game >= 0),
    won_flip BIGINT CHECK (won_flip >= 0),
    won_flop BIGINT CHECK (won_flop >= 0),
    best_pot BIGINT CHECK (best_pot >= 0),
    way      TEXT CHECK (way IN ('out', 'tonk', 'drop', 'caught', 'stock', 'fifty', 'forty_nine')),
    dropped  SMALLINT NOT NULL CHECK (dropped IN (0, 1)),
    caught   SMALLINT NOT NULL CHECK (caught IN (0, 1)),
    PRIMARY KEY (round_id, seat)
);
CREATE INDEX round_seats_by_member ON round_seats (guild_id, user_id, round_id)
    INCLUDE (opening, net, won_game, won_flip, won_flop, best_pot, way, dropped, caught);
CREATE TRIGGER round_seats_are_append_only BEFORE UPDATE OR DELETE ON round_seats
    FOR EACH ROW EXECUTE FUNCTION refuse_change('round seats');
CREATE TRIGGER round_seats_are_append_only_truncate BEFORE TRUNCATE ON round_seats
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('round seats');
-- One OpenSkill rating per (server, member); computers have fixed negative pseudo ids.
CREATE TABLE ratings (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    ordinal    DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL CHECK (games >= 0),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX ratings_by_ordinal ON ratings (guild_id, ordinal DESC, user_id);
