-- What the bot remembers about itself: the hash of the slash commands it last synced (per
-- application and scope), so that a start syncs only when they changed.
CREATE TABLE bot_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at REAL NOT NULL
);

-- Server admins' tools (issue 23): a server's own default turn clock (NULL: the bot's
-- TILEHOST_TURN_HOURS), leaderboard seasons, and the record of what admins did.
ALTER TABLE guild_settings ADD COLUMN turn_hours INTEGER;

-- A server's leaderboard seasons. No row: the server is in its first season, since the start.
-- A new season closes the current one (ended_at) and opens the next; a season's standings are
-- the results that finished in it, and the server's ratings as they were when it closed.
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL,
    started_at REAL    NOT NULL,             -- 0 for a server's first season
    ended_at   REAL,                         -- null for the current season
    PRIMARY KEY (guild_id, number)
);

-- The server's ratings when a season closed (the ratings table then starts afresh for it).
CREATE TABLE season_ratings (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    display     REAL    NOT NULL,
    rated_games INTEGER NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id)
);
CREATE INDEX season_ratings_leaderboard ON season_ratings (guild_id, season, game, display DESC);

-- What a server's admins did: numbered per server, with who, when, and what undoing it needs.
CREATE TABLE admin_log (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,             -- the admin
    action     TEXT    NOT NULL,             -- clock, threads, season, forget, undo
    details    TEXT    NOT NULL,             -- JSON: the change, and what undoing it restores
    created_at REAL    NOT NULL,
    undone_at  REAL,
    PRIMARY KEY (guild_id, number)
);
