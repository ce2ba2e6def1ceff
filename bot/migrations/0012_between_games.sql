-- Between games (issue 25): rematches, the engine's reviews, the daily solitaire challenge.

-- A rematch lobby names the game it follows and the order its seats are planned in (JSON: a list
-- of {user_id, name, ai_level}, the previous game's seats rotated by one). A game has one
-- rematch at a time: a rematch lobby called off frees the place for another.
ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
ALTER TABLE games ADD COLUMN seating TEXT;
CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of)
    WHERE rematch_of IS NOT NULL AND status <> 'aborted';

-- A finished game's review for one seat, kept so that asking again (or after a restart) costs
-- nothing. ``version`` is the review's format and engine: an older one is made again.
CREATE TABLE reviews (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    data        TEXT    NOT NULL,          -- JSON: the moves that lost most, the expected scores
    created_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- The daily challenge: one attempt per member per day (UTC), in any server. The attempt is
-- claimed first (game_id null while its private thread and game are being made), so that a
-- second command cannot start a second attempt. Results come from the game, its moves and its
-- result row.
CREATE TABLE daily_attempts (
    day         TEXT    NOT NULL,          -- YYYY-MM-DD, UTC
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,          -- where it was asked for: finishes are told there
    target      TEXT    NOT NULL,          -- the solitaire's target option
    game_id     INTEGER REFERENCES games (id),
    claimed_at  REAL    NOT NULL,
    PRIMARY KEY (day, user_id)
);
CREATE UNIQUE INDEX daily_attempts_by_game ON daily_attempts (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX daily_attempts_by_guild ON daily_attempts (guild_id, day);
CREATE INDEX daily_attempts_by_user ON daily_attempts (user_id, day);
