"""The studio's search feature: its views."""
