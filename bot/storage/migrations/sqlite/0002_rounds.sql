-- 2: one append-only row per finished round (its transcript), and who played it
CREATE TABLE rounds (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    table_id   TEXT NOT NULL,
    number     INTEGER NOT NULL,
    ended_at   REAL NOT NULL,
    transcript TEXT NOT NULL,
    result     TEXT NOT NULL
);
CREATE TABLE round_players (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (round_id, user_id)
);
CREATE INDEX rounds_by_guild ON rounds (guild_id, id);
CREATE INDEX round_players_by_member ON round_players (guild_id, user_id, round_id);
CREATE TRIGGER rounds_are_append_only_u BEFORE UPDATE ON rounds
    BEGIN SELECT RAISE(ABORT, 'rounds are append-only'); END;
CREATE TRIGGER rounds_are_append_only_d BEFORE DELETE ON rounds
    BEGIN SELECT RAISE(ABORT, 'rounds are append-only'); END;
CREATE TRIGGER round_players_are_append_only_u BEFORE UPDATE ON round_players
    BEGIN SELECT RAISE(ABORT, 'round players are append-only'); END;
CREATE TRIGGER round_players_are_append_only_d BEFORE DELETE ON round_players
    BEGIN SELECT RAISE(ABORT, 'round players are append-only'); END;
