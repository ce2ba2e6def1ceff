-- Rematches, the engine's reviews, the daily challenge (the PostgreSQL form of
-- ../0012_between_games.sql).
ALTER TABLE games ADD COLUMN rematch_of BIGINT REFERENCES games (id);
ALTER TABLE games ADD COLUMN seating JSONB;
CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of)
    WHERE rematch_of IS NOT NULL AND status <> 'aborted';

CREATE TABLE reviews (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    data        JSONB   NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE daily_attempts (
    day         TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    guild_id    BIGINT,
    channel_id  BIGINT  NOT NULL,
    target      TEXT    NOT NULL,
    game_id     BIGINT REFERENCES games (id),
    claimed_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (day, user_id)
);
CREATE UNIQUE INDEX daily_attempts_by_game ON daily_attempts (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX daily_attempts_by_guild ON daily_attempts (guild_id, day);
CREATE INDEX daily_attempts_by_user ON daily_attempts (user_id, day);
