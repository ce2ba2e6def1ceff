-- What the bot remembers about itself: the hash of the slash commands it last synced (per
-- application and scope), so that a start syncs only when they changed.
CREATE TABLE bot_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
