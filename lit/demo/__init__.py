"""`lit demo`: LIT end to end with no grammar installed, on recorded ACE answers (replayed)."""
