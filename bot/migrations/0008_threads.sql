-- Each game may play in its own thread (made from its lobby message). A channel then holds one
-- open table (a lobby, or a game played in the channel itself) per kind and table key, and any
-- number of games played in their threads.
ALTER TABLE games ADD COLUMN thread_id INTEGER;
DROP INDEX games_one_active_per_table;
CREATE UNIQUE INDEX games_one_open_table
    ON games (channel_id, game, table_key) WHERE status IN ('lobby', 'playing') AND thread_id IS NULL;
CREATE UNIQUE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

-- Server settings: whether games play in threads (on unless a server turns it off).
CREATE TABLE guild_settings (
    guild_id  INTEGER PRIMARY KEY,
    threads   INTEGER NOT NULL DEFAULT 1
);
