"""The fuzz harness (``make fuzz``): see :mod:`fuzz.harness`."""
