-- 4: languages (the saved choice of each server and member)
-- Who reads which language. A member's own choice (/flipflop language) is a row with their
-- user_id; the server's language (/flipflop config language:) is the row with user_id 0 (no
-- Discord id is 0). No row means: for a member, their Discord client's locale when it is one
-- of ours, else the server's; for a server, English.
CREATE TABLE language_choices (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    language TEXT NOT NULL CHECK (language IN ('en', 'fil', 'be', 'sw', 'ko', 'gu')),
    PRIMARY KEY (guild_id, user_id)
);
