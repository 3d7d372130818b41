-- 2: one append-only row per finished round (its transcript), and who played it
CREATE TABLE rounds (
    id         BIGSERIAL PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    table_id   TEXT NOT NULL,
    number     BIGINT NOT NULL,
    ended_at   DOUBLE PRECISION NOT NULL,
    transcript TEXT NOT NULL,
    result     TEXT NOT NULL
);
CREATE TABLE round_players (
    round_id BIGINT NOT NULL REFERENCES rounds (id),
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    PRIMARY KEY (round_id, user_id)
);
CREATE INDEX rounds_by_guild ON rounds (guild_id, id);
CREATE INDEX round_players_by_member ON round_players (guild_id, user_id, round_id);
CREATE TRIGGER rounds_are_append_only BEFORE UPDATE OR DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION refuse_change('rounds');
CREATE TRIGGER rounds_are_append_only_truncate BEFORE TRUNCATE ON rounds
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('rounds');
CREATE TRIGGER round_players_are_append_only BEFORE UPDATE OR DELETE ON round_players
    FOR EACH ROW EXECUTE FUNCTION refuse_change('round players');
CREATE TRIGGER round_players_are_append_only_truncate BEFORE TRUNCATE ON round_players
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change('round players');
