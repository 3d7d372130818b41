-- 16: /flipflop stats' net chips (bot.history.queries.TABLE_NET) is read from the server's open
-- tables instead of from the table of each of the member's rounds: the open tables' rounds, and the
-- member's table entries in the ledger less the open tables'. A partial index finds a server's open
-- tables (a handful) without reading its closed ones; a covering index sums a member's table entries
-- from index pages, not from the ledger's rows. Migration 15's indexes served only the old look-up
-- of every round's table and its status: nothing reads them now. The busiest members' stats no
-- longer grow with their rounds (bench/history_bench.py).
CREATE INDEX tables_open_by_guild ON tables (guild_id) WHERE status != 'closed';
CREATE INDEX ledger_at_tables ON ledger (guild_id, user_id, reason, reference, change);
DROP INDEX rounds_with_table;
DROP INDEX tables_with_status;
