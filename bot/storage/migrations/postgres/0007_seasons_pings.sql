-- 7: seasons and turn pings
-- How many months a season lasts on this server: 1, 2, 3, 4, 6 or 12, counted from January (UTC).
ALTER TABLE guild_settings ADD COLUMN season_months BIGINT NOT NULL DEFAULT 1
    CHECK (season_months IN (1, 2, 3, 4, 6, 12));
-- A season's leaderboard finds the server's rounds of a time range by time, then reads their
-- seats as one range of (server, round id) with the columns it sums (an index-only read;
-- bot.history.queries.season_leaderboard).
CREATE INDEX rounds_by_time ON rounds (guild_id, ended_at, id);
CREATE INDEX round_seats_for_seasons ON round_seats (guild_id, round_id) INCLUDE (user_id, net, won_game);
-- What each finished game did to each rated member's rating (ordinal μ − 3σ before and after),
-- written with the ratings in the game's transaction. A rating depends on every game before it,
-- so a season's rating change can not be derived from its rounds alone; this keeps it.
CREATE TABLE rating_changes (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    rated_at  DOUBLE PRECISION NOT NULL,
    ordinal_before DOUBLE PRECISION NOT NULL,
    ordinal_after  DOUBLE PRECISION NOT NULL
);
CREATE INDEX rating_changes_by_time ON rating_changes (guild_id, rated_at) INCLUDE (user_id, ordinal_before, ordinal_after);
CREATE TRIGGER rating_changes_are_append_only BEFORE DELETE ON rating_changes
    FOR EACH ROW EXECUTE FUNCTION refuse_change('rating changes');
-- Like round_seats: no UPDATE but bot.privacy's rewrite of a member's id into its pseudonym.
CREATE TRIGGER rating_changes_are_append_only_u BEFORE UPDATE ON rating_changes FOR EACH ROW
    WHEN (NOT (
        (NEW.guild_id, NEW.rated_at, NEW.ordinal_before, NEW.ordinal_after)
            IS NOT DISTINCT FROM (OLD.guild_id, OLD.rated_at, OLD.ordinal_before, OLD.ordinal_after)
        AND (NEW.user_id = OLD.user_id OR forget_permitted(OLD.user_id, NEW.user_id))
    ))
    EXECUTE FUNCTION refuse_change('rating changes');
CREATE TRIGGER rating_changes_are_append_only_truncate BEFORE TRUNCATE ON rating_changes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('rating changes');
-- A member's choice of turn pings (/flipflop notify turn:), saved like the language choice:
-- no row means on.
CREATE TABLE notify_choices (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    turn_pings SMALLINT NOT NULL CHECK (turn_pings IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);
-- The turn ping standing in a table's channel (at most one per table), so that a restart still
-- removes it when the player acts.
CREATE TABLE turn_pings (
    table_id     TEXT PRIMARY KEY,
    channel_id   BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    round_number BIGINT NOT NULL,
    message_id   BIGINT NOT NULL
);
