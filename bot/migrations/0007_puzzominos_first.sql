-- Puzz-Ominos games stored before the engine flipped the coin for who plays Red: in them the
-- first seat was Red and started. The option first=seat0 keeps them replaying as they were.
UPDATE games SET options = json_set(options, '$.first', 'seat0')
    WHERE game = 'puzzominos' AND json_extract(options, '$.first') IS NULL;
