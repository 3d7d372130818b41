-- 7: seasons and turn pings
-- How many months a season lasts on this server: 1, 2, 3, 4, 6 or 12, counted from January (UTC).
ALTER TABLE guild_settings ADD COLUMN season_months INTEGER NOT NULL DEFAULT 1
    CHECK (season_months IN (1, 2, 3, 4, 6, 12));
-- A season's leaderboard finds the server's rounds of a time range by time, then reads their
-- seats as one range of (server, round id) with the columns it sums (an index-only read;
-- bot.history.queries.season_leaderboard).
CREATE INDEX rounds_by_time ON rounds (guild_id, ended_at, id);
CREATE INDEX round_seats_for_seasons ON round_seats (guild_id, round_id, user_id, net, won_game);
-- What each finished game did to each rated member's rating (ordinal μ − 3σ before and after),
-- written with the ratings in the game's transaction. A rating depends on every game before it,
-- so a season's rating change can not be derived from its rounds alone; this keeps it.
CREATE TABLE rating_changes (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    rated_at  REAL NOT NULL,
    ordinal_before REAL NOT NULL,
    ordinal_after  REAL NOT NULL
);
CREATE INDEX rating_changes_by_time ON rating_changes (guild_id, rated_at, user_id, ordinal_before, ordinal_after);
-- Like round_seats: no UPDATE but bot.privacy's rewrite of a member's id into its pseudonym.
CREATE TRIGGER rating_changes_are_append_only_u BEFORE UPDATE ON rating_changes
    WHEN NOT (
        NEW.guild_id IS OLD.guild_id AND NEW.rated_at IS OLD.rated_at
        AND NEW.ordinal_before IS OLD.ordinal_before AND NEW.ordinal_after IS OLD.ordinal_after
        AND (NEW.user_id IS OLD.user_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.user_id AND p.pseudonym = NEW.user_id))
    )
    BEGIN SELECT RAISE(ABORT, 'rating changes are append-only'); END;
CREATE TRIGGER rating_changes_are_append_only_d BEFORE DELETE ON rating_changes
    BEGIN SELECT RAISE(ABORT, 'rating changes are append-only'); END;
-- A member's choice of turn pings (/flipflop notify turn:), saved like the language choice:
-- no row means on.
CREATE TABLE notify_choices (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    turn_pings INTEGER NOT NULL CHECK (turn_pings IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);
-- The turn ping standing in a table's channel (at most one per table), so that a restart still
-- removes it when the player acts.
CREATE TABLE turn_pings (
    table_id     TEXT PRIMARY KEY,
    channel_id   INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    round_number INTEGER NOT NULL,
    message_id   INTEGER NOT NULL
);
