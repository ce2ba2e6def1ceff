-- Ratings per game and scope (a guild id, or 0 for global) and indexes for the leaderboards.
CREATE TABLE ratings (
    scope_id   BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    display    DOUBLE PRECISION NOT NULL,   -- mu - 3 sigma, kept for ordering
    rated_games INTEGER NOT NULL DEFAULT 0,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope_id, game, user_id)
);
CREATE INDEX ratings_leaderboard ON ratings (scope_id, game, display DESC);

CREATE INDEX results_leaderboard_guild ON results (game, guild_id, user_id, won);
CREATE INDEX results_leaderboard_global ON results (game, user_id, won);
