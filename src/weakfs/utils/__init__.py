"""Internal utilities shared by the test-suite and the estimators."""
