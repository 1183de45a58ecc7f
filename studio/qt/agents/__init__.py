"""The studio's agents feature: its views."""
