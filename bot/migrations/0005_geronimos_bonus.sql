-- Geronimos bonus cards became a choice (a player may draw each one, or stop). Games stored
-- before drew them at once: they keep that rule, so that their records replay the same.
UPDATE games SET options = json_set(options, '$.bonus', 'compulsory')
WHERE game = 'geronimos' AND json_extract(options, '$.bonus') IS NULL;
