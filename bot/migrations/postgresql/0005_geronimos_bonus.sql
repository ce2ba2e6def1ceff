-- Geronimos bonus cards became a choice: games stored before keep drawing them at once; see
-- ../0005_geronimos_bonus.sql.
UPDATE games SET options = jsonb_set(options, '{bonus}', '"compulsory"')
WHERE game = 'geronimos' AND options -> 'bonus' IS NULL;
