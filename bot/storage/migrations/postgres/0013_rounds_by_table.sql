-- 13: a table's rounds, read by /flipflop round (to name a seat no longer dealt in by the table's
-- earlier rounds) and by privacy export and forget (every round of a member's tables). Without it
-- both walked every round of the server.
CREATE INDEX rounds_by_table ON rounds (guild_id, table_id, id);
