-- 9: servers whose first Flip Flop table has been opened (and welcomed, once: bot/first_game.py).
-- One row per server, no member data: the welcome is said under a server's first lobby only.
CREATE TABLE server_welcomes (
    guild_id    BIGINT PRIMARY KEY,
    welcomed_at DOUBLE PRECISION NOT NULL
);
-- Servers that already played have met the bot: no welcome under their next lobby.
INSERT INTO server_welcomes (guild_id, welcomed_at)
    SELECT guild_id, MIN(updated_at) FROM tables GROUP BY guild_id;
