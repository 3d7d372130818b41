-- 5: forgetting a member on request (bot.privacy, docs/PRIVACY.md)
-- The one exception to the append-only tables: replacing a member's Discord id by a pseudonym.
-- bot.privacy writes a permit (the id and its pseudonym) at the start of its transaction and
-- deletes it before committing, so outside that transaction the table is always empty and every
-- UPDATE of an append-only row is refused as before. With a permit, an UPDATE is let through only
-- when it changes nothing but the member's id into that pseudonym (and, in rounds, the texts that
-- mention it). DELETE and TRUNCATE stay refused always.
CREATE TABLE forget_permits (
    user_id   BIGINT PRIMARY KEY,
    pseudonym BIGINT NOT NULL UNIQUE
);
-- Each member forgotten: when, on whose request, how many rows were rewritten (never the old id).
CREATE TABLE privacy_requests (
    id           BIGSERIAL PRIMARY KEY,
    pseudonym    BIGINT NOT NULL,
    requested_by TEXT NOT NULL CHECK (requested_by IN ('member', 'operator')),
    rows_changed BIGINT NOT NULL CHECK (rows_changed >= 0),
    created_at   DOUBLE PRECISION NOT NULL
);
CREATE TRIGGER privacy_requests_are_append_only BEFORE UPDATE OR DELETE ON privacy_requests
    FOR EACH ROW EXECUTE FUNCTION refuse_change('privacy requests');
CREATE TRIGGER privacy_requests_are_append_only_truncate BEFORE TRUNCATE ON privacy_requests
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('privacy requests');

-- Whether a column may go from old to new: unchanged, or a permit's id into its pseudonym (the
-- text form serves a seat id). Called from the triggers' WHEN, so a row that passes costs no plpgsql.
CREATE FUNCTION forget_permitted(old_id BIGINT, new_id BIGINT) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT old_id IS NOT DISTINCT FROM new_id
        OR EXISTS (SELECT 1 FROM forget_permits p WHERE p.user_id = old_id AND p.pseudonym = new_id)
$$;
CREATE FUNCTION forget_permitted_text(old_id TEXT, new_id TEXT) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT old_id IS NOT DISTINCT FROM new_id
        OR EXISTS (SELECT 1 FROM forget_permits p WHERE p.user_id::text = old_id AND p.pseudonym::text = new_id)
$$;
CREATE FUNCTION forgetting() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM forget_permits)
$$;

DROP TRIGGER ledger_is_append_only ON ledger;
CREATE TRIGGER ledger_is_append_only BEFORE DELETE ON ledger
    FOR EACH ROW EXECUTE FUNCTION refuse_change('the ledger');
CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger FOR EACH ROW
    WHEN (NOT (
        (NEW.id, NEW.guild_id, NEW.change, NEW.balance_after, NEW.reason, NEW.reference, NEW.created_at)
            IS NOT DISTINCT FROM
        (OLD.id, OLD.guild_id, OLD.change, OLD.balance_after, OLD.reason, OLD.reference, OLD.created_at)
        AND (NEW.user_id = OLD.user_id OR forget_permitted(OLD.user_id, NEW.user_id))
        AND (NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id OR forget_permitted(OLD.actor_id, NEW.actor_id))
    ))
    EXECUTE FUNCTION refuse_change('the ledger');

DROP TRIGGER rounds_are_append_only ON rounds;
CREATE TRIGGER rounds_are_append_only BEFORE DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION refuse_change('rounds');
CREATE TRIGGER rounds_are_append_only_u BEFORE UPDATE ON rounds FOR EACH ROW
    WHEN (NOT (
        (NEW.id, NEW.guild_id, NEW.table_id, NEW.number, NEW.ended_at)
            IS NOT DISTINCT FROM (OLD.id, OLD.guild_id, OLD.table_id, OLD.number, OLD.ended_at)
        AND forgetting()
    ))
    EXECUTE FUNCTION refuse_change('rounds');

DROP TRIGGER round_players_are_append_only ON round_players;
CREATE TRIGGER round_players_are_append_only BEFORE DELETE ON round_players
    FOR EACH ROW EXECUTE FUNCTION refuse_change('round players');
CREATE TRIGGER round_players_are_append_only_u BEFORE UPDATE ON round_players FOR EACH ROW
    WHEN (NOT (
        (NEW.round_id, NEW.guild_id) IS NOT DISTINCT FROM (OLD.round_id, OLD.guild_id)
        AND NEW.user_id IS DISTINCT FROM OLD.user_id AND forget_permitted(OLD.user_id, NEW.user_id)
    ))
    EXECUTE FUNCTION refuse_change('round players');

DROP TRIGGER round_seats_are_append_only ON round_seats;
CREATE TRIGGER round_seats_are_append_only BEFORE DELETE ON round_seats
    FOR EACH ROW EXECUTE FUNCTION refuse_change('round seats');
CREATE TRIGGER round_seats_are_append_only_u BEFORE UPDATE ON round_seats FOR EACH ROW
    WHEN (NOT (
        (NEW.guild_id, NEW.round_id, NEW.opening, NEW.net, NEW.won_game, NEW.won_flip, NEW.won_flop,
         NEW.best_pot, NEW.way, NEW.dropped, NEW.caught)
            IS NOT DISTINCT FROM
        (OLD.guild_id, OLD.round_id, OLD.opening, OLD.net, OLD.won_game, OLD.won_flip, OLD.won_flop,
         OLD.best_pot, OLD.way, OLD.dropped, OLD.caught)
        AND (NEW.user_id = OLD.user_id OR forget_permitted(OLD.user_id, NEW.user_id))
        AND (NEW.seat = OLD.seat OR forget_permitted_text(OLD.seat, NEW.seat))
    ))
    EXECUTE FUNCTION refuse_change('round seats');
-- Who opened a table and when: the first ledger entry that names it (/flipflop admin tables).
CREATE INDEX ledger_by_reference ON ledger (reference);
