-- Where a game's table is (see ../0013_table_places.sql).
ALTER TABLE games ADD COLUMN lobby_message_id BIGINT;
ALTER TABLE games ADD COLUMN room_id BIGINT;
