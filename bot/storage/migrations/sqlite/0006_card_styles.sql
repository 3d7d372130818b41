-- 6: card styles
-- How each member and server sees cards: the bot's card faces in the classic or the
-- four-colour deck, or words (for screen readers). A member's own choice (/flipflop cards) is a
-- row with their user_id, used in their private messages; the server's (/flipflop config cards:)
-- is the row with user_id 0, used in public messages. No row means: a member sees the server's
-- style, a server the classic one.
CREATE TABLE card_styles (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    style    TEXT NOT NULL CHECK (style IN ('classic', 'four', 'text')),
    PRIMARY KEY (guild_id, user_id)
);
