-- 8: where a server's games are played, and how long a seat may stay away
-- tables: 'thread' opens a public thread from the lobby message at Start (where the bot may);
-- 'channel' plays every game in its channel. away_rounds: rounds a member may spend away (the
-- computer playing their seat) before the seat is released and their stack goes home.
ALTER TABLE guild_settings ADD COLUMN tables TEXT NOT NULL DEFAULT 'thread'
    CHECK (tables IN ('thread', 'channel'));
ALTER TABLE guild_settings ADD COLUMN away_rounds BIGINT NOT NULL DEFAULT 3
    CHECK (away_rounds BETWEEN 1 AND 10);
