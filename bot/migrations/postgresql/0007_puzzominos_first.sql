-- Puzz-Ominos games stored before the engine flipped the coin for who plays Red keep the first
-- seat as Red; see ../0007_puzzominos_first.sql.
UPDATE games SET options = jsonb_set(options, '{first}', '"seat0"')
WHERE game = 'puzzominos' AND options -> 'first' IS NULL;
