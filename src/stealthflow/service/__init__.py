"""A small local HTTP service (FastAPI) over the protect/restore pipeline, bound to 127.0.0.1."""

from stealthflow.service.app import create_app

__all__ = ["create_app"]
