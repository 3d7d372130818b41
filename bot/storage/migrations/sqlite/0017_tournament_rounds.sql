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
    round_number  INTEGER NOT NULL CHECK (round_number >= 1),
    seat          TEXT NOT NULL,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    table_id      TEXT NOT NULL,
    ended_at      REAL NOT NULL,
    net           INTEGER NOT NULL,
    won_game      INTEGER CHECK (won_game >= 0),
    caught        INTEGER NOT NULL CHECK (caught IN (0, 1)),
    PRIMARY KEY (tournament_id, round_number, seat)
);
-- The report's latest rounds of a server, newest first (bot.history.queries.played_rounds).
CREATE INDEX tournament_round_seats_by_time ON tournament_round_seats (guild_id, ended_at, table_id, seat);
-- Export and forget find a member's rows (bot.privacy).
CREATE INDEX tournament_round_seats_by_member ON tournament_round_seats (user_id);
-- Append-only like round_seats: no DELETE, and no UPDATE but bot.privacy's rewrite of a member's id
-- (and their seat, the same id as text) into its pseudonym while its permit exists.
CREATE TRIGGER tournament_round_seats_are_append_only_u BEFORE UPDATE ON tournament_round_seats
    WHEN NOT (
        NEW.tournament_id IS OLD.tournament_id AND NEW.round_number IS OLD.round_number
        AND NEW.guild_id IS OLD.guild_id AND NEW.table_id IS OLD.table_id AND NEW.ended_at IS OLD.ended_at
        AND NEW.net IS OLD.net AND NEW.won_game IS OLD.won_game AND NEW.caught IS OLD.caught
        AND (NEW.user_id IS OLD.user_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.user_id AND p.pseudonym = NEW.user_id))
        AND (NEW.seat IS OLD.seat OR EXISTS (
            SELECT 1 FROM forget_permits p
            WHERE CAST(p.user_id AS TEXT) = OLD.seat AND CAST(p.pseudonym AS TEXT) = NEW.seat))
    )
    BEGIN SELECT RAISE(ABORT, 'tournament round seats are append-only'); END;
CREATE TRIGGER tournament_round_seats_are_append_only_d BEFORE DELETE ON tournament_round_seats
    BEGIN SELECT RAISE(ABORT, 'tournament round seats are append-only'); END;
