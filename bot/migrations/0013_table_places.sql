-- Where a game's table is (issue 22): the lobby message it was opened with (a game's thread is
-- made from it, so the thread has that message's id, which finds a thread whose own write was
-- lost), and the room its boards go to when that is not its thread: its channel, where the game
-- plays without a thread or went on after its thread was deleted, locked or closed to the bot.
ALTER TABLE games ADD COLUMN lobby_message_id INTEGER;
ALTER TABLE games ADD COLUMN room_id INTEGER;
