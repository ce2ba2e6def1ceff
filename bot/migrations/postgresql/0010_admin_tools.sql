-- What the bot remembers about itself: the hash of the slash commands it last synced (per
-- application and scope), so that a start syncs only when they changed.
CREATE TABLE bot_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);

-- Server admins' tools (see ../0010_admin_tools.sql).
ALTER TABLE guild_settings ADD COLUMN turn_hours INTEGER;

CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    number     INTEGER NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    ended_at   DOUBLE PRECISION,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE season_ratings (
    guild_id    BIGINT  NOT NULL,
    season      INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    display     DOUBLE PRECISION NOT NULL,
    rated_games INTEGER NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id)
);
CREATE INDEX season_ratings_leaderboard ON season_ratings (guild_id, season, game, display DESC);

CREATE TABLE admin_log (
    guild_id   BIGINT  NOT NULL,
    number     INTEGER NOT NULL,
    user_id    BIGINT  NOT NULL,
    action     TEXT    NOT NULL,
    details    JSONB   NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    undone_at  DOUBLE PRECISION,
    PRIMARY KEY (guild_id, number)
);
