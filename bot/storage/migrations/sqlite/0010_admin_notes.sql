-- 10: why a manager granted or took chips (/chips grant and /chips take ask a reason), kept on the
-- ledger entry beside who did it (actor_id), and listed by /flipflop admin audit. Older entries
-- have none (NULL).
ALTER TABLE ledger ADD COLUMN note TEXT;
-- The append-only rule of 5, with the note among the columns no UPDATE may change (forgetting a
-- member rewrites ids only).
DROP TRIGGER ledger_is_append_only_u;
CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger
    WHEN NOT (
        NEW.id IS OLD.id AND NEW.guild_id IS OLD.guild_id AND NEW.change IS OLD.change
        AND NEW.balance_after IS OLD.balance_after AND NEW.reason IS OLD.reason
        AND NEW.reference IS OLD.reference AND NEW.created_at IS OLD.created_at
        AND NEW.note IS OLD.note
        AND (NEW.user_id IS OLD.user_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.user_id AND p.pseudonym = NEW.user_id))
        AND (NEW.actor_id IS OLD.actor_id OR EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id = OLD.actor_id AND p.pseudonym = NEW.actor_id))
    )
    BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
-- The audit reads a server's latest grants and takes.
CREATE INDEX ledger_by_reason ON ledger (guild_id, reason, id);
