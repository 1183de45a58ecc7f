"""The studio's agents feature: its models, no Qt."""
