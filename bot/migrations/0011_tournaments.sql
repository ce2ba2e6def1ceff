-- Tournaments (issue 26): a Swiss or round robin of one game, its entrants, rounds, tables
-- (each linked to its game) and the results the organiser changed, so a restart loses nothing.
-- Points and standings are computed from the tables' results; only the final ranks are kept.
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    organiser_id   INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    game           TEXT    NOT NULL,
    options        TEXT    NOT NULL,          -- JSON: the game's options
    format         TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin')),
    rounds         INTEGER NOT NULL,          -- round robin: 0 until the schedule is drawn
    table_size     INTEGER NOT NULL,
    turn_seconds   INTEGER NOT NULL,          -- each move's clock in the tournament's games
    round_seconds  INTEGER NOT NULL DEFAULT 0, -- a round's deadline after its start; 0 = none
    max_entrants   INTEGER NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'paused', 'finished', 'cancelled')),
    seed           INTEGER NOT NULL,
    closes_at      REAL,                      -- when sign-up closes (and the first round starts)
    round          INTEGER NOT NULL DEFAULT 0, -- the round under way, or the last played
    schedule       TEXT,                      -- JSON: a round robin's planned rounds
    message_id     INTEGER,                   -- the sign-up message
    created_at     REAL    NOT NULL,
    started_at     REAL,
    finished_at    REAL
);
CREATE INDEX tournaments_by_status ON tournaments (status);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, finished_at);

CREATE TABLE tournament_entrants (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number          INTEGER NOT NULL,         -- 1, 2, ... in sign-up order
    user_id         INTEGER,                  -- null for a computer entrant
    name            TEXT    NOT NULL,
    ai_level        TEXT,
    seed            INTEGER,                  -- the starting rank, drawn at the start
    withdrawn_round INTEGER,                  -- the round they withdrew in (null: playing)
    final_rank      INTEGER,                  -- kept when the tournament finishes
    final_points    REAL,
    joined_at       REAL    NOT NULL,
    PRIMARY KEY (tournament_id, number)
);
CREATE UNIQUE INDEX tournament_entrants_once
    ON tournament_entrants (tournament_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id);

CREATE TABLE tournament_rounds (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number         INTEGER NOT NULL,
    byes           TEXT    NOT NULL,          -- JSON list of entrant numbers
    started_at     REAL    NOT NULL,
    deadline       REAL,
    finished_at    REAL,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE tournament_tables (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL,
    number         INTEGER NOT NULL,          -- the table's number in its round
    seats          TEXT    NOT NULL,          -- JSON: entrant numbers in seat order
    game_id        INTEGER REFERENCES games (id),
    result         TEXT,                      -- JSON: ranks, scores, absent seats, how
    UNIQUE (tournament_id, round, number)
);
CREATE INDEX tournament_tables_by_game ON tournament_tables (game_id);

CREATE TABLE tournament_adjustments (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    table_id       INTEGER NOT NULL REFERENCES tournament_tables (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,          -- who changed it
    made_at        REAL    NOT NULL,
    reason         TEXT    NOT NULL,
    before         TEXT,                      -- JSON result before (null: none yet)
    after          TEXT    NOT NULL
);

-- The role (besides Manage Server) that may run tournaments in a server.
ALTER TABLE guild_settings ADD COLUMN tournament_role INTEGER;
