-- 17: tournament tables' rounds, for the chip-dumping report only (bot.dumping, /flipflop admin dumping).
-- A tournament table's chips are tournament chips, not server chips, so its rounds stay out of rounds
-- and round_seats (history, stats, seasons, leaderboards, ratings, replays). But a member can drop to
-- a friend there, to push the friend towards a prize of server chips: each seat dealt into a tournament
-- table's finished round is kept here with what the report reads (its net in tournament chips, the
-- game pot won, whether it dropped and was caught), written in the transaction that saves the table
-- (bot.history.record_tournament_round). Computers are their level's member (below 1), as in
-- round_seats. table_id is the table dealt for that one round (bot.table.transitions.tournament_table_id);
-- round_number the tournament's round (from 1). An entrant sits at one table in a round, so
-- (tournament, round, seat) is one row.
CREATE TABLE tournament_round_seats (
    tournament_id TEXT NOT NULL REFERENCES tournaments (tournament_id),
    round_number  BIGINT NOT NULL CHECK (round_number >= 1),
    seat          TEXT NOT NULL,
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    table_id      TEXT NOT NULL,
    ended_at      DOUBLE PRECISION NOT NULL,
    net           BIGINT NOT NULL,
    won_game      BIGINT CHECK (won_game >= 0),
    caught        SMALLINT NOT NULL CHECK (caught IN (0, 1)),
    PRIMARY KEY (tournament_id, round_number, seat)
);
-- The report's latest rounds of a server, newest first (bot.history.queries.played_rounds).
CREATE INDEX tournament_round_seats_by_time ON tournament_round_seats (guild_id, ended_at, table_id, seat);
-- Export and forget find a member's rows (bot.privacy).
CREATE INDEX tournament_round_seats_by_member ON tournament_round_seats (user_id);
-- Append-only like round_seats: no DELETE or TRUNCATE, and no UPDATE but bot.privacy's rewrite of a
-- member's id (and their seat, the same id as text) into its pseudonym while its permit exists.
CREATE TRIGGER tournament_round_seats_are_append_only BEFORE DELETE ON tournament_round_seats
    FOR EACH ROW EXECUTE FUNCTION refuse_change('tournament round seats');
CREATE TRIGGER tournament_round_seats_are_append_only_u BEFORE UPDATE ON tournament_round_seats FOR EACH ROW
    WHEN (NOT (
        (NEW.tournament_id, NEW.round_number, NEW.guild_id, NEW.table_id, NEW.ended_at, NEW.net,
         NEW.won_game, NEW.caught)
            IS NOT DISTINCT FROM
        (OLD.tournament_id, OLD.round_number, OLD.guild_id, OLD.table_id, OLD.ended_at, OLD.net,
         OLD.won_game, OLD.caught)
        AND (NEW.user_id = OLD.user_id OR forget_permitted(OLD.user_id, NEW.user_id))
        AND (NEW.seat = OLD.seat OR forget_permitted_text(OLD.seat, NEW.seat))
    ))
    EXECUTE FUNCTION refuse_change('tournament round seats');
CREATE TRIGGER tournament_round_seats_are_append_only_truncate BEFORE TRUNCATE ON tournament_round_seats
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('tournament round seats');
