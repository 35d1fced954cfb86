"""The replaying fake ACE for tests (see fake.py) and its pytest fixtures (fixtures.py)."""
