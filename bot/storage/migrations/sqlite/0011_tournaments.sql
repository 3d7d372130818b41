-- 11: sit-and-go tournaments (bot/tournament). One row per tournament, saved whole as JSON like a
-- table; chips = the entry fees it holds (server chips, until refunded or paid out as prizes),
-- refunds = who paid them ({account: chips}), what a cancelled tournament gives back. Tournament
-- chips (the stacks) are not server chips: they live only in state.
CREATE TABLE tournaments (
    tournament_id TEXT PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    chips         INTEGER NOT NULL CHECK (chips >= 0),
    refunds       TEXT NOT NULL,
    version       INTEGER NOT NULL,
    state         TEXT NOT NULL,
    updated_at    REAL NOT NULL
);
-- One tournament at a time in a channel.
CREATE UNIQUE INDEX tournaments_one_per_channel ON tournaments (guild_id, channel_id)
    WHERE status IN ('open', 'running');
-- Each member's finish, for the history, the season's leaderboard and the ratings.
CREATE TABLE tournament_results (
    tournament_id TEXT NOT NULL REFERENCES tournaments (tournament_id),
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    prize         INTEGER NOT NULL CHECK (prize >= 0),
    entrants      INTEGER NOT NULL,
    ended_at      REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_results_by_member ON tournament_results (guild_id, user_id, ended_at);
