"""Pure rules engines for the Tilehost games (standard library only)."""
