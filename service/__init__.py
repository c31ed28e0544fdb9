"""The HTTP API and the command line over the same library functions (``spec/openapi.yaml``)."""
