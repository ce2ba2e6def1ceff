-- Tile Up!'s safety end changed: games stored before keep the old rule (idle_rounds = 3); see
-- ../0004_tileup_safety_end.sql.
UPDATE games SET options = jsonb_set(options, '{idle_rounds}', '3')
WHERE game = 'tileup' AND status <> 'lobby' AND options -> 'idle_rounds' IS NULL;
