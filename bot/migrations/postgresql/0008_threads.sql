-- Each game may play in its own thread (see ../0008_threads.sql).
ALTER TABLE games ADD COLUMN thread_id BIGINT;
DROP INDEX games_one_active_per_table;
CREATE UNIQUE INDEX games_one_open_table
    ON games (channel_id, game, table_key) WHERE status IN ('lobby', 'playing') AND thread_id IS NULL;
CREATE UNIQUE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE guild_settings (
    guild_id  BIGINT PRIMARY KEY,
    threads   INTEGER NOT NULL DEFAULT 1
);
