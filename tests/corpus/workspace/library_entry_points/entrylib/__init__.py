"""Support package: its API re-exported from private modules, as libraries write it."""
from ._solver import solve
from .decoding import Decoder

__all__ = ["Decoder", "solve"]
