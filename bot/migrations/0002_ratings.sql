-- Ratings per game and scope (a guild id, or 0 for global) and indexes for the leaderboards.
CREATE TABLE ratings (
    scope_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    display    REAL    NOT NULL,             -- mu - 3 sigma, kept for ordering
    rated_games INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (scope_id, game, user_id)
);
CREATE INDEX ratings_leaderboard ON ratings (scope_id, game, display DESC);

-- Leaderboards by wins and games count people's results per game, per guild or globally.
CREATE INDEX results_leaderboard_guild ON results (game, guild_id, user_id, won);
CREATE INDEX results_leaderboard_global ON results (game, user_id, won);

-- When play began (solve times for solitaire, durations in history).
ALTER TABLE games ADD COLUMN started_at REAL;
