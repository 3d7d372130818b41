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

-- An UPDATE trigger's arguments: the table's name for the message, then 'id:<column>' for a column
-- that may go from a permit's id to its pseudonym (compared as text, so a seat id qualifies), and
-- 'text:<column>' for a column that may change while a permit exists. Any other change is refused.
CREATE FUNCTION refuse_change_unless_forgetting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    o jsonb := to_jsonb(OLD);
    n jsonb := to_jsonb(NEW);
    k text;
    how text;
BEGIN
    FOR k IN SELECT jsonb_object_keys(n) LOOP
        CONTINUE WHEN (o -> k) IS NOT DISTINCT FROM (n -> k);
        how := NULL;
        FOR i IN 1 .. TG_NARGS - 1 LOOP
            IF split_part(TG_ARGV[i], ':', 2) = k THEN
                how := split_part(TG_ARGV[i], ':', 1);
            END IF;
        END LOOP;
        CONTINUE WHEN how = 'id' AND EXISTS (
            SELECT 1 FROM forget_permits p WHERE p.user_id::text = o ->> k AND p.pseudonym::text = n ->> k);
        CONTINUE WHEN how = 'text' AND EXISTS (SELECT 1 FROM forget_permits);
        RAISE EXCEPTION '% is append-only', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation';
    END LOOP;
    RETURN NEW;
END;
$$;

DROP TRIGGER ledger_is_append_only ON ledger;
CREATE TRIGGER ledger_is_append_only BEFORE DELETE ON ledger
    FOR EACH ROW EXECUTE FUNCTION refuse_change('the ledger');
CREATE TRIGGER ledger_is_append_only_u BEFORE UPDATE ON ledger
    FOR EACH ROW EXECUTE FUNCTION refuse_change_unless_forgetting('the ledger', 'id:user_id', 'id:actor_id');

DROP TRIGGER rounds_are_append_only ON rounds;
CREATE TRIGGER rounds_are_append_only BEFORE DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION refuse_change('rounds');
CREATE TRIGGER rounds_are_append_only_u BEFORE UPDATE ON rounds
    FOR EACH ROW EXECUTE FUNCTION refuse_change_unless_forgetting(
        'rounds', 'text:transcript', 'text:result', 'text:reveal');

DROP TRIGGER round_players_are_append_only ON round_players;
CREATE TRIGGER round_players_are_append_only BEFORE DELETE ON round_players
    FOR EACH ROW EXECUTE FUNCTION refuse_change('round players');
CREATE TRIGGER round_players_are_append_only_u BEFORE UPDATE ON round_players
    FOR EACH ROW EXECUTE FUNCTION refuse_change_unless_forgetting('round players', 'id:user_id');

DROP TRIGGER round_seats_are_append_only ON round_seats;
CREATE TRIGGER round_seats_are_append_only BEFORE DELETE ON round_seats
    FOR EACH ROW EXECUTE FUNCTION refuse_change('round seats');
CREATE TRIGGER round_seats_are_append_only_u BEFORE UPDATE ON round_seats
    FOR EACH ROW EXECUTE FUNCTION refuse_change_unless_forgetting('round seats', 'id:user_id', 'id:seat');
-- Who opened a table and when: the first ledger entry that names it (/flipflop admin tables).
CREATE INDEX ledger_by_reference ON ledger (reference);
