"""Support package of workspace/shared_geometry/case.py: re-exports its helpers."""
from .clamp import clamp_norm
