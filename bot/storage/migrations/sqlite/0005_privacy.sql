-- 5: forgetting a member on request (bot.privacy, docs/PRIVACY.md)
-- The one exception to the append-only tables: replacing a member's Discord id by a pseudonym.
-- bot.privacy writes a permit (the id and its pseudonym) at the start of its transaction and
-- deletes it before committing, so outside that transaction the table is always empty and every
-- UPDATE of an append-only row is refused as before. With a permit, an UPDATE is let through only
-- when it changes nothing but the member's id into that pseudonym (and, in rounds, the texts that
-- mention it). DELETE stays refused always.
CREATE TABLE forget_permits (
    user_id   INTEGER PRIMARY KEY,
    pseudonym INTEGER NOT NULL UNIQUE
);
-- Each member forgotten: when, on whose request, how many rows were rewritten (never the old id).
CREATE TABLE privacy_requests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    pseudonym    INTEGER NOT NULL,
    requested_by TEXT NOT NULL CHECK (requested_by IN ('member', 'operator')),
    rows_changed INTEGER NOT NULL CHECK (rows_changed >= 0),
    created_at   REAL NOT NULL
);
CREATE TRIGGER privacy_requests_are_append_only_u BEFORE UPDATE ON privacy_requests
    BEGIN SELECT RAISE(ABORT, 'privacy requests are append-only'); END;
CREATE TRIGGER privacy_requests_are_append_only_d BEFORE DELETE ON privacy_requests
    BEGIN SELECT RAISE(ABORT, 'privacy requests are append-only'); END;

DROP TRIGGER ledger_is_append_only_u;
CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger
    WHEN NOT (
        NEW.id IS OLD.id AND NEW.guild_id IS OLD.guild_id AND NEW.change IS OLD.change
        AND NEW.balance_after IS OLD.balance_after AND NEW.reason IS OLD.reason
        AND NEW.reference IS OLD.reference AND NEW.created_at IS OLD.created_at
        AND (NEW.user_id IS OLD.user_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.user_id AND p.pseudonym = NEW.user_id))
        AND (NEW.actor_id IS OLD.actor_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.actor_id AND p.pseudonym = NEW.actor_id))
    )
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

DROP TRIGGER rounds_are_append_only_u;
CREATE TRIGGER rounds_are_append_only_u BEFORE UPDATE ON rounds
    WHEN NOT (
        NEW.id IS OLD.id AND NEW.guild_id IS OLD.guild_id AND NEW.table_id IS OLD.table_id
        AND NEW.number IS OLD.number AND NEW.ended_at IS OLD.ended_at
        AND EXISTS (SELECT 1 FROM forget_permits)
    )
    BEGIN SELECT RAISE(ABORT, 'rounds are append-only'); END;

DROP TRIGGER round_players_are_append_only_u;
CREATE TRIGGER round_players_are_append_only_u BEFORE UPDATE ON round_players
    WHEN NOT (
        NEW.round_id IS OLD.round_id AND NEW.guild_id IS OLD.guild_id
        AND EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.user_id AND p.pseudonym = NEW.user_id)
    )
    BEGIN SELECT RAISE(ABORT, 'round players are append-only'); END;

DROP TRIGGER round_seats_are_append_only_u;
CREATE TRIGGER round_seats_are_append_only_u BEFORE UPDATE ON round_seats
    WHEN NOT (
        NEW.guild_id IS OLD.guild_id AND NEW.round_id IS OLD.round_id AND NEW.opening IS OLD.opening
        AND NEW.net IS OLD.net AND NEW.won_game IS OLD.won_game AND NEW.won_flip IS OLD.won_flip
        AND NEW.won_flop IS OLD.won_flop AND NEW.best_pot IS OLD.best_pot AND NEW.way IS OLD.way
        AND NEW.dropped IS OLD.dropped AND NEW.caught IS OLD.caught
        AND (NEW.user_id IS OLD.user_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.user_id AND p.pseudonym = NEW.user_id))
        AND (NEW.seat IS OLD.seat OR EXISTS (
            SELECT 1 FROM forget_permits p
            WHERE CAST(p.user_id AS TEXT) = OLD.seat AND CAST(p.pseudonym AS TEXT) = NEW.seat))
    )
    BEGIN SELECT RAISE(ABORT, 'round seats are append-only'); END;
-- Who opened a table and when: the first ledger entry that names it (/flipflop admin tables).
CREATE INDEX ledger_by_reference ON ledger (reference);
