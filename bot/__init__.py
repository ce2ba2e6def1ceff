"""The Tilehost runtime: settings, storage, sessions, turn clock, the Discord client."""
