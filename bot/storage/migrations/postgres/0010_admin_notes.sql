-- 10: why a manager granted or took chips (/chips grant and /chips take ask a reason), kept on the
-- ledger entry beside who did it (actor_id), and listed by /flipflop admin audit. Older entries
-- have none (NULL).
ALTER TABLE ledger ADD COLUMN note TEXT;
-- The append-only rule of 5, with the note among the columns no UPDATE may change (forgetting a
-- member rewrites ids only).
DROP TRIGGER ledger_is_append_only_u ON ledger;
CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger FOR EACH ROW
    WHEN (NOT (
        (NEW.id, NEW.guild_id, NEW.change, NEW.balance_after, NEW.reason, NEW.reference, NEW.created_at,
         NEW.note)
            IS NOT DISTINCT FROM
        (OLD.id, OLD.guild_id, OLD.change, OLD.balance_after, OLD.reason, OLD.reference, OLD.created_at,
         OLD.note)
        AND (NEW.user_id = OLD.user_id OR forget_permitted(OLD.user_id, NEW.user_id))
        AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR forget_permitted(OLD.actor_id, NEW.actor_id))
    ))
    EXECUTE FUNCTION refuse_change('the ledger');
-- The audit reads a server's latest grants and takes.
CREATE INDEX ledger_by_reason ON ledger (guild_id, reason, id);
