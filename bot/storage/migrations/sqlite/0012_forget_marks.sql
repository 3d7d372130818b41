-- 12: a forget can't be used to mint chips. Forgetting a member keeps, for 30 days, a one-way mark
-- of their id (HMAC-SHA256 under this database's own random key, never the id) and the end of the
-- forget's UTC day (forgotten_at; not the time): an account opened again within those days starts
-- with no chips, its first daily a day after that (bot/forget_marks.py). Older marks are deleted
-- at the next forget.
CREATE TABLE forget_key (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL
);
CREATE TABLE forget_marks (
    mark         TEXT PRIMARY KEY,
    forgotten_at REAL NOT NULL
);
