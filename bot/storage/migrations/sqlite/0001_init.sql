-- 1: accounts, the ledger, server settings, saved tables
CREATE TABLE accounts (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    balance    INTEGER NOT NULL CHECK (balance >= 0),
    last_daily REAL,
    created_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    change        INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    reason        TEXT NOT NULL,
    reference     TEXT,
    actor_id      INTEGER,
    created_at    REAL NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);
CREATE INDEX ledger_by_account ON ledger (guild_id, user_id);
CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER ledger_is_append_only_d BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TABLE guild_settings (
    guild_id         INTEGER PRIMARY KEY,
    starting_balance INTEGER NOT NULL,
    daily_amount     INTEGER NOT NULL,
    default_stake    INTEGER NOT NULL,
    default_buy_in   INTEGER NOT NULL,
    turn_seconds     INTEGER NOT NULL
);
CREATE TABLE tables (
    table_id   TEXT PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    status     TEXT NOT NULL,
    chips      INTEGER NOT NULL CHECK (chips >= 0),
    refunds    TEXT NOT NULL,
    version    INTEGER NOT NULL,
    state      TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX tables_open ON tables (status, guild_id);
