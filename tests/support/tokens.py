"""A bot token of the right shape for tests (it opens nothing: no Discord is reached with it)."""

APPLICATION_ID = 1234567890123456789
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GxYzAb.abcdefghijklmnopqrstuvwxyz0123456789ABCD"
"""Its first part is the application id, as in a real token."""
