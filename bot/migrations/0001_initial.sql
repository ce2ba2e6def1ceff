-- Games, seats, moves, results, user settings.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    game          TEXT    NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    host_id       INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'aborted')),
    options       TEXT    NOT NULL,          -- JSON object
    seed          INTEGER NOT NULL,
    deal          TEXT,                      -- JSON, null when the seed deals
    turn_seconds  INTEGER NOT NULL DEFAULT 0, -- the session's own clock; 0 = no limit
    ply           INTEGER NOT NULL DEFAULT 0, -- number of record lines played
    snapshot      TEXT,                      -- JSON: scores, seat to act, after the last ply
    deadline      REAL,                      -- unix time the seat to act runs out of time
    reminder_at   REAL,                      -- unix time of the pending reminder
    outcome       TEXT,                      -- JSON outcome once finished
    message_id    INTEGER,                   -- the last board message posted
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    finished_at   REAL
);
CREATE UNIQUE INDEX games_one_active_per_channel
    ON games (channel_id, game) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_guild_finished ON games (guild_id, game, finished_at);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER,                       -- null for a computer player
    name      TEXT    NOT NULL,
    ai_level  TEXT,                          -- null for a person
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,             -- 1-based record line
    seat       INTEGER NOT NULL,
    notation   TEXT    NOT NULL,             -- canonical notation, or !timeout / !resign
    user_id    INTEGER,                      -- who sent it (null for computers and the clock)
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE results (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,
    ai_level   TEXT,
    game       TEXT    NOT NULL,
    guild_id   INTEGER,
    rank       INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    forfeited  INTEGER NOT NULL DEFAULT 0,
    won        INTEGER NOT NULL DEFAULT 0,
    draw       INTEGER NOT NULL DEFAULT 0,
    finished_at REAL   NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_user ON results (user_id, game, finished_at);
CREATE INDEX results_by_guild ON results (guild_id, game, user_id);

CREATE TABLE user_settings (
    user_id       INTEGER PRIMARY KEY,
    dm_reminders  INTEGER NOT NULL DEFAULT 0
);
