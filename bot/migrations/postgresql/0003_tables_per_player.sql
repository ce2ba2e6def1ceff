-- When play began, and one active game per kind and table key (see ../0003_tables_per_player.sql).
ALTER TABLE games ADD COLUMN started_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN table_key BIGINT NOT NULL DEFAULT 0;
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_table
    ON games (channel_id, game, table_key) WHERE status IN ('lobby', 'playing');
