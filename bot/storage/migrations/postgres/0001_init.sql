-- 1: accounts, the ledger, server settings, saved tables (Discord ids need BIGINT)
CREATE TABLE accounts (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    balance    BIGINT NOT NULL CHECK (balance >= 0),
    last_daily DOUBLE PRECISION,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE TABLE ledger (
    id            BIGSERIAL PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    change        BIGINT NOT NULL,
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    reason        TEXT NOT NULL,
    reference     TEXT,
    actor_id      BIGINT,
    created_at    DOUBLE PRECISION NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);
CREATE INDEX ledger_by_account ON ledger (guild_id, user_id);
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER ledger_is_append_only BEFORE UPDATE OR DELETE ON ledger
    FOR EACH ROW EXECUTE FUNCTION refuse_change('the ledger');
CREATE TRIGGER ledger_is_append_only_truncate BEFORE TRUNCATE ON ledger
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('the ledger');
CREATE TABLE guild_settings (
    guild_id         BIGINT PRIMARY KEY,
    starting_balance BIGINT NOT NULL,
    daily_amount     BIGINT NOT NULL,
    default_stake    BIGINT NOT NULL,
    default_buy_in   BIGINT NOT NULL,
    turn_seconds     BIGINT NOT NULL
);
CREATE TABLE tables (
    table_id   TEXT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    status     TEXT NOT NULL,
    chips      BIGINT NOT NULL CHECK (chips >= 0),
    refunds    TEXT NOT NULL,
    version    BIGINT NOT NULL,
    state      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX tables_open ON tables (status, guild_id);
