"""The studio's search feature: its models, no Qt."""
