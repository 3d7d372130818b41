-- 15: /flipflop stats' net chips (bot.history.queries.TABLE_NET) looks up, for each of a member's
-- rounds, its table and whether that table is closed. These two covering indexes answer both from
-- small index pages instead of the rounds' rows (each with its transcript) and the tables' rows
-- (each with its state): the busiest member's stats take about half as long
-- (bench/history_bench.py).
CREATE INDEX rounds_with_table ON rounds (id, table_id);
CREATE INDEX tables_with_status ON tables (table_id, status);
