-- Games where every player has a table of their own (solitaire): a channel holds one active
-- game per kind and table key; the key is 0 for shared tables (as before) and the host's id
-- for one-player tables.
ALTER TABLE games ADD COLUMN table_key INTEGER NOT NULL DEFAULT 0;
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_table
    ON games (channel_id, game, table_key) WHERE status IN ('lobby', 'playing');
